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


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source, out = argv[1:5]
    try:
        meas = pc.read_measurements(out, ("seq", "inner"))
        if sorted(meas) != [0, 1]:
            pc.fail("%s: expected a 'rank=R seq=S inner=S' line from ranks 0 "
                    "and 1, got ranks %r" % (out, sorted(meas)))
        print("program measured: %r" % meas)

        doc = pc.load(json_path)
        pc.check_invariants(doc)
        print("invariants hold in every interval")
        pc.check_text(doc, text_path)
        pc.check_interval_headers(doc, text_path)
        print("text protocol agrees with the JSON")
        if len(argv) == 6:
            pc.validate_schema(doc, argv[5])
            print("schema valid")
        pc.check_interval_tree(doc)
        rep = pc.find_interval(doc, "replicated", 0)
        inner = pc.find_interval(doc, "inner", rep["id"])
        par = pc.find_interval(doc, "parallel", 0)
        for iv in (rep, inner, par):
            pc.check_interval(doc, iv, file=source,
                              line=pc.marker_line(source, iv["name"]),
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
            real = iv["real"]
            ins = pc.by_rank(real, "insufficient_parallelism")
            for r in range(P):
                pc.check_approx("insufficient parallelism of rank %d in "
                                "interval %d (%r): (P-1)/P x its replicated "
                                "code" % (r, iid, iv["name"]), ins[r],
                                share * seq(r), REL)
            pc.check_approx("insufficient parallelism of interval %d (%r): "
                            "sum over processes" % (iid, iv["name"]),
                            real["main"]["insufficient_parallelism"],
                            share * sum(seq(r) for r in range(P)), REL)
            print("interval %d (%r): insufficient parallelism %.6f (%r by "
                  "process): as measured" % (iid, iv["name"],
                                             real["main"][
                                                 "insufficient_parallelism"],
                                             ins))
        real = par["real"]
        pc.check_approx("insufficient parallelism of 'parallel' (no "
                        "replicated code)",
                        real["main"]["insufficient_parallelism"], 0.0, 0,
                        1e-6)
        print("'parallel' has no insufficient parallelism")
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
