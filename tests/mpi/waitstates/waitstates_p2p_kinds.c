/* waitstates_p2p_kinds: Real sync (late sender) through every kind of
 * point-to-point receive, for tests/mpi/waitstates/test_waitstates_p2p_kinds.sh.
 *
 * One phase per kind, each in its own interval (named below) with its own
 * call sites; before each phase the ranks meet in a barrier (a collective:
 * no Real sync).  In every phase rank 1 is the late sender: it computes
 * T_LATE (busy loop) before its sends while rank 0 is already receiving,
 * N_MSG times.  Expected Real sync per phase (rank 0's; rank 1 never waits
 * for a message):
 *
 *   irecv_wait     MPI_Irecv + MPI_Wait: the MPI_Wait completes the message
 *                  after waiting T_LATE: N x T_LATE on the MPI_Wait.
 *   waitall        2 x MPI_Irecv + MPI_Waitall; rank 1 computes T_LATE, sends
 *                  tag 1, computes T_LATE/2, sends tag 2: both messages are
 *                  late, by T_LATE and 1.5 T_LATE.  The MPI_Waitall waits for
 *                  the latest one: 1.5 T_LATE per Waitall (not the sum over
 *                  messages, 2.5 T_LATE, which would exceed the time spent in
 *                  the call; not the first, 1 T_LATE): N x 1.5 T_LATE.
 *   waitany        2 x MPI_Irecv (tags 1, 2) + 2 x MPI_Waitany; rank 1 sends
 *                  tag 2 after T_LATE, then tag 1 after another T_LATE: the
 *                  first Waitany completes the 2nd request (out of order)
 *                  after T_LATE, the second the 1st request after T_LATE
 *                  more: N x 2 T_LATE on the MPI_Waitany (2N calls).
 *   waitsome       the same with MPI_Waitsome called until both completed
 *                  (normally 2 calls per round; the program counts them).
 *   test_loop      MPI_Irecv, then MPI_Test until the flag is set: rank 0
 *                  spins in MPI_Test for the T_LATE the sender is late, but
 *                  the call that completes the receive (the definition's
 *                  receiving call) is an MPI_Test entered after the send:
 *                  Real sync ~ 0.
 *   persistent     MPI_Recv_init once, MPI_Start + MPI_Wait N times against
 *                  MPI_Send_init / MPI_Start / MPI_Wait on rank 1: N x T_LATE
 *                  on rank 0's MPI_Wait.
 *   sendrecv       both ranks call MPI_Sendrecv at the same call site, rank 1
 *                  after T_LATE: rank 0's receive waits T_LATE (N x T_LATE,
 *                  rank 0's), rank 1's message from rank 0 was sent before it
 *                  arrived (0).
 *   probe_recv     MPI_Probe waits T_LATE, then MPI_Recv takes the message at
 *                  once: N x T_LATE in the phase, on the MPI_Probe (the
 *                  MPI_Recv spends next to no time, and an SRC point's Real
 *                  sync cannot exceed its time).
 *   mprobe_mrecv   the same with MPI_Mprobe + MPI_Mrecv.
 *   any            three receives per round, rank 1 late by T_LATE before
 *                  each of its three sends: MPI_ANY_SOURCE with a status,
 *                  MPI_ANY_TAG with MPI_STATUS_IGNORE, both with
 *                  MPI_STATUS_IGNORE: N x T_LATE on each.
 *   tags           rank 1 sends tags 1, 2, 3, each after T_LATE; rank 0
 *                  receives tag 3 first (waits 3 T_LATE: sendStart(tag 3) -
 *                  recvStart), then tags 1 and 2, already there (0 each):
 *                  N x 3 T_LATE on the tag-3 receive, 0 on the others.  (A
 *                  pairing in arrival order, ignoring tags, would give
 *                  N x T_LATE.)
 *   proc_null      both ranks: MPI_Send, MPI_Recv, MPI_Isend + MPI_Irecv +
 *                  MPI_Waitall with MPI_PROC_NULL (no message, no effect),
 *                  then a late-sender message: N x T_LATE on its MPI_Recv,
 *                  0 on the MPI_PROC_NULL calls.
 *   cancel         rank 0 posts an MPI_Irecv with the source and tag of the
 *                  coming message, cancels it (MPI_Cancel + MPI_Wait, checked
 *                  with MPI_Test_cancelled) before the message is sent, then
 *                  receives the late message with MPI_Recv: N x T_LATE on the
 *                  MPI_Recv (a cancelled receive matched no message: the
 *                  pairing of the later ones must not shift), 0 on the
 *                  cancelled request's MPI_Wait.
 *   isendrecv      (MPI 4) rank 0's MPI_Isendrecv + MPI_Wait against rank
 *                  1's late MPI_Send, then its MPI_Recv: N x T_LATE on the
 *                  MPI_Wait (MPICH's status of an MPI_Isendrecv names an
 *                  internal tag: the receive is paired by the tag posted).
 *
 * Each rank prints one line
 *   rank=R waitsome_calls=N test_calls=N test_loop=S out_of_order=N errors=N
 * (rank 0's numbers of MPI_Waitsome and MPI_Test calls, its time in the
 * MPI_Test loops, how many Waitany/Waitsome rounds completed the 2nd request
 * first; rank 1: zeros) and records the entry and exit of the calls that
 * matter (waitstates_events.c) in PREFIX.RANK (PREFIX: the first argument,
 * default "events"), so the check can compute each phase's Real sync by the
 * definition from what happened: on the receiver, the call that waited for
 * the message (for a probe, from the probe's entry to the receive's exit;
 * for MPI_Waitany and MPI_Waitsome, keyed by which messages the call
 * completed), on the sender, its send call.  Computation is a busy loop on
 * the clock.  Run with 2 processes. */
