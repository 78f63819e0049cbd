/* What the hot path needs of the calling thread, and the inline begin/stop
 * of a profiled MPI call.  A generated wrapper does:
 *
 *     mpp_call_t call;
 *     if (!mpp_call_begin(&call, FID, CATEGORY, __builtin_frame_address(0))) return PMPI_x(...);
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
#include "table.h"

struct mpp_call;

typedef struct mpp_thread {
    /* The MPI call this thread is in (NULL: none): the reentry guard (MPI
     * calls made by MPI itself are not counted), and what a partial
     * protocol names when the process ends inside a call (faults.c). */
    struct mpp_call *current;
    uintptr_t stack_lo, stack_hi;
    mpp_table_t table;
    uint64_t *scratch;      /* request handles of the current call */
    size_t scratch_capacity;
    mpp_cell_t *last_cell;  /* the cell of the previous call: loops repeat call sites */
    uint64_t last_generation; /* table generation last_cell belongs to */
    struct mpp_thread *next;
} mpp_thread_t;

extern __thread mpp_thread_t *mpp_tls_thread __attribute__((tls_model("initial-exec")));
/* 1 between MPI_Init's return and MPI_Finalize's entry, unless paused. */
extern _Atomic int mpp_collecting;

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
    int new_kind, new_persistent;
    int64_t new_sent, new_recv;
    double new_model;
    /* Persistent requests this call starts (MPI_Start, MPI_Startall):
     * request keys as in mpp_reqset_t (handle | serial << 32). */
    const uint64_t *started;
    int nstarted;
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
    if (MPP_UNLIKELY(t->current != NULL))
        return 0;
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

#endif
