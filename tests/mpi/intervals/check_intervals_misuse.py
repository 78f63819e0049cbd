"""Check the protocols of tests/mpi/intervals/intervals_misuse.c (see
test_intervals_misuse.sh).

usage: check_intervals_misuse.py MODE PROTOCOL.json PROTOCOL.txt SOURCE.c STDOUT STDERR [SCHEMA.json]

MODE is the program's mode (marks, caps, nesting); STDOUT and STDERR are
the run's output.  Each misuse must give its warning in the protocol's
parameters.warnings, naming the file:line of the mark where the library
says where, and leave a valid protocol whose intervals and SRC points show
the defined outcome.
"""
import os
import re
import sys

import protocol_check as pc

REL = 0.10


def check_src_in(doc, source, marker, iid, function, calls_per_rank):
    """The call at MARK:marker is one SRC point, in interval iid only, with
    calls_per_rank calls on each of the 2 ranks."""
    found = pc.srcs_at(doc, source, marker)
    name = pc.interval(doc, iid)["name"]
    if [i for i, _ in found] != [iid]:
        pc.fail("the %s at MARK:%s (%s:%d) is an SRC point of intervals %r, "
                "expected of interval %d (%r) only. Intervals:\n%s"
                % (function, marker, os.path.basename(source),
                   pc.marker_line(source, marker), [i for i, _ in found], iid,
                   name, pc.describe_intervals(doc)))
    s = found[0][1]
    pc.check_equal("function of the SRC point at MARK:%s" % marker,
                   s["function"], function)
    pc.check_counts(s, calls={0: calls_per_rank, 1: calls_per_rank},
                    ranks=(0, 1), exact=True)


def check_warning_at(doc, source, marker, *parts):
    """Exactly one warning with all of parts that names the file:line of
    MARK:marker (not prefixed with a rank: every process gives it)."""
    pos = "%s:%d" % (os.path.basename(source), pc.marker_line(source, marker))
    pat = re.compile(re.escape(pos) + r"(?!\d)")
    found = [w for w in pc.find_warnings(doc, *parts) if pat.search(w)]
    if len(found) != 1:
        pc.fail("%d warnings name %s (MARK:%s) and contain %r, expected "
                "exactly 1. Warnings:\n  %s"
                % (len(found), pos, marker, parts,
                   "\n  ".join(pc.warnings(doc))))
    if found[0].startswith("rank"):
        pc.fail("warning %r is given for one rank only; both ranks made the "
                "same misuse" % found[0])
    print("warning: %s" % found[0])
    return found[0]


def check_folded(doc, source, marker, name, cap):
    """The first interval past the cap (begun at MARK:marker) is folded
    into the enclosing interval: one warning says so, naming the mark and
    the cap, and no other is about folded intervals."""
    check_warning_at(doc, source, marker, 'interval "%s"' % name, cap,
                     "folded into the enclosing interval")
    pc.check_warning(doc, "folded")


def check_intervals(doc, source, expected):
    """expected: [(name, parent name, level, executions, marker)]."""
    ids = pc.check_interval_names(doc, ["whole program"] +
                                  [e[0] for e in expected])
    for name, parent, level, executions, marker in expected:
        pc.check_interval(doc, ids[name], name=name, file=source,
                          marker=marker, level=level, parent=ids[parent],
                          executions=executions)
    return ids


