"""Check the protocol of tests/mpi/characteristics/load_imbalance.c.

usage: check_load_imbalance.py PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT

STDOUT is the program's standard output: one line per rank,
'rank=R exec=SECONDS comm=SECONDS', its own measurement of its time from
MPI_Init's return to MPI_Finalize's entry and of its time inside MPI calls.
The protocol's numbers are compared with those (within 10%), and the
measurements with the nominal values of the program (a note only: a loaded
machine stretches barrier waits, which the profiler must then see too).
"""
import sys

import protocol_check as pc

N_STEPS, T0, T1 = 20, 0.010, 0.020          # as in load_imbalance.c
NOMINAL = N_STEPS * (T1 - T0)               # imbalance and rank 0's waits
REL = 0.10


def main(json_path, text_path, source, out):
    meas = pc.measurements(out, ("exec", "comm"))
    comp = {r: m["exec"] - m["comm"] for r, m in meas.items()}  # C(p)
    cmax = max(comp.values())
    imbalance = sum(cmax - c for c in comp.values())
    comm0 = meas[0]["comm"]
    print("program measured: exec=%r comm=%r -> C(p)=%r, load imbalance "
          "%.6f (nominal %.6f), rank 0 communication %.6f (nominal %.6f)"
          % ({r: m["exec"] for r, m in meas.items()},
             {r: m["comm"] for r, m in meas.items()}, comp, imbalance,
             NOMINAL, comm0, NOMINAL))
    for what, v in (("load imbalance", imbalance),
                    ("rank 0 communication", comm0)):
        if not pc.approx(v, NOMINAL, 0.25):
            print("NOTE: the program's measured %s %.6f is far from the "
                  "nominal %.6f: a loaded machine?" % (what, v, NOMINAL))

    doc = pc.load_checked(json_path, text_path, say=False)
    pc.check_call_sites(
        doc, source,
        [{"function": "MPI_Barrier", "marker": "barrier",
          "calls": {0: N_STEPS, 1: N_STEPS}, "bytes_sent": {},
          "bytes_recv": {}}],
        ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize"))
    iv0 = pc.interval(doc, 0)
    what = "interval 0"
    pc.check_main(what, iv0, "load_imbalance", imbalance, REL)
    pc.check_rank(what, iv0, "load_imbalance", 0, imbalance, REL)
    pc.check_rank(what + " (rank 1 computes most)", iv0, "load_imbalance",
                  1, 0.0, 0, REL * imbalance)
    pc.check_rank(what + " (rank 0's barrier waits)", iv0, "communication",
                  0, comm0, REL)
    pc.check_main(what, iv0, "communication",
                  meas[0]["comm"] + meas[1]["comm"], REL)
    pc.check_rank(what, iv0, "collective", 0, comm0, REL)
    print("load imbalance %.6f, rank 0 communication %.6f: as measured"
          % (iv0["real"]["main"]["load_imbalance"],
             pc.by_rank(iv0["real"], "communication")[0]))


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
