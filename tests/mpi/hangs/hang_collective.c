/* hang_collective: a collective only rank 0 reaches, for
 * tests/mpi/hangs/test_hang_collective.sh.
 *
 *   hang_collective sleep     rank 1 sleeps outside MPI (it is running)
 *   hang_collective recv      rank 1 waits for a message rank 0 never sends
 *                             (a cycle through the collective)
 *   hang_collective finalize  the same, but rank 0 is in MPI_Finalize
 *
 * Rank 0 calls MPI_Allreduce from the line marked MARK:allreduce (or
 * MPI_Finalize from MARK:finalize), rank 1 receives from the line marked
 * MARK:recv.  It never ends by itself: the test kills it. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int rank, size, in = 1, out = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || argc != 2 ||
        (strcmp(argv[1], "sleep") != 0 && strcmp(argv[1], "recv") != 0 && strcmp(argv[1], "finalize") != 0)) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 hang_collective sleep|recv|finalize\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    printf("hang_collective: rank %d starts\n", rank);
    fflush(stdout);
    if (rank == 0 && strcmp(argv[1], "finalize") == 0) {
        MPI_Finalize(); /* MARK:finalize */
        return 0;
    } else if (rank == 0) {
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
    } else if (strcmp(argv[1], "recv") == 0 || strcmp(argv[1], "finalize") == 0) {
        MPI_Recv(&out, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
    } else {
        for (;;)
            sleep(1);
    }
    MPI_Finalize();
    return 0;
}
