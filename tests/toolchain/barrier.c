/* barrier.c: the smallest MPI program the toolchain tests build in every
 * way (linked in the wrong order, in the right one, plain and preloaded):
 * one MPI_Barrier at a known line, marked for the checks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD); /* MARK barrier */
    MPI_Finalize();
    if (rank == 0)
        printf("barrier: ok\n");
    return 0;
}
