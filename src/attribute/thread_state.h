/* What the hot path needs of the calling thread, and the inline begin/stop/
 * end of a profiled MPI call.  A generated wrapper does:
 *
 *     mpp_call_t call;
 *     int mpp_mode = mpp_call_begin(&call, FID, USES, __builtin_frame_address(0));
 *     if (!mpp_mode) return PMPI_x(...);
 *     MPP_WATCH_ENTER(mpp_mode, &call, ...);             (watch_support.h)
 *     ret = PMPI_x(...);
 *     mpp_call_stop(&call, mpp_mode);
 *     ...bytes, requests...
 *     mpp_call_end(&call, mpp_mode, FID, CATEGORY, USES, __builtin_return_address(0), __builtin_frame_address(0));
 *
 * The mode begin returns (MPP_COLLECT_*) holds for the whole call: the
 * stages after it test a register, not the shared state again.
 * Each thread owns its table: no lock, no system call, no allocation once
 * its call sites are known.  A call from a site the thread called recently
 * (the table's recent cell for its return address), in the same interval,
 * is added inline (the fast path: a walk of the stack by that cell's own
 * unwind rules, compared with its frames; two TSC reads; a few additions);
 * anything else goes through mpp_call_end_slow. */
#ifndef MPP_THREAD_STATE_H
#define MPP_THREAD_STATE_H

#include <stdatomic.h>
#include <stdint.h>

#include "accumulate/intervals.h"
#include "accumulate/table.h"
#include "attribute/callsite.h"
#include "attribute/requests.h"
#include "context/clock.h"
#include "context/counters.h"
#include "records/watch.h"
#include "util/common.h"

struct mpp_call;

typedef struct mpp_thread {
    /* MPI calls begun, and ended (a copy of `entered` at the end): the
     * thread is inside a call while they differ.  They are the reentry guard
     * (MPI calls made by MPI itself), and tell the hang watchdog whether the
     * thread has stayed in one call (watchdog.h).  Atomics written with plain
     * relaxed stores: the owner is the only writer. */
    _Atomic uint64_t entered, left;
    /* The MPI call this thread is in (valid while entered != left): what a
     * partial protocol names when the process ends inside a call (faults.c). */
    struct mpp_call *current;
    uintptr_t stack_lo, stack_hi;
    mpp_table_t table;
    uint64_t *scratch; /* request handles of the current call */
    size_t scratch_capacity;
    struct mpp_thread *next;
    struct mpp_thread *idle_next; /* among the state of ended threads (thread_state.c) */
    long tid;                     /* kernel thread id, named in hang dumps */
    mpp_watch_t watch;            /* the current call's arguments, with the watchdog on */
} mpp_thread_t;

extern __thread mpp_thread_t *mpp_tls_thread __attribute__((tls_model("initial-exec")));
/* What a wrapper does with a call, one load at each stage of the call:
 *   MPP_COLLECT_OFF      nothing (before MPI_Init has returned, after
 *                        MPI_Finalize is entered, MPIPROF_DISABLE, MPI_Pcontrol(0));
 *   MPP_COLLECT_FAST     profile it, on the inline fast path where it applies;
 *   MPP_COLLECT_GENERAL  profile it, always through the out-of-line functions,
 *                        because something the fast path leaves out is on:
 *                        CLOCK_MONOTONIC, PAPI counters per SRC point,
 *                        MPI_THREAD_MULTIPLE (union of the threads' times),
 *                        MPIPROF_UNWIND=dwarf, the hang watchdog (arguments
 *                        recorded at entry), or a pause with wait states.
 * Set by mpp_collect_set only. */
enum { MPP_COLLECT_OFF = 0, MPP_COLLECT_FAST, MPP_COLLECT_GENERAL };
extern _Atomic int mpp_collecting;
/* 1 while the hang watchdog runs (watchdog.h): the wrappers record each
 * call's arguments (mpp_watch_t). */
extern _Atomic int mpp_watch_on;
/* MPI_Pcontrol(0) while the wait-state analysis runs: calls are still
 * intercepted (every process must count the same collectives and messages,
 * paused or not) but add nothing to the tables. */
