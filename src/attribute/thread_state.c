#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "accumulate/intervals.h"
#include "attribute/callsite.h"
#include "attribute/requests.h"
#include "attribute/thread_state.h"
#include "context/config.h"
#include "context/threads.h"
#include "util/warnings.h"

__thread mpp_thread_t *mpp_tls_thread __attribute__((tls_model("initial-exec")));
_Atomic int mpp_collecting; /* read by every thread; relaxed loads are plain moves */
_Atomic int mpp_watch_on;
int mpp_paused;

_Atomic(mpp_call_check_fn) mpp_call_check_thread;
static _Atomic int general_forced; /* mpp_collect_general */

void mpp_collect_set(int on, int paused)
{
    mpp_paused = on && paused;
    int general = mpp_paused || !mpp_clock_uses_tsc || mpp_counters_split_on || mpp_union_tracking ||
                  mpp_callsite_always_dwarf || atomic_load(&mpp_watch_on) || atomic_load(&general_forced);
    if (!on)
        atomic_store(&general_forced, 0); /* for the run's end only */
    atomic_store(&mpp_collecting, !on ? MPP_COLLECT_OFF : general ? MPP_COLLECT_GENERAL : MPP_COLLECT_FAST);
}

void mpp_collect_general(void)
{
    atomic_store(&general_forced, 1);
    int fast = MPP_COLLECT_FAST;
    atomic_compare_exchange_strong(&mpp_collecting, &fast, MPP_COLLECT_GENERAL);
}

/* Threads are only ever prepended, and never freed: the hang watchdog
 * walks the list from the head it loads, while threads attach.  A thread
 * that ends leaves its state to the next thread that attaches (`idle`,
 * under registry_lock): its table with what it accumulated (cells are
 * merged by key over all tables at MPI_Finalize, so which thread's table
 * holds a call site does not matter), and every origin of its calls
 * still finds its cell there.  Memory is bounded by the threads alive at
 * once, not by the threads ever made. */
static mpp_thread_t *_Atomic all_threads;
static mpp_thread_t *idle;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t ending_key;
static pthread_once_t ending_once = PTHREAD_ONCE_INIT;

/* The thread ends (its thread-specific data is destroyed): its state goes
 * to the idle ones.  Never inside an MPI call: a thread ends from its
 * start routine or pthread_exit. */
static void (*_Atomic releases[8])(void);

void mpp_thread_at_end(void (*release)(void))
{
    for (size_t i = 0; i < sizeof releases / sizeof *releases; i++) {
        void (*expected)(void) = NULL;
        if (atomic_load(&releases[i]) == release || atomic_compare_exchange_strong(&releases[i], &expected, release))
            return;
    }
}

static void thread_ends(void *arg)
{
    mpp_thread_t *t = arg;
    for (size_t i = 0; i < sizeof releases / sizeof *releases; i++) {
        void (*release)(void) = atomic_load(&releases[i]);
        if (release)
            release();
    }
    if (mpp_tls_thread == t)
        mpp_tls_thread = NULL; /* an MPI call in a later destructor attaches again */
    pthread_mutex_lock(&registry_lock);
    t->idle_next = idle;
    idle = t;
    pthread_mutex_unlock(&registry_lock);
}

static void make_ending_key(void) { (void)pthread_key_create(&ending_key, thread_ends); }

mpp_thread_t *mpp_thread_attach(void)
{
    if (!mpp_collecting)
        return NULL;
    uintptr_t lo, hi;
    mpp_stack_bounds(&lo, &hi);
    return mpp_thread_attach_bounded(lo, hi);
}

mpp_thread_t *mpp_thread_attach_bounded(uintptr_t stack_lo, uintptr_t stack_hi)
{
    if (!mpp_collecting)
        return NULL;
    pthread_once(&ending_once, make_ending_key);
    pthread_mutex_lock(&registry_lock);
    mpp_thread_t *t = idle;
    if (t)
        idle = t->idle_next;
    pthread_mutex_unlock(&registry_lock);
    int fresh = !t;
    if (fresh) {
        static _Atomic int made; /* states made: a thread's index (MPI_Init's thread: 0) */
        t = calloc(1, sizeof *t);
        if (!t || mpp_table_init(&t->table, (size_t)mpp_config.number[MPP_CFG_MAX_SRC], mpp_callsite_depth()) != 0) {
            free(t);
            return NULL;
        }
        /* an ended thread's state goes on under its index: memory stays
         * bounded by the threads alive at once */
        t->table.thread = atomic_fetch_add(&made, 1);
    }
    /* (a thread taking an ended one's state keeps its calls counters: the
     * watchdog compares them with what it saw) */
    t->stack_lo = stack_lo;
    t->stack_hi = stack_hi;
    t->tid = (long)syscall(SYS_gettid);
    if (fresh) {
        pthread_mutex_lock(&registry_lock);
        t->next = atomic_load_explicit(&all_threads, memory_order_relaxed);
        atomic_store_explicit(&all_threads, t, memory_order_release);
        pthread_mutex_unlock(&registry_lock);
    }
    (void)pthread_setspecific(ending_key, t);
    mpp_tls_thread = t;
    mpp_threads_sample(1); /* once per thread: a read of /proc, off the call path */
    return t;
}

