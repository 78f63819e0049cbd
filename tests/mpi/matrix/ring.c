/* ring: a known communication matrix on 4 processes (test_matrix_ring.sh).
 * Each rank sends 10 messages of 1000 bytes to its right neighbour (MPI_Send
 * and MPI_Recv) and 5 of 400 bytes to its left one (MPI_Sendrecv), and
 * takes part in collectives, which are no pairs.  Then on the communicator
 * of the even and of the odd ranks, its rank 0 sends 3 messages of 100
 * bytes to its rank 1 (world ranks 0 -> 2 and 1 -> 3): the matrix names
 * world ranks.  Every process prints "ring: rank R done". */
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 10
#define BACK 5

int main(int argc, char **argv)
{
    int rank, size;
    char big[1000] = {0}, small[400] = {0}, in[1000];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    for (int i = 0; i < ROUNDS; i++) {
        if (rank % 2 == 0) {
            MPI_Send(big, sizeof big, MPI_CHAR, right, 1, MPI_COMM_WORLD);
            MPI_Recv(in, sizeof in, MPI_CHAR, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, sizeof in, MPI_CHAR, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(big, sizeof big, MPI_CHAR, right, 1, MPI_COMM_WORLD);
        }
    }
    for (int i = 0; i < BACK; i++)
        MPI_Sendrecv(small, sizeof small, MPI_CHAR, left, 2, in, sizeof small, MPI_CHAR, right, 2, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    MPI_Comm half;
    int hrank;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Comm_rank(half, &hrank);
    for (int i = 0; i < 3; i++) {
        if (hrank == 0)
            MPI_Send(small, 100, MPI_CHAR, 1, 3, half);
        else if (hrank == 1)
            MPI_Recv(in, 100, MPI_CHAR, 0, 3, half, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&half);
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("ring: rank %d done\n", rank);
    MPI_Finalize();
    return sum == size ? 0 : 1;
}
