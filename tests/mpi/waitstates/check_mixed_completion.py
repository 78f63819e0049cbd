"""Check the protocol of tests/mpi/waitstates/mixed_completion.c.

usage: check_mixed_completion.py PROTOCOL.json PROTOCOL.txt SOURCE.c EVENTS
                                 [SCHEMA.json]

EVENTS: the prefix of the files of the program's instants
(waitstates_events.c): per phase, "recv_<phase>" (rank 0: the entry of the
call that completed the receive, and that entry plus the call's time divided
by the number of requests it completed: its SendRecv part) and
"send_<phase>" (rank 1: its MPI_Isend's entry).

Known answers, per phase (REL = 15% or ABS = 3 ms, whichever is larger):
  Real sync of rank 0 = sum over rounds of min(SendRecv part of the call
      that completed the receive, max(0, sendStart - that call's entry)):
      a call completing a receive and three collective requests gives
      SendRecv a quarter of its time, and its Real sync cannot exceed that
      quarter (characteristics.md: Real sync <= SendRecv).  In the MPI_Test*
      phases the call that completes the receive is a short one entered
      (mostly) after the send: there Real sync is only checked not to
      exceed the definition's value (the program's instants, taken outside
      the call, can only make a call look longer than the profiler saw).
  Real sync of rank 1 ~ 0 (it never waits for a message).
  Real sync <= SendRecv in every interval, per process, and at every SRC
      point Real sync <= its time (the invariants).
"""
import sys

import protocol_check as pc
import protocol_waitstates as ws

PHASES = ("waitall", "waitany", "waitsome", "wait", "testall", "testany",
          "testsome", "test")
SITES = {"waitall": "MPI_Waitall", "waitany": "MPI_Waitany",
         "waitsome": "MPI_Waitsome", "wait": "MPI_Wait",
         "testall": "MPI_Testall", "testany": "MPI_Testany",
         "testsome": "MPI_Testsome", "test": "MPI_Test"}
REL, ABS = 0.15, 0.003


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source, prefix = argv[1:5]
    schema = argv[5] if len(argv) == 6 else None
    try:
        ev = ws.read_events(prefix)
        doc = pc.load(json_path)
        ws.check_protocol(doc, text_path, schema)
        for phase in PHASES:
            iv = ws.phase(doc, phase)
            expected = ws.expected_real_sync(ev, "recv_" + phase,
                                             "send_" + phase)
            ws.check_realsync_le_sendrecv(iv)
            if phase.startswith("test"):
                got = pc.by_rank(iv["real"], "real_sync")[0]
                if got is None or got > expected + max(REL * expected, ABS):
                    pc.fail("%s: Real sync of rank 0 %r exceeds what the "
                            "definition gives, %.6f" % (phase, got, expected))
            else:
                got = ws.check_rank(phase, iv, "real_sync", 0, expected, REL,
                                    ABS)
            ws.check_rank(phase + " (the sender's: none)", iv, "real_sync",
                          1, 0.0, 0, ABS)
            s = ws.site(doc, iv, SITES[phase], source, phase)
            st = ws.src_stat(s, "real_sync")
            if st["sum"] > s["time"]["sum"] + 1e-6:
                pc.fail("%s: Real sync %.6f exceeds its time %.6f"
                        % (pc.describe_src(s), st["sum"], s["time"]["sum"]))
            sr = pc.by_rank(iv["real"], "sendrecv")[0]
            print("%-8s rank 0: Real sync %.6f (the definition gives %.6f "
                  "from the program's instants), SendRecv %.6f"
                  % (phase, got, expected, sr))
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
