/* matrix_roles: every way a call counts in the communication matrix, on 2
 * processes (test_matrix_trace.sh):
 *   rank 0 -> 1: 4 x MPI_Send of 100 bytes (MPI_Recv on rank 1);
 *   rank 1 -> 0: 3 x MPI_Isend of 64 bytes (MPI_Irecv naming rank 1);
 *   both ways: 2 x MPI_Sendrecv of 200 bytes;
 *   rank 0 -> 1: 1 x MPI_Sendrecv of 50 bytes whose other side is
 *   MPI_PROC_NULL on both ranks (rank 0 receives from it, rank 1 sends to it);
 *   rank 0 -> 1: 2 x a persistent send of 8 bytes (MPI_Start: not counted),
 *   received by MPI_Recv.
 * Known matrix: 0 -> 1 7 messages, 850 bytes; 1 -> 0 5 messages, 592
 * bytes.  Prints "matrix_roles: ok" on rank 0. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    int rank, size;
    char out[200] = {0}, in[200];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "matrix_roles: run with 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int other = 1 - rank;
    for (int i = 0; i < 4; i++) {
        if (rank == 0)
            MPI_Send(out, 100, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
        else
            MPI_Recv(in, 100, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 3; i++) {
        MPI_Request r;
        if (rank == 1)
            MPI_Isend(out, 64, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &r);
        else
            MPI_Irecv(in, 64, MPI_CHAR, 1, 2, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < 2; i++)
        MPI_Sendrecv(out, 200, MPI_CHAR, other, 3, in, 200, MPI_CHAR, other, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Sendrecv(out, 50, MPI_CHAR, 1, 4, in, 50, MPI_CHAR, MPI_PROC_NULL, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else
        MPI_Sendrecv(out, 50, MPI_CHAR, MPI_PROC_NULL, 4, in, 50, MPI_CHAR, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request p;
    if (rank == 0)
        MPI_Send_init(out, 8, MPI_CHAR, 1, 5, MPI_COMM_WORLD, &p);
    for (int i = 0; i < 2; i++) {
        if (rank == 0) {
            MPI_Start(&p);
            MPI_Wait(&p, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, 8, MPI_CHAR, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    }
    if (rank == 0)
        MPI_Request_free(&p);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("matrix_roles: ok\n");
    MPI_Finalize();
    return 0;
}
