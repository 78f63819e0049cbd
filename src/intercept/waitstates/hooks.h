/* What the generated wrappers call for the wait-state analysis
 * (MPIPROF_WAITSTATES): after a call has ended (mpp_call_end set its cell),
 * its instants go to the pairing of messages (Real sync) and to the
 * collective instances of its communicator (Potential sync, Time
 * variation).  Off, every hook is one predictable branch in the wrapper.
 *
 * The profiler issues no operation on the program's communicators, only
 * local queries (sizes, groups, rank translation): communicator ids are
 * derived by every member alone (commids.h), and everything the processes
 * exchange travels on the profiler's own communicator (waitstates/exchange.h).
 *
 * Point-to-point: each send appends (communicator id, tag, entry) to a
 * batch for its destination; a full batch travels with MPI_Issend on the
 * profiler's communicator; receivers replay them (waitstates.h).
 *
 * Collectives: the k-th collective on a communicator is the same instance on
 * every member.  Each member keeps (entry, exit) of its instances; when the
 * first instance of batch k+2 begins, batch k is reduced (maximum) over the
 * members by point-to-point messages along a tree (treereduce.h) - one
 * batch of lag lets nonblocking collectives complete first.  Their
 * messages are tested from the hooks, never waited for; what remains of a
 * communicator's instances goes when it is freed, and at MPI_Finalize,
 * where the exchange ends once no message of it is in flight anywhere.
 *
 * Under MPI_THREAD_MULTIPLE one lock guards the bookkeeping; no lock is
 * held across an MPI call. */
#ifndef MPP_WAITSTATE_HOOKS_H
#define MPP_WAITSTATE_HOOKS_H

#include <mpi.h>
#include <stddef.h>

#include "attribute/thread_state.h"
#include "intercept/waitstates/shared.h"
#include "intercept/wrapper_support.h"
#include "util/common.h"

extern int mpp_ws_on;

/* MPI_Init: clocks already aligned (offset, threshold in ticks); comm:
 * the profiler's own (a duplicate of the profiler's world, world.h), which carries every
 * message of the analysis.  The correctness checks between processes
 * ride along (intercept/check/collectives.h, messages.h): `check_rows`
 * values more per collective instance, and a stream of send records of
 * `check_records` bytes each (0: none). */
void mpp_ws_start(MPI_Comm comm, int64_t clock_offset, int64_t threshold, int batch, int thread_multiple,
                  int check_rows, int check_records);
/* Right after mpp_ws_start: waits counted at `fine` ticks but not at the
 * threshold go to the cells' fine part (waitstates.h, MPP_WAIT_FINE). */
void mpp_ws_fine_threshold(int64_t fine);
/* MPI_Finalize (collective): the last batches, the end of the exchange. */
void mpp_ws_finish(void);
/* Right after mpp_ws_start, when it did not start on every process: stop
 * without exchanging anything. */
void mpp_ws_cancel(void);

void mpp_ws_get_stats(mpp_ws_stats_t *out);

/* --- hooks (after mpp_call_end, only when mpp_ws_on) ---
 * A send (blocking or not), a blocking receive (MPI_Recv, MPI_Sendrecv,
 * ...) that received the message of status, and a blocking collective are
 * inline below in their usual case; these do the same in general. */
void mpp_ws_send_general(mpp_call_t *c, MPI_Comm comm, int dest, int tag);
void mpp_ws_recv_general(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status);
void mpp_ws_collective_general(mpp_call_t *c, MPI_Comm comm);
void mpp_ws_mrecv(mpp_call_t *c, MPI_Message message, const MPI_Status *status);
void mpp_ws_probe(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, MPI_Message message);
/* Requests: a receive (persistent or not), a matched receive, a
 * persistent send, a nonblocking or persistent collective. */
void mpp_ws_irecv(mpp_call_t *c, MPI_Comm comm, int source, int tag, MPI_Request request, int persistent);
void mpp_ws_imrecv(mpp_call_t *c, MPI_Message message, MPI_Request request);
void mpp_ws_send_init(mpp_call_t *c, MPI_Comm comm, int dest, int tag, MPI_Request request);
void mpp_ws_icollective(mpp_call_t *c, MPI_Comm comm, MPI_Request request, int persistent);
void mpp_ws_started(mpp_call_t *c, const mpp_reqset_t *set);
/* Completions: `n` requests of the set (indexes `which`, NULL: 0..n-1)
 * completed, with their statuses (statuses[j] for the j-th). */
