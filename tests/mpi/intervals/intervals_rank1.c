/* intervals_rank1: intervals that not every process enters, for
 * tests/mpi/intervals/test_intervals_rank1.sh.
 *
 *   "A"          both ranks
 *     "B"        rank 0 only, after busy T_DELAY in "A": busy T_B, then
 *                N_MSG x MPI_Send to rank 1
 *     "C"        rank 1 only: busy T_C, then N_MSG x MPI_Recv from rank 0
 *   "only1"      rank 1 only, N_ONLY1 times: busy T_ONLY1, MPI_Comm_size
 *
 * So the two ranks have different interval trees (A->B on rank 0, A->C on
 * rank 1); the protocol must give their union.  "C" is entered first (T_DELAY
 * earlier than "B"), so in the protocol it comes before "B", unlike in
 * alphabetical order.  Each rank measures its time
 * in each interval (from just before the begin mark to just after the end
 * mark) and prints
 *   rank=R a=S b=S c=S only1=S
 * (0 for an interval it does not enter).  Computation is a busy loop on the
 * clock, not sleep.  Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "mpiprof.h"

#define N_MSG 10
#define N_ONLY1 3
#define T_B 0.030
#define T_C 0.020
#define T_DELAY 0.050
#define T_ONLY1 0.020

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size, i, n, msg, errors = 0;
    double t, t2, a = 0, b = 0, c = 0, only1 = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "intervals_rank1: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    t = now();
    MPIPROF_INTERVAL_BEGIN("A"); /* MARK:A */
    if (rank == 0) {
        busy(T_DELAY);
        t2 = now();
        MPIPROF_INTERVAL_BEGIN("B"); /* MARK:B */
        busy(T_B);
        for (i = 0; i < N_MSG; i++) {
            msg = i;
            MPI_Send(&msg, 1, MPI_INT, 1, 5, MPI_COMM_WORLD); /* MARK:send */
        }
        MPIPROF_INTERVAL_END();
        b = now() - t2;
    } else {
        t2 = now();
        MPIPROF_INTERVAL_BEGIN("C"); /* MARK:C */
        busy(T_C);
        for (i = 0; i < N_MSG; i++) {
            MPI_Recv(&msg, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
            errors += msg != i;
        }
        MPIPROF_INTERVAL_END();
        c = now() - t2;
    }
    MPIPROF_INTERVAL_END();
    a = now() - t;

    if (rank == 1) {
        for (i = 0; i < N_ONLY1; i++) {
            t = now();
            MPIPROF_INTERVAL_BEGIN("only1"); /* MARK:only1 */
            busy(T_ONLY1);
            MPI_Comm_size(MPI_COMM_WORLD, &n); /* MARK:only1_size */
            MPIPROF_INTERVAL_END();
            only1 += now() - t;
        }
    }

    if (errors)
        fprintf(stderr, "intervals_rank1: rank %d: %d wrong results\n", rank, errors);
    printf("rank=%d a=%.6f b=%.6f c=%.6f only1=%.6f\n", rank, a, b, c, only1);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
