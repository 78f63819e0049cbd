/* waitstates_late_sender: Real sync of a late sender and of a late
 * receiver, for tests/mpi/waitstates/test_waitstates_late_sender.sh.
 *
 * Interval "late_sender": rank 0 is already in MPI_Recv when rank 1, after
 * computing T_LATE, enters MPI_Send; N_MSG times.  Each message's Real sync
 * is min(time rank 0 spent in the MPI_Recv, sendStart - recvStart) ~ T_LATE,
 * so the MPI_Recv SRC point has Real sync ~ N_MSG * T_LATE = 0.4 s, all of
 * it rank 0's.
 *
 * Interval "late_receiver": the roles swap: rank 0 computes T_LATE before
 * each MPI_Recv while rank 1 sends at once (small messages: eager, rank 1
 * does not wait), so every message was sent before its receive was entered:
 * Real sync ~ 0.
 *
 * Each rank prints one line
 *   rank=R compute1=S wait1=S compute2=S wait2=S
 * compute1: rank 1's computation before its sends in "late_sender" (rank 0:
 * 0); wait1: rank 0's time inside the MPI_Recv calls of "late_sender"
 * (rank 1: 0); compute2, wait2: the same in "late_receiver", roles swapped
 * (compute2 is rank 0's, wait2 rank 0's time in the MPI_Recv calls).
 * It records the entry and exit of every MPI_Send and MPI_Recv of the two
 * phases (events recv1, send1, recv2, send2: waitstates_events.c) in
 * PREFIX.0 and PREFIX.1 (PREFIX: the first argument, default "events"), so
 * the check can compute the Real sync of the definition from what happened.
 * Run with 2 processes. */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#include "mpiprof.h"

#define N_MSG 20
#define T_LATE 0.020
#define COUNT 4 /* ints per message: 16 bytes */
#define TAG 11

int main(int argc, char **argv)
{
    int rank, size, i, errors = 0, buf[COUNT];
    double t, t1, compute1 = 0, wait1 = 0, compute2 = 0, wait2 = 0;
    const char *prefix = argc > 1 ? argv[1] : "events";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "waitstates_late_sender: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* Start the phase together (a collective: no Real sync). */
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier1 */
    MPIPROF_INTERVAL_BEGIN("late_sender"); /* MARK:iv_late_sender */
    for (i = 0; i < N_MSG; i++) {
        if (rank == 1) {
            t = ws_now();
            ws_busy(T_LATE);
            compute1 += ws_now() - t;
            for (int k = 0; k < COUNT; k++)
                buf[k] = i * COUNT + k;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, TAG, MPI_COMM_WORLD); /* MARK:send1 */
            ws_record("send1", i, t, ws_now());
        } else {
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv1 */
            t1 = ws_now();
            ws_record("recv1", i, t, t1);
            wait1 += t1 - t;
            errors += buf[0] != i * COUNT || buf[COUNT - 1] != i * COUNT + COUNT - 1;
        }
    }
    MPIPROF_INTERVAL_END();

    MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier2 */
    MPIPROF_INTERVAL_BEGIN("late_receiver"); /* MARK:iv_late_receiver */
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            t = ws_now();
            ws_busy(T_LATE);
            compute2 += ws_now() - t;
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv2 */
            t1 = ws_now();
            ws_record("recv2", i, t, t1);
            wait2 += t1 - t;
            errors += buf[0] != -i;
        } else {
            buf[0] = -i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, TAG, MPI_COMM_WORLD); /* MARK:send2 */
            ws_record("send2", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    if (errors)
        fprintf(stderr, "waitstates_late_sender: rank %d received %d wrong messages\n", rank, errors);
    errors += ws_write_events(prefix, rank);
    printf("rank=%d compute1=%.6f wait1=%.6f compute2=%.6f wait2=%.6f\n", rank, compute1, wait1,
           compute2, wait2);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
