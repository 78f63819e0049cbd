/* model_load: a short run whose communication the model prices, for
 * tests/mpi/model/test_model_load.sh, which runs it on a quiet node, beside busy
 * processes, and with both processes bound to one CPU.  Each of 20
 * iterations computes about 1 ms (a busy loop on the clock), then makes an
 * 8-byte MPI_Sendrecv with the other process and an MPI_Allreduce of one
 * double: few messages, so that a run whose processes share one CPU (every
 * message then waits for a time slice) stays short.  Run with 2 processes. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

enum { ITERATIONS = 20 };
#define COMPUTE 1e-3

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "model_load: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double out = rank, in = 0, sum = 0;
    for (int i = 0; i < ITERATIONS; i++) {
        busy(COMPUTE);
        MPI_Sendrecv(&out, 1, MPI_DOUBLE, 1 - rank, 0, &in, 1, MPI_DOUBLE, 1 - rank, 0, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        MPI_Allreduce(&in, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("sum=%g\n", sum);
    MPI_Finalize();
    return 0;
}
