/* What the wait-state hooks share: waitstates/hooks.c (blocking calls,
 * collectives, set-up and end), waitstates/requests.c (the requests the analysis
 * follows) and the inline hooks of waitstates/hooks.h (the usual case of
 * the calls loops make most): the lock and its discipline, the pairing of
 * messages, the collective instances, the last probe, the statistics.  Not
 * for other files. */
#ifndef MPP_WS_HOOKS_SHARED_H
#define MPP_WS_HOOKS_SHARED_H

#include <mpi.h>
#include <stdint.h>

#include "accumulate/waitstates/waitstates.h"
#include "attribute/thread_state.h"
#include "intercept/comms.h"
#include "intercept/waitstates/deferred.h"
#include "intercept/waitstates/exchange.h"
#include "util/mt_lock.h"

typedef struct {
    uint64_t messages;             /* messages whose send was recorded */
    uint64_t paired;               /* received messages paired with their send */
    uint64_t unpaired;             /* received messages whose send never came */
    uint64_t batches, batch_bytes; /* batches sent and their bytes */
    uint64_t instances;            /* collective instances recorded */
    uint64_t reductions;           /* batches of instants reduced */
    uint64_t exits_unknown;        /* nonblocking instances reduced before they completed */
    uint64_t dropped;              /* batches whose reduction ended without a result (members disagreed) */
    uint64_t unfollowed;           /* calls on communicators of more than one process without an id */
    mpp_window_cuts_t cuts;        /* windows cut at the end of their interval */
    uint64_t unbounded;            /* ... cut at the instance's own exit: its interval's end was forgotten */
    int64_t least_threshold;       /* ticks: the lowest threshold used, as the run's messages bounded the clocks */
} mpp_ws_stats_t;

extern mpp_mt_lock_t mpp_ws_lock; /* MPI_THREAD_MULTIPLE only (mt_lock.h) */
extern mpp_p2p_t mpp_ws_matcher;  /* receives paired with their sends (waitstates.h) */
extern mpp_ws_stats_t mpp_ws_stats;
extern int64_t mpp_ws_clock_offset; /* ticks to rank 0's clock */
extern int mpp_ws_batch;            /* MPIPROF_SYNC_BATCH */

/* The hooks' bookkeeping runs between mpp_ws_take() and mpp_ws_give(),
 * their MPI calls outside (waitstates/exchange.h); a thread entering a hook takes
 * the wait-state ticks other threads paired for its calls. */
static inline void mpp_ws_take(void)
{
    mpp_mt_take(&mpp_ws_lock);
    if (MPP_UNLIKELY(mpp_ws_ndeferred) && mpp_tls_thread)
        mpp_ws_apply_deferred(mpp_tls_thread);
}

static inline void mpp_ws_give(void) { mpp_mt_give(&mpp_ws_lock); }

/* Give the lock, then send what this thread queued meanwhile. */
static inline void mpp_ws_give_and_send(void)
{
    int queued = mpp_wsx_queued();
    mpp_ws_give();
    if (queued)
        mpp_wsx_flush();
}

static inline int64_t mpp_ws_aligned(uint64_t ticks) { return (int64_t)ticks + mpp_ws_clock_offset; }

/* What is worth looking at after a call (lock held): the reductions'
 * messages each time some reduction of this process waits for them; the
 * stream only once a batch of send records must have come (waitstates.h,
 * mpp_p2p_stream_due), and then every few calls until it has: a test of the
 * profiler's receive costs as much as the rest of the hook, and a program
 * that only runs collectives never needs one. */
enum { MPP_WS_DUE_REDUCTIONS = 1, MPP_WS_DUE_STREAM = 2 };

static inline int mpp_ws_due_locked(void)
{
    return (mpp_wsx_pending_locked() ? MPP_WS_DUE_REDUCTIONS : 0) |
           (mpp_p2p_stream_due(&mpp_ws_matcher, mpp_ws_batch) ? MPP_WS_DUE_STREAM : 0);
}

/* Collective instances of a communicator (mpp_instances_t: which batch
 * goes when) and the number of the next batch to reduce (waitstates/exchange.h). */
struct mpp_coll_ring {
    mpp_instances_t instances;
    uint64_t batches;
    struct mpp_coll_ring *prev, *next; /* every ring, for the horizon (hooks.c) */
};

/* The correctness checks' rows of the instance of call c just begun, and
 * its call stack for their findings (hooks.c; only when the checks are on). */
void mpp_ws_instance_checks(struct mpp_coll_ring *ring, const mpp_call_t *c, mpp_request_origin_t *origin);

/* A collective instance of call c into ring's batch (no batch is due: the
 * caller took it); its number. */