mpp_thread_t *mpp_threads(void) { return atomic_load_explicit(&all_threads, memory_order_acquire); }

/* The one category of the requests a wait/test/start completed or
 * handled, when they all have the same (the usual case: no division),
 * else -1. */
static inline int only_kind(const mpp_call_t *c)
{
    unsigned m = c->by_kind_mask;
    return m && !(m & (m - 1)) ? __builtin_ctz(m) : -1;
}

static void add_split(mpp_stats_t *s, const mpp_call_t *c, uint64_t dt)
{
    int kind = only_kind(c);
    if (kind >= 0) {
        s->ticks[kind] += dt;
        return;
    }
    uint64_t share[MPP_NCAT];
    mpp_split_ticks(dt, c->by_kind, share); /* by the requests it completed (none: handled) */
    for (int k = 0; k < MPP_NCAT; k++)
        s->ticks[k] += share[k];
}

void mpp_call_add_split(mpp_cell_t *cell, const mpp_call_t *c) { add_split(&cell->stats, c, c->t1 - c->t0); }

uint64_t mpp_call_ticks_split(const mpp_call_t *c, int category)
{
    uint64_t share[MPP_NCAT];
    mpp_split_ticks(c->t1 - c->t0, c->by_kind, share);
    return share[category];
}

int mpp_origin_keeps_frames;

void mpp_thread_requests_keep_frames(int on)
{
    mpp_origin_keeps_frames = on;
    mpp_requests_keep_frames(on);
}

/* A hang dump names the partner of each outstanding request: the
 * arguments the wrapper recorded for the watchdog at this call's entry. */
static void describe_request(const mpp_call_t *c)
{
    const mpp_watch_call_t *w = &c->thread->watch.call;
    if (atomic_load_explicit(&w->serial, memory_order_relaxed) !=
        atomic_load_explicit(&c->thread->entered, memory_order_relaxed))
        return; /* not recorded (the watchdog started during the call) */
    const mpp_watch_peer_t *peer = w->dest.rank != MPP_WATCH_NONE ? &w->dest : &w->source;
    int32_t world = peer->rank == MPP_WATCH_ANY || peer->rank == MPP_WATCH_PROC_NULL ? peer->rank : peer->world;
    mpp_request_describe(c->new_request, c->fid, peer->rank == MPP_WATCH_NONE ? MPP_WATCH_NONE : world,
                         w->tag != MPP_WATCH_NONE ? w->tag : w->sendtag);
}

/* Requests created or started by the call: their start is the call's
 * return, their origin its cell (Overlap). */
static void track_requests(mpp_call_t *c)
{
    mpp_request_origin_t o;
    mpp_call_origin(c, &o); /* its frames when another thread may complete them: their cell's key */
    c->new_serial = 0;
    if (c->new_request) {
        c->new_serial =
            mpp_request_add_started(c->new_request, c->new_kind, c->new_persistent, c->new_sent, c->new_recv,
                                    c->new_persistent ? &c->new_price : NULL, c->new_model, c->t1, &o);
        if (MPP_UNLIKELY(atomic_load_explicit(&mpp_watch_on, memory_order_relaxed)))
            describe_request(c);
    }
    for (int i = 0; i < c->nstarted; i++)
        if (c->started[i])
            mpp_request_started(mpp_request_handle_of(c->started[i]), c->t1, &o);
}

/* Copies of cells' frames for origins (mpp_cell_t.shared_frames): carved
 * from chunks that stay for the run, under a lock (made once per cell, by
 * runs that keep frames only: MPI_THREAD_SERIALIZED and MULTIPLE). */
static pthread_mutex_t shared_frames_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *shared_chunks; /* the latest; each one's first word: the one before */
static uintptr_t *shared_chunk;  /* where the next copy goes */
static size_t shared_left;

static const uintptr_t *share_frames(const uintptr_t *frames, int depth)
{
    enum { CHUNK_WORDS = 4096 };
    uintptr_t *copy = NULL;
    pthread_mutex_lock(&shared_frames_lock);
    if (shared_left < (size_t)depth) {
        /* never freed (origins anywhere may point into them), but always
         * reachable: a leak checker sees them all from shared_chunks */
        uintptr_t *chunk = malloc(CHUNK_WORDS * sizeof *chunk);
        shared_left = 0;
        if (chunk) {
            chunk[0] = (uintptr_t)shared_chunks;
            shared_chunks = chunk;
            shared_chunk = chunk + 1;
            shared_left = CHUNK_WORDS - 1;
        }
    }
    if (shared_left >= (size_t)depth) {
        copy = shared_chunk;
        shared_chunk += depth;
        shared_left -= (size_t)depth;
        memcpy(copy, frames, (size_t)depth * sizeof *copy);
    }
    pthread_mutex_unlock(&shared_frames_lock);
    return copy;
}

