#include <pthread.h>
#include <stdlib.h>

#include "callsite.h"
#include "config.h"
#include "intervals.h"
#include "requests.h"
#include "thread_state.h"
#include "warnings.h"

__thread mpp_thread_t *mpp_tls_thread __attribute__((tls_model("initial-exec")));
_Atomic int mpp_collecting; /* read by every thread; relaxed loads are plain moves */

static mpp_thread_t *all_threads;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static void stack_bounds(uintptr_t *lo, uintptr_t *hi)
{
    pthread_attr_t attr;
    void *addr;
    size_t size;
    *lo = 0;
    *hi = UINTPTR_MAX;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        *lo = (uintptr_t)addr;
        *hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&attr);
}

mpp_thread_t *mpp_thread_attach(void)
{
    if (!mpp_collecting)
        return NULL;
    mpp_thread_t *t = calloc(1, sizeof *t);
    if (!t || mpp_table_init(&t->table, (size_t)mpp_config.number[MPP_CFG_MAX_SRC],
                             mpp_callsite_depth()) != 0) {
        free(t);
        return NULL;
    }
    stack_bounds(&t->stack_lo, &t->stack_hi);
    pthread_mutex_lock(&registry_lock);
    t->next = all_threads;
    all_threads = t;
    pthread_mutex_unlock(&registry_lock);
    mpp_tls_thread = t;
    return t;
}

mpp_thread_t *mpp_threads(void) { return all_threads; }

/* Time of a wait/test/start split over the categories of the requests it
 * handled, in proportion to their number. */
static void add_split(mpp_stats_t *s, const mpp_call_t *c, uint64_t dt)
{
    uint64_t total = 0, given = 0;
    int last = -1;
    for (int k = 0; k < MPP_NCAT; k++)
        total += c->by_kind[k];
    for (int k = 0; k < MPP_NCAT; k++) {
        if (!c->by_kind[k])
            continue;
        uint64_t share = dt * c->by_kind[k] / total;
        s->ticks[k] += share;
        given += share;
        last = k;
    }
    s->ticks[last] += dt - given;
}

static void origin_of(mpp_request_origin_t *o, mpp_thread_t *t, const mpp_cell_t *cell)
{
    o->thread = cell ? t : NULL;
    if (!cell)
        return;
    o->generation = t->table.generation;
    o->slot = (uint64_t)(cell - t->table.cells);
    o->hash = cell->hash;
    o->fid = cell->fid;
    o->interval = cell->interval;
    o->depth = t->table.depth; /* the frames are read from the cell only if the table keeps them */
}

static int t_keeps_frames; /* mpp_requests_keep_frames is on */

void mpp_thread_requests_keep_frames(int on)
{
    t_keeps_frames = on;
    mpp_requests_keep_frames(on);
}

/* Requests created or started by the call: their start is the call's
 * return, their origin its cell (Overlap). */
static void track_requests(mpp_call_t *c, mpp_cell_t *cell)
{
    mpp_request_origin_t o;
    origin_of(&o, c->thread, cell);
    if (cell && MPP_UNLIKELY(t_keeps_frames)) /* another thread may complete them: their cell's key */
        for (int i = 0; i < o.depth; i++)
            o.frames[i] = cell->frames[i];
    if (c->new_request)
        mpp_request_add_started(c->new_request, c->new_kind, c->new_persistent, c->new_sent, c->new_recv,
                                c->new_model, c->t1, &o);
    for (int i = 0; i < c->nstarted; i++)
        if (c->started[i])
            mpp_request_started(c->started[i] & 0xffffffffu, c->t1, &o);
}

void mpp_call_request_done(mpp_call_t *c, uint64_t key, int gone)
{
    mpp_request_origin_t o;
    uint64_t overlap = 0;
    mpp_thread_t *t = c->thread;
    if (!mpp_request_complete(key & 0xffffffffu, (uint32_t)(key >> 32), c->t0, gone, t, &o, &overlap) || !overlap)
        return;
    mpp_cell_t *cell = NULL;
    /* The starting call's cell: where it was, if this thread made that call
     * and its table has not grown since; if it has, found by its hash (cells
     * are never removed); if another thread made the call, by its key in
     * this thread's table (each thread adds to its own table only; the
     * profile merges cells of the same site). */
    if (o.thread == t) {
        cell = mpp_table_at(&t->table, o.generation, (size_t)o.slot, o.hash);
        if (!cell)
            cell = mpp_table_find_hash(&t->table, o.hash, o.fid, o.interval);
    } else if (o.depth == t->table.depth) {
        cell = mpp_table_lookup(&t->table, o.fid, o.interval, o.frames);
    }
    if (cell)
        cell->stats.overlap += overlap;
}

void mpp_call_end(mpp_call_t *c, void *return_address, void *frame_address)
{
    mpp_thread_t *t = c->thread;
    uintptr_t frames[MPP_MAX_DEPTH];
    if (MPP_UNLIKELY(mpp_union_tracking))
        mpp_union_leave(c->t1);
    mpp_callsite_capture(frames, t->table.depth, return_address, frame_address, t->stack_lo, t->stack_hi);
    uint32_t interval = atomic_load_explicit(&mpp_current_interval, memory_order_relaxed);
    mpp_cell_t *cell = t->last_cell;
    /* A loop calls the same site again and again: try the previous cell
     * before hashing (valid while the table has not grown since). */
    if (!(cell && t->last_generation == t->table.generation && cell->fid == c->fid &&
          cell->interval == interval && mpp_same_frames(cell->frames, frames, t->table.depth))) {
        cell = mpp_table_lookup(&t->table, c->fid, interval, frames);
        t->last_cell = cell;
        t->last_generation = t->table.generation;
    }
    if (MPP_LIKELY(cell != NULL)) {
        uint64_t dt = c->t1 - c->t0;
        cell->stats.calls++;
        if (MPP_UNLIKELY(c->by_kind_used))
            add_split(&cell->stats, c, dt);
        else
            cell->stats.ticks[c->category] += dt;
        cell->stats.bytes_sent += (uint64_t)c->bytes_sent;
        cell->stats.bytes_recv += (uint64_t)c->bytes_recv;
        cell->stats.model += c->model;
    }
    if (MPP_UNLIKELY(c->new_request || c->nstarted))
        track_requests(c, cell);
    t->current = NULL;
}