extern int mpp_paused;

/* Start (on) or stop collecting, paused or not; chooses FAST or GENERAL
 * from the clock, counters, thread level, unwinder and watchdog chosen at
 * MPI_Init, which must be set before. */
void mpp_collect_set(int on, int paused);

/* Whether the thread is inside an MPI call (its `current` is that call). */
static inline int mpp_thread_in_call(mpp_thread_t *t)
{
    return atomic_load_explicit(&t->entered, memory_order_relaxed) !=
           atomic_load_explicit(&t->left, memory_order_relaxed);
}

/* First MPI call of a thread: register it (NULL when not collecting), or
 * give it the state of a thread that ended. */
mpp_thread_t *mpp_thread_attach(void);
/* The same, with the calling thread's stack bounds already known
 * (mpp_stack_bounds: for the main thread, a read of /proc/self/maps). */
mpp_thread_t *mpp_thread_attach_bounded(uintptr_t stack_lo, uintptr_t stack_hi);
/* What other stages keep per thread in thread-local variables (scratch
 * buffers that grow with the largest count seen): `release`, registered
 * once, frees the calling thread's; a thread that ends runs them all. */
void mpp_thread_at_end(void (*release)(void));
/* Every registered thread, for the merge at MPI_Finalize. */
mpp_thread_t *mpp_threads(void);

typedef struct mpp_call {
    mpp_thread_t *thread;
    uint64_t t0, t1;
    uint32_t fid;
    void *frame;                /* the wrapper's frame: the call site, should the process end inside */
    uint32_t by_kind[MPP_NCAT]; /* requests completed (none: handled), for waits/tests/starts */
    unsigned by_kind_mask;      /* bit k: by_kind[k] > 0 */
    int by_kind_used;
    int64_t bytes_sent, bytes_recv;
    mpp_call_price_t model; /* the model's price of this call (model.h; 0: none) */
    /* The request this call created (mpp_request_created), added to the
     * request table by mpp_call_end with this call's cell: 0 when none. */
    uint64_t new_request;
    uint32_t new_serial; /* its serial in the request table, set by mpp_call_end (0: not tracked) */
    int new_kind, new_persistent;
    int64_t new_sent, new_recv;
    mpp_call_price_t new_price; /* its transfer's price (persistent: per start) */
    double new_model;           /* ... in seconds at the parameters of MPI_Init (Overlap) */
    /* Persistent requests this call starts (MPI_Start, MPI_Startall):
     * request keys as in mpp_reqset_t (mpp_request_pack(handle, serial)), and the
     * price of their transfers (on either link). */
    const uint64_t *started;
    int nstarted;
    double started_price[MPP_NPRICE];
    /* Set by mpp_call_end: the cell the call was added to (NULL: none, e.g.
     * while MPI_Pcontrol(0) pauses), for the wait-state analysis, which
     * runs after it. */
    mpp_cell_t *cell;
} mpp_call_t;

/* What a wrapper's call uses besides time (the generator knows, so the
 * inline fast path adds only these). */
enum {
    MPP_USES_BYTES = 1,    /* bytes_sent, bytes_recv */
    MPP_USES_MODEL = 2,    /* model */
    MPP_USES_REQUESTS = 4, /* by_kind, new_request, started: the fast path adds them out of line */
};

/* The general begin: first call of a thread, and MPP_COLLECT_GENERAL. */
int mpp_call_begin_general(mpp_call_t *c, uint32_t fid, void *frame);
/* The thread-level check (intercept/check/threads.c), NULL while it is off:
 * called by the general begin for each call it enters (`attached`: the
 * thread's first), which it keeps general once another thread than
 * MPI_Init's called MPI (mpp_collect_general). */
typedef void (*mpp_call_check_fn)(mpp_call_t *c, int attached);
extern _Atomic(mpp_call_check_fn) mpp_call_check_thread;
/* From FAST to GENERAL for good (a check needs every call out of line);
 * never turns collection on. */
void mpp_collect_general(void);