void mpp_call_origin_frames(const mpp_call_t *c, mpp_request_origin_t *o)
{
    mpp_cell_t *cell = c->cell; /* the calling thread's own: it alone writes it */
    int depth = c->thread->table.depth;
    if (!cell->shared_frames && depth > 0 && depth <= MPP_MAX_DEPTH)
        cell->shared_frames = share_frames(cell->frames, depth);
    o->frames = cell->shared_frames;
    o->depth = o->frames ? depth : 0;
}

mpp_cell_t *mpp_origin_cell(mpp_thread_t *self, const mpp_request_origin_t *o)
{
    /* Where it was, if this thread made that call and its table has not
     * grown since; if it has, found by its hash (cells are never removed);
     * if another thread made the call, by its key in this thread's table
     * (each thread adds to its own table only; the profile merges cells of
     * the same site). */
    if (!o->thread)
        return NULL;
    if (o->thread == self) {
        mpp_cell_t *cell = mpp_table_at(&self->table, o->generation, (size_t)o->slot, o->hash);
        return cell ? cell : mpp_table_find_hash(&self->table, o->hash, o->fid, o->interval);
    }
    if (o->frames && o->depth == self->table.depth)
        return mpp_table_lookup(&self->table, o->fid, o->interval, o->frames);
    return NULL;
}

int mpp_call_request_done(mpp_call_t *c, uint64_t key, int gone)
{
    mpp_request_origin_t o;
    uint64_t overlap = 0;
    int kind;
    mpp_thread_t *t = c->thread;
    if (!mpp_request_complete(mpp_request_handle_of(key), mpp_request_serial_of(key), c->t0, gone, t, &o, &overlap,
                              &kind) ||
        !overlap)
        return kind;
    mpp_cell_t *cell = mpp_origin_cell(t, &o);
    if (cell)
        cell->stats.overlap += overlap;
    return kind;
}

int mpp_call_begin_general(mpp_call_t *c, uint32_t fid, void *frame)
{
    int mode = atomic_load_explicit(&mpp_collecting, memory_order_relaxed);
    if (!mode)
        return 0;
    mpp_thread_t *t = mpp_tls_thread;
    int attached = !t;
    if (MPP_UNLIKELY(attached)) {
        t = mpp_thread_attach();
        if (!t)
            return 0;
    }
    if (!mpp_call_enter(t, c, fid, frame))
        return 0;
    mpp_call_check_fn check = atomic_load_explicit(&mpp_call_check_thread, memory_order_relaxed);
    if (MPP_UNLIKELY(check != NULL)) {
        c->cell = NULL; /* not known yet: the check's report captures the stack */
        check(c, attached);
    }
    c->by_kind_used = 0;
    c->bytes_sent = c->bytes_recv = 0;
    c->model = (mpp_call_price_t){0};
    c->new_request = 0;
    c->nstarted = 0;
    if (MPP_UNLIKELY(mpp_counters_split_on)) /* MPIPROF_PAPI_SRC=on only */
        mpp_counters_enter();
    c->t0 = mpp_now();
    if (MPP_UNLIKELY(mpp_union_tracking)) /* MPI_THREAD_MULTIPLE only */
        mpp_union_enter(c->t0);
    return mode;
}

void mpp_call_stop_general(mpp_call_t *c)
{
    c->t1 = mpp_now();
    if (MPP_UNLIKELY(mpp_counters_split_on))
        mpp_counters_leave();
}

/* A recent cell of this call whose noted words say the stack is still its
 * own (no walk): the call site reached by several stacks in turn finds
 * each one's cell here. */
static mpp_cell_t *recent_noted(mpp_table_t *table, uint32_t fid, uint32_t interval, void *return_address,
                                void *frame_address)
{
    mpp_cell_t *const *way = table->recent[mpp_recent_slot((uintptr_t)return_address)];
    for (int w = 0; w < MPP_RECENT_WAYS && way[w]; w++) {
        mpp_cell_t *cell = way[w];
        if (cell->fid != fid || cell->interval != interval || cell->frames[0] != (uintptr_t)return_address ||
            cell->walk.frame != (uintptr_t)frame_address)
            continue;
        if (table->depth == 1 || mpp_callsite_noted_same(&cell->walk, frame_address)) {
            if (w > 0)
                mpp_recent_put(table, cell);
            return cell;
        }
    }
    return NULL;
}

