"""Check a protocol of tests/mpi/clock/clock_late_sender.c.

usage: check_clock.py PROTOCOL.json EVENTS KIND

EVENTS: the prefix of the instants ranks 0 and 1 recorded (waitstates_events.c;
CLOCK_MONOTONIC, which UTS namespaces of one machine share, so the
instants compare even under two host names).  KIND:
  shared    the dynamic Clock line says one clock shared by every process and
            no threshold (differences below 0 s count as 0)
  analyzed  the analyzer's Clock line says every offset 0 and exact
  measured  the dynamic Clock line says the offsets were measured (not one
            shared clock)
  any       no Clock check
Always: Real sync of interval "late_sender" within 1% or 2 ms of the
definition applied to the program's instants; or, where the Clock line
states an uncertainty of the offsets that applied (measured on a loaded
machine: the sanitizer build beside other jobs gave 4 ms at MPI_Init),
within what it allows: each message's wait off by at most u, MPI_Init's
uncertainty in the dynamic mode (its offsets align the instants), the
analyzer's weighted one (1/u^2 weights: near the smaller of the two).
"""
import json
import re
import sys

import protocol_check as pc
import protocol_waitstates as ws

REL, ABS = 0.01, 0.002


def main(json_path, prefix, kind):
    ev = ws.read_events(prefix, any_host=True)
    expected = ws.expected_real_sync(ev, "recv1", "send1")
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    clock = doc["parameters"]["clock"]
    if kind == "shared" and ("one clock shared by every process" not in clock
                             or "differences below 0 s count as 0" not in clock):
        pc.fail("%s: the Clock line does not say one shared clock and threshold 0: %r" % (json_path, clock))
    if kind == "analyzed" and "offsets 0 and exact" not in clock:
        pc.fail("%s: the Clock line does not say the offsets are 0 and exact: %r" % (json_path, clock))
    if kind == "measured" and ("shared by every process" in clock or "aligned to rank 0" not in clock):
        pc.fail("%s: the Clock line does not say the offsets were measured: %r" % (json_path, clock))
    iv = [i for i in doc["intervals"] if i.get("name") == "late_sender"]
    if len(iv) != 1:
        pc.fail("%s: no interval late_sender" % json_path)
    got = iv[0]["real"]["main"]["real_sync"]
    got = got["sum"] if isinstance(got, dict) else got
    # the largest uncertainty the Clock line states (dynamic: "largest
    # offset uncertainty X s) and MPI_Finalize (Y s)"; analyzed: "largest
    # offset uncertainty X s at the first measurement ..., Y s at the last")
    m = re.search(r"largest offset uncertainty ([0-9.e+-]+) s\)? (?:and MPI_Finalize \(|at the first "
                  r"measurement \(rank \d+'s\), )([0-9.e+-]+) s", clock)
    u0, u1 = (float(m.group(1)), float(m.group(2))) if m else (0.0, 0.0)
    if clock.startswith("the trace's timestamps") and u0 > 0 and u1 > 0:
        # the analyzer's one offset, weighted by 1/u^2: off by at most the
        # weighted mean of the two bounds (near the smaller one)
        u = (1 / u0 + 1 / u1) / (1 / u0 ** 2 + 1 / u1 ** 2)
    else:  # the dynamic mode aligns every instant with MPI_Init's offsets
        u = u0
    messages = len(ws.events(ev, "recv1"))
    tol = max(REL * expected, ABS, messages * u)
    if tol > max(REL * expected, ABS):
        print("note: %s: offsets uncertain by up to %.3g s: Real sync within %.3g s (%d messages)"
              % (json_path, u, tol, messages))
    if got is None or abs(got - expected) > tol:
        pc.fail("%s: Real sync of late_sender %r, the program's instants give %.6f (within %g%% or %g s, or "
                "what the offsets' uncertainty %.3g s allows: %.3g s)"
                % (json_path, got, expected, REL * 100, ABS, u, tol))
    print("%s: Real sync %.6f, the program's instants %.6f; Clock: %s" % (json_path, got, expected, clock[:160]))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
