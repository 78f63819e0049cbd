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
definition applied to the program's instants.
"""
import json
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
    if got is None or abs(got - expected) > max(REL * expected, ABS):
        pc.fail("%s: Real sync of late_sender %r, the program's instants give %.6f (within %g%% or %g s)"
                % (json_path, got, expected, REL * 100, ABS))
    print("%s: Real sync %.6f, the program's instants %.6f; Clock: %s" % (json_path, got, expected, clock[:160]))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
