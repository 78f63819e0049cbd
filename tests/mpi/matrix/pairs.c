/* pairs: a known communication matrix on 2 processes (test_matrix_off.sh).
 * Rank 0 sends 7 messages of 100 bytes to rank 1, rank 1 sends 3 of 50
 * back; then an MPI_Allreduce (no pair).  Every process prints
 * "pairs: rank R done". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank;
    char buf[100] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 7; i++) {
        if (rank == 0)
            MPI_Send(buf, 100, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
        else if (rank == 1)
            MPI_Recv(buf, 100, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 3; i++) {
        if (rank == 1)
            MPI_Send(buf, 50, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
        else if (rank == 0)
            MPI_Recv(buf, 50, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    printf("pairs: rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
