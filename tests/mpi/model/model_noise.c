/* model_noise: the same iterations twice, once as they are and once with
 * one process delayed at random between them, for
 * tests/mpi/model/test_model_noise.sh.
 *
 *   model_noise quiet | noisy
 *
 * Each of 150 iterations computes 1 ms (a busy loop on the clock) on every
 * process, then makes an MPI_Allreduce of one double and an MPI_Sendrecv of
 * 1 KiB with the other process.  noisy: rank 1 also sleeps a random 0..3 ms
 * before each iteration's communication (seeded: the same delays in every
 * run), which its partner spends waiting inside MPI.  The real
 * parallelization efficiency drops; the predicted one, built from the
 * model's communication times and the mean computation, hardly moves.
 * Run with 2 processes. */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { ITERATIONS = 150, MSG_BYTES = 1024 };
#define COMPUTE 1e-3
#define MAX_DELAY 3e-3

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size;
    static char out[MSG_BYTES], in[MSG_BYTES];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int noisy = argc > 1 && !strcmp(argv[1], "noisy");
    if (size != 2 || argc != 2 || (!noisy && strcmp(argv[1], "quiet"))) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 model_noise quiet|noisy\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    unsigned seed = 12345;
    double delayed = 0, x = rank, sum = 0;
    for (int i = 0; i < ITERATIONS; i++) {
        busy(COMPUTE);
        if (noisy && rank == 1) {
            double d = MAX_DELAY * (double)(rand_r(&seed) % 1000) / 1000.0;
            struct timespec ts = {0, (long)(d * 1e9)};
            nanosleep(&ts, NULL);
            delayed += d;
        }
        MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
        MPI_Sendrecv(out, MSG_BYTES, MPI_BYTE, 1 - rank, 5, in, MSG_BYTES, MPI_BYTE, 1 - rank, 5, /* MARK:sendrecv */
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("rank=%d delayed=%.6f\n", rank, delayed);
    MPI_Finalize();
    return sum != 1.0;
}