void mpp_call_end_slow(mpp_call_t *c, int category, unsigned uses, void *return_address, void *frame_address)
{
    mpp_thread_t *t = c->thread;
    if (!(uses & MPP_USES_BYTES)) /* left unset by the fast begin */
        c->bytes_sent = c->bytes_recv = 0;
    if (!(uses & MPP_USES_MODEL))
        c->model = (mpp_call_price_t){0};
    if (!(uses & MPP_USES_REQUESTS)) {
        c->by_kind_used = 0;
        c->new_request = 0;
        c->nstarted = 0;
    }
    uintptr_t frames[MPP_MAX_DEPTH];
    mpp_step_rule_t steps[MPP_MAX_DEPTH];
    if (MPP_UNLIKELY(mpp_union_tracking))
        mpp_union_leave(c->t1);
    /* MPI_Pcontrol(0) with wait states on, or a call the MPI library makes
     * itself (from its Fortran bindings: not the program's) */
    if (MPP_UNLIKELY(mpp_paused) || MPP_UNLIKELY(mpp_callsite_library_call((uintptr_t)return_address, c->fid))) {
        c->cell = NULL;
        if (c->new_request || c->nstarted)
            track_requests(c); /* their kind and handle still matter */
        atomic_store_explicit(&t->left, atomic_load_explicit(&t->entered, memory_order_relaxed),
                              memory_order_relaxed);
        return;
    }
    uint32_t interval = atomic_load_explicit(&mpp_current_interval, memory_order_relaxed);
    int depth = t->table.depth;
    /* Loops call a few sites again and again: the recent cell of this
     * return address, while the stack is still that cell's (the fast path's
     * test, for the calls it leaves out: requests, the general mode) ... */
    mpp_cell_t *cell = recent_noted(&t->table, c->fid, interval, return_address, frame_address);
    if (!cell) {
        cell = mpp_recent_cell(&t->table, (uintptr_t)return_address, c->fid, (uintptr_t)frame_address);
        if (!(cell && cell->interval == interval &&
              mpp_callsite_matches_noted(&cell->walk, cell->frames, cell->steps, depth, return_address, frame_address,
                                         t->stack_lo, t->stack_hi)))
            cell = NULL;
    }
    if (!cell) {
        /* ... else a capture, a recent cell of its first frame, the table */
        mpp_callsite_capture(frames, steps, depth, return_address, frame_address, t->stack_lo, t->stack_hi);
        mpp_cell_t *const *way = t->table.recent[mpp_recent_slot(frames[0])];
        for (int w = 0; w < MPP_RECENT_WAYS && way[w] && !cell; w++)
            if (way[w]->fid == c->fid && way[w]->interval == interval &&
                mpp_same_frames(way[w]->frames, frames, depth))
                cell = way[w];
        if (!cell)
            cell = mpp_table_lookup(&t->table, c->fid, interval, frames);
        if (cell)
            mpp_recent_put(&t->table, cell);
        /* the rules that let the fast path repeat this capture (a cell made
         * without them: another thread's origin, the DWARF unwinder) */
        if (cell && MPP_UNLIKELY(cell->steps[0].kind == MPP_STEP_UNKNOWN) && steps[0].kind != MPP_STEP_UNKNOWN) {
            memcpy(cell->steps, steps, sizeof cell->steps);
            cell->walk.frame = 0; /* noted with other rules */
        }
        /* its words from this frame, for the next call from here */
        if (cell && depth > 1 && cell->steps[0].kind != MPP_STEP_UNKNOWN)
            (void)mpp_callsite_note(&cell->walk, cell->frames, cell->steps, depth, return_address, frame_address,
                                    t->stack_lo, t->stack_hi);
    }
    if (MPP_LIKELY(cell != NULL)) {
        uint64_t dt = c->t1 - c->t0;
        cell->stats.calls++;
        if (MPP_UNLIKELY(c->by_kind_used))
            add_split(&cell->stats, c, dt);
        else
            cell->stats.ticks[category] += dt;
        cell->stats.bytes_sent += (uint64_t)c->bytes_sent;
        cell->stats.bytes_recv += (uint64_t)c->bytes_recv;
        mpp_price_add_call(cell->stats.model, &c->model);
        if (MPP_UNLIKELY(c->nstarted))
            mpp_price_add(cell->stats.model, c->started_price);
    }
    c->cell = cell;
    if (MPP_UNLIKELY(c->new_request || c->nstarted))
        track_requests(c);
    atomic_store_explicit(&t->left, atomic_load_explicit(&t->entered, memory_order_relaxed), memory_order_relaxed);
}

void mpp_call_end_requests(mpp_call_t *c, mpp_cell_t *cell)
{
    if (MPP_UNLIKELY(c->nstarted))
        mpp_price_add(cell->stats.model, c->started_price);
    track_requests(c);
}
