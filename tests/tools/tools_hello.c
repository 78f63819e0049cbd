/* tools_hello: a small MPI program for the commands' tests (tests/tools/):
 * one reduction, so that its protocol has an SRC point to show and compare. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("tools_hello: %d processes, rank sum %d\n", size, sum);
    MPI_Finalize();
    return 0;
}
