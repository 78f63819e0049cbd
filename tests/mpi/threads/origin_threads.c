/* origin_threads: requests started by one thread and completed by another
 * (MPI_THREAD_SERIALIZED).  Each round, on rank 0, a new thread makes an
 * MPI_Isend of 8 bytes and ends; the main thread sleeps 20 ms, then waits
 * for the request.  The request's Overlap belongs to the MPI_Isend's SRC
 * point, a cell of the starting thread's table, which the completing
 * thread finds by the frames the request's origin keeps.  Rank 1 receives.
 *
 *   mpiexec -n 2 ./origin_threads ROUNDS
 *
 * Prints "origin_threads: ok rounds=N" on rank 0, or says that
 * MPI_THREAD_SERIALIZED is not provided. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static MPI_Request request;
static double out = 1.0;

static void *start(void *arg)
{
    (void)arg;
    MPI_Isend(&out, 8, MPI_BYTE, 1, 7, MPI_COMM_WORLD, &request); /* MARK:isend */
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rank, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 6;
    if (provided < MPI_THREAD_SERIALIZED) {
        if (rank == 0)
            printf("MPI_THREAD_SERIALIZED not provided\n");
        MPI_Finalize();
        return 0;
    }
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "origin_threads needs 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int r = 0; r < rounds; r++) {
        if (rank == 0) {
            pthread_t t;
            if (pthread_create(&t, NULL, start, NULL) != 0 || pthread_join(t, NULL) != 0) {
                fprintf(stderr, "origin_threads: no thread\n");
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
            struct timespec ms20 = {0, 20000000};
            nanosleep(&ms20, NULL);
            MPI_Wait(&request, MPI_STATUS_IGNORE); /* MARK:wait */
        } else {
            double in = 0;
            MPI_Recv(&in, 8, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            if (in != 1.0) {
                fprintf(stderr, "origin_threads: received %g, expected 1\n", in);
                MPI_Abort(MPI_COMM_WORLD, 4);
            }
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("origin_threads: ok rounds=%d\n", rounds);
    MPI_Finalize();
    return 0;
}