void mpp_ws_completed(mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which, const MPI_Status *statuses);
void mpp_ws_freed(const mpp_reqset_t *set);
/* Constructors other than MPI_Comm_idup register with comms.h alone.
 * MPI_Comm_idup: the new communicator exists once its request completes:
 * MPI writes its handle at newcomm (an MPI_Fint for a Fortran caller). */
void mpp_ws_comm_idup(mpp_call_t *c, MPI_Comm parent, void *newcomm, int fortran, MPI_Request request);
void mpp_ws_comm_freeing(MPI_Comm comm);

/* For the checks between processes (intercept/check/messages.h): a check
 * record to world rank dest (the lock taken, and what is queued sent); the
 * communicator, source and tag of the probe of this thread that found
 * `message` (not forgotten: the wait-state hook of its receive takes it), 0
 * when none did. */
int mpp_ws_check_record(int dest, const void *record);
int mpp_ws_probe_of(MPI_Message message, MPI_Comm *comm, int *source, int *tag);

/* Scratch statuses for a completion called with MPI_STATUSES_IGNORE (the
 * analysis needs each message's source and tag); NULL: keep ignoring. */
MPI_Status *mpp_ws_statuses(int n);

/* --- the hooks of the calls loops make most, inline ---
 * Their usual case: one thread makes the MPI calls (MPI_THREAD_SINGLE or
 * FUNNELED: no lock to take, no other thread's waits to apply), on
 * MPI_COMM_WORLD, nothing queued to send (and for a collective, no batch
 * due for its reduction).  It does what the general hook does then, with
 * the same pieces (waitstates/shared.h), without the lock and the lookup of
 * the communicator: the wait-state analysis at the price of a few stores.  Whether the run is
 * such a run is one flag, set at MPI_Init: nothing another thread writes
 * is read before it (ThreadSanitizer saw a compiler's early load of a
 * second condition race with that thread). */
extern int mpp_ws_inline_world;
MPP_ALWAYS_INLINE int mpp_ws_inline_case(MPI_Comm comm)
{
    return comm == mpp_world() && mpp_ws_inline_world && !mpp_wsx_queued();
}

/* After a call whose instant may have filled a batch (lock free). */
MPP_ALWAYS_INLINE void mpp_ws_after_inline(void)
{
    int due = mpp_ws_due_locked();
    if (MPP_UNLIKELY(due))
        mpp_ws_maybe_progress(due);
}

/* A send's record, into its destination's batch (what the general hook
 * does, with no lock to take and no communicator to look up). */
MPP_ALWAYS_INLINE void mpp_ws_send(mpp_call_t *c, MPI_Comm comm, int dest, int tag)
{
    if (MPP_LIKELY(mpp_ws_inline_case(comm))) {
        if (dest == MPI_PROC_NULL)
            return;
        const mpp_comm_t *cm = mpp_comm_world_entry;
        mpp_ws_stats.messages += (uint64_t)mpp_wsx_record_send_locked(mpp_comm_world_rank(cm, dest), cm->channel, tag,
                                                                      mpp_ws_aligned(c->t0));
        if (MPP_UNLIKELY(mpp_wsx_queued())) /* the batch was full: it goes */
            mpp_wsx_flush();
        return;
    }
    mpp_ws_send_general(c, comm, dest, tag);
}

/* A blocking receive's message, to wait in its sender's log for its record
 * (waitstates.h), when no probe found it first. */
MPP_ALWAYS_INLINE void mpp_ws_recv(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status)
{
    if (MPP_LIKELY(mpp_ws_inline_case(comm) && !mpp_ws_last_probe.valid)) {
        if (mpp_ws_is_message(status)) {
            mpp_ws_receive_one(c, mpp_ws_envelope(mpp_comm_world_entry, status), c->t1 - c->t0);
            mpp_ws_after_inline();
        }
        return;
    }
    mpp_ws_recv_general(c, comm, status);
}

/* A blocking collective's instance, into its communicator's batch when no
 * batch is due for its reduction. */
MPP_ALWAYS_INLINE void mpp_ws_collective(mpp_call_t *c, MPI_Comm comm)
{
    struct mpp_coll_ring *ring;
    if (MPP_LIKELY(mpp_ws_inline_case(comm) && (ring = mpp_comm_world_entry->coll) != NULL &&
                   !mpp_instances_due(&ring->instances))) {
        mpp_ws_instance_add(ring, c, mpp_ws_aligned(c->t0), mpp_ws_aligned(c->t1));
        mpp_ws_after_inline();
        return;
    }
    mpp_ws_collective_general(c, comm);
}

#endif
