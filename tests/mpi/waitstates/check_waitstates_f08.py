"""Check the protocol of tests/mpi/waitstates/waitstates_f08.f90.

usage: check_waitstates_f08.py PROTOCOL.json PROTOCOL.txt SOURCE.f90
                               STDOUT EVENTS [SCHEMA.json]

The point-to-point calls of a 'use mpi_f08' program are analysed for wait
states like C's.  Each phase of the program is an interval; rank 1 is late
by T_LATE = 10 ms per message, N_MSG = 8 messages per phase
(waitstates_f08.f90 gives each phase's nominal value).  Reference: the
definition applied to the instants the program recorded (EVENTS: the prefix
of its event files), per receiving call min(time in the call, max(0, latest
sendStart - callStart)).  Real sync of the receiving SRC point within
REL = 15% of it, all of it rank 0's; a probe and its receive together;
~0 (at most ZERO_TOL) at every other SRC point of the phase, and in the
polling phases (MPI_Testany, MPI_Improbe loops), where only the count of
messages paired shows the analysis followed them.  The persistent
collective: Potential sync and Time variation of its MPI_Start from the
program's instants.  Every message sent was paired with its receive (the
Wait states line: N paired of N sent), no warning about mpi_f08, calls and
bytes of the receiving SRC points exact, every invariant.
"""
import os
import re
import sys

import protocol_check as pc
import protocol_waitstates as ws

N, T, B = 8, 0.010, 16          # as in waitstates_f08.f90: B bytes/message
REL = 0.15
ZERO_TOL = REL * N * T          # "about 0": 12 ms
KEYS = ("waitsome_calls", "test_calls", "improbe_calls")


