/* model_known: MPI calls of known operations and sizes, for
 * tests/mpi/model/test_model_known.sh, run with MPIPROF_MODEL giving every
 * parameter of the communication model.  Each SRC point's predicted time
 * must then be its calls times the formula's value (mpiprof(7), MODEL):
 *
 *   200 x MPI_Send / MPI_Recv of 65536 bytes, rank 0 to rank 1   a + n b
 *   100 x MPI_Allreduce of 1000 doubles (8000 bytes)              Rabenseifner
 *    50 x MPI_Bcast of 100000 bytes from rank 0                   binomial tree
 *    30 x MPI_Barrier                                             dissemination
 *    20 x MPI_Sendrecv, 4000 bytes sent, 8000 posted              a + 8000 b
 *    20 x MPI_Gather of 1000 bytes per process to rank 0          binomial tree
 *    10 x MPI_Send of 1000 bytes to MPI_PROC_NULL                 no transfer: 0
 *    10 x MPI_Irecv + MPI_Isend of 32768 bytes, MPI_Waitall       a + n b each, less Overlap
 *    10 x MPI_Start of a persistent send (rank 0) or receive (rank 1) of 16384 bytes,
 *         made by MPI_Send_init / MPI_Recv_init, and MPI_Wait       a + n b at each start, less Overlap
 *
 * Marked lines (MARK:) are found by the check.  Run with 2 processes. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

enum { N_SEND = 200, SEND_BYTES = 65536, N_ALLREDUCE = 100, ALLREDUCE_COUNT = 1000, N_BCAST = 50,
       BCAST_BYTES = 100000, N_BARRIER = 30, N_SENDRECV = 20, N_GATHER = 20, GATHER_BYTES = 1000,
       N_PROCNULL = 10, N_NONBLOCKING = 10, NB_BYTES = 32768, N_PERSISTENT = 10, PERSISTENT_BYTES = 16384 };

static char sendbuf[BCAST_BYTES], recvbuf[2 * BCAST_BYTES];
static double in[ALLREDUCE_COUNT], out[ALLREDUCE_COUNT];

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "model_known: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int peer = 1 - rank;
    memset(sendbuf, rank + 1, sizeof sendbuf);

    for (int i = 0; i < N_SEND; i++) {
        if (rank == 0)
            MPI_Send(sendbuf, SEND_BYTES, MPI_BYTE, 1, 1, MPI_COMM_WORLD); /* MARK:send */
        else
            MPI_Recv(recvbuf, SEND_BYTES, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
    }
    for (int i = 0; i < N_ALLREDUCE; i++) {
        in[i % ALLREDUCE_COUNT] = rank + i;
        MPI_Allreduce(in, out, ALLREDUCE_COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
        errors += out[i % ALLREDUCE_COUNT] != 2.0 * i + 1;
    }
    for (int i = 0; i < N_BCAST; i++)
        MPI_Bcast(rank == 0 ? sendbuf : recvbuf, BCAST_BYTES, MPI_BYTE, 0, MPI_COMM_WORLD); /* MARK:bcast */
    for (int i = 0; i < N_BARRIER; i++)
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier */
    for (int i = 0; i < N_SENDRECV; i++)
        MPI_Sendrecv(sendbuf, 4000, MPI_BYTE, peer, 2, recvbuf, 8000, MPI_BYTE, peer, 2, MPI_COMM_WORLD, /* MARK:sendrecv */
                     MPI_STATUS_IGNORE);
    for (int i = 0; i < N_GATHER; i++)
        MPI_Gather(sendbuf, GATHER_BYTES, MPI_BYTE, recvbuf, GATHER_BYTES, MPI_BYTE, 0, MPI_COMM_WORLD); /* MARK:gather */
    for (int i = 0; i < N_PROCNULL; i++)
        MPI_Send(sendbuf, 1000, MPI_BYTE, MPI_PROC_NULL, 3, MPI_COMM_WORLD); /* MARK:procnull */
    for (int i = 0; i < N_NONBLOCKING; i++) {
        MPI_Request req[2];
        MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: GCC 12 takes it for an array of size 0 */
        MPI_Irecv(recvbuf, NB_BYTES, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &req[0]); /* MARK:irecv */
        MPI_Isend(sendbuf, NB_BYTES, MPI_BYTE, peer, 4, MPI_COMM_WORLD, &req[1]); /* MARK:isend */
        MPI_Waitall(2, req, st); /* MARK:waitall */
    }
    MPI_Request persistent;
    if (rank == 0)
        MPI_Send_init(sendbuf, PERSISTENT_BYTES, MPI_BYTE, 1, 5, MPI_COMM_WORLD, &persistent); /* MARK:send_init */
    else
        MPI_Recv_init(recvbuf, PERSISTENT_BYTES, MPI_BYTE, 0, 5, MPI_COMM_WORLD, &persistent); /* MARK:recv_init */
    for (int i = 0; i < N_PERSISTENT; i++) {
        MPI_Start(&persistent); /* MARK:start */
        MPI_Wait(&persistent, MPI_STATUS_IGNORE); /* MARK:wait */
    }
    MPI_Request_free(&persistent);
    if (errors)
        fprintf(stderr, "model_known: rank %d: %d wrong results\n", rank, errors);
    else if (rank == 0)
        printf("model_known: ok\n");
    MPI_Finalize();
    return errors != 0;
}
