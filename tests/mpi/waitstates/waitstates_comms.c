/* waitstates_comms: wait states on communicators other than
 * MPI_COMM_WORLD, for tests/mpi/waitstates/test_waitstates_comms.sh.
 *
 * In every phase rank r (of MPI_COMM_WORLD) computes (r+1) x skew before
 * each collective, so rank 0 enters each instance one skew before rank 1
 * (Potential sync: one skew per instance, rank 0's), and rank 1 computes one
 * skew before each message it sends to rank 0, which already waits in
 * MPI_Recv (Real sync: one skew per message, rank 0's).  Phases (intervals):
 *
 *   "split"      a communicator from MPI_Comm_split with the keys reversed
 *                (world rank 0 is rank 1 in it, world rank 1 is rank 0):
 *                N x (MPI_Allreduce, late message), skew T_SKEW.  The
 *                protocol's ranks are MPI_COMM_WORLD's: it is world rank 0
 *                that waits.
 *   "dup_loop"   N_DUP iterations, each: MPI_Comm_dup, MPI_Allreduce and a
 *                late message on the duplicate, MPI_Comm_free (a freed
 *                communicator's handle is reused by the next one), skew
 *                T_DUP: Potential sync and Real sync ~ N_DUP x T_DUP each.
 *   "intercomm"  an intercommunicator between two groups of one process
 *                each (MPI_Intercomm_create): N x (MPI_Allreduce,
 *                MPI_Barrier, late message), skew T_SKEW.  In point-to-point
 *                calls on it, rank 0 names the remote group's process, which
 *                is world rank 1 for world rank 0 and vice versa.
 *   "self"       N x: collectives on MPI_COMM_SELF (MPI_Allreduce,
 *                MPI_Barrier) and messages to oneself (on MPI_COMM_SELF and
 *                on MPI_COMM_WORLD), with rank 1 computing twice as long as
 *                rank 0 and no communication between them: each instance
 *                has one process, so Potential sync 0; each message is sent
 *                (MPI_Isend) before it is received: Real sync 0.  (Pairing
 *                instances or messages of different processes would give
 *                tenths of seconds.)
 *
 * The ranks meet before each phase, and within the phases between the
 * collective and the message, with an MPI_Sendrecv on MPI_COMM_WORLD
 * (align: point to point, no Potential sync; an MPI library may let one
 * rank leave a collective, or MPI_Comm_dup, well before the other, which
 * this evens out).  Each rank prints
 *   rank=R errors=N
 * and records the entry and exit of the collectives, the sends and receives
 * and the aligning MPI_Sendrecv calls of phases a, b, c (waitstates_events.c:
 * a_coll, a_send, a_recv, a_align, b_..., c_coll, c_barrier, c_...) in
 * PREFIX.RANK (PREFIX: the first argument, default "events"), so the check
 * computes the expected values by the definitions from what happened.
 * Computation is a busy loop.  Run with 2 processes. */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#include "mpiprof.h"

#define N 10
#define T_SKEW 0.010
#define N_DUP 50
#define T_DUP 0.002
#define COUNT 4

static int rank, errors;

static void expect(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "waitstates_comms: rank %d: %s\n", rank, what);
        errors++;
    }
}

/* Meet the other rank without a collective operation; recorded as key i
 * (key NULL: not recorded). */