/* Enter call c in thread t, unless the thread is in an MPI call already (a
 * call MPI makes inside one: not profiled, 0): the watchdog's counter, the
 * current call a partial protocol names, the call's identity. */
MPP_ALWAYS_INLINE int mpp_call_enter(mpp_thread_t *t, mpp_call_t *c, uint32_t fid, void *frame)
{
    uint64_t n = atomic_load_explicit(&t->entered, memory_order_relaxed);
    if (MPP_UNLIKELY(n != atomic_load_explicit(&t->left, memory_order_relaxed)))
        return 0;
    /* the call is filled in and named before the thread counts as inside
     * it: a signal in between must not find it inside a call whose record
     * is the previous call's dead frame (faults.c) */
    c->thread = t;
    c->fid = fid;
    c->frame = frame;
    t->current = c;
    atomic_signal_fence(memory_order_release);
    atomic_store_explicit(&t->entered, n + 1, memory_order_relaxed);
    return 1;
}

/* Begin a call: its mode, MPP_COLLECT_OFF (0) when it is not profiled (call
 * PMPI and return).  On the fast path the fields `uses` leaves out stay
 * unset (mpp_call_end_slow clears them). */
MPP_ALWAYS_INLINE int mpp_call_begin(mpp_call_t *c, uint32_t fid, unsigned uses, void *frame)
{
    int state = atomic_load_explicit(&mpp_collecting, memory_order_relaxed);
    if (MPP_UNLIKELY(state == MPP_COLLECT_OFF))
        return 0;
    mpp_thread_t *t = mpp_tls_thread;
    if (MPP_UNLIKELY(state != MPP_COLLECT_FAST || !t))
        return mpp_call_begin_general(c, fid, frame);
    if (MPP_UNLIKELY(!mpp_call_enter(t, c, fid, frame)))
        return 0;
    if (uses & MPP_USES_BYTES)
        c->bytes_sent = c->bytes_recv = 0;
    if (uses & (MPP_USES_MODEL | MPP_USES_REQUESTS)) /* a request it creates takes the call's price */
        c->model = (mpp_call_price_t){0};
    if (uses & MPP_USES_REQUESTS) {
        c->by_kind_used = 0;
        c->new_request = 0;
        c->nstarted = 0;
    }
    c->t0 = __rdtsc() + MPP_CLOCK_SKEW; /* MPP_COLLECT_FAST: the clock is the TSC (the skew: 0 but in tests) */
    return MPP_COLLECT_FAST;
}

void mpp_call_stop_general(mpp_call_t *c);

MPP_ALWAYS_INLINE void mpp_call_stop(mpp_call_t *c, int mode)
{
    if (MPP_LIKELY(mode == MPP_COLLECT_FAST))
        c->t1 = __rdtsc() + MPP_CLOCK_SKEW;
    else
        mpp_call_stop_general(c);
}

/* Capture the call site, add the call to its cell (and the requests it
 * created or started to the request table), leave the call. */
void mpp_call_end_slow(mpp_call_t *c, int category, unsigned uses, void *return_address, void *frame_address);
/* For mpp_call_end's fast path of a call that handles requests: its time
 * split over the kinds of the requests it completed (by_kind_used); the
 * requests it created or started, to the request table with the cell (and
 * the started ones' price to the cell). */
void mpp_call_add_split(mpp_cell_t *cell, const mpp_call_t *c);
void mpp_call_end_requests(mpp_call_t *c, mpp_cell_t *cell);

