/* What the hot path needs of the calling thread, and the inline begin/stop
 * of a profiled MPI call.  A generated wrapper does:
 *
 *     mpp_call_t call;
 *     if (!mpp_call_begin(&call, FID, CATEGORY, __builtin_frame_address(0))) return PMPI_x(...);
 *     if (MPP_UNLIKELY(mpp_watch_on)) mpp_watch_enter(&call, ...);  (watch_support.h)
 *     ret = PMPI_x(...);
 *     mpp_call_stop(&call);
 *     ...bytes, requests...
 *     mpp_call_end(&call, __builtin_return_address(0), __builtin_frame_address(0));
 *
 * Each thread owns its table: no lock, no system call, no allocation once
 * its call sites are known. */
#ifndef MPP_THREAD_STATE_H
#define MPP_THREAD_STATE_H

#include <stdatomic.h>
#include <stdint.h>

#include "clock.h"
#include "counters.h"
#include "intervals.h"
#include "mpp_common.h"
#include "requests.h"
#include "table.h"
#include "watchdog.h"

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
    uint64_t *scratch;      /* request handles of the current call */
    size_t scratch_capacity;
    mpp_cell_t *last_cell;  /* the cell of the previous call: loops repeat call sites */
    uint64_t last_generation; /* table generation last_cell belongs to */
    struct mpp_thread *next;
    long tid;               /* kernel thread id, named in hang dumps */
    mpp_watch_t watch;      /* the current call's arguments, with the watchdog on */
} mpp_thread_t;

extern __thread mpp_thread_t *mpp_tls_thread __attribute__((tls_model("initial-exec")));
/* 1 between MPI_Init's return and MPI_Finalize's entry, unless paused. */
extern _Atomic int mpp_collecting;
/* MPI_Pcontrol(0) while the wait-state analysis runs: calls are still
 * intercepted (every process must count the same collectives and messages,
 * paused or not) but add nothing to the tables. */
extern int mpp_paused;

/* Whether the thread is inside an MPI call (its `current` is that call). */
static inline int mpp_thread_in_call(mpp_thread_t *t)
{
    return atomic_load_explicit(&t->entered, memory_order_relaxed) !=
           atomic_load_explicit(&t->left, memory_order_relaxed);
}

/* First MPI call of a thread: register it (NULL when not collecting). */
mpp_thread_t *mpp_thread_attach(void);
/* Every registered thread, for the merge at MPI_Finalize. */
mpp_thread_t *mpp_threads(void);

typedef struct mpp_call {
    mpp_thread_t *thread;
    uint64_t t0, t1;
    uint32_t fid;
    void *frame;                /* the wrapper's frame: the call site, should the process end inside */
    int category;
    uint32_t by_kind[MPP_NCAT]; /* requests handled, for waits/tests/starts */
    int by_kind_used;
    int64_t bytes_sent, bytes_recv;
    double model;               /* the model's time of this call, seconds (0: none) */
    /* The request this call created (mpp_request_created), added to the
     * request table by mpp_call_end with this call's cell: 0 when none. */
    uint64_t new_request;
    uint32_t new_serial; /* its serial in the request table, set by mpp_call_end (0: not tracked) */
    int new_kind, new_persistent;
    int64_t new_sent, new_recv;
    double new_model;
    /* Persistent requests this call starts (MPI_Start, MPI_Startall):
     * request keys as in mpp_reqset_t (handle | serial << 32). */
    const uint64_t *started;
    int nstarted;
    /* Set by mpp_call_end: the cell the call was added to (NULL: none, e.g.
     * while MPI_Pcontrol(0) pauses), for the wait-state analysis, which
     * runs after it. */
    mpp_cell_t *cell;
} mpp_call_t;

#define MPP_ALWAYS_INLINE static inline __attribute__((always_inline))

MPP_ALWAYS_INLINE int mpp_call_begin(mpp_call_t *c, uint32_t fid, int category, void *frame)
{
    if (MPP_UNLIKELY(!atomic_load_explicit(&mpp_collecting, memory_order_relaxed)))
        return 0;
    mpp_thread_t *t = mpp_tls_thread;
    if (MPP_UNLIKELY(!t)) {
        t = mpp_thread_attach();
        if (!t)
            return 0;
    }
    uint64_t n = atomic_load_explicit(&t->entered, memory_order_relaxed);
    if (MPP_UNLIKELY(n != atomic_load_explicit(&t->left, memory_order_relaxed)))
        return 0;
    atomic_store_explicit(&t->entered, n + 1, memory_order_relaxed);
    t->current = c;
    c->thread = t;
    c->fid = fid;
    c->frame = frame;
    c->category = category;
    c->by_kind_used = 0;
    c->bytes_sent = c->bytes_recv = 0;
    c->model = 0;
    c->new_request = 0;
    c->nstarted = 0;
    if (MPP_UNLIKELY(mpp_counters_split_on)) /* MPIPROF_PAPI_SRC=on only */
        mpp_counters_enter();
    c->t0 = mpp_now();
    if (MPP_UNLIKELY(mpp_union_tracking)) /* MPI_THREAD_MULTIPLE only */
        mpp_union_enter(c->t0);
    return 1;
}

MPP_ALWAYS_INLINE void mpp_call_stop(mpp_call_t *c)
{
    c->t1 = mpp_now();
    if (MPP_UNLIKELY(mpp_counters_split_on))
        mpp_counters_leave();
}

/* Capture the call site, add the call to its cell (and the requests it
 * created or started to the request table), leave the call. */
void mpp_call_end(mpp_call_t *c, void *return_address, void *frame_address);

/* Requests may complete in another thread than the one that started them
 * (MPI_THREAD_SERIALIZED, MULTIPLE): keep the key of their origin's cell. */
void mpp_thread_requests_keep_frames(int on);

/* A request the call handles (key: handle | serial << 32) completed
 * (`gone`: MPI set it to MPI_REQUEST_NULL; else a persistent request's
 * wait/test): add its Overlap to the cell of the call that started it. */
void mpp_call_request_done(mpp_call_t *c, uint64_t key, int gone);

/* Where the call's cell is, to find it again later (mpp_call_end ran). */
void mpp_call_origin(const mpp_call_t *c, mpp_request_origin_t *o);
/* The cell of an origin in the table of thread `self` (which must be the
 * calling thread): where it was if the table has not moved since, else by
 * its hash, else (another thread's cell, frames kept) by its key; NULL if
 * none. */
mpp_cell_t *mpp_origin_cell(mpp_thread_t *self, const mpp_request_origin_t *o);

#endif
