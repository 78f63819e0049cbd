/* idle: rank 0 computes T_TAIL seconds after its last MPI call, before
 * MPI_Finalize, while rank 1 goes straight to MPI_Finalize; for
 * tests/mpi/characteristics/test_idle.sh.
 *
 * Expected: Idle time = sum_p (T_exec - T_exec(p)) = T_exec(0) - T_exec(1)
 * ~ T_TAIL, all of it on rank 1.  Each rank prints its own measurement
 *   rank=R exec=SECONDS
 * (from MPI_Init's return to MPI_Finalize's entry) for the check.
 * Computation is a busy loop on the clock, not sleep.  Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define T_TAIL 0.200

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size, sum;
    double start;

    MPI_Init(&argc, &argv);
    start = now();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "idle: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* Some communication first, so the interval is not empty of it. */
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier */

    /* The last MPI call was the barrier; only rank 0 works on. */
    if (rank == 0)
        busy(T_TAIL);

    printf("rank=%d exec=%.6f\n", rank, now() - start);
    fflush(stdout);
    MPI_Finalize();
    return sum != 1;
}
