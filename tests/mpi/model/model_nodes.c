/* model_nodes: messages within and across nodes, for
 * tests/mpi/model/test_model_nodes.sh (two ranks, each under its own host name,
 * so on two nodes for the profiler; run with
 * MPIPROF_MODEL=lat_intra=1us,bw_intra=10GB/s,lat_inter=10us,bw_inter=1GB/s):
 *
 *   10 x MPI_Send / MPI_Recv of 100000 bytes on a duplicate of
 *        MPI_COMM_WORLD, rank 0 to rank 1          inter-node: 10 us + 100 us
 *   10 x MPI_Allreduce of 10 ints on that duplicate    spans nodes: inter-node
 *   10 x MPI_Allreduce of 10 ints on MPI_COMM_SELF's   one process: 0
 *        like (MPI_Comm_split by rank)
 *   10 x MPI_Sendrecv_replace of 10 ints with itself    intra-node: 1 us + 40 ns
 *        on that one-process communicator
 *   10 x MPI_Send / MPI_Recv of 1000 bytes on MPI_COMM_WORLD   inter-node
 *
 * Marked lines (MARK:) are found by the check.  Run with 2 processes. */
#include <mpi.h>
#include <stdio.h>

enum { N = 10, BIG = 100000, SMALL = 1000, INTS = 10 };

static char buf[BIG];
static int v[INTS];

int main(int argc, char **argv)
{
    int rank, size;
    MPI_Comm dup, alone;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "model_nodes: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &alone);
    for (int i = 0; i < N; i++) {
        if (rank == 0)
            MPI_Send(buf, BIG, MPI_BYTE, 1, 0, dup); /* MARK:send_dup */
        else
            MPI_Recv(buf, BIG, MPI_BYTE, 0, 0, dup, MPI_STATUS_IGNORE); /* MARK:recv_dup */
        MPI_Allreduce(MPI_IN_PLACE, v, INTS, MPI_INT, MPI_SUM, dup); /* MARK:allreduce_dup */
        MPI_Allreduce(MPI_IN_PLACE, v, INTS, MPI_INT, MPI_SUM, alone); /* MARK:allreduce_alone */
        MPI_Sendrecv_replace(v, INTS, MPI_INT, 0, 1, 0, 1, alone, MPI_STATUS_IGNORE); /* MARK:self */
        if (rank == 0)
            MPI_Send(buf, SMALL, MPI_BYTE, 1, 2, MPI_COMM_WORLD); /* MARK:send_world */
        else
            MPI_Recv(buf, SMALL, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv_world */
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&alone);
    if (rank == 0)
        printf("model_nodes: ok\n");
    MPI_Finalize();
    return 0;
}
