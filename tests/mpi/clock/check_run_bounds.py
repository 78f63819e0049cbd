"""Check a protocol of tests/mpi/clock/clock_run_bounds.c.

usage: check_run_bounds.py PROTOCOL.json EVENTS

EVENTS: the prefix of the instants ranks 0 and 1 recorded
(waitstates_events.c; CLOCK_MONOTONIC, one for the UTS namespaces of one
machine).  MPI_Init's alignment was made uncertain by far more than the
program's waits (MPIPROF_TEST_CLOCK_PONG_DELAY, split), so its threshold
would count them as 0; the run's own messages bound the offsets better.
Real sync of "late_sender" and Potential sync of "late_barrier" are
within 1% or 2 ms of the definitions applied to the program's instants,
more each wait's share of the error the Clock line states for the
offsets (their bound at MPI_Finalize, N_MSG times), and the Clock line
says the run's messages lowered the threshold below half a wait.
"""
import json
import re
import sys

import protocol_check as pc
import protocol_waitstates as ws

REL, ABS = 0.01, 0.002
N_MSG, T_LATE = 20, 0.020


def interval(doc, name):
    iv = [i for i in doc["intervals"] if i.get("name") == name]
    if len(iv) != 1:
        pc.fail("no interval %s" % name)
    return iv[0]


def value(iv, key):
    got = iv["real"]["main"][key]
    return got["sum"] if isinstance(got, dict) else got


def near(what, got, expected, error):
    tol = max(REL * expected, ABS) + N_MSG * error
    if got is None or abs(got - expected) > tol:
        pc.fail("%s %r, the program's instants give %.6f (within %g%% or %g s, and %d x %g s)"
                % (what, got, expected, REL * 100, ABS, N_MSG, error))
    print("%s %.6f, the program's instants %.6f (the offsets' error at most %g s)" % (what, got, expected, error))


def main(json_path, prefix):
    ev = ws.read_events(prefix, any_host=True)
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    clock = doc["parameters"]["clock"]
    m = re.search(r"largest offset uncertainty ([0-9.e+-]+) s", clock)
    if not m or float(m.group(1)) < 0.02:
        pc.fail("MPI_Init's alignment is not uncertain by 20 ms or more (the test's premise): %r" % clock)
    m = re.search(r"to an error of at most ([0-9.e+-]+) s at MPI_Finalize, and lowered that threshold to as "
                  r"little as ([0-9.e+-]+) s", clock)
    if not m or float(m.group(2)) > T_LATE / 2:
        pc.fail("the Clock line does not say the run's messages lowered the threshold below %g s: %r"
                % (T_LATE / 2, clock))
    error = float(m.group(1))
    near("Real sync of late_sender", value(interval(doc, "late_sender"), "real_sync"),
         ws.expected_real_sync(ev, "recv1", "send1") + ws.expected_real_sync(ev, "recv2", "send2"), error)
    tot, _ = ws.expected_collective(ev, "barrier")
    near("Potential sync of late_barrier", value(interval(doc, "late_barrier"), "potential_sync"),
         tot["potential_sync"], error)
    print("Clock: %s" % clock)


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
