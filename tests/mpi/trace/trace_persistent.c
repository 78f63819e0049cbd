/* trace_persistent: persistent collectives (MPI-4) with a late member, for
 * trace mode against the dynamic mode (test_analyze_trace.sh).  Two
 * processes, N rounds; in each, rank 1 computes T before each start (its
 * collectives begin T late, its messages leave T late):
 *   MPI_Start of an MPI_Allreduce_init (1 double) and MPI_Wait;
 *   MPI_Startall of an MPI_Bcast_init (root 0, 8 ints) with a persistent
 *     send to the other rank (MPI_Send_init, 16 ints) and a persistent
 *     receive from it (MPI_Recv_init), then MPI_Waitall.
 * Rank 0's Potential sync at each start, about N x T, its Real sync in the
 * MPI_Waitall, and the bytes of each start are what the two protocols must
 * agree on (check_trace_persistent.py: the first two are there).  An MPI
 * library before MPI-4 has no persistent collectives: then only the
 * persistent send and receive run.  It prints "trace_persistent: ok". */
#include <mpi.h>
#include <stdio.h>

#include "../lib/busy.h"
#include "mpiprof.h"

#define N 6
#define T 0.010

int main(int argc, char **argv)
{
    int rank, size, errors = 0, total = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "trace_persistent: needs 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int ints[8], out[16] = {0}, in[16];
    double x = 1.0, sum = 0.0;
    MPI_Request p2p[2], all[3];
    MPI_Status statuses[3];
    MPI_Send_init(out, 16, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, &p2p[0]);
    MPI_Recv_init(in, 16, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD, &p2p[1]);
#if MPI_VERSION >= 4
    MPI_Request reduce, bcast;
    MPI_Allreduce_init(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &reduce);
    MPI_Bcast_init(ints, 8, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &bcast);
    all[2] = bcast;
#endif
    all[0] = p2p[0];
    all[1] = p2p[1];
    int nall = MPI_VERSION >= 4 ? 3 : 2;

    MPIPROF_INTERVAL_BEGIN("persistent");
    for (int i = 0; i < N; i++) {
        if (rank == 1)
            busy(T);
#if MPI_VERSION >= 4
        MPI_Start(&reduce);
        MPI_Wait(&reduce, MPI_STATUS_IGNORE);
        errors += sum != 2.0;
        for (int k = 0; k < 8; k++)
            ints[k] = rank == 0 ? 100 * i + k : -1;
#endif
        out[0] = 10 * i + rank;
        if (rank == 1)
            busy(T);
        MPI_Startall(nall, all);
        MPI_Waitall(nall, all, statuses);
        errors += in[0] != 10 * i + 1 - rank;
#if MPI_VERSION >= 4
        errors += ints[7] != 100 * i + 7;
#endif
    }
    MPIPROF_INTERVAL_END();

    MPI_Request_free(&p2p[0]);
    MPI_Request_free(&p2p[1]);
#if MPI_VERSION >= 4
    MPI_Request_free(&reduce);
    MPI_Request_free(&bcast);
#endif
    if (errors)
        fprintf(stderr, "trace_persistent: rank %d: %d wrong results\n", rank, errors);
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf("trace_persistent: ok\n");
    MPI_Finalize();
    return 0;
}
