"""Check the protocol of tests/mpi/waitstates/waitstates_p2p_kinds.c.

usage: check_waitstates_p2p_kinds.py PROTOCOL.json PROTOCOL.txt SOURCE.c
                                     STDOUT EVENTS [SCHEMA.json]

Each phase of the program is an interval with its own call sites; rank 1 is
the late sender by T_LATE = 10 ms per message, N_MSG = 8 messages per phase
(waitstates_p2p_kinds.c explains each phase's expected value).  Reference:
the definition applied to the instants the program recorded (EVENTS: the
prefix of its event files, waitstates_events.c), per message
min(time in the receiving call, max(0, sendStart - recvStart)), for a call
completing several messages the latest one, once.  Real sync of the
receiving SRC point (the call that waited for the message: MPI_Wait,
MPI_Waitall, ...) within REL = 15% of it, all of it rank 0's; nominally:

  irecv_wait    MPI_Wait            ~ N x T          (0.08 s)
  waitall       MPI_Waitall         ~ N x 1.5 T      (0.12 s; the latest of
                                                      its two messages)
  waitany       MPI_Waitany         ~ N x 2 T        (0.16 s, 2N calls)
  waitsome      MPI_Waitsome        ~ N x 2 T        (0.16 s)
  test_loop     MPI_Test            ~ 0: the completing MPI_Test is entered
                                      after the send (the definition takes
                                      the call that completed the receive)
  persistent    MPI_Wait            ~ N x T
  sendrecv      MPI_Sendrecv        ~ N x T, rank 0's (rank 1's: 0)
  probe_recv    MPI_Probe+MPI_Recv  ~ N x T (the wait is in the MPI_Probe)
  mprobe_mrecv  MPI_Mprobe+MPI_Mrecv ~ N x T
  any           each of 3 MPI_Recv  ~ N x T (ANY_SOURCE; ANY_TAG with
                                      MPI_STATUS_IGNORE; both)
  tags          MPI_Recv of tag 3   ~ N x 3 T (0.24 s); tags 1, 2: ~ 0
  proc_null     MPI_Recv            ~ N x T; the MPI_PROC_NULL calls: ~ 0
  cancel        MPI_Recv            ~ N x T; the cancelled request's
                                      MPI_Wait: ~ 0

Every other SRC point of a phase (the sends, the MPI_Irecv, ...) has Real
sync ~ 0 (at most ZERO_TOL = 15% of N x T) or n/a; each phase's main Real
sync is the sum of its receiving SRC points' (15%), rank 1's by-process Real
sync ~ 0; interval 0's Real sync is the sum over the phases (15%).  Calls and
bytes of the SRC points exactly.  Every invariant (Real sync <= SendRecv).
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

N, T, B = 8, 0.010, 16          # as in waitstates_p2p_kinds.c: B bytes/message
REL = 0.15
ZERO_TOL = REL * N * T          # "about 0": 12 ms
NULL_TOL = 0.002                # MPI_PROC_NULL calls: no message at all
OTHERS = ("MPI_Get_count",)
KEYS = ("waitsome_calls", "test_calls", "test_loop", "out_of_order")
# The expected Real sync of an SRC point where no message waits: about 0
# (at most this) or n/a.  None: a send, an MPI_Irecv ...; "null": the
# MPI_PROC_NULL calls, no message at all; "time of rank 0": a test loop,
# where the definition (as trace analyzers' late sender) takes the call
# that completed the receive: the MPI_Test that finds the message was
# entered after the send, so its wait is ~0 (the polling time is spread
# over calls none of which was entered before the send and stayed until
# it).
ZERO = {None: ZERO_TOL, "null": NULL_TOL, "time of rank 0": ZERO_TOL}


def main(json_path, text_path, source, out, prefix, schema=None):
    m = ws.program_measurements(out, KEYS)[0]
    if m["out_of_order"] != 2 * N:
        print("NOTE: only %d of %d Waitany/Waitsome rounds completed the "
              "2nd request first (a loaded machine?)"
              % (m["out_of_order"], 2 * N))
    ev = ws.read_events(prefix)
    late = ws.expected_late
    exp = {
        "irecv_wait": late(ev, "a_wait", ["a_send"]),
        # one Waitall, two messages: the latest counts, once
        "waitall": late(ev, "b_waitall", ["b_send1", "b_send2"]),
        # each Waitany completes one message
        "waitany": late(ev, "c_any1", ["c_send1"])
        + late(ev, "c_any2", ["c_send2"]),
        # each Waitsome completes one message, or both (the latest)
        "waitsome": late(ev, "d_some1", ["d_send1"], True)
        + late(ev, "d_some2", ["d_send2"], True)
        + late(ev, "d_some12", ["d_send1", "d_send2"], True),
        "test_loop_nominal": late(ev, "e_loop", ["e_send"]),
        "persistent": late(ev, "f_wait_recv", ["f_start_send"]),
        "probe_recv": late(ev, "h_probe_recv", ["h_send"]),
        "mprobe_mrecv": late(ev, "i_mprobe_mrecv", ["i_send"]),
        "any_src": late(ev, "j_any_src", ["j_send_a"]),
        "any_tag": late(ev, "j_any_tag", ["j_send_b"]),
        "any_any": late(ev, "j_any_any", ["j_send_c"]),
        "tags3": late(ev, "k_recv3", ["k_send3"]),
        "tags1": late(ev, "k_recv1", ["k_send1"]),
        "tags2": late(ev, "k_recv2", ["k_send2"]),
        "proc_null": late(ev, "l_recv", ["l_send"]),
        "cancel": late(ev, "m_recv", ["m_send"]),
    }
    # MPI 4 only (MPICH): the phase is missing from Open MPI's runs
    mpi4 = "n_wait" in ev
    if mpi4:
        exp["isendrecv"] = late(ev, "n_wait", ["n_send"])
    # MPI_Sendrecv on both ranks: each one's receive waits for the
    # other's entry.
    sr = ws.expected_sendrecv(ev, "g_sendrecv")
    exp["sendrecv"] = sr[0] + sr[1]   # nominally all rank 0's
    for key, nominal in (("irecv_wait", N * T), ("waitall", N * 1.5 * T),
                         ("waitany", N * 2 * T), ("waitsome", N * 2 * T),
                         ("test_loop_nominal", N * T),
                         ("persistent", N * T), ("sendrecv", N * T),
                         ("probe_recv", N * T), ("mprobe_mrecv", N * T),
                         ("any_src", N * T), ("any_tag", N * T),
                         ("any_any", N * T), ("tags3", N * 3 * T),
                         ("tags1", 0.0), ("tags2", 0.0),
                         ("proc_null", N * T), ("cancel", N * T)):
        ws.note_nominal("Real sync of phase %s, from the program's "
                        "instants" % key, exp[key], nominal,
                        abs_tol=0.1 * N * T)
    if sr[1] > ZERO_TOL:
        print("NOTE: the program's instants give rank 1's MPI_Sendrecv a "
              "Real sync of %.6f (nominal 0)" % sr[1])

    doc = ws.load_checked(json_path, text_path, schema)
    ws.check_waitstates_reported(doc, text_path)

    total = 0.0   # expected Real sync of the whole program
    waitsome_calls = int(m["waitsome_calls"])
    test_calls = int(m["test_calls"])

    # (interval, [(function, marker, expected Real sync, counts)]): the
    # expected value is a number (the program's instants: the receiving
    # SRC point), None (no wait for a message here: ~ 0 or n/a), "null"
    # (MPI_PROC_NULL), "time of rank 0" (the test loop) or "together" (a
    # probe and its receive: together the phase's).  counts: (calls,
    # bytes_sent, bytes_recv) as {rank: n} or None (not checked).
    def c(calls, sent=None, recv=None):
        return (calls, sent, recv)
    phases = [
        ("irecv_wait", [
            ("MPI_Irecv", "a_irecv", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Wait", "a_wait", exp["irecv_wait"], c({0: N}, {}, {})),
            ("MPI_Send", "a_send", None, c({1: N}, {1: N * B}, {}))]),
        ("waitall", [
            ("MPI_Irecv", "b_irecv1", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Irecv", "b_irecv2", None, c({0: N}, {}, {0: N * B})),
            # the latest of the two messages: 1.5 T per call, not 2.5 T
            ("MPI_Waitall", "b_waitall", exp["waitall"], c({0: N}, {}, {})),
            ("MPI_Send", "b_send1", None, c({1: N}, {1: N * B}, {})),
            ("MPI_Send", "b_send2", None, c({1: N}, {1: N * B}, {}))]),
        ("waitany", [
            ("MPI_Irecv", "c_irecv1", None, c({0: N})),
            ("MPI_Irecv", "c_irecv2", None, c({0: N})),
            # two calls per round, each waits T for its message
            ("MPI_Waitany", "c_waitany", exp["waitany"], c({0: 2 * N})),
            ("MPI_Send", "c_send1", None, c({1: N})),
            ("MPI_Send", "c_send2", None, c({1: N}))]),
        ("waitsome", [
            ("MPI_Irecv", "d_irecv1", None, c({0: N})),
            ("MPI_Irecv", "d_irecv2", None, c({0: N})),
            ("MPI_Waitsome", "d_waitsome", exp["waitsome"],
             c({0: waitsome_calls})),
            ("MPI_Send", "d_send1", None, c({1: N})),
            ("MPI_Send", "d_send2", None, c({1: N}))]),
        ("test_loop", [
            ("MPI_Irecv", "e_irecv", None, c({0: N}, {}, {0: N * B})),
            # expected: rank 0's time at the SRC point (set below)
            ("MPI_Test", "e_test", "time of rank 0",
             c({0: test_calls}, {}, {})),
            ("MPI_Send", "e_send", None, c({1: N}, {1: N * B}, {}))]),
        ("persistent", [
            ("MPI_Recv_init", "f_recv_init", None, c({0: 1})),
            # a persistent request's bytes count at each start
            ("MPI_Start", "f_start_recv", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Wait", "f_wait_recv", exp["persistent"], c({0: N})),
            ("MPI_Send_init", "f_send_init", None, c({1: 1})),
            ("MPI_Start", "f_start_send", None, c({1: N}, {1: N * B}, {})),
            ("MPI_Wait", "f_wait_send", None, c({1: N})),
            ("MPI_Request_free", "f_request_free", None,
             c({0: 1, 1: 1}))]),
        ("sendrecv", [
            ("MPI_Sendrecv", "g_sendrecv", exp["sendrecv"],
             c({0: N, 1: N}, {0: N * B, 1: N * B}, {0: N * B, 1: N * B}))]),
        ("probe_recv", [
            ("MPI_Probe", "h_probe", "together", c({0: N}, {}, {})),
            ("MPI_Recv", "h_recv", "together", c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "h_send", None, c({1: N}, {1: N * B}, {}))]),
        ("mprobe_mrecv", [
            ("MPI_Mprobe", "i_mprobe", "together", c({0: N})),
            ("MPI_Mrecv", "i_mrecv", "together", c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "i_send", None, c({1: N}, {1: N * B}, {}))]),
        ("any", [
            ("MPI_Recv", "j_any_src", exp["any_src"],
             c({0: N}, {}, {0: N * B})),
            ("MPI_Recv", "j_any_tag", exp["any_tag"],
             c({0: N}, {}, {0: N * B})),
            ("MPI_Recv", "j_any_any", exp["any_any"],
             c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "j_send_a", None, c({1: N})),
            ("MPI_Send", "j_send_b", None, c({1: N})),
            ("MPI_Send", "j_send_c", None, c({1: N}))]),
        ("tags", [
            # tag 3 is sent last, 3 T after the round began: 3 T each
            ("MPI_Recv", "k_recv3", exp["tags3"], c({0: N}, {}, {0: N * B})),
            # tags 1 and 2 arrived while rank 0 waited for tag 3: 0
            ("MPI_Recv", "k_recv1", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Recv", "k_recv2", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "k_send1", None, c({1: N})),
            ("MPI_Send", "k_send2", None, c({1: N})),
            ("MPI_Send", "k_send3", None, c({1: N}))]),
        ("proc_null", [
            ("MPI_Send", "l_send_null", "null", c({0: N, 1: N})),
            ("MPI_Recv", "l_recv_null", "null", c({0: N, 1: N})),
            ("MPI_Isend", "l_isend_null", "null", c({0: N, 1: N})),
            ("MPI_Irecv", "l_irecv_null", "null", c({0: N, 1: N})),
            ("MPI_Waitall", "l_waitall_null", "null", c({0: N, 1: N})),
            ("MPI_Recv", "l_recv", exp["proc_null"],
             c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "l_send", None, c({1: N}, {1: N * B}, {}))]),
        ("cancel", [
            ("MPI_Irecv", "m_irecv_cancel", None, c({0: N})),
            ("MPI_Cancel", "m_cancel", None, c({0: N})),
            # completes a cancelled request: no message, no Real sync
            ("MPI_Wait", "m_wait_cancel", None, c({0: N})),
            ("MPI_Test_cancelled", "m_test_cancelled", None, c({0: N})),
            ("MPI_Recv", "m_recv", exp["cancel"], c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "m_send", None, c({1: N}, {1: N * B}, {}))]),
    ]

    if mpi4:
        phases.append(("isendrecv", [
            ("MPI_Isendrecv", "n_isendrecv", None, c({0: N})),
            ("MPI_Wait", "n_wait", exp["isendrecv"], c({0: N})),
            ("MPI_Send", "n_send", None, c({1: N})),
            ("MPI_Recv", "n_recv", None, c({1: N}))]))
        ws.note_nominal("Real sync of phase isendrecv, from the program's "
                        "instants", exp["isendrecv"], N * T,
                        abs_tol=0.1 * N * T)

    for name, sites in phases:
        iv = ws.phase(doc, name)
        what = "phase %s" % name
        found, phase_expected, carriers = ws.check_late_sites(
            what, doc, iv, sites, source, REL, ZERO)
        for s in found.values():
            # A point-to-point call has no Potential sync / Time variation.
            ws.check_src_zero(what, s, "potential_sync", 1e-6)
            ws.check_src_zero(what, s, "time_variation", 1e-6)
        if name in ("probe_recv", "mprobe_mrecv"):
            ws.check_together(what, carriers, exp[name], REL)
            phase_expected = exp[name]
        # The interval: the sum of its receiving SRC points', rank 0's.
        ws.check_phase_real_sync(what, iv, phase_expected, REL, ZERO_TOL,
                                 rank1=sr[1] if name == "sendrecv" else 0.0,
                                 rank0=True)
        # No SRC point of the phase but those listed (and MPI_Get_count
        # after the probes, not a communication).
        pc.check_no_other_srcs(what, iv, found.values(), OTHERS)
        total += phase_expected

    iv0 = pc.interval(doc, 0)
    pc.check_main("whole program (all phases)", iv0, "real_sync", total,
                  REL)
    pc.check_rank("whole program (all phases)", iv0, "real_sync", 0,
                  total - sr[1], REL)
    pc.check_rank("whole program (rank 1 never waits for a message)",
                  iv0, "real_sync", 1, sr[1], 0, ZERO_TOL)
    ws.check_realsync_le_sendrecv(iv0)
    print("p2p kinds: Real sync %.6f in all, as measured (%.6f)"
          % (iv0["real"]["main"]["real_sync"], total))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
