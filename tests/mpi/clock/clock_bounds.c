/* clock_bounds: messages both ways for the analyzer's bounds on the
 * clocks (tests/mpi/clock/test_clock_bounds.sh), on 2 processes.
 *
 * Interval "late_sender": rank 1 computes T_LATE before each of N_MSG
 * MPI_Send while rank 0 waits in MPI_Recv (Real sync ~ N_MSG * T_LATE =
 * 0.4 s, rank 0's), and rank 0 answers each at once, rank 1 waiting for
 * the answer in MPI_Recv: messages 1 -> 0 bound rank 1's clock from one
 * side, 0 -> 1 from the other, whichever way its measured offset is
 * wrong.  Both record the entry and exit of each call (send1, recv1: the
 * late sender's; send2, recv2: the answers'; waitstates_events.c) in
 * PREFIX.0 and PREFIX.1, so the check computes the Real sync of the
 * definition from what happened. */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#include "mpiprof.h"

#define N_MSG 20
#define T_LATE 0.020
#define COUNT 4
#define TAG 11
#define TAG_ANSWER 12

int main(int argc, char **argv)
{
    int rank, size, errors = 0, buf[COUNT] = {0};
    const char *prefix = argc > 1 ? argv[1] : "events";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "clock_bounds: run with 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPIPROF_INTERVAL_BEGIN("late_sender");
    for (int i = 0; i < N_MSG; i++) {
        double t = ws_now();
        if (rank == 1) {
            ws_busy(T_LATE);
            buf[0] = i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, TAG, MPI_COMM_WORLD);
            ws_record("send1", i, t, ws_now());
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 0, TAG_ANSWER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ws_record("recv2", i, t, ws_now());
            errors += buf[0] != -i;
        } else {
            MPI_Recv(buf, COUNT, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ws_record("recv1", i, t, ws_now());
            errors += buf[0] != i;
            buf[0] = -i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 1, TAG_ANSWER, MPI_COMM_WORLD);
            ws_record("send2", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();
    MPI_Barrier(MPI_COMM_WORLD);
    errors += ws_write_events(prefix, rank);
    printf("rank=%d %s\n", rank, errors ? "errors" : "ok");
    MPI_Finalize();
    return errors != 0;
}
