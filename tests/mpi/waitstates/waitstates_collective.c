/* waitstates_collective: Potential sync and Time variation of collective
 * operations entered at different instants, for
 * tests/mpi/waitstates/test_waitstates_collective.sh.
 *
 * Three phases, each an interval: rank r computes (r+1) x T_SKEW (busy
 * loop) before each of N_OPS
 *   "allreduce"   MPI_Allreduce
 *   "iallreduce"  MPI_Iallreduce, then MPI_Wait at once
 *   "barrier"     MPI_Barrier
 * Both ranks leave each operation together (rank 1's entry completes it),
 * so at the next one rank 0 enters T_SKEW before rank 1: per instance
 * Potential sync = sum_p (max_q start_q - start_p) = T_SKEW, all of it rank
 * 0's, and Time variation (the spread of the exits) ~ 0.  Per phase:
 * Potential sync ~ N_OPS x T_SKEW = 0.2 s.
 *
 * The ranks meet before each phase with an MPI_Sendrecv (point to point:
 * no Potential sync), so the whole program's Potential sync is the three
 * phases' (0.6 s).  Each rank prints one line
 *   rank=R allreduce=S iallreduce=S barrier=S
 * with its time inside the operations of each phase (iallreduce: from the
 * MPI_Iallreduce's entry to the MPI_Wait's exit), and records the entry and
 * exit of every instance (events allreduce, iallreduce, barrier:
 * waitstates_events.c) in PREFIX.RANK (PREFIX: the first argument, default
 * "events").  Run with 2 processes. */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#include "mpiprof.h"

#define N_OPS 20
#define T_SKEW 0.010

static int rank;

/* Meet the other rank without a collective operation. */
static void align(void)
{
    int in = rank, out = -1;
    MPI_Sendrecv(&in, 1, MPI_INT, 1 - rank, 99, &out, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:align */
}

int main(int argc, char **argv)
{
    int size, i, value, sum, errors = 0;
    double t, t1, m_allreduce = 0, m_iallreduce = 0, m_barrier = 0;
    const char *prefix = argc > 1 ? argv[1] : "events";
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "waitstates_collective: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    align();
    MPIPROF_INTERVAL_BEGIN("allreduce");
    for (i = 0; i < N_OPS; i++) {
        ws_busy((rank + 1) * T_SKEW);
        value = rank + i;
        t = ws_now();
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
        t1 = ws_now();
        ws_record("allreduce", i, t, t1);
        m_allreduce += t1 - t;
        errors += sum != 1 + 2 * i;
    }
    MPIPROF_INTERVAL_END();

    align();
    MPIPROF_INTERVAL_BEGIN("iallreduce");
    for (i = 0; i < N_OPS; i++) {
        ws_busy((rank + 1) * T_SKEW);
        value = rank + i;
        t = ws_now();
        MPI_Iallreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req); /* MARK:iallreduce */
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* MARK:iwait */
        t1 = ws_now();
        ws_record("iallreduce", i, t, t1);
        m_iallreduce += t1 - t;
        errors += sum != 1 + 2 * i;
    }
    MPIPROF_INTERVAL_END();

    align();
    MPIPROF_INTERVAL_BEGIN("barrier");
    for (i = 0; i < N_OPS; i++) {
        ws_busy((rank + 1) * T_SKEW);
        t = ws_now();
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier */
        t1 = ws_now();
        ws_record("barrier", i, t, t1);
        m_barrier += t1 - t;
    }
    MPIPROF_INTERVAL_END();

    if (errors)
        fprintf(stderr, "waitstates_collective: rank %d: %d wrong sums\n", rank, errors);
    errors += ws_write_events(prefix, rank);
    printf("rank=%d allreduce=%.6f iallreduce=%.6f barrier=%.6f\n", rank, m_allreduce, m_iallreduce,
           m_barrier);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