MPP_ALWAYS_INLINE void mpp_call_end(mpp_call_t *c, int mode, uint32_t fid, int category, unsigned uses,
                                    void *return_address, void *frame_address)
{
    mpp_thread_t *t = c->thread;
    mpp_cell_t *cell = mpp_recent_cell(&t->table, (uintptr_t)return_address, fid, (uintptr_t)frame_address);
    if (MPP_LIKELY(mode == MPP_COLLECT_FAST && cell && cell->fid == fid &&
                   cell->interval == atomic_load_explicit(&mpp_current_interval, memory_order_relaxed) &&
                   mpp_callsite_matches_noted(&cell->walk, cell->frames, cell->steps, t->table.depth, return_address,
                                              frame_address, t->stack_lo, t->stack_hi))) {
        cell->stats.calls++;
        if ((uses & MPP_USES_REQUESTS) && MPP_UNLIKELY(c->by_kind_used))
            mpp_call_add_split(cell, c);
        else
            cell->stats.ticks[category] += c->t1 - c->t0;
        if (uses & MPP_USES_BYTES) {
            cell->stats.bytes_sent += (uint64_t)c->bytes_sent;
            cell->stats.bytes_recv += (uint64_t)c->bytes_recv;
        }
        if (uses & (MPP_USES_MODEL | MPP_USES_REQUESTS))
            mpp_price_add_call(cell->stats.model, &c->model);
        c->cell = cell;
        if ((uses & MPP_USES_REQUESTS) && (c->new_request || c->nstarted))
            mpp_call_end_requests(c, cell);
        atomic_store_explicit(&t->left, atomic_load_explicit(&t->entered, memory_order_relaxed),
                              memory_order_relaxed);
        return;
    }
    mpp_call_end_slow(c, category, uses, return_address, frame_address);
}

/* Requests may complete in another thread than the one that started them
 * (MPI_THREAD_SERIALIZED, MULTIPLE): keep the key of their origin's cell. */
void mpp_thread_requests_keep_frames(int on);

/* A request the call handles (key: mpp_request_pack(handle, serial)) completed
 * (`gone`: MPI set it to MPI_REQUEST_NULL; else a persistent request's
 * wait/test): add its Overlap to the cell of the call that started it.
 * Returns its category when it counts as completed, else -1. */
int mpp_call_request_done(mpp_call_t *c, uint64_t key, int gone);

/* Ticks of the time of a call that handles requests (MPP_USES_REQUESTS: a
 * wait, test or start; mpp_call_end has run) that went to `category`: its
 * share by the kinds of the requests it completed, or, when it handled no
 * tracked request, all of it if its own category (the wrapper's) is that
 * one. */
uint64_t mpp_call_ticks_split(const mpp_call_t *c, int category);
MPP_ALWAYS_INLINE uint64_t mpp_call_ticks_of(const mpp_call_t *c, int category, int call_category)
{
    uint64_t dt = c->t1 - c->t0;
    if (!c->by_kind_used)
        return category == call_category ? dt : 0;
    unsigned m = c->by_kind_mask;
    if (!(m & (m - 1))) /* one category (the usual case): no division */
        return (m >> category) & 1 ? dt : 0;
    return mpp_call_ticks_split(c, category);
}

/* Requests may complete, and wait states be paired, in another thread than
 * the call's (MPI_THREAD_SERIALIZED, MULTIPLE): origins keep their cell's
 * frames (mpp_thread_requests_keep_frames), a copy made once per cell that
 * never moves (NULL, depth 0, when it cannot be made). */
extern int mpp_origin_keeps_frames;
void mpp_call_origin_frames(const mpp_call_t *c, mpp_request_origin_t *o);

/* Where the call's cell is, to find it again later (mpp_call_end ran):
 * inline, as every wait-state hook of a call needs it. */
MPP_ALWAYS_INLINE void mpp_call_origin(const mpp_call_t *c, mpp_request_origin_t *o)
{
    const mpp_cell_t *cell = c->cell;
    mpp_thread_t *t = c->thread;
    o->thread = cell ? t : NULL;
    o->depth = 0;
    o->frames = NULL;
    if (!cell)
        return;
    o->generation = t->table.generation;
    o->slot = (uint64_t)(cell - t->table.cells);
    o->hash = cell->hash;
    o->fid = cell->fid;
    o->interval = cell->interval;
    if (MPP_UNLIKELY(mpp_origin_keeps_frames))
        mpp_call_origin_frames(c, o);
}
/* The cell of an origin in the table of thread `self` (which must be the
 * calling thread): where it was if the table has not moved since, else by
 * its hash, else (another thread's cell, frames kept) by its key; NULL if
 * none. */
mpp_cell_t *mpp_origin_cell(mpp_thread_t *self, const mpp_request_origin_t *o);

#endif
