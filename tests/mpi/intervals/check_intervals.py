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


def main(argv):
    again = len(argv) > 1 and argv[1] == "--again"
    if again:
        argv = argv[:1] + argv[2:]
    meas = {}
    if len(argv) not in (5, 6):
        print(__doc__, file=sys.stderr)
        return 2
    json_path, text_path, source, out = argv[1:5]
    try:
        meas = pc.read_measurements(out, KEYS)
        if sorted(meas) != [0, 1]:
            pc.fail("%s: expected a measurement line from ranks 0 and 1, got "
                    "ranks %r" % (out, sorted(meas)))
        for r in (0, 1):
            print("rank %d measured: %s" % (r, " ".join(
                "%s=%.6f" % (k, meas[r][k]) for k in KEYS)))

        doc = pc.load(json_path)
        pc.check_invariants(doc)
        print("invariants hold in every interval")
        pc.check_text(doc, text_path)
        pc.check_interval_headers(doc, text_path)
        print("text protocol agrees with the JSON")
        if len(argv) == 6:
            pc.validate_schema(doc, argv[5])
            print("schema valid")

        # The tree: order, ids, parents, levels, executions, positions.
        pc.check_interval_tree(doc)
        names = [iv["name"] for iv in doc["intervals"]]
        if names != ORDER:
            pc.fail("intervals listed as %r, expected %r (depth-first, in "
                    "order of first entry). Intervals:\n%s"
                    % (names, ORDER, pc.describe_intervals(doc)))
        ids = {iv["name"]: iv["id"] for iv in doc["intervals"]}
        for name, parent, level, executions, marker, _ in TREE:
            pc.check_interval(doc, ids[name], name=name, file=source,
                              line=pc.marker_line(source, marker),
                              level=level, parent=ids[parent],
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
            real = pc.interval(doc, ids[name])["real"]
            te = pc.by_rank(real, "execution_time")
            for r in (0, 1):
                pc.check_approx("execution time of rank %d in interval %r"
                                % (r, name), te[r], meas[r][key], REL)
            pc.check_approx("execution time of interval %r" % name,
                            real["main"]["execution_time"],
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
            real = pc.interval(doc, ids[name])["real"]
            comm = pc.by_rank(real, "communication")
            for r in (0, 1):
                want = sum(meas[r][k] for k in keys)
                pc.check_approx("communication of rank %d in interval %r"
                                % (r, name), comm[r], want, REL, COMM_ABS)
        loop = pc.interval(doc, ids["loop"])["real"]["main"]
        exch = pc.interval(doc, ids["exchange"])["real"]["main"]
        barrier = pc.find_src(doc, "MPI_Barrier", interval=ids["loop"])[0]
        pc.check_approx("communication of 'loop' (its MPI_Barrier plus all "
                        "of 'exchange')", loop["communication"],
                        barrier["time"]["sum"] + exch["communication"],
                        1e-6, 1e-5)
        print("execution times and communication as each rank measured "
              "them; 'loop' includes 'exchange'")
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        if again and disturbed(meas):
            print("NOTE: the run was disturbed (%s): it is made once more" % disturbed(meas), file=sys.stderr)
            return 3
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
