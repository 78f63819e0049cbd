"""Check the protocol of tests/mpi/characteristics/load_imbalance.c.

usage: check_load_imbalance.py PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT

STDOUT is the program's standard output: one line per rank,
'rank=R exec=SECONDS comm=SECONDS', its own measurement of its time from
MPI_Init's return to MPI_Finalize's entry and of its time inside MPI calls.
The protocol's numbers are compared with those (within 10%), and the
measurements with the nominal values of the program (a note only: a loaded
machine stretches barrier waits, which the profiler must then see too).
"""
import re
import sys

import protocol_check as pc

N_STEPS, T0, T1 = 20, 0.010, 0.020          # as in load_imbalance.c
NOMINAL = N_STEPS * (T1 - T0)               # imbalance and rank 0's waits
REL = 0.10


def measurements(path):
    got = {}
    with open(path, encoding="utf-8") as f:
        for ln in f:
            m = re.match(r"^rank=(\d+) exec=([0-9.]+) comm=([0-9.]+)$",
                         ln.strip())
            if m:
                got[int(m.group(1))] = (float(m.group(2)),
                                        float(m.group(3)))
    if sorted(got) != [0, 1]:
        pc.fail("%s: expected a 'rank=R exec=.. comm=..' line from ranks "
                "0 and 1, got ranks %r" % (path, sorted(got)))
    return got


def main(argv):
    if len(argv) != 5:
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source, out = argv[1:]
    try:
        meas = measurements(out)
        comp = {r: e - c for r, (e, c) in meas.items()}  # C(p)
        cmax = max(comp.values())
        imbalance = sum(cmax - c for c in comp.values())
        comm0 = meas[0][1]
        print("program measured: exec=%r comm=%r -> C(p)=%r, load imbalance "
              "%.6f (nominal %.6f), rank 0 communication %.6f (nominal %.6f)"
              % ({r: v[0] for r, v in meas.items()},
                 {r: v[1] for r, v in meas.items()}, comp, imbalance,
                 NOMINAL, comm0, NOMINAL))
        for what, v in (("load imbalance", imbalance),
                        ("rank 0 communication", comm0)):
            if not pc.approx(v, NOMINAL, 0.25):
                print("NOTE: the program's measured %s %.6f is far from the "
                      "nominal %.6f: a loaded machine?" % (what, v, NOMINAL))

        doc = pc.load(json_path)
        pc.check_invariants(doc)
        pc.check_text(doc, text_path)
        pc.check_call_sites(
            doc, source,
            [{"function": "MPI_Barrier", "marker": "barrier",
              "calls": {0: N_STEPS, 1: N_STEPS}, "bytes_sent": {},
              "bytes_recv": {}}],
            ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize"))
        real = doc["intervals"][0]["real"]
        main_ = real["main"]
        pc.check_approx("Load imbalance (interval 0)",
                        main_["load_imbalance"], imbalance, REL)
        li = pc.by_rank(real, "load_imbalance")
        pc.check_approx("Load imbalance of rank 0 (by process)", li[0],
                        imbalance, REL)
        pc.check_approx("Load imbalance of rank 1 (by process; it computes "
                        "most)", li[1], 0.0, 0, abs_tol=REL * imbalance)
        comm = pc.by_rank(real, "communication")
        pc.check_approx("Communication of rank 0 (by process; its barrier "
                        "waits)", comm[0], comm0, REL)
        pc.check_approx("Communication (interval 0)", main_["communication"],
                        meas[0][1] + meas[1][1], REL)
        pc.check_approx("Collective of rank 0 (by process)",
                        pc.by_rank(real, "collective")[0], comm0, REL)
        print("load imbalance %.6f, rank 0 communication %.6f: as measured"
              % (main_["load_imbalance"], comm[0]))
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
