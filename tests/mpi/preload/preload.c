/* preload: an ordinary MPI program, compiled with plain mpicc (no profiler)
 * and profiled by LD_PRELOADing libmpiprof.so, for tests/mpi/preload/test_preload.sh.
 *
 *   10 x MPI_Bcast of 16 doubles from rank 0, from one line;
 *   10 x MPI_Allreduce of 1 double, from one line;
 *    5 x MPI_Send/MPI_Recv of 100 ints from rank 1 to rank 0.
 *
 * The test finds the lines by their MARK: comments (keep each marked call on
 * one line).  Run with exactly 2 processes. */
#include <mpi.h>
#include <stdio.h>

#define N_ROUNDS 10
#define N_MSGS 5

int main(int argc, char **argv)
{
    int rank, size, i, j;
    double data[16], local, global = 0.0;
    int msg[100];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "preload: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (i = 0; i < N_ROUNDS; i++) {
        for (j = 0; j < 16; j++)
            data[j] = rank == 0 ? i + j : -1.0;
        MPI_Bcast(data, 16, MPI_DOUBLE, 0, MPI_COMM_WORLD); /* MARK:bcast */
        local = data[15];
        MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
    }

    for (i = 0; i < N_MSGS; i++) {
        if (rank == 1) {
            for (j = 0; j < 100; j++)
                msg[j] = i + j;
            MPI_Send(msg, 100, MPI_INT, 0, i, MPI_COMM_WORLD); /* MARK:send */
        } else {
            MPI_Recv(msg, 100, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
        }
    }

    if (rank == 0)
        printf("preload: %s\n", global == 2.0 * (N_ROUNDS - 1 + 15) && msg[99] == N_MSGS - 1 + 99 ? "ok" : "wrong");
    MPI_Finalize();
    return 0;
}