#include "../lib/waitstates_events.c"

#include <mpi.h>

#include "mpiprof.h"

#define N_MSG 8
#define T_LATE 0.010
#define COUNT 4 /* ints per message: 16 bytes */

static int rank, errors;

static void expect(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "waitstates_p2p_kinds: rank %d: %s\n", rank, what);
        errors++;
    }
}

/* Start a phase together. */
static void align(void)
{
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:align */
}

int main(int argc, char **argv)
{
    int size, i, k, buf[COUNT], buf2[COUNT], buf3[COUNT], flag, idx, outcount, done;
    int indices[2], out_of_order = 0, waitsome_calls = 0, test_calls = 0;
    MPI_Request req[2], preq;
    MPI_Status st, sts[2];
    MPI_Message msg;
    double t, m_test = 0;
    const char *prefix;

    MPI_Init(&argc, &argv);
    prefix = argc > 1 ? argv[1] : "events";
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "waitstates_p2p_kinds: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (k = 0; k < COUNT; k++)
        buf[k] = buf2[k] = buf3[k] = rank;

    /* ---- MPI_Irecv + MPI_Wait ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("irecv_wait");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            MPI_Irecv(buf, COUNT, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[0]); /* MARK:a_irecv */
            t = ws_now();
            MPI_Wait(&req[0], MPI_STATUS_IGNORE); /* MARK:a_wait */
            ws_record("a_wait", i, t, ws_now());
        } else {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 1, MPI_COMM_WORLD); /* MARK:a_send */
            ws_record("a_send", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- 2 x MPI_Irecv + MPI_Waitall, the latest message 1.5 T_LATE late ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("waitall");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            MPI_Irecv(buf, COUNT, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[0]); /* MARK:b_irecv1 */
            MPI_Irecv(buf2, COUNT, MPI_INT, 1, 2, MPI_COMM_WORLD, &req[1]); /* MARK:b_irecv2 */
            t = ws_now();
            MPI_Waitall(2, req, sts); /* MARK:b_waitall */
            ws_record("b_waitall", i, t, ws_now());
        } else {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 1, MPI_COMM_WORLD); /* MARK:b_send1 */
            ws_record("b_send1", i, t, ws_now());
            ws_busy(T_LATE / 2);
            t = ws_now();
            MPI_Send(buf2, COUNT, MPI_INT, 0, 2, MPI_COMM_WORLD); /* MARK:b_send2 */
            ws_record("b_send2", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- MPI_Waitany, completion out of order ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("waitany");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            MPI_Irecv(buf, COUNT, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[0]); /* MARK:c_irecv1 */
            MPI_Irecv(buf2, COUNT, MPI_INT, 1, 2, MPI_COMM_WORLD, &req[1]); /* MARK:c_irecv2 */
            for (k = 0; k < 2; k++) {
                t = ws_now();
                MPI_Waitany(2, req, &idx, &st); /* MARK:c_waitany */
                /* keyed by the message it completed: c_any1 (tag 1), c_any2 */
                ws_record(idx == 0 ? "c_any1" : "c_any2", i, t, ws_now());
                if (k == 0 && idx == 1)
                    out_of_order++;
                expect(st.MPI_TAG == idx + 1, "MPI_Waitany: wrong tag for the index");
            }
        } else {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf2, COUNT, MPI_INT, 0, 2, MPI_COMM_WORLD); /* MARK:c_send2 */
            ws_record("c_send2", i, t, ws_now());
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 1, MPI_COMM_WORLD); /* MARK:c_send1 */
            ws_record("c_send1", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- MPI_Waitsome, completion out of order ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("waitsome");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            MPI_Irecv(buf, COUNT, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[0]); /* MARK:d_irecv1 */
            MPI_Irecv(buf2, COUNT, MPI_INT, 1, 2, MPI_COMM_WORLD, &req[1]); /* MARK:d_irecv2 */
            for (done = 0; done < 2;) {
                int mask = 0;
                t = ws_now();
                MPI_Waitsome(2, req, &outcount, indices, sts); /* MARK:d_waitsome */
                waitsome_calls++;
                expect(outcount >= 1 && outcount <= 2, "MPI_Waitsome: outcount not 1 or 2");
                for (k = 0; k < outcount && k < 2; k++)
                    mask |= 1 << indices[k];
                /* keyed by the messages it completed: d_some1, d_some2, d_some12 */
                ws_record(mask == 1 ? "d_some1" : mask == 2 ? "d_some2" : "d_some12", i, t, ws_now());
                if (done == 0 && mask == 2)
                    out_of_order++;
                done += outcount;
            }
        } else {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf2, COUNT, MPI_INT, 0, 2, MPI_COMM_WORLD); /* MARK:d_send2 */
            ws_record("d_send2", i, t, ws_now());
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 1, MPI_COMM_WORLD); /* MARK:d_send1 */
            ws_record("d_send1", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- MPI_Test loop ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("test_loop");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            double t1;
            MPI_Irecv(buf, COUNT, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[0]); /* MARK:e_irecv */
            t = ws_now();
            do {
                MPI_Test(&req[0], &flag, MPI_STATUS_IGNORE); /* MARK:e_test */
                test_calls++;
            } while (!flag);
            t1 = ws_now();
            ws_record("e_loop", i, t, t1);
            m_test += t1 - t;
        } else {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 1, MPI_COMM_WORLD); /* MARK:e_send */
            ws_record("e_send", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- persistent requests ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("persistent");
    if (rank == 0) {
        MPI_Recv_init(buf, COUNT, MPI_INT, 1, 1, MPI_COMM_WORLD, &preq); /* MARK:f_recv_init */
        for (i = 0; i < N_MSG; i++) {
            MPI_Start(&preq); /* MARK:f_start_recv */
            t = ws_now();
            MPI_Wait(&preq, MPI_STATUS_IGNORE); /* MARK:f_wait_recv */
            ws_record("f_wait_recv", i, t, ws_now());
        }
    } else {
        MPI_Send_init(buf, COUNT, MPI_INT, 0, 1, MPI_COMM_WORLD, &preq); /* MARK:f_send_init */
        for (i = 0; i < N_MSG; i++) {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Start(&preq); /* MARK:f_start_send */
            ws_record("f_start_send", i, t, ws_now());
            MPI_Wait(&preq, MPI_STATUS_IGNORE); /* MARK:f_wait_send */
        }
    }
    MPI_Request_free(&preq); /* MARK:f_request_free */
    MPIPROF_INTERVAL_END();

    /* ---- MPI_Sendrecv on both ranks, rank 1 late ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("sendrecv");
    for (i = 0; i < N_MSG; i++) {
        buf[0] = rank;
        buf2[0] = -1;
        if (rank == 1)
            ws_busy(T_LATE);
        t = ws_now();
        MPI_Sendrecv(buf, COUNT, MPI_INT, 1 - rank, 7, buf2, COUNT, MPI_INT, 1 - rank, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:g_sendrecv */
        ws_record("g_sendrecv", i, t, ws_now());
        expect(buf2[0] == 1 - rank, "MPI_Sendrecv: wrong data");
    }
    MPIPROF_INTERVAL_END();

    /* ---- MPI_Probe, then MPI_Recv ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("probe_recv");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            int n;
            t = ws_now();
            MPI_Probe(1, 3, MPI_COMM_WORLD, &st); /* MARK:h_probe */
            MPI_Get_count(&st, MPI_INT, &n);
            expect(n == COUNT, "MPI_Probe: wrong count");
            MPI_Recv(buf, n, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:h_recv */
            ws_record("h_probe_recv", i, t, ws_now());
        } else {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 3, MPI_COMM_WORLD); /* MARK:h_send */
            ws_record("h_send", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- MPI_Mprobe, then MPI_Mrecv ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("mprobe_mrecv");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            int n;
            t = ws_now();
            MPI_Mprobe(1, 4, MPI_COMM_WORLD, &msg, &st); /* MARK:i_mprobe */
            MPI_Get_count(&st, MPI_INT, &n);
            expect(n == COUNT, "MPI_Mprobe: wrong count");
            MPI_Mrecv(buf, n, MPI_INT, &msg, MPI_STATUS_IGNORE); /* MARK:i_mrecv */
            ws_record("i_mprobe_mrecv", i, t, ws_now());
        } else {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 4, MPI_COMM_WORLD); /* MARK:i_send */
            ws_record("i_send", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_STATUS_IGNORE ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("any");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, &st); /* MARK:j_any_src */
            ws_record("j_any_src", i, t, ws_now());
            expect(st.MPI_SOURCE == 1 && buf[0] == 100 + i, "MPI_ANY_SOURCE: wrong message");
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:j_any_tag */
            ws_record("j_any_tag", i, t, ws_now());
            expect(buf[0] == 200 + i, "MPI_ANY_TAG: wrong message");
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:j_any_any */
            ws_record("j_any_any", i, t, ws_now());
            expect(buf[0] == 300 + i, "MPI_ANY_SOURCE + MPI_ANY_TAG: wrong message");
        } else {
            ws_busy(T_LATE);
            buf[0] = 100 + i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 5, MPI_COMM_WORLD); /* MARK:j_send_a */
            ws_record("j_send_a", i, t, ws_now());
            ws_busy(T_LATE);
            buf[0] = 200 + i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 6, MPI_COMM_WORLD); /* MARK:j_send_b */
            ws_record("j_send_b", i, t, ws_now());
            ws_busy(T_LATE);
            buf[0] = 300 + i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 7, MPI_COMM_WORLD); /* MARK:j_send_c */
            ws_record("j_send_c", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- tags received in another order than sent ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("tags");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            t = ws_now();
            MPI_Recv(buf3, COUNT, MPI_INT, 1, 13, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:k_recv3 */
            ws_record("k_recv3", i, t, ws_now());
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 1, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:k_recv1 */
            ws_record("k_recv1", i, t, ws_now());
            t = ws_now();
            MPI_Recv(buf2, COUNT, MPI_INT, 1, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:k_recv2 */
            ws_record("k_recv2", i, t, ws_now());
            expect(buf[0] == 11 && buf2[0] == 12 && buf3[0] == 13, "tags: wrong messages");
        } else {
            ws_busy(T_LATE);
            buf[0] = 11;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 11, MPI_COMM_WORLD); /* MARK:k_send1 */
            ws_record("k_send1", i, t, ws_now());
            ws_busy(T_LATE);
            buf2[0] = 12;
            t = ws_now();
            MPI_Send(buf2, COUNT, MPI_INT, 0, 12, MPI_COMM_WORLD); /* MARK:k_send2 */
            ws_record("k_send2", i, t, ws_now());
            ws_busy(T_LATE);
            buf3[0] = 13;
            t = ws_now();
            MPI_Send(buf3, COUNT, MPI_INT, 0, 13, MPI_COMM_WORLD); /* MARK:k_send3 */
            ws_record("k_send3", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- MPI_PROC_NULL, then a late message ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("proc_null");
    for (i = 0; i < N_MSG; i++) {
        MPI_Send(buf, COUNT, MPI_INT, MPI_PROC_NULL, 8, MPI_COMM_WORLD); /* MARK:l_send_null */
        MPI_Recv(buf2, COUNT, MPI_INT, MPI_PROC_NULL, 8, MPI_COMM_WORLD, &st); /* MARK:l_recv_null */
        expect(st.MPI_SOURCE == MPI_PROC_NULL, "MPI_Recv from MPI_PROC_NULL: source is not MPI_PROC_NULL");
        MPI_Isend(buf, COUNT, MPI_INT, MPI_PROC_NULL, 8, MPI_COMM_WORLD, &req[0]); /* MARK:l_isend_null */
        MPI_Irecv(buf2, COUNT, MPI_INT, MPI_PROC_NULL, 8, MPI_COMM_WORLD, &req[1]); /* MARK:l_irecv_null */
        MPI_Waitall(2, req, sts); /* MARK:l_waitall_null */
        if (rank == 0) {
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:l_recv */
            ws_record("l_recv", i, t, ws_now());
        } else {
            ws_busy(T_LATE);
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 8, MPI_COMM_WORLD); /* MARK:l_send */
            ws_record("l_send", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

    /* ---- a cancelled MPI_Irecv, then the late message it would have matched ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("cancel");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            /* Rank 1 is computing T_LATE now: nothing is on its way yet. */
            MPI_Irecv(buf2, COUNT, MPI_INT, 1, 9, MPI_COMM_WORLD, &req[0]); /* MARK:m_irecv_cancel */
            MPI_Cancel(&req[0]); /* MARK:m_cancel */
            MPI_Wait(&req[0], &st); /* MARK:m_wait_cancel */
            MPI_Test_cancelled(&st, &flag); /* MARK:m_test_cancelled */
            if (!flag) {
                /* It matched the message: the MPI_Recv below would wait for
                 * one that never comes. */
                fprintf(stderr, "waitstates_p2p_kinds: the MPI_Irecv was not cancelled\n");
                MPI_Abort(MPI_COMM_WORLD, 3);
            }
            t = ws_now();
            MPI_Recv(buf, COUNT, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:m_recv */
            ws_record("m_recv", i, t, ws_now());
            expect(buf[0] == 900 + i, "cancel: wrong message");
        } else {
            ws_busy(T_LATE);
            buf[0] = 900 + i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 9, MPI_COMM_WORLD); /* MARK:m_send */
            ws_record("m_send", i, t, ws_now());
        }
    }
    MPIPROF_INTERVAL_END();

#if MPI_VERSION >= 4
    /* ---- MPI_Isendrecv + MPI_Wait against a late MPI_Send ---- */
    align();
    MPIPROF_INTERVAL_BEGIN("isendrecv");
    for (i = 0; i < N_MSG; i++) {
        if (rank == 0) {
            buf[0] = 0;
            MPI_Isendrecv(buf, COUNT, MPI_INT, 1, 10, buf2, COUNT, MPI_INT, 1, 11, MPI_COMM_WORLD, &req[0]); /* MARK:n_isendrecv */
            t = ws_now();
            MPI_Wait(&req[0], MPI_STATUS_IGNORE); /* MARK:n_wait */
            ws_record("n_wait", i, t, ws_now());
            expect(buf2[0] == 1100 + i, "MPI_Isendrecv: wrong message");
        } else {
            ws_busy(T_LATE);
            buf[0] = 1100 + i;
            t = ws_now();
            MPI_Send(buf, COUNT, MPI_INT, 0, 11, MPI_COMM_WORLD); /* MARK:n_send */
            ws_record("n_send", i, t, ws_now());
            MPI_Recv(buf2, COUNT, MPI_INT, 0, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:n_recv */
        }
    }
    MPIPROF_INTERVAL_END();
#endif

    align();
    errors += ws_write_events(prefix, rank);
    printf("rank=%d waitsome_calls=%d test_calls=%d test_loop=%.6f out_of_order=%d errors=%d\n", rank,
           waitsome_calls, test_calls, m_test, out_of_order, errors);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
