/* What the generated point-to-point wrappers call for the communication
 * matrix (accumulate/matrix.h): after a counted call (its cell set) that
 * succeeded, the peer's world rank, the message and bytes a send sent, and
 * the call's time go to the process's peer table.  World ranks on the
 * profiler's world are the ranks themselves; on another communicator they
 * come from the registry the wait-state analysis keeps (comms.h), the same
 * translation its hooks use; without it (MPIPROF_WAITSTATES=off) such calls
 * are counted as not attributed.  One thread making MPI calls takes no
 * lock; under MPI_THREAD_MULTIPLE a mutex guards the table. */
#ifndef MPP_MATRIX_HOOK_H
#define MPP_MATRIX_HOOK_H

#include <mpi.h>

#include "accumulate/matrix.h"
#include "attribute/thread_state.h"
#include "intercept/world.h"
#include "util/common.h"
#include "util/mt_lock.h"

extern int mpp_matrix_on;
extern mpp_peer_table_t mpp_matrix_table;
extern mpp_mt_lock_t mpp_matrix_lock;
extern uint64_t mpp_matrix_unattributed; /* calls on communicators whose ranks are not known here */

/* MPI_Init, after the wait-state analysis started (or did not), collective
 * over comm (the profiler's world): rank 0's MPIPROF_MATRIX and
 * MPIPROF_MATRIX_RANKS for every process; on, the table allocated for its
 * first peers. */
void mpp_matrix_start(MPI_Comm comm, int thread_multiple);

/* This process's row of the matrix so far, for its partial protocol
 * (allocated, *n of them; *n -1 when it does not count: MPIPROF_MATRIX=off,
 * no memory), and its calls in no pair (*not_counted). */
mpp_pair_t *mpp_matrix_own_pairs(int rank, int *n, double *not_counted);

/* MPI_Finalize, collective over comm: the run's matrix on rank 0 (NULL
 * elsewhere, and where it is n/a: *na then says why), the table freed. */
struct mpp_matrix *mpp_matrix_finish(MPI_Comm comm, const char *hostname, const char **na);

/* The world rank of `rank` of a communicator other than the world's; -1
 * when it names none or is not known here. */
int mpp_matrix_peer_slow(MPI_Comm comm, int rank);

MPP_ALWAYS_INLINE int mpp_matrix_peer(MPI_Comm comm, int rank)
{
    if (rank < 0) /* MPI_PROC_NULL, MPI_ANY_SOURCE */
        return -1;
    if (MPP_LIKELY(comm == mpp_world()))
        return rank;
    return mpp_matrix_peer_slow(comm, rank);
}

MPP_ALWAYS_INLINE void mpp_matrix_add(MPI_Comm comm, int rank, uint64_t messages, uint64_t bytes, uint64_t ticks)
{
    int peer = mpp_matrix_peer(comm, rank);
    if (peer < 0)
        return;
    mpp_mt_take(&mpp_matrix_lock);
    mpp_peer_add(&mpp_matrix_table, peer, messages, bytes, ticks);
    mpp_mt_give(&mpp_matrix_lock);
}

/* A send (blocking or the posting of a nonblocking one): one message. */
MPP_ALWAYS_INLINE void mpp_matrix_send(const mpp_call_t *c, MPI_Comm comm, int dest)
{
    mpp_matrix_add(comm, dest, 1, (uint64_t)c->bytes_sent, c->t1 - c->t0);
}

/* A blocking receive: its time to the sender of the message it took. */
MPP_ALWAYS_INLINE void mpp_matrix_recv(const mpp_call_t *c, MPI_Comm comm, const MPI_Status *status)
{
    mpp_matrix_add(comm, status->MPI_SOURCE, 0, 0, c->t1 - c->t0);
}

/* A nonblocking receive's posting, when it names its source. */
MPP_ALWAYS_INLINE void mpp_matrix_irecv(const mpp_call_t *c, MPI_Comm comm, int source)
{
    mpp_matrix_add(comm, source, 0, 0, c->t1 - c->t0);
}

/* MPI_Sendrecv: the message to dest, the time half to each peer. */
MPP_ALWAYS_INLINE void mpp_matrix_sendrecv(const mpp_call_t *c, MPI_Comm comm, int dest, const MPI_Status *status)
{
    uint64_t dt = c->t1 - c->t0, half = dt / 2;
    int from = status->MPI_SOURCE;
    if (from < 0) { /* MPI_PROC_NULL: all of it to dest */
        mpp_matrix_add(comm, dest, 1, (uint64_t)c->bytes_sent, dt);
        return;
    }
    mpp_matrix_add(comm, dest, 1, (uint64_t)c->bytes_sent, dest < 0 ? 0 : dt - half);
    mpp_matrix_add(comm, from, 0, 0, dest < 0 ? dt : half);
}

#endif