def marks(doc, source, out, err):
    meas = pc.measurements(out, ("left_open", "seq"))
    ids = check_intervals(doc, source, [
        ("open", "whole program", 1, 1, "open"),
        ("outer", "whole program", 1, 1, "outer"),
        ("inner", "outer", 2, 1, "inner"),
        ("threaded", "whole program", 1, 1, "threaded"),
        ("threaded2", "whole program", 1, 1, "threaded2"),
        ("threaded3", "whole program", 1, 1, "threaded3"),
        ("left_open", "whole program", 1, 1, "left_open"),
    ])
    print("intervals as expected; none for the marks before MPI_Init and "
          "after MPI_Finalize")

    # Before MPI_Init: ignored, one warning (no position).
    w = pc.check_warning(doc, "mpiprof_interval_begin", "before MPI_Init")
    print("warning: %s" % w)
    # End without begin, replicated-code end without begin: ignored.
    check_warning_at(doc, source, "stray_end", "interval end at",
                     "without an open interval", "ignored")
    check_warning_at(doc, source, "stray_seq_end", "replicated-code end",
                     "without a begin", "ignored")
    # MPI_Pcontrol(-1, "nosuch"): ignored, "open" stays open.
    check_warning_at(doc, source, "nosuch", 'interval end "nosuch"',
                     'no open interval has that name (innermost: "open")',
                     "ignored")
    check_src_in(doc, source, "open_barrier", ids["open"], "MPI_Barrier", 1)
    # MPI_Pcontrol(-1, "outer") with "inner" open in it: both closed.
    check_warning_at(doc, source, "outer_end", 'interval end "outer"',
                     "closes the intervals still open inside it",
                     '(innermost: "inner")')
    check_src_in(doc, source, "inner_barrier", ids["inner"], "MPI_Barrier", 1)
    check_src_in(doc, source, "after_outer_barrier", 0, "MPI_Barrier", 1)
    pc.check_equal("SRC points of 'outer' itself", pc.interval(
        doc, ids["outer"])["src"], [])
    # Begun in one thread, ended in another: closed anyway, with a warning
    # naming the end mark; the main thread's MPI calls in between are in it.
    check_warning_at(doc, source, "threaded_end", 'interval "threaded" ended',
                     "by another thread", "closed anyway")
    check_src_in(doc, source, "threaded_barrier", ids["threaded"],
                 "MPI_Barrier", 1)
    check_src_in(doc, source, "after_threaded_barrier", 0, "MPI_Barrier", 1)
    check_warning_at(doc, source, "threaded2_end",
                     'interval "threaded2" ended', "by another thread",
                     "closed anyway")
    check_src_in(doc, source, "threaded2_barrier", ids["threaded2"],
                 "MPI_Barrier", 1)
    check_src_in(doc, source, "threaded3_barrier", ids["threaded3"],
                 "MPI_Barrier", 1)
    check_src_in(doc, source, "after_threaded3_barrier", 0, "MPI_Barrier", 1)
    # Left open at MPI_Finalize, with replicated code open in it: closed
    # there, both counted until then.
    w = pc.check_warning(doc, 'interval "left_open" still open at '
                         'MPI_Finalize', "closed there")
    print("warning: %s" % w)
    w = pc.check_warning(doc, "replicated code still open at MPI_Finalize")
    print("warning: %s" % w)
    left_open = pc.interval(doc, ids["left_open"])
    pc.check_ranks("execution time (closed at MPI_Finalize)", left_open,
                   "execution_time",
                   {r: meas[r]["left_open"] for r in (0, 1)}, REL)
    pc.check_ranks("insufficient parallelism (replicated code closed at "
                   "MPI_Finalize)", left_open, "insufficient_parallelism",
                   {r: 0.5 * meas[r]["seq"] for r in (0, 1)}, REL)
    # After MPI_Finalize: ignored, said on stderr (the protocol is written).
    stderr = "\n".join(pc.read_lines(err))
    if "mpiprof_interval_end called after MPI_Finalize" not in stderr:
        pc.fail("stderr lacks the warning 'mpiprof_interval_end called after "
                "MPI_Finalize ...':\n%s" % stderr)
    print("after MPI_Finalize: marks ignored, warning on stderr")
    # Last, as it fails with this library: the thread that ends "threaded3"
    # was created after the one that began it had been joined.
    try:
        check_warning_at(doc, source, "threaded3_end",
                         'interval "threaded3" ended', "by another thread",
                         "closed anyway")
    except pc.ProtocolError as e:
        pc.fail("%s\n(the interval was begun by a thread that had been "
                "joined when another thread, created after it, ended it; a "
                "library that tells threads apart by pthread_self() misses "
                "this, as the system gives the new thread the same "
                "pthread_t)" % e)


def caps(doc, source):
    ids = check_intervals(doc, source, [
        ("P", "whole program", 1, 1, "cap_P"),
        ("c1", "P", 2, 2, "cap_c1"),
    ])
    print("MPIPROF_MAX_INTERVALS=2: intervals 'P' and 'c1' kept")
    check_folded(doc, source, "cap_c2", "c2", "MPIPROF_MAX_INTERVALS=2")
    check_src_in(doc, source, "cap_c1_barrier", ids["c1"], "MPI_Barrier", 2)
    for marker in ("cap_c2_barrier", "cap_c4_barrier", "cap_P_barrier"):
        check_src_in(doc, source, marker, ids["P"], "MPI_Barrier", 2)
    check_src_in(doc, source, "cap_after_barrier", 0, "MPI_Barrier", 1)
    print("the calls of the folded intervals 'c2', 'c3', 'c4' are in their "
          "parent 'P'")


def nesting(doc, source):
    ids = check_intervals(doc, source, [
        ("n1", "whole program", 1, 1, "n1"),
    ])
    print("MPIPROF_MAX_NESTING=1: interval 'n1' kept")
    check_folded(doc, source, "n2", "n2", "MPIPROF_MAX_NESTING=1")
    for marker in ("n3_barrier", "n2_barrier", "n1_barrier"):
        check_src_in(doc, source, marker, ids["n1"], "MPI_Barrier", 1)
    check_src_in(doc, source, "nest_after_barrier", 0, "MPI_Barrier", 1)
    print("the calls of the folded intervals 'n2', 'n3' are in 'n1'; their "
          "end marks do not end 'n1'")


def main(mode, json_path, text_path, source, out, err, schema=None):
    if mode not in ("marks", "caps", "nesting"):
        pc.bad_usage()
    doc = pc.load_checked(json_path, text_path, schema, headers=True)
    pc.check_interval_tree(doc)
    pc.check_inclusive(doc)
    if mode == "marks":
        marks(doc, source, out, err)
    elif mode == "caps":
        caps(doc, source)
    else:
        nesting(doc, source)


if __name__ == "__main__":
    sys.exit(pc.run(main, __doc__))
