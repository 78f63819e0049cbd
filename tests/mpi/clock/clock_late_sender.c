/* clock_late_sender: a late sender for the clock tests
 * (tests/mpi/clock/test_clock_*.sh), on 2 or more processes.
 *
 * Interval "late_sender": rank 1 computes T_LATE before each of N_MSG
 * MPI_Send while rank 0 waits in MPI_Recv: Real sync ~ N_MSG * T_LATE =
 * 0.4 s, rank 0's.  Ranks 2 and up compute as long meanwhile (with more
 * processes than cores they take CPU from the pair, as a loaded node
 * does), then all meet in a barrier outside the interval.
 *
 * Rank 0 and 1 record the entry and exit of each MPI_Recv and MPI_Send
 * (events recv1, send1: waitstates_events.c) in PREFIX.0 and PREFIX.1, so
 * the check computes the Real sync of the definition from what happened;
 * every rank prints "rank=R ok".
 *
 * With a second argument "pinned": before MPI_Finalize every rank moves
 * to CPU 0 and rank 1 starts a process spinning there, so that the clock
 * alignment of MPI_Finalize waits for the scheduler (its uncertainty
 * milliseconds) while MPI_Init's was quiet. */
#define _GNU_SOURCE
#include "../lib/waitstates_events.c"

#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>

#include "mpiprof.h"

#define N_MSG 20
#define T_LATE 0.020
#define COUNT 4
#define TAG 11

int main(int argc, char **argv)
{
    int rank, size, errors = 0, buf[COUNT] = {0};
    const char *prefix = argc > 1 ? argv[1] : "events";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        fprintf(stderr, "clock_late_sender: run with 2 or more processes\n");
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
        } else if (rank == 0) {
            MPI_Recv(buf, COUNT, MPI_INT, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ws_record("recv1", i, t, ws_now());
            errors += buf[0] != i;
        } else {
            ws_busy(T_LATE);
        }
    }
    MPIPROF_INTERVAL_END();
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank < 2)
        errors += ws_write_events(prefix, rank);
    printf("rank=%d %s\n", rank, errors ? "errors" : "ok");
    fflush(stdout);
    pid_t spinner = 0;
    if (argc > 2 && !strcmp(argv[2], "pinned")) {
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(0, &one);
        if (sched_setaffinity(0, sizeof one, &one) != 0)
            perror("sched_setaffinity");
        if (rank == 1 && (spinner = fork()) == 0)
            for (;;) /* inherits CPU 0 */
                ;
    }
    MPI_Finalize();
    if (spinner > 0) {
        kill(spinner, SIGKILL);
        waitpid(spinner, NULL, 0);
    }
    return errors != 0;
}
