"""Check the protocol of tests/mpi/intervals/intervals_seq.c (see test_intervals_seq.sh).

usage: check_intervals_seq.py PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT [SCHEMA.json]

STDOUT is the program's standard output: 'rank=R seq=S inner=S' per rank,
the wall time of its replicated code in "replicated" itself and in "inner".
Insufficient parallelism must be t(p) * (P-1)/P per process and its sum in
the main characteristics, in every interval around the code.
"""
import sys

import protocol_check as pc

P = 2
REL = 0.10


def main(json_path, text_path, source, out, schema=None):
    meas = pc.measurements(out, ("seq", "inner"))
    print("program measured: %r" % meas)

    doc = pc.load_checked(json_path, text_path, schema, headers=True)
    pc.check_interval_tree(doc)
    rep = pc.find_interval(doc, "replicated", 0)
    inner = pc.find_interval(doc, "inner", rep["id"])
    par = pc.find_interval(doc, "parallel", 0)
    for iv in (rep, inner, par):
        pc.check_interval(doc, iv, file=source, marker=iv["name"],
                          level=iv["level"], executions=1)
    pc.check_inclusive(doc)

    share = (P - 1.0) / P
    # The replicated code of each interval, itself and nested.
    seq_in = {
        0: lambda r: meas[r]["seq"] + meas[r]["inner"],
        rep["id"]: lambda r: meas[r]["seq"] + meas[r]["inner"],
        inner["id"]: lambda r: meas[r]["inner"],
    }
    for iid, seq in seq_in.items():
        iv = pc.interval(doc, iid)
        ins = pc.check_ranks("insufficient parallelism: (P-1)/P x its "
                             "replicated code", iv,
                             "insufficient_parallelism",
                             {r: share * seq(r) for r in range(P)}, REL)
        v = pc.check_main("insufficient parallelism: sum over processes",
                          iv, "insufficient_parallelism",
                          share * sum(seq(r) for r in range(P)), REL)
        print("interval %d (%r): insufficient parallelism %.6f (%r by "
              "process): as measured" % (iid, iv["name"], v, ins))
    pc.check_main("insufficient parallelism (no replicated code)", par,
                  "insufficient_parallelism", 0.0, 0, 1e-6)
    print("'parallel' has no insufficient parallelism")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
