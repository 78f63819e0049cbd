/* trace_died: a traced run that ends without MPI_Finalize, for
 * tests/mpi/trace/test_trace_died.sh.
 *
 *   trace_died MODE ROUNDS
 *
 * Rank 0 sends ROUNDS messages of one int to rank 1, which receives them;
 * then MODE decides how the run ends:
 *   segv    rank 1 writes through a null pointer; rank 0 waits in MPI_Recv
 *   abort   rank 1 calls MPI_Abort(MPI_COMM_WORLD, 7); rank 0 waits
 * Run with 2 processes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, value = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *mode = argc > 1 ? argv[1] : "segv";
    long rounds = argc > 2 ? atol(argv[2]) : 1000;
    for (long i = 0; i < rounds; i++) {
        if (rank == 0)
            MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        else
            MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 1 && !strcmp(mode, "segv")) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    } else if (rank == 1 && !strcmp(mode, "abort")) {
        MPI_Abort(MPI_COMM_WORLD, 7);
    }
    /* waits for a message that never comes */
    MPI_Recv(&value, 1, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
