/* config_warnings: a small, deterministic MPI program for
 * tests/mpi/context/test_config_warnings.sh.  Only rank 0 writes, one line to
 * stdout and one to stderr, so runs can be compared byte for byte. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size, sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("config_warnings: %d processes, rank sum %d\n", size, sum);
        fflush(stdout);
        fprintf(stderr, "config_warnings: a line on stderr\n");
    }
    MPI_Finalize();
    return 0;
}
