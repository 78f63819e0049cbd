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


def main(json_path, text_path, source, prefix, schema=None):
    ev = ws.read_events(prefix)
    doc = ws.load_checked(json_path, text_path, schema)
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
            got = pc.check_rank(phase, iv, "real_sync", 0, expected, REL,
                                ABS)
        pc.check_rank(phase + " (the sender's: none)", iv, "real_sync",
                      1, 0.0, 0, ABS)
        s = pc.site(doc, iv, SITES[phase], source, phase)
        ws.check_le_time(s, "real_sync", 1e-6)
        sr = pc.by_rank(iv["real"], "sendrecv")[0]
        print("%-8s rank 0: Real sync %.6f (the definition gives %.6f "
              "from the program's instants), SendRecv %.6f"
              % (phase, got, expected, sr))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