static void align(const char *key, int i)
{
    int in = rank, out = -1;
    double t = ws_now();
    MPI_Sendrecv(&in, 1, MPI_INT, 1 - rank, 99, &out, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:align */
    if (key)
        ws_record(key, i, t, ws_now());
}

int main(int argc, char **argv)
{
    int size, i, r, value, sum, buf[COUNT] = {0}, buf2[COUNT] = {0};
    double t;
    MPI_Comm rev, dup, local, inter;
    MPI_Request req;
    const char *prefix;

    MPI_Init(&argc, &argv);
    prefix = argc > 1 ? argv[1] : "events";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "waitstates_comms: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* ---- (a) a split communicator, ranks reversed ---- */
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - 1 - rank, &rev); /* MARK:split */
    MPI_Comm_rank(rev, &r);
    expect(r == 1 - rank, "MPI_Comm_split: the keys did not reverse the ranks");
    align(NULL, 0);
    MPIPROF_INTERVAL_BEGIN("split");
    for (i = 0; i < N; i++) {
        ws_busy((rank + 1) * T_SKEW);
        value = rank + i;
        t = ws_now();
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, rev); /* MARK:a_allreduce */
        ws_record("a_coll", i, t, ws_now());
        expect(sum == 1 + 2 * i, "split: wrong sum");
        align("a_align", i);
        if (rank == 1) {
            ws_busy(T_SKEW);
            buf[0] = i;
            t = ws_now();
            /* to rank 1 of rev: world rank 0 */
            MPI_Send(buf, COUNT, MPI_INT, 1, 21, rev); /* MARK:a_send */
            ws_record("a_send", i, t, ws_now());
        } else {
            t = ws_now();
            /* from rank 0 of rev: world rank 1 */
            MPI_Recv(buf, COUNT, MPI_INT, 0, 21, rev, MPI_STATUS_IGNORE); /* MARK:a_recv */
            ws_record("a_recv", i, t, ws_now());
            expect(buf[0] == i, "split: wrong message");
        }
    }
    MPIPROF_INTERVAL_END();
    MPI_Comm_free(&rev);

    /* ---- (b) duplicates made and freed in a loop ---- */
    align(NULL, 0);
    MPIPROF_INTERVAL_BEGIN("dup_loop");
    for (i = 0; i < N_DUP; i++) {
        MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* MARK:b_dup */
        align("b_align1", i);
        ws_busy((rank + 1) * T_DUP);
        value = rank + i;
        t = ws_now();
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, dup); /* MARK:b_allreduce */
        ws_record("b_coll", i, t, ws_now());
        expect(sum == 1 + 2 * i, "dup_loop: wrong sum");
        align("b_align2", i);
        if (rank == 1) {
            ws_busy(T_DUP);
            buf[0] = i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 22, dup); /* MARK:b_send */
            ws_record("b_send", i, t, ws_now());
        } else {
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 1, 22, dup, MPI_STATUS_IGNORE); /* MARK:b_recv */
            ws_record("b_recv", i, t, ws_now());
            expect(buf[0] == i, "dup_loop: wrong message");
        }
        MPI_Comm_free(&dup); /* MARK:b_free */
    }
    MPIPROF_INTERVAL_END();

    /* ---- (c) an intercommunicator between two one-process groups ---- */
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &local); /* MARK:split_local */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - rank, 77, &inter); /* MARK:intercomm_create */
    align(NULL, 0);
    MPIPROF_INTERVAL_BEGIN("intercomm");
    for (i = 0; i < N; i++) {
        ws_busy((rank + 1) * T_SKEW);
        value = 10 * rank + i;
        t = ws_now();
        /* on an intercommunicator: the remote group's sum */
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, inter); /* MARK:c_allreduce */
        ws_record("c_coll", i, t, ws_now());
        expect(sum == 10 * (1 - rank) + i, "intercomm: wrong sum");
        align("c_align1", i);
        ws_busy((rank + 1) * T_SKEW);
        t = ws_now();
        MPI_Barrier(inter); /* MARK:c_barrier */
        ws_record("c_barrier", i, t, ws_now());
        align("c_align2", i);
        if (rank == 1) {
            ws_busy(T_SKEW);
            buf[0] = i;
            t = ws_now();
            /* rank 0 of the remote group: world rank 0 */
            MPI_Send(buf, COUNT, MPI_INT, 0, 23, inter); /* MARK:c_send */
            ws_record("c_send", i, t, ws_now());
        } else {
            t = ws_now();
            /* rank 0 of the remote group: world rank 1 */
            MPI_Recv(buf, COUNT, MPI_INT, 0, 23, inter, MPI_STATUS_IGNORE); /* MARK:c_recv */
            ws_record("c_recv", i, t, ws_now());
            expect(buf[0] == i, "intercomm: wrong message");
        }
    }
    MPIPROF_INTERVAL_END();
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);

    /* ---- (d) MPI_COMM_SELF and messages to oneself ---- */
    align(NULL, 0);
    MPIPROF_INTERVAL_BEGIN("self");
    for (i = 0; i < N; i++) {
        ws_busy((rank + 1) * T_SKEW);
        value = rank + i;
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF); /* MARK:d_allreduce */
        expect(sum == value, "self: wrong sum");
        MPI_Barrier(MPI_COMM_SELF); /* MARK:d_barrier */
        buf[0] = 100 + i;
        MPI_Isend(buf, COUNT, MPI_INT, 0, 24, MPI_COMM_SELF, &req); /* MARK:d_isend */
        MPI_Recv(buf2, COUNT, MPI_INT, 0, 24, MPI_COMM_SELF, MPI_STATUS_IGNORE); /* MARK:d_recv */
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* MARK:d_wait */
        expect(buf2[0] == 100 + i, "self: wrong message on MPI_COMM_SELF");
        buf[0] = 200 + i;
        MPI_Isend(buf, COUNT, MPI_INT, rank, 25, MPI_COMM_WORLD, &req); /* MARK:d_isend_w */
        MPI_Recv(buf2, COUNT, MPI_INT, rank, 25, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:d_recv_w */
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* MARK:d_wait_w */
        expect(buf2[0] == 200 + i, "self: wrong message to oneself on MPI_COMM_WORLD");
    }
    MPIPROF_INTERVAL_END();

    align(NULL, 0);
    errors += ws_write_events(prefix, rank);
    printf("rank=%d errors=%d\n", rank, errors);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
