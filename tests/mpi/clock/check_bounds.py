"""Check an analyzed protocol of tests/mpi/clock/clock_bounds.c.

usage: check_bounds.py PROTOCOL.json EVENTS BOUNDED

EVENTS: the prefix of the instants ranks 0 and 1 recorded
(waitstates_events.c; CLOCK_MONOTONIC, one for the UTS namespaces of one
machine).  Real sync of interval "late_sender" (the late sender's messages
and the answers) within 1% or 2 ms of the definition applied to the
program's instants, whatever uncertainty the offsets state: the trace's
messages bound the clocks closer than that.  BOUNDED: yes, the Clock line
says the messages bounded rank 1's offset; no, it says nothing of it.
"""
import json
import sys

import protocol_check as pc
import protocol_waitstates as ws

REL, ABS = 0.01, 0.002


def main(json_path, prefix, bounded):
    ev = ws.read_events(prefix, any_host=True)
    expected = ws.expected_real_sync(ev, "recv1", "send1") + ws.expected_real_sync(ev, "recv2", "send2")
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    clock = doc["parameters"]["clock"]
    said = "the trace's messages bounded 1 processes' offsets" in clock
    if said != (bounded == "yes"):
        pc.fail("%s: the Clock line %s the messages' bound: %r" % (json_path, "does not state" if not said
                                                                    else "states", clock))
    iv = [i for i in doc["intervals"] if i.get("name") == "late_sender"]
    if len(iv) != 1:
        pc.fail("%s: no interval late_sender" % json_path)
    got = iv[0]["real"]["main"]["real_sync"]
    got = got["sum"] if isinstance(got, dict) else got
    tol = max(REL * expected, ABS)
    if got is None or abs(got - expected) > tol:
        pc.fail("%s: Real sync of late_sender %r, the program's instants give %.6f (within %g%% or %g s)"
                % (json_path, got, expected, REL * 100, ABS))
    print("%s: Real sync %.6f, the program's instants %.6f; Clock: %s" % (json_path, got, expected, clock))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
