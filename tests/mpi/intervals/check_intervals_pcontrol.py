"""Check the protocol of tests/mpi/intervals/intervals_pcontrol.c (see
test_intervals_pcontrol.sh).

usage: check_intervals_pcontrol.py PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT [SCHEMA.json]

STDOUT is the program's standard output: 'rank=R region=S' per rank, its
time in the interval "region".
"""
import os
import sys

import protocol_check as pc

N_REGION, N_RESUMED = 20, 40    # as in intervals_pcontrol.c
REL = 0.10

# Interval "region" (MPI_Pcontrol(1/-1, "region"), entered twice).
REGION_SRC = [
    {"function": "MPI_Allreduce", "marker": "region_allreduce",
     "calls": {0: 2 * N_REGION, 1: 2 * N_REGION},
     "bytes_sent": {0: 8 * N_REGION, 1: 8 * N_REGION},
     "bytes_recv": {0: 8 * N_REGION, 1: 8 * N_REGION}},
]
# Interval 0: only the calls made while collecting.  The MPI_Barrier and
# MPI_Bcast made while paused would be second SRC points of those functions
# (and fail "exactly 1"), the paused MPI_Allreduce an unexpected one.
WHOLE_SRC = [
    {"function": "MPI_Barrier", "marker": "resumed_barrier",
     "calls": {0: N_RESUMED, 1: N_RESUMED}, "bytes_sent": {},
     "bytes_recv": {}},
    {"function": "MPI_Bcast", "marker": "resumed_bcast",
     "calls": {0: 1, 1: 1}},
]
# MPI_Pcontrol is a tool-control function: listed or not, never counted as
# communication (check_inclusive leaves it out).
OTHERS = ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize",
          "MPI_Pcontrol")


def main(argv):
    if len(argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source, out = argv[1:5]
    try:
        meas = pc.read_measurements(out, ("region",))
        if sorted(meas) != [0, 1]:
            pc.fail("%s: expected a 'rank=R region=S' line from ranks 0 and "
                    "1, got ranks %r" % (out, sorted(meas)))
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
        names = [iv["name"] for iv in doc["intervals"]]
        if names != ["whole program", "region"]:
            pc.fail("intervals listed as %r, expected ['whole program', "
                    "'region'] (MPI_Pcontrol(0), (2) and (1) without a name "
                    "mark no interval). Intervals:\n%s"
                    % (names, pc.describe_intervals(doc)))
        region = pc.check_interval(doc, 1, name="region", file=source,
                                   line=pc.marker_line(source, "region"),
                                   level=1, parent=0, executions=2)
        print("interval 'region' at the line of MPI_Pcontrol(1, \"region\"), "
              "executions 2")
        pc.check_call_sites(doc, source, REGION_SRC, ("MPI_Pcontrol",),
                            region["id"])
        pc.check_call_sites(doc, source, WHOLE_SRC, OTHERS, 0)
        for marker in ("paused_barrier", "paused_bcast", "paused_allreduce"):
            line = pc.marker_line(source, marker)
            for iv in doc["intervals"]:
                for s in iv["src"]:
                    fr = s["stack"][0]
                    if fr.get("line") == line and os.path.basename(
                            fr.get("file") or "") == os.path.basename(source):
                        pc.fail("interval %s has %s: a call made while "
                                "collection was paused (MPI_Pcontrol(0)) "
                                "was counted" % (iv["id"], pc.describe_src(s)))
        print("calls made after MPI_Pcontrol(0) are not counted; those after "
              "MPI_Pcontrol(2) and MPI_Pcontrol(1) are, exactly")
        pc.check_inclusive(doc)
        te = pc.by_rank(region["real"], "execution_time")
        for r in (0, 1):
            pc.check_approx("execution time of rank %d in 'region'" % r,
                            te[r], meas[r]["region"], REL)
        print("execution time of 'region' as measured")
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
