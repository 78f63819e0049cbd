/* load_imbalance: rank 1 computes twice as long as rank 0 before each of
 * N_STEPS barriers, for tests/mpi/characteristics/test_load_imbalance.sh.
 *
 * Computation is a busy loop on the clock (not sleep), so it is CPU time,
 * and lasts a given wall time even on a loaded machine.  Expected:
 *   Load imbalance   = sum_p (max_q C(q) - C(p)) = N_STEPS * (T1 - T0)
 *   Communication(0) = rank 0's barrier waits     = N_STEPS * (T1 - T0)
 * Each rank also measures itself and prints
 *   rank=R exec=SECONDS comm=SECONDS
 * (exec: from MPI_Init's return to MPI_Finalize's entry; comm: time inside
 * MPI calls) so the check can compare with what really happened.
 * Run with exactly 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define N_STEPS 20
#define T0 0.010 /* seconds of computation per step on rank 0 */
#define T1 0.020 /* ... on rank 1 */

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size, i;
    double start, t, comm = 0.0;

    MPI_Init(&argc, &argv);
    start = now();
    t = now();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    comm += now() - t;
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "load_imbalance: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (i = 0; i < N_STEPS; i++) {
        busy(rank == 1 ? T1 : T0);
        t = now();
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier */
        comm += now() - t;
    }

    printf("rank=%d exec=%.6f comm=%.6f\n", rank, now() - start, comm);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
