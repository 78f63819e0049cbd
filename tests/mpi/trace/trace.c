/* trace: MPI events of known number, peers, tags and bytes, for trace mode
 * (test_trace.sh, check_trace.py).  Two processes:
 *   interval "exchange" (both ranks):
 *     3 x MPI_Send rank 0 -> 1, tag 7, 100 ints; rank 1 MPI_Recv
 *     MPI_Isend rank 1 -> 0, tag 9, 16 doubles + MPI_Irecv on rank 0,
 *       completed by MPI_Waitall (rank 0: with its MPI_Isend of tag 11,
 *       4 chars, to rank 1, received by a blocking MPI_Recv)
 *   interval "collectives": MPI_Bcast (root 0, 8 ints), MPI_Allreduce
 *     (1 double), MPI_Barrier, on MPI_COMM_WORLD;
 *     MPI_Reduce (root 1, 2 ints) on a duplicate of MPI_COMM_WORLD
 *   replicated code (mpiprof_seq_begin/end) once per rank
 *   argument FLOOD: that many more 0-byte MPI_Send/MPI_Recv pairs rank
 *     0 -> 1 with tag 5 (to fill a small trace buffer)
 * It prints "rank=R ok" at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "mpiprof.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "trace: needs 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    long flood = argc > 1 ? atol(argv[1]) : 0;
    int ints[100] = {0};
    double doubles[16] = {0};
    char chars[4] = "abc";

    MPIPROF_INTERVAL_BEGIN("exchange");
    for (int i = 0; i < 3; i++) {
        if (rank == 0)
            MPI_Send(ints, 100, MPI_INT, 1, 7, MPI_COMM_WORLD);
        else
            MPI_Recv(ints, 100, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (rank == 0) {
        MPI_Request r[2];
        MPI_Irecv(doubles, 16, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(chars, 4, MPI_CHAR, 1, 11, MPI_COMM_WORLD, &r[1]);
        MPI_Status st[2];
        MPI_Waitall(2, r, st);
    } else {
        MPI_Request r;
        MPI_Isend(doubles, 16, MPI_DOUBLE, 0, 9, MPI_COMM_WORLD, &r);
        MPI_Recv(chars, 4, MPI_CHAR, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPIPROF_INTERVAL_END();

    MPIPROF_INTERVAL_BEGIN("collectives");
    MPI_Bcast(ints, 8, MPI_INT, 0, MPI_COMM_WORLD);
    double x = rank, sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int two[2] = {rank, rank}, out[2];
    MPI_Reduce(two, out, 2, MPI_INT, MPI_SUM, 1, dup);
    MPI_Comm_free(&dup);
    MPIPROF_INTERVAL_END();

    mpiprof_seq_begin();
    volatile double v = 0;
    for (int i = 0; i < 100000; i++)
        v += i;
    mpiprof_seq_end();

    for (long i = 0; i < flood; i++) {
        if (rank == 0)
            MPI_Send(NULL, 0, MPI_BYTE, 1, 5, MPI_COMM_WORLD);
        else
            MPI_Recv(NULL, 0, MPI_BYTE, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    printf("rank=%d ok\n", rank);
    MPI_Finalize();
    return 0;
}
