/* output_name: a minimal MPI program for tests/mpi/context/test_output_name.sh, run
 * without MPIPROF_OUTPUT to exercise the default protocol file name. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, sum;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("output_name: rank sum %d\n", sum);
    MPI_Finalize();
    return 0;
}
