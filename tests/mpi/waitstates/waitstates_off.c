/* waitstates_off: a small program with every kind of wait state, for
 * tests/mpi/waitstates/test_waitstates_off.sh (run with the analyses on, off and with
 * a bad MPIPROF_WAITSTATES).
 *
 *   "p2p"   rank 1 computes T_LATE before each of N sends to rank 0, which
 *           already waits: N x MPI_Recv, then N x (MPI_Irecv + MPI_Wait):
 *           Real sync ~ N x T_LATE on the MPI_Recv and on the MPI_Wait.
 *   "coll"  rank r computes (r+1) x T_LATE before each of N MPI_Allreduce:
 *           Potential sync ~ N x T_LATE, rank 0's; Time variation ~ 0.
 *
 * Each rank prints "rank=R errors=N" and records the entry and exit of the
 * calls (waitstates_events.c: recv, send1, wait, send2, allreduce) in
 * PREFIX.RANK (PREFIX: the first argument, default "events").  Run with 2
 * processes. */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#include "mpiprof.h"

#define N 10
#define T_LATE 0.010
#define COUNT 4

int main(int argc, char **argv)
{
    int rank, size, i, errors = 0, buf[COUNT] = {0}, value, sum;
    double t;
    MPI_Request req;
    const char *prefix;

    MPI_Init(&argc, &argv);
    prefix = argc > 1 ? argv[1] : "events";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "waitstates_off: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier */
    MPIPROF_INTERVAL_BEGIN("p2p");
    for (i = 0; i < N; i++) {
        if (rank == 1) {
            ws_busy(T_LATE);
            buf[0] = i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 1, MPI_COMM_WORLD); /* MARK:send1 */
            ws_record("send1", i, t, ws_now());
        } else {
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
            ws_record("recv", i, t, ws_now());
            errors += buf[0] != i;
        }
    }
    for (i = 0; i < N; i++) {
        if (rank == 1) {
            ws_busy(T_LATE);
            buf[0] = -i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 2, MPI_COMM_WORLD); /* MARK:send2 */
            ws_record("send2", i, t, ws_now());
        } else {
            MPI_Irecv(buf, COUNT, MPI_INT, 1, 2, MPI_COMM_WORLD, &req); /* MARK:irecv */
            t = ws_now();
            MPI_Wait(&req, MPI_STATUS_IGNORE); /* MARK:wait */
            ws_record("wait", i, t, ws_now());
            errors += buf[0] != -i;
        }
    }
    MPIPROF_INTERVAL_END();

    MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier2 */
    MPIPROF_INTERVAL_BEGIN("coll");
    for (i = 0; i < N; i++) {
        ws_busy((rank + 1) * T_LATE);
        value = rank + i;
        t = ws_now();
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
        ws_record("allreduce", i, t, ws_now());
        errors += sum != 1 + 2 * i;
    }
    MPIPROF_INTERVAL_END();

    errors += ws_write_events(prefix, rank);
    printf("rank=%d errors=%d\n", rank, errors);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