def main(json_path, text_path, source, out, prefix, schema=None):
    m = ws.program_measurements(out, KEYS)[0]
    ev = ws.read_events(prefix)
    late = ws.expected_late
    exp = {
        "recv": late(ev, "a_recv", ["a_send"]),
        "irecv_wait": late(ev, "b_wait", ["b_isend"]),
        "waitall": late(ev, "c_waitall", ["c_send1", "c_send2"]),
        "waitany": late(ev, "d_any1", ["d_send1"])
        + late(ev, "d_any2", ["d_send2"]),
        "waitsome": late(ev, "e_some1", ["e_send1"], True)
        + late(ev, "e_some2", ["e_send2"], True)
        + late(ev, "e_some12", ["e_send1", "e_send2"], True),
        "persistent": late(ev, "g_wait_recv", ["g_start_send"]),
        "probe_recv": late(ev, "i_probe_recv", ["i_send"]),
        "mprobe_mrecv": late(ev, "j_mprobe_mrecv", ["j_send"]),
    }
    sr = ws.expected_sendrecv(ev, "h_sendrecv")
    exp["sendrecv"] = sr[0] + sr[1]
    # MPIPROF_TEST_NO_PCOLL: an MPI without persistent collectives (MPI-4)
    pcoll = os.environ.get("MPIPROF_TEST_NO_PCOLL") != "1"
    if pcoll:
        coll, coll_rank = ws.expected_collective(ev, "l_coll")
    for key, nominal in (("recv", N * T), ("irecv_wait", N * T),
                         ("waitall", N * 1.5 * T), ("waitany", N * 2 * T),
                         ("waitsome", N * 2 * T), ("persistent", N * T),
                         ("sendrecv", N * T), ("probe_recv", N * T),
                         ("mprobe_mrecv", N * T)):
        ws.note_nominal("Real sync of phase %s, from the program's "
                        "instants" % key, exp[key], nominal,
                        abs_tol=0.1 * N * T)
    if pcoll:
        ws.note_nominal("Potential sync of the persistent collective, from "
                        "the program's instants", coll["potential_sync"],
                        N * T, abs_tol=0.1 * N * T)

    doc = ws.load_checked(json_path, text_path, schema)   # every message paired
    value = ws.check_waitstates_reported(doc, text_path)
    if re.search(r"(?<![0-9])0 messages paired", str(value)):
        pc.fail("no message was paired: %r" % value)
    for w in pc.find_warnings(doc, "f08"):
        pc.fail("a warning still says mpi_f08 calls are not analysed: %r"
                % w)

    def c(calls, sent=None, recv=None):
        return (calls, sent, recv)
    # (interval, [(function, marker, expected Real sync, counts)]):
    # expected None: no wait for a message here (~0 or n/a); "together": a
    # probe and its receive, together the phase's.
    phases = [
        ("recv", [
            ("MPI_Recv", "a_recv", exp["recv"], c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "a_send", None, c({1: N}, {1: N * B}, {}))]),
        ("irecv_wait", [
            ("MPI_Irecv", "b_irecv", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Wait", "b_wait", exp["irecv_wait"], c({0: N}, {}, {})),
            ("MPI_Isend", "b_isend", None, c({1: N}, {1: N * B}, {})),
            ("MPI_Wait", "b_wait_send", None, c({1: N}))]),
        ("waitall", [
            ("MPI_Irecv", "c_irecv1", None, c({0: N})),
            ("MPI_Irecv", "c_irecv2", None, c({0: N})),
            ("MPI_Waitall", "c_waitall", exp["waitall"], c({0: N})),
            ("MPI_Send", "c_send1", None, c({1: N})),
            ("MPI_Send", "c_send2", None, c({1: N}))]),
        ("waitany", [
            ("MPI_Irecv", "d_irecv1", None, c({0: N})),
            ("MPI_Irecv", "d_irecv2", None, c({0: N})),
            ("MPI_Waitany", "d_waitany", exp["waitany"], c({0: 2 * N})),
            ("MPI_Send", "d_send1", None, c({1: N})),
            ("MPI_Send", "d_send2", None, c({1: N}))]),
        ("waitsome", [
            ("MPI_Irecv", "e_irecv1", None, c({0: N})),
            ("MPI_Irecv", "e_irecv2", None, c({0: N})),
            ("MPI_Waitsome", "e_waitsome", exp["waitsome"],
             c({0: int(m["waitsome_calls"])})),
            ("MPI_Send", "e_send1", None, c({1: N})),
            ("MPI_Send", "e_send2", None, c({1: N}))]),
        ("test_loop", [
            ("MPI_Irecv", "f_irecv", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Testany", "f_testany", None,
             c({0: int(m["test_calls"])})),
            ("MPI_Send", "f_send", None, c({1: N}, {1: N * B}, {}))]),
        ("persistent", [
            ("MPI_Recv_init", "g_recv_init", None, c({0: 1})),
            ("MPI_Start", "g_start_recv", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Wait", "g_wait_recv", exp["persistent"], c({0: N})),
            ("MPI_Send_init", "g_send_init", None, c({1: 1})),
            ("MPI_Start", "g_start_send", None, c({1: N}, {1: N * B}, {})),
            ("MPI_Wait", "g_wait_send", None, c({1: N})),
            ("MPI_Request_free", "g_request_free", None,
             c({0: 1, 1: 1}))]),
        ("sendrecv", [
            ("MPI_Sendrecv", "h_sendrecv", exp["sendrecv"],
             c({0: N, 1: N}, {0: N * B, 1: N * B}, {0: N * B, 1: N * B}))]),
        ("probe_recv", [
            ("MPI_Probe", "i_probe", "together", c({0: N}, {}, {})),
            ("MPI_Recv", "i_recv", "together", c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "i_send", None, c({1: N}))]),
        ("mprobe_mrecv", [
            ("MPI_Mprobe", "j_mprobe", "together", c({0: N})),
            ("MPI_Mrecv", "j_mrecv", "together", c({0: N}, {}, {0: N * B})),
            ("MPI_Send", "j_send", None, c({1: N}))]),
        ("improbe", [
            ("MPI_Improbe", "k_improbe", None,
             c({0: int(m["improbe_calls"])})),
            ("MPI_Imrecv", "k_imrecv", None, c({0: N}, {}, {0: N * B})),
            ("MPI_Wait", "k_wait", None, c({0: N})),
            ("MPI_Send", "k_send", None, c({1: N}))]),
    ]
    total = 0.0
    for name, sites in phases:
        iv = ws.phase(doc, name)
        what = "phase %s" % name
        _, expected_sum, carriers = ws.check_late_sites(
            what, doc, iv, sites, source, REL, {None: ZERO_TOL},
            on_rank=0 if name != "sendrecv" else None)
        if name in ("probe_recv", "mprobe_mrecv"):
            ws.check_together(what, carriers, exp[name], REL)
            expected_sum = exp[name]
        ws.check_phase_real_sync(what, iv, expected_sum, REL, ZERO_TOL,
                                 rank1=sr[1] if name == "sendrecv" else 0.0)
        total += expected_sum

    if pcoll:
        iv = ws.phase(doc, "pcoll")
        start = pc.site(doc, iv, "MPI_Start", source, "l_start")
        pc.check_counts(start, calls={0: N, 1: N})
        ws.check_src_value("persistent collective", start, "potential_sync",
                           coll["potential_sync"], REL, abs_tol=ZERO_TOL,
                           per_rank={r: v["potential_sync"]
                                     for r, v in coll_rank.items()})
        ws.check_src_value("persistent collective", start, "time_variation",
                           coll["time_variation"], REL, abs_tol=ZERO_TOL)
    else:
        print("persistent collective: not in this MPI, not checked")

    iv0 = pc.interval(doc, 0)
    pc.check_main("whole program", iv0, "real_sync", total, REL)
    ws.check_realsync_le_sendrecv(iv0)
    print("mpi_f08: Real sync %.6f in all, as the program's instants "
          "give (%.6f)" % (iv0["real"]["main"]["real_sync"], total))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
