/* mixed_completion: point-to-point and collective requests completed by the
 * same MPI_Wait* / MPI_Test* calls, with a late sender, for
 * tests/mpi/waitstates/test_mixed_completion.sh: Real sync must not exceed
 * SendRecv, the part of such a call's time its point-to-point request has.
 *
 * One phase per completion function, each in its own interval (named
 * below).  Per round, rank 1 computes T_LATE (busy loop), then starts an
 * MPI_Isend to rank 0, an MPI_Ibarrier, an MPI_Ibcast (root 1) and an
 * MPI_Iallreduce and completes them with MPI_Waitall.  Rank 0 starts, at
 * once, an MPI_Irecv from rank 1 and the same three collectives, and
 * completes the four requests with the phase's function:
 *
 *   waitall    one MPI_Waitall
 *   waitany    MPI_Waitany until all four are done
 *   waitsome   MPI_Waitsome until all four are done
 *   wait       MPI_Wait on each, the receive first
 *   testall    MPI_Testall until the flag is set
 *   testany    MPI_Testany until all four are done
 *   testsome   MPI_Testsome until all four are done
 *   test       MPI_Test on each in turn until all four are done
 *
 * The receive waits for the late sender in whichever call completes it.
 * The time of a call is split over the kinds of the requests it completed
 * (in proportion to their number), and its Real sync is at most its
 * SendRecv part.  For the call that completed the receive, rank 0 records
 * (waitstates_events.c) the event "recv_<phase>" with the call's entry and
 * entry + its SendRecv part, i.e. its time / the number of requests it
 * completed; rank 1 records "send_<phase>" with its MPI_Isend's entry.  The
 * checker computes Real sync from them as the definition gives it.  PREFIX
 * is the first argument (default "events").  Run with 2 processes. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "../lib/waitstates_events.c"

#include <mpi.h>
#include <string.h>

#include "mpiprof.h"

#define N_ROUNDS 6
#define T_LATE 0.015
#define NREQ 4

static int rank;

/* Meet the other rank without a collective operation. */
static void align(void)
{
    int in = rank, out = -1;
    MPI_Sendrecv(&in, 1, MPI_INT, 1 - rank, 99, &out, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:align */
}

static int payload, received, bcast_value, reduce_in, reduce_out;

/* Rank 1's side of a round: late, then everything at once. */
static void sender_round(const char *phase, int i)
{
    static char key[64];
    MPI_Request req[NREQ];
    MPI_Status st[NREQ]; /* not MPI_STATUSES_IGNORE: GCC 12 takes it for an array of size 0 */
    ws_busy(T_LATE);
    payload = i;
    bcast_value = 100 + i;
    reduce_in = 1;
    snprintf(key, sizeof key, "send_%s", phase);
    double t = ws_now();
    MPI_Isend(&payload, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &req[0]); /* MARK:isend */
    ws_record(strdup(key), i, t, ws_now());
    MPI_Ibarrier(MPI_COMM_WORLD, &req[1]);                                        /* MARK:s_ibarrier */
    MPI_Ibcast(&bcast_value, 1, MPI_INT, 1, MPI_COMM_WORLD, &req[2]);             /* MARK:s_ibcast */
    MPI_Iallreduce(&reduce_in, &reduce_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[3]); /* MARK:s_iallreduce */
    MPI_Waitall(NREQ, req, st); /* MARK:s_waitall */
}

/* Rank 0: the call that completed the receive (request 0) and how many
 * requests it completed. */
static void note(const char *phase, int i, double t0, double t1, int completed)
{
    char key[64];
    snprintf(key, sizeof key, "recv_%s", phase);
    ws_record(strdup(key), i, t0, t0 + (t1 - t0) / completed);
}

static int receiver_round(const char *phase, int i)
{
    MPI_Request req[NREQ];
    MPI_Status st[NREQ];
    int errors = 0, left = NREQ, flag = 0, idx = -1, n = 0, indices[NREQ];
    double t0, t1;
    received = -1;
    reduce_in = 1;
    MPI_Irecv(&received, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &req[0]); /* MARK:irecv */
    MPI_Ibarrier(MPI_COMM_WORLD, &req[1]);                                        /* MARK:r_ibarrier */
    MPI_Ibcast(&bcast_value, 1, MPI_INT, 1, MPI_COMM_WORLD, &req[2]);             /* MARK:r_ibcast */
    MPI_Iallreduce(&reduce_in, &reduce_out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[3]); /* MARK:r_iallreduce */
    if (!strcmp(phase, "waitall")) {
        t0 = ws_now();
        MPI_Waitall(NREQ, req, st); /* MARK:waitall */
        t1 = ws_now();
        note(phase, i, t0, t1, NREQ);
    } else if (!strcmp(phase, "waitany")) {
        while (left) {
            t0 = ws_now();
            MPI_Waitany(NREQ, req, &idx, &st[0]); /* MARK:waitany */
            t1 = ws_now();
            if (idx == 0)
                note(phase, i, t0, t1, 1);
            left--;
        }
    } else if (!strcmp(phase, "waitsome")) {
        while (left) {
            t0 = ws_now();
            MPI_Waitsome(NREQ, req, &n, indices, st); /* MARK:waitsome */
            t1 = ws_now();
            for (int k = 0; k < n; k++)
                if (indices[k] == 0)
                    note(phase, i, t0, t1, n);
            left -= n;
        }
    } else if (!strcmp(phase, "wait")) {
        for (int k = 0; k < NREQ; k++) {
            t0 = ws_now();
            MPI_Wait(&req[k], &st[0]); /* MARK:wait */
            t1 = ws_now();
            if (k == 0)
                note(phase, i, t0, t1, 1);
        }
    } else if (!strcmp(phase, "testall")) {
        while (!flag) {
            t0 = ws_now();
            MPI_Testall(NREQ, req, &flag, st); /* MARK:testall */
            t1 = ws_now();
        }
        note(phase, i, t0, t1, NREQ);
    } else if (!strcmp(phase, "testany")) {
        while (left) {
            t0 = ws_now();
            MPI_Testany(NREQ, req, &idx, &flag, &st[0]); /* MARK:testany */
            t1 = ws_now();
            if (flag && idx != MPI_UNDEFINED) {
                if (idx == 0)
                    note(phase, i, t0, t1, 1);
                left--;
            }
        }
    } else if (!strcmp(phase, "testsome")) {
        while (left) {
            t0 = ws_now();
            MPI_Testsome(NREQ, req, &n, indices, st); /* MARK:testsome */
            t1 = ws_now();
            for (int k = 0; k < n; k++)
                if (indices[k] == 0)
                    note(phase, i, t0, t1, n);
            left -= n;
        }
    } else { /* test */
        int done[NREQ] = {0};
        while (left) {
            for (int k = 0; k < NREQ; k++) {
                if (done[k])
                    continue;
                t0 = ws_now();
                MPI_Test(&req[k], &flag, &st[0]); /* MARK:test */
                t1 = ws_now();
                if (flag) {
                    done[k] = 1;
                    left--;
                    if (k == 0)
                        note(phase, i, t0, t1, 1);
                }
            }
        }
    }
    errors += received != i || bcast_value != 100 + i || reduce_out != 2;
    return errors;
}

int main(int argc, char **argv)
{
    static const char *phases[] = {"waitall", "waitany", "waitsome", "wait",
                                   "testall", "testany", "testsome", "test"};
    int size, errors = 0;
    const char *prefix = argc > 1 ? argv[1] : "events";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "mixed_completion: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (size_t p = 0; p < sizeof phases / sizeof *phases; p++) {
        align();
        MPIPROF_INTERVAL_BEGIN(phases[p]);
        for (int i = 0; i < N_ROUNDS; i++) {
            if (rank == 1)
                sender_round(phases[p], i);
            else
                errors += receiver_round(phases[p], i);
        }
        MPIPROF_INTERVAL_END();
    }
    if (errors)
        fprintf(stderr, "mixed_completion: rank %d: %d wrong values\n", rank, errors);
    errors += ws_write_events(prefix, rank);
    printf("rank=%d rounds=%d\n", rank, N_ROUNDS);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
