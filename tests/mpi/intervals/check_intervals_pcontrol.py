"""Check the protocol of tests/mpi/intervals/intervals_pcontrol.c (see
test_intervals_pcontrol.sh).

usage: check_intervals_pcontrol.py PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT [SCHEMA.json]

STDOUT is the program's standard output: 'rank=R region=S' per rank, its
time in the interval "region".
"""
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


def main(json_path, text_path, source, out, schema=None):
    meas = pc.measurements(out, ("region",))
    print("program measured: %r" % meas)

    doc = pc.load_checked(json_path, text_path, schema, headers=True)
    pc.check_interval_tree(doc)
    pc.check_interval_names(doc, ["whole program", "region"],
                            "MPI_Pcontrol(0), (2) and (1) without a name "
                            "mark no interval")
    region = pc.check_interval(doc, 1, name="region", file=source,
                               marker="region", level=1, parent=0,
                               executions=2)
    print("interval 'region' at the line of MPI_Pcontrol(1, \"region\"), "
          "executions 2")
    pc.check_call_sites(doc, source, REGION_SRC, ("MPI_Pcontrol",),
                        region["id"])
    pc.check_call_sites(doc, source, WHOLE_SRC, OTHERS, 0)
    for marker in ("paused_barrier", "paused_bcast", "paused_allreduce"):
        for iid, s in pc.srcs_at(doc, source, marker):
            pc.fail("interval %s has %s: a call made while collection was "
                    "paused (MPI_Pcontrol(0)) was counted"
                    % (iid, pc.describe_src(s)))
    print("calls made after MPI_Pcontrol(0) are not counted; those after "
          "MPI_Pcontrol(2) and MPI_Pcontrol(1) are, exactly")
    pc.check_inclusive(doc)
    pc.check_ranks("execution time", region, "execution_time",
                   {r: meas[r]["region"] for r in (0, 1)}, REL)
    print("execution time of 'region' as measured")


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
