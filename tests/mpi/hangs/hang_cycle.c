/* hang_cycle: a deadlock, for tests/mpi/hangs/test_hang_cycle.sh.  Each of the 2
 * processes first receives from the other (from lines marked MARK:), so
 * neither ever sends: with MPIPROF_HANG_TIMEOUT set both write a hang
 * dump.  With the argument "send" each first sends 16 MiB to the other in
 * standard mode instead, which MPI does not buffer: a deadlock that a
 * buffering MPI would not have (potential).  It never ends by itself: the
 * test kills it. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int rank, size, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "hang_cycle: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 1 && !strcmp(argv[1], "send")) {
        enum { N = 4 << 20 };
        int *big = calloc(N, sizeof *big);
        printf("hang_cycle: rank %d sends\n", rank);
        fflush(stdout);
        MPI_Send(big, N, MPI_INT, 1 - rank, 8, MPI_COMM_WORLD); /* MARK:send */
        MPI_Recv(big, N, MPI_INT, 1 - rank, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        free(big);
        MPI_Finalize();
        return 0;
    }
    printf("hang_cycle: rank %d receives\n", rank);
    fflush(stdout);
    if (rank == 0)
        MPI_Recv(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv0 */
    else
        MPI_Recv(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv1 */
    MPI_Send(&value, 1, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
