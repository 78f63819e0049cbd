"""Check the protocol of tests/mpi/intervals/intervals.c (see test_intervals.sh).

usage: check_intervals.py [--again] PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT [SCHEMA.json]

STDOUT is the program's standard output: one line per rank with its own
measurement of each interval's time and of its time inside the MPI calls
made directly in each interval (see intervals.c).

--again: when a check fails and the program's own measurement shows the
run was disturbed (a rank measured "pack" or "update", which are nothing
but a busy loop of known length, more than 10% longer than that length:
other jobs took its processor around the marks, where the rank's window
and the profiler's differ), exit 3 instead of 1 so that the test runs the
program once more.
"""
import sys

import protocol_check as pc

N_ITER = 50                     # as in intervals.c
REL = 0.10
# Communication is compared with what each rank measured around its calls;
# the two windows differ by the wrapper's cost, microseconds per call.
COMM_ABS = 0.002

KEYS = ("exec", "setup", "loop", "exchange", "pack", "update", "final",
        "comm_setup", "comm_loop", "comm_exchange", "comm_final")

# name, parent name, level, executions, marker of the begin mark, and the
# SRC points of the interval itself (function, marker, calls per rank).
TREE = [
    ("setup", "whole program", 1, 1, "setup",
     [{"function": "MPI_Bcast", "marker": "bcast", "calls": {0: 1, 1: 1}}]),
    ("loop", "whole program", 1, N_ITER, "loop",
     [{"function": "MPI_Barrier", "marker": "barrier",
       "calls": {0: N_ITER, 1: N_ITER}}]),
    ("exchange", "loop", 2, N_ITER, "exchange",
     [{"function": "MPI_Allreduce", "marker": "allreduce",
       "calls": {0: N_ITER, 1: N_ITER},
       "bytes_sent": {0: 4 * N_ITER, 1: 4 * N_ITER},
       "bytes_recv": {0: 4 * N_ITER, 1: 4 * N_ITER}}]),
    ("pack", "exchange", 3, N_ITER - 1, "pack", []),
    ("update", "loop", 2, N_ITER, "update", []),
    ("final", "whole program", 1, 1, "final",
     [{"function": "MPI_Reduce", "marker": "reduce", "calls": {0: 1, 1: 1}}]),
]
# Depth-first, in order of first entry: "pack" (first entered in the 2nd
# iteration, after "update") is listed inside "exchange", before "update".
ORDER = ["whole program", "setup", "loop", "exchange", "pack", "update",
         "final"]
OTHERS0 = ("MPI_Init", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Finalize")


# intervals.c's busy times of the two intervals that do nothing else
BUSY_ONLY = {"pack": (N_ITER - 1) * 0.0005, "update": N_ITER * 0.0005}


def disturbed(meas):
    """The ranks' own measurements that exceed a busy-only interval's
    length by more than REL, as text ("" when none)."""
    return ", ".join("rank %d measured %r %.6f s (its busy loop: %.6f s)" % (r, k, meas[r][k], t)
                     for r in sorted(meas) for k, t in BUSY_ONLY.items() if meas[r][k] > t * (1 + REL))


def check(meas, json_path, text_path, source, out, schema=None):
    """Every check; meas (empty) gets the program's own measurements."""
    meas.update(pc.measurements(out, KEYS))
    for r in (0, 1):
        print("rank %d measured: %s" % (r, " ".join(
            "%s=%.6f" % (k, meas[r][k]) for k in KEYS)))

    doc = pc.load_checked(json_path, text_path, schema, headers=True)

    # The tree: order, ids, parents, levels, executions, positions.
    pc.check_interval_tree(doc)
    ids = pc.check_interval_names(doc, ORDER, "depth-first, in order of "
                                  "first entry")
    for name, parent, level, executions, marker, _ in TREE:
        pc.check_interval(doc, ids[name], name=name, file=source,
                          marker=marker, level=level, parent=ids[parent],
                          executions=executions)
    print("intervals: order, parents, levels, executions, file:line as "
          "expected")

    # SRC points: each call only in the interval it is made in.
    for name, _, _, _, _, expected in TREE:
        pc.check_call_sites(doc, source, expected, (), ids[name])
    pc.check_call_sites(doc, source, [], OTHERS0, 0)
    print("SRC points: each call site in its own interval only, exact "
          "counts")

    # Inclusive intervals.
    pc.check_inclusive(doc)
    print("communication of each interval = its SRC points + those "
          "nested in it")

    # Times as measured by each rank.
    for name, key in (("whole program", "exec"), ("setup", "setup"),
                      ("loop", "loop"), ("exchange", "exchange"),
                      ("pack", "pack"), ("update", "update"),
                      ("final", "final")):
        iv = pc.interval(doc, ids[name])
        pc.check_ranks("execution time", iv, "execution_time",
                       {r: meas[r][key] for r in (0, 1)}, REL)
        pc.check_main("execution time", iv, "execution_time",
                      max(meas[r][key] for r in (0, 1)), REL)
    # Communication: the calls made in the interval and in those nested
    # in it, as each rank measured them.
    own = {"setup": ["comm_setup"], "final": ["comm_final"],
           "exchange": ["comm_exchange"],
           "loop": ["comm_loop", "comm_exchange"], "pack": [],
           "update": []}
    own["whole program"] = ["comm_setup", "comm_loop", "comm_exchange",
                            "comm_final"]
    for name, keys in own.items():
        pc.check_ranks("communication", pc.interval(doc, ids[name]),
                       "communication",
                       {r: sum(meas[r][k] for k in keys) for r in (0, 1)},
                       REL, COMM_ABS)
    loop = pc.interval(doc, ids["loop"])["real"]["main"]
    exch = pc.interval(doc, ids["exchange"])["real"]["main"]
    barrier = pc.find_src(doc, "MPI_Barrier", interval=ids["loop"])[0]
    pc.check_approx("communication of 'loop' (its MPI_Barrier plus all "
                    "of 'exchange')", loop["communication"],
                    barrier["time"]["sum"] + exch["communication"],
                    1e-6, 1e-5)
    print("execution times and communication as each rank measured "
          "them; 'loop' includes 'exchange'")


def main(*argv):
    again = argv[:1] == ("--again",)
    if again:
        argv = argv[1:]
    if len(argv) not in (4, 5):
        pc.bad_usage()
    meas = {}
    try:
        check(meas, *argv)
    except AssertionError as e:
        if again and disturbed(meas):
            raise pc.RunAgain("%s\nNOTE: the run was disturbed (%s): it is "
                              "made once more" % (e, disturbed(meas)))
        raise


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
