/* What the generated wrappers call for the wait-state analysis
 * (MPIPROF_WAITSTATES): after a call has ended (mpp_call_end set its cell),
 * its instants go to the pairing of messages (Real sync) and to the
 * collective instances of its communicator (Potential sync, Time
 * variation).  Off, every hook is one predictable branch in the wrapper.
 *
 * The profiler issues no operation on the program's communicators, only
 * local queries (sizes, groups, rank translation): communicator ids are
 * derived by every member alone (commids.h), and everything the processes
 * exchange travels on the profiler's own communicator (ws_exchange.h).
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

#include "mpp_common.h"
#include "thread_state.h"
#include "wrapper_support.h"

extern int mpp_ws_on;

/* MPI_Init: clocks already aligned (offset, threshold in ticks); comm:
 * the profiler's own (a duplicate of the profiler's world, world.h), which carries every
 * message of the analysis. */
void mpp_ws_start(MPI_Comm comm, int64_t clock_offset, int64_t threshold, int batch, int thread_multiple);
/* Right after mpp_ws_start: waits counted at `fine` ticks but not at the
 * threshold go to the cells' fine part (waitstates.h, MPP_WAIT_FINE). */
void mpp_ws_fine_threshold(int64_t fine);
/* MPI_Finalize (collective): the last batches, the end of the exchange. */
void mpp_ws_finish(void);
/* Right after mpp_ws_start, when it did not start on every process: stop
 * without exchanging anything. */
void mpp_ws_cancel(void);

typedef struct {
    uint64_t messages;        /* messages whose send was recorded */
    uint64_t paired;          /* received messages paired with their send */
    uint64_t unpaired;        /* received messages whose send never came */
    uint64_t batches, batch_bytes; /* batches sent and their bytes */
    uint64_t instances;       /* collective instances recorded */
    uint64_t reductions;      /* batches of instants reduced */
    uint64_t exits_unknown;   /* nonblocking instances reduced before they completed */
    uint64_t dropped;         /* batches whose reduction ended without a result (members disagreed) */
    uint64_t unfollowed;      /* calls on communicators of more than one process without an id */
} mpp_ws_stats_t;
void mpp_ws_get_stats(mpp_ws_stats_t *out);

/* --- hooks (after mpp_call_end, only when mpp_ws_on) --- */
void mpp_ws_send(mpp_call_t *c, MPI_Comm comm, int dest, int tag);
/* A blocking receive (MPI_Recv, MPI_Sendrecv, ...) received the message of status. */
void mpp_ws_recv(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status);
void mpp_ws_mrecv(mpp_call_t *c, MPI_Message message, const MPI_Status *status);
void mpp_ws_probe(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, MPI_Message message);
/* Requests: a receive (persistent or not), a matched receive, a
 * persistent send, a nonblocking or persistent collective. */
void mpp_ws_irecv(mpp_call_t *c, MPI_Comm comm, MPI_Request request, int persistent);
void mpp_ws_imrecv(mpp_call_t *c, MPI_Message message, MPI_Request request);
void mpp_ws_send_init(mpp_call_t *c, MPI_Comm comm, int dest, int tag, MPI_Request request);
void mpp_ws_collective(mpp_call_t *c, MPI_Comm comm);
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

/* Scratch statuses for a completion called with MPI_STATUSES_IGNORE (the
 * analysis needs each message's source and tag); NULL: keep ignoring. */
MPI_Status *mpp_ws_statuses(int n);

#endif
