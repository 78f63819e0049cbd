"""Check the protocol of tests/mpi/characteristics/idle.c.

usage: check_idle.py PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT

STDOUT is the program's standard output: one line per rank,
'rank=R exec=SECONDS', its own measurement of its time from MPI_Init's
return to MPI_Finalize's entry.  Idle time must be within 10% of
exec(0) - exec(1) (nominally 0.2 s) and be rank 1's.
"""
import re
import sys

import protocol_check as pc

T_TAIL = 0.200   # as in idle.c
REL = 0.10


def measurements(path):
    got = {}
    with open(path, encoding="utf-8") as f:
        for ln in f:
            m = re.match(r"^rank=(\d+) exec=([0-9.]+)$", ln.strip())
            if m:
                got[int(m.group(1))] = float(m.group(2))
    if sorted(got) != [0, 1]:
        pc.fail("%s: expected a 'rank=R exec=..' line from ranks 0 and 1, "
                "got ranks %r" % (path, sorted(got)))
    return got


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source, out = argv[1:]
    try:
        exe = measurements(out)
        idle = max(exe.values()) - exe[1]
        print("program measured: exec=%r -> idle time %.6f (nominal %.6f)"
              % (exe, idle, T_TAIL))
        if not pc.approx(idle, T_TAIL, 0.25):
            print("NOTE: the measured idle time %.6f is far from the nominal "
                  "%.6f: a loaded machine?" % (idle, T_TAIL))

        doc = pc.load(json_path)
        pc.check_invariants(doc)
        pc.check_text(doc, text_path)
        pc.check_call_sites(
            doc, source,
            [{"function": "MPI_Allreduce", "marker": "allreduce",
              "calls": {0: 1, 1: 1}, "bytes_sent": {0: 4, 1: 4},
              "bytes_recv": {0: 4, 1: 4}},
             {"function": "MPI_Barrier", "marker": "barrier",
              "calls": {0: 1, 1: 1}, "bytes_sent": {}, "bytes_recv": {}}],
            ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize"))
        real = doc["intervals"][0]["real"]
        pc.check_approx("Idle time (interval 0)", real["main"]["idle_time"],
                        idle, REL)
        pc.check_approx("Execution time (interval 0)",
                        real["main"]["execution_time"], exe[0], REL)
        by = pc.by_rank(real, "idle_time")
        pc.check_approx("Idle time of rank 1 (by process)", by[1], idle, REL)
        pc.check_approx("Idle time of rank 0 (by process; it finishes last)",
                        by[0], 0.0, 0, abs_tol=REL * idle)
        print("idle time %.6f on rank 1: as measured"
              % real["main"]["idle_time"])
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