MPP_ALWAYS_INLINE uint64_t mpp_ws_instance_add(struct mpp_coll_ring *ring, const mpp_call_t *c, int64_t entry,
                                               int64_t exit)
{
    mpp_request_origin_t *origin;
    mpp_ws_stats.instances++;
    uint64_t i =
        mpp_instances_begin(&ring->instances, entry, exit, mpp_interval_place_pack(mpp_interval_place()), &origin);
    if (origin) /* written where the reduction's result finds it */
        mpp_call_origin(c, origin);
    if (MPP_UNLIKELY(ring->instances.pool->rows))
        mpp_ws_instance_checks(ring, c, origin);
    return i;
}

/* The last probe of this thread: the receive of the message it found
 * waited there, so that probe is the receiving call. */
typedef struct {
    int valid;
    MPI_Comm comm;
    MPI_Message message;
    int source, tag;
    uint64_t t0, t1;
    mpp_request_origin_t origin;
} mpp_ws_probe_t;
extern __thread mpp_ws_probe_t mpp_ws_last_probe __attribute__((tls_model("initial-exec")));

/* Outside the lock: what mpp_ws_due_locked said is due. */
void mpp_ws_maybe_progress(int due);

/* A communicator of more than one process without an id: counted for
 * Warnings, 1. */
int mpp_ws_unfollowed(const mpp_comm_t *cm);

/* A new collective instance of call c on comm, `exit` INT64_MIN while it
 * runs; returns its number (UINT64_MAX: not recorded).  Lock held. */
uint64_t mpp_ws_begin_instance(mpp_comm_t *comm, const mpp_call_t *c, int64_t entry, int64_t exit);
void mpp_ws_end_instance(mpp_comm_t *c, uint64_t i, int64_t exit);
/* A communicator's instances end (it is freed, or it is a persistent
 * collective's own and its request goes): its count and what remains go
 * to their reductions.  Lock held. */
void mpp_ws_comm_end_locked(mpp_comm_t *c);
/* The communicators of the persistent collectives still alive (requests.c):
 * fn on each, for MPI_Finalize.  Lock held. */
void mpp_ws_requests_each_comm(void (*fn)(mpp_comm_t *, void *), void *arg);

/* A status that received a message (outside the lock: MPI may be asked). */
static inline int mpp_ws_is_message(const MPI_Status *st)
{
    if (!st || st == MPI_STATUS_IGNORE || st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE < 0)
        return 0;
#if defined(MPICH_VERSION)
    /* MPICH keeps the cancelled flag in the status itself
     * (MPIR_STATUS_GET_CANCEL_BIT): no call into the library on every receive */
    return !(st->count_hi_and_cancelled & 1);
#else
    int cancelled = 0;
    PMPI_Test_cancelled(st, &cancelled);
    return !cancelled;
#endif
}

/* The probe of this thread that found `message` (MPI_Mprobe, MPI_Improbe),
 * forgotten once taken: 1 and its communicator, else 0. */
int mpp_ws_take_probe(MPI_Message message, MPI_Comm *comm);

/* A received message's envelope as the pairing names it (sender -1: not
 * followed). */
typedef struct {
    uint32_t channel;
    int32_t sender, tag;
} mpp_ws_envelope_t;

MPP_ALWAYS_INLINE mpp_ws_envelope_t mpp_ws_envelope(const mpp_comm_t *cm, const MPI_Status *st)
{
    mpp_ws_envelope_t m = {0, -1, 0};
    if (cm && cm->id) {
        m.channel = cm->channel;
        m.sender = mpp_comm_world_rank(cm, st->MPI_SOURCE);
        m.tag = st->MPI_TAG;
    }
    return m;
}

/* A receiving call's event: its entry, the time it spent in SendRecv, its
 * cell; and a message it received. */
int mpp_ws_open_event(mpp_call_t *c, uint64_t sendrecv_ticks);

static inline void mpp_ws_receive(int event, mpp_ws_envelope_t m)
{
    if (event >= 0 && m.sender >= 0)
        mpp_p2p_received(&mpp_ws_matcher, event, m.channel, m.sender, m.tag);
}

void mpp_ws_receive_one_general(mpp_call_t *c, mpp_ws_envelope_t m, uint64_t sendrecv_ticks);

/* A call that received one message: no event (waitstates.h); mostly it
 * waits in its sender's log for its record (the other case apart, so that
 * this one needs no frame).  Lock held. */
MPP_ALWAYS_INLINE void mpp_ws_receive_one(mpp_call_t *c, mpp_ws_envelope_t m, uint64_t sendrecv_ticks)
{
    if (m.sender < 0)
        return;
    mpp_p2p_waiting_t *w = mpp_p2p_receive_waits(&mpp_ws_matcher, m.channel, m.sender, m.tag);
    if (MPP_UNLIKELY(!w)) {
        mpp_ws_receive_one_general(c, m, sendrecv_ticks);
        return;
    }
    w->entry = mpp_ws_aligned(c->t0);
    w->duration = (int64_t)sendrecv_ticks;
    mpp_call_origin(c, &w->origin);
}

/* waitstates/requests.c: its table of requests, made at mpp_ws_start, and freed
 * (their communicators released) at the end or on cancel. */
void mpp_ws_requests_start(void);
void mpp_ws_requests_free(void);

#endif
