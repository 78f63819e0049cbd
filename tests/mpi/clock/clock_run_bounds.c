/* clock_run_bounds: waits shorter than MPI_Init's clock uncertainty, for
 * the bounds the wait states' own messages put on the offsets while the
 * program runs (tests/mpi/clock/test_clock_run_bounds.sh), on 2 processes.
 *
 * A warm-up of N_WARM ping-pongs (and barriers) carries batches of the
 * analysis both ways (MPIPROF_SYNC_BATCH=8), so that the offsets are
 * bounded before the intervals begin.  Then, N_MSG times each:
 *   "late_sender":  rank 1 computes T_LATE before MPI_Send while rank 0
 *                   waits in MPI_Recv, and rank 0 answers at once
 *                   (Real sync ~ N_MSG * T_LATE, rank 0's, and rank 1's
 *                   waits for the answers);
 *   "late_barrier": rank 1 computes T_LATE before MPI_Barrier
 *                   (Potential sync ~ N_MSG * T_LATE, rank 0's).
 * Both record the entry and exit of each call (waitstates_events.c) in
 * PREFIX.0 and PREFIX.1, so the check computes the wait states of the
 * definitions from what happened. */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#include "mpiprof.h"

#define N_WARM 48
#define N_MSG 20
#define T_LATE 0.020
#define TAG 11
#define TAG_ANSWER 12

/* keys: the late sender's receive and send, the answer's (NULL: none recorded) */
static int ping_pong(int rank, int i, int late, const char *const keys[4])
{
    int buf = i, errors = 0;
    double t;
    if (rank == 1) {
        if (late)
            ws_busy(T_LATE);
        t = ws_now();
        MPI_Send(&buf, 1, MPI_INT, 0, TAG, MPI_COMM_WORLD);
        if (keys)
            ws_record(keys[1], i, t, ws_now());
        t = ws_now();
        MPI_Recv(&buf, 1, MPI_INT, 0, TAG_ANSWER, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (keys)
            ws_record(keys[2], i, t, ws_now());
        errors += buf != -i;
    } else {
        t = ws_now();
        MPI_Recv(&buf, 1, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (keys)
            ws_record(keys[0], i, t, ws_now());
        errors += buf != i;
        buf = -i;
        t = ws_now();
        MPI_Send(&buf, 1, MPI_INT, 1, TAG_ANSWER, MPI_COMM_WORLD);
        if (keys)
            ws_record(keys[3], i, t, ws_now());
    }
    return errors;
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0;
    const char *prefix = argc > 1 ? argv[1] : "events";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "clock_run_bounds: run with 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < N_WARM; i++) {
        errors += ping_pong(rank, i, 0, NULL);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    static const char *const keys[4] = {"recv1", "send1", "recv2", "send2"};
    MPIPROF_INTERVAL_BEGIN("late_sender");
    for (int i = 0; i < N_MSG; i++)
        errors += ping_pong(rank, i, 1, keys);
    MPIPROF_INTERVAL_END();
    MPIPROF_INTERVAL_BEGIN("late_barrier");
    for (int i = 0; i < N_MSG; i++) {
        if (rank == 1)
            ws_busy(T_LATE);
        double t = ws_now();
        MPI_Barrier(MPI_COMM_WORLD);
        ws_record("barrier", i, t, ws_now());
    }
    MPIPROF_INTERVAL_END();
    MPI_Barrier(MPI_COMM_WORLD);
    errors += ws_write_events(prefix, rank);
    printf("rank=%d %s\n", rank, errors ? "errors" : "ok");
    MPI_Finalize();
    return errors != 0;
}
