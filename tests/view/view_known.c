/* view_known: a program whose protocol the page tests know
 * (tests/view/test_view_page.sh).  Run with 2 processes:
 *
 *   view_known EXTRA
 *
 *   "setup"         once: busy T_SETUP, MPI_Bcast, then reduce_step()
 *   "solve"         N_STEPS x:
 *     "exchange"    N_STEPS x: MPI_Sendrecv with the other rank
 *                   busy T_STEP (rank 1: T_STEP + EXTRA / N_STEPS), then
 *                   reduce_step(): MPI_Allreduce
 *   MPI_Barrier
 *
 * reduce_step's MPI_Allreduce is one source line reached from two callers
 * (setup and solve): two SRC points at one line, in two intervals.  Rank 0
 * waits for rank 1 in each MPI_Allreduce of "solve": EXTRA seconds of
 * rank 1's computation more make rank 0's Collective time EXTRA seconds
 * longer, and no other part of the Lost time grows (both leave each
 * MPI_Allreduce together).  The tests find the lines by their MARK:
 * comments.  Computation is a busy loop on the clock, not sleep. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "../mpi/lib/busy.h"
#include "mpiprof.h"

#define N_STEPS 10
#define T_SETUP 0.020
#define T_STEP 0.002

static __attribute__((noinline)) int reduce_step(int value)
{
    int sum = 0;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
    return sum;
}

int main(int argc, char **argv)
{
    int rank, size, value = 1, other, check = 0;
    double extra = argc > 1 ? atof(argv[1]) : 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "view_known: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2); /* MARK:abort */
    }

    MPIPROF_INTERVAL_BEGIN("setup"); /* MARK:setup */
    busy(T_SETUP);
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); /* MARK:bcast */
    check += reduce_step(value); /* MARK:reduce_setup */
    MPIPROF_INTERVAL_END();

    for (int step = 0; step < N_STEPS; step++) {
        MPIPROF_INTERVAL_BEGIN("solve"); /* MARK:solve */
        MPIPROF_INTERVAL_BEGIN("exchange"); /* MARK:exchange */
        MPI_Sendrecv(&rank, 1, MPI_INT, 1 - rank, 0, &other, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:sendrecv */
        MPIPROF_INTERVAL_END();
        busy(T_STEP + (rank == 1 ? extra / N_STEPS : 0.0));
        check += reduce_step(other); /* MARK:reduce_solve */
        MPIPROF_INTERVAL_END();
    }
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier */
    if (rank == 0)
        printf("view_known: extra=%.3f check=%d\n", extra, check);
    MPI_Finalize();
    return 0;
}
