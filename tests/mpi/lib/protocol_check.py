"""Checks of mpiprof's JSON protocol, shared by the MPI integration tests.

The definitions checked here are those of spec/characteristics.md; the JSON
shape is the one of spec/protocol.md ("JSON sibling") and of
schema/mpiprof-protocol.schema.json.  A value of None (JSON null) means "n/a"
and is skipped by every check (in a by-process column it counts as 0 in the
column's sum).  Every main value that is a sum over processes must equal the
sum of its by-process column (when all processes are listed) and the
comparative mean times P; Execution time is the maximum instead.

Library use (tests/mpi/lib is on PYTHONPATH when run through run-mpi-test):

    import protocol_check as pc
    doc = pc.load("prot.txt.json")
    pc.check_invariants(doc)
    pc.validate_schema(doc, "schema/mpiprof-protocol.schema.json")
    pc.check_text(doc, "prot.txt")         # the text says the same
    # or the four at once, saying so:
    doc = pc.load_checked("prot.txt.json", "prot.txt", schema)
    src = pc.find_src(doc, "MPI_Allreduce", file="x.c", line=42)
    src = pc.site(doc, 0, "MPI_Allreduce", "x.c", "allreduce")  # MARK:
    pc.check_counts(src, calls={0: 10, 1: 10})
    pc.check_call_sites(doc, "x.c", [...])  # exact SRC points, see there
    pc.check_approx("Idle time", value, expected, rel=0.10)
    pc.check_rank("idle", iv, "idle_time", 1, expected, rel=0.10)
    meas = pc.measurements("out", ("exec",))  # the program's own lines

and a check script's main: sys.exit(pc.run(main, __doc__)) (protocol_run).
The modules: protocol_base (loading, tolerances, comparisons),
protocol_query (SRC points, intervals, warnings, values per process),
protocol_text (the text protocol's parts), protocol_run (a script's
arguments and exit status); protocol_waitstates holds the wait-state
checks, protocol_selftest the self test of these.

Every failed check raises AssertionError (ProtocolError) with a message that
says which interval, which part and which numbers.

Command line:

    python3 protocol_check.py [--schema SCHEMA.json] [--text PROTOCOL.txt]
                              PROTOCOL.json
        load, check every invariant, cross-check the text protocol and
        validate against the schema if given; exit 0 when all hold, 1 (with
        the reason on stderr) otherwise.
    python3 protocol_check.py --selftest
        run the checks on built-in documents (one valid, several broken).
"""

import json
import os
import re
import sys

from protocol_base import (  # noqa: F401  (pc.NAME for the check scripts)
    ABS_TOL, MAIN_KEYS, PER_PROCESS_KEYS, ProtocolError, REL_TOL, _close,
    _get, _num, approx, check_approx, check_equal, fail, load, stat_sum
)
from protocol_query import (  # noqa: F401  (pc.NAME for the check scripts)
    NOT_COMMUNICATION, by_rank, calls_by_function, check_call_sites,
    check_counts, check_inclusive, check_interval, check_interval_headers,
    check_interval_names, check_interval_tree, check_main,
    check_no_other_srcs, check_no_prediction, check_rank, check_ranks,
    check_threads_level, check_warning, children, describe_intervals,
    describe_src, describe_srcs, entered, find_interval, find_intervals,
    find_src, find_warnings, frame_file_matches, interval, main_value,
    marker_line, measurements, need_warning, parse_ranges, present_ranks,
    read_measurements, site, sites, src_points, src_stat, srcs_at, subtree,
    warnings
)
from protocol_run import (  # noqa: F401  (pc.NAME for the check scripts)
    Failures, RunAgain, bad_usage, prefixed, run
)
from protocol_text import (  # noqa: F401  (pc.NAME for the check scripts)
    interval_blocks, read_lines, text_parameters, text_part, text_warnings
)

# --------------------------------------------------------------------------
# Invariants

def _check_main(where, main):
    v = {}
    for k in MAIN_KEYS:
        v[k] = _num("%s.%s" % (where, k), _get(where, main, k))
    for k in MAIN_KEYS:
        if k != "parallelization_efficiency" and v[k] is not None \
                and v[k] < -ABS_TOL:
            fail("%s.%s = %r is negative" % (where, k, v[k]))

    def eq(lhs_name, lhs, rhs_name, rhs):
        if lhs is None or rhs is None:
            return
        if not _close(lhs, rhs):
            fail("%s: %s = %.9f but %s = %.9f (difference %.3g)"
                 % (where, lhs_name, lhs, rhs_name, rhs, lhs - rhs))

    p = v["processors"]
    if p is not None and (not float(p).is_integer() or p < 1):
        fail("%s.processors = %r, not a positive integer" % (where, p))
    if v["execution_time"] is not None and p is not None:
        eq("total_time", v["total_time"],
           "execution_time * processors", v["execution_time"] * p)
    if v["productive_time"] is not None and v["lost_time"] is not None:
        eq("productive_time + lost_time", v["productive_time"] + v["lost_time"],
           "total_time", v["total_time"])
    k = v["parallelization_efficiency"]
    if k is not None:
        if not -1e-9 <= k <= 1 + 1e-9:
            fail("%s.parallelization_efficiency = %r is not in [0, 1]"
                 % (where, k))
        if v["total_time"] and v["productive_time"] is not None:
            ratio = v["productive_time"] / v["total_time"]
            if abs(k - ratio) > 1e-4:
                fail("%s.parallelization_efficiency = %.6f but "
                     "productive_time / total_time = %.6f" % (where, k, ratio))
    parts = [v[x] for x in ("communication", "idle_time",
                            "insufficient_parallelism")]
    if None not in parts and v["lost_time"] is not None:
        eq("communication + idle_time + insufficient_parallelism", sum(parts),
           "lost_time", v["lost_time"])
    parts = [v[x] for x in ("sendrecv", "collective", "system")]
    if None not in parts and v["communication"] is not None:
        eq("sendrecv + collective + system", sum(parts),
           "communication", v["communication"])
    if v["real_sync"] is not None and v["sendrecv"] is not None \
            and v["real_sync"] > v["sendrecv"] + ABS_TOL:
        fail("%s: real_sync = %.9f > sendrecv = %.9f"
             % (where, v["real_sync"], v["sendrecv"]))
    parts = [v[x] for x in ("productive_cpu", "productive_sys",
                            "productive_io")]
    if None not in parts and v["productive_time"] is not None:
        eq("productive_cpu + productive_sys + productive_io", sum(parts),
           "productive_time", v["productive_time"])
    return v


def _check_comparative(where, comp, main, nproc, nranks=None):
    """nproc: the interval's processors; nranks: the run's processes (ranks
    are in [0, nranks)); None: the same as nproc."""
    if comp is None:
        return
    if nranks is None:
        nranks = nproc
    for key in PER_PROCESS_KEYS:
        row = _get(where, comp, key)
        w = "%s.%s" % (where, key)
        if row is None:
            continue
        mn = _num(w + ".min", _get(w, row, "min"))
        mx = _num(w + ".max", _get(w, row, "max"))
        mean = _num(w + ".mean", _get(w, row, "mean"))
        for rk in ("min_rank", "max_rank"):
            r = _get(w, row, rk)
            if mn is None and mx is None and r is None:
                continue
            if r is not None and (isinstance(r, bool) or not isinstance(r, int)
                                  or r < 0 or (nranks and r >= nranks)):
                fail("%s.%s = %r is not a rank in [0, %s)"
                     % (w, rk, r, nranks))
        if mn is not None and mx is not None and mn > mx + ABS_TOL:
            fail("%s: min = %.9f > max = %.9f" % (w, mn, mx))
        if mn is not None and mean is not None and mn > mean + ABS_TOL:
            fail("%s: min = %.9f > mean = %.9f" % (w, mn, mean))
        if mx is not None and mean is not None and mean > mx + ABS_TOL:
            fail("%s: mean = %.9f > max = %.9f" % (w, mean, mx))
        total = main.get(key)
        if total is None:
            continue
        if key == "execution_time":
            if mx is not None and not _close(mx, total):
                fail("%s.max = %.9f but main execution_time (the maximum "
                     "over processes) = %.9f" % (w, mx, total))
        elif mean is not None and nproc:
            if not _close(mean * nproc, total, abs(total) + 1e-3):
                fail("%s.mean * processors = %.9f but the main value "
                     "(sum over processes) = %.9f" % (w, mean * nproc, total))


def _check_by_process(where, bp, main, comp, nproc, nranks=None):
    """nproc: the interval's processors; nranks: the run's processes (ranks
    are in [0, nranks)); None: the same as nproc.  With an "entered" list,
    only the processes that entered the interval count (the others' values
    must be null), and the column is complete when all of those are
    listed."""
    if bp is None:
        return
    if nranks is None:
        nranks = nproc
    ranks = _get(where, bp, "ranks")
    if not isinstance(ranks, list):
        fail("%s.ranks is %r, not a list" % (where, ranks))
    if len(set(ranks)) != len(ranks):
        fail("%s.ranks %r has duplicates" % (where, ranks))
    for r in ranks:
        if isinstance(r, bool) or not isinstance(r, int) or r < 0 \
                or (nranks and r >= nranks):
            fail("%s.ranks contains %r, not a rank in [0, %s)"
                 % (where, r, nranks))
    entered = bp.get("entered")
    if entered is None:
        live = list(range(len(ranks)))
    else:
        if not isinstance(entered, list) or len(entered) != len(ranks) \
                or any(not isinstance(x, bool) for x in entered):
            fail("%s.entered is %r, expected one boolean per rank of %r"
                 % (where, entered, ranks))
        live = [i for i, x in enumerate(entered) if x]
    complete = bool(nproc) and len(live) == nproc
    cols = {}
    for key in PER_PROCESS_KEYS:
        col = _get(where, bp, key)
        w = "%s.%s" % (where, key)
        if col is None:
            continue
        if not isinstance(col, list) or len(col) != len(ranks):
            fail("%s has %s values for %d ranks"
                 % (w, len(col) if isinstance(col, list) else repr(col),
                    len(ranks)))
        col = [_num("%s[%d]" % (w, i), x) for i, x in enumerate(col)]
        cols[key] = col
        for i, x in enumerate(col):
            if x is not None and i not in live:
                fail("%s for rank %s = %r, but the process did not enter "
                     "the interval (entered is false): expected null"
                     % (w, ranks[i], x))
        lvals = [col[i] for i in live]
        vals = [x for x in lvals if x is not None]
        for i, x in enumerate(col):
            if x is not None and x < -ABS_TOL:
                fail("%s for rank %s = %r is negative" % (w, ranks[i], x))
        total = main.get(key)
        if complete and len(vals) == len(lvals) and total is not None:
            if key == "execution_time":
                if not _close(max(vals), total):
                    fail("%s: the maximum over processes %.9f differs from "
                         "the main execution_time %.9f"
                         % (w, max(vals), total))
            elif not _close(sum(vals), total, sum(abs(x) for x in vals)):
                fail("%s: the column %r sums to %.9f, the main value is %.9f"
                     % (w, vals, sum(vals), total))
        row = comp.get(key) if comp else None
        if complete and vals and len(vals) == len(lvals) and row:
            for stat, val in (("min", min(vals)), ("max", max(vals)),
                              ("mean", sum(vals) / len(vals))):
                if row.get(stat) is not None and not _close(row[stat], val):
                    fail("%s: %s of the by-process column is %.9f, the "
                         "comparative %s is %.9f"
                         % (w, stat, val, stat, row[stat]))
            for stat, rk in (("min", "min_rank"), ("max", "max_rank")):
                r = row.get(rk)
                if r in ranks and row.get(stat) is not None:
                    x = col[ranks.index(r)]
                    if not _close(x, row[stat]):
                        fail("%s: comparative %s = %.9f is given for rank %d, "
                             "whose by-process value is %.9f"
                             % (w, stat, row[stat], r, x))
    # Per-process forms of the definitions.
    texec = main.get("execution_time")
    for i, r in enumerate(ranks):
        def val(key):
            c = cols.get(key)
            return c[i] if c is not None else None
        w = "%s (rank %s)" % (where, r)
        parts = [val(k) for k in ("sendrecv", "collective", "system")]
        if None not in parts and val("communication") is not None \
                and not _close(sum(parts), val("communication")):
            fail("%s: sendrecv + collective + system = %.9f but "
                 "communication = %.9f" % (w, sum(parts), val("communication")))
        parts = [val(k) for k in ("communication", "idle_time",
                                  "insufficient_parallelism")]
        if None not in parts and val("lost_time") is not None \
                and not _close(sum(parts), val("lost_time")):
            fail("%s: communication + idle_time + insufficient_parallelism = "
                 "%.9f but lost_time = %.9f" % (w, sum(parts), val("lost_time")))
        if val("real_sync") is not None and val("sendrecv") is not None \
                and val("real_sync") > val("sendrecv") + ABS_TOL:
            fail("%s: real_sync = %.9f > sendrecv = %.9f"
                 % (w, val("real_sync"), val("sendrecv")))
        te = val("execution_time")
        if te is not None and texec is not None:
            if te > texec + ABS_TOL:
                fail("%s: execution_time %.9f exceeds the interval's "
                     "execution_time %.9f" % (w, te, texec))
            idle = val("idle_time")
            if idle is not None and not _close(idle, texec - te, texec):
                fail("%s: idle_time = %.9f but execution_time - "
                     "execution_time(p) = %.9f - %.9f = %.9f"
                     % (w, idle, texec, te, texec - te))


# Characteristics that are parts of the processes' time: windows of each
# process's time line, each instant counted once (mpiprof(7), WAIT STATES
# and MODEL): at most the Total time; per process, at most the process's
# own Execution time (Potential sync and Time variation windows end where
# the interval ended on the process, whatever the other processes'
# instants; Overlap windows lie between its own calls).
TIME_SHARES = ("potential_sync", "time_variation", "overlap")


def _check_time_shares(where, main, bp):
    total = main.get("total_time")
    for key in TIME_SHARES:
        v = main.get(key)
        if v is not None and total is not None \
                and v > total + ABS_TOL + REL_TOL * total:
            fail("%s.main: %s = %.9f exceeds the total_time %.9f: a part "
                 "of the processes' time counted more than once"
                 % (where, key, v, total))
    if not bp:
        return
    ranks = bp.get("ranks") or []
    exec_col = bp.get("execution_time") or [None] * len(ranks)
    for key in TIME_SHARES:
        col = bp.get(key)
        if col is None:
            continue
        for i, r in enumerate(ranks):
            v = col[i] if i < len(col) else None
            bound = exec_col[i]
            if v is not None and bound is not None \
                    and v > bound + ABS_TOL + REL_TOL * bound:
                fail("%s.by_process (rank %s): %s = %.9f exceeds its "
                     "execution_time %.9f" % (where, r, key, v, bound))


def _check_characteristics(where, part, nranks=None, real=True):
    main = _check_main(where + ".main", _get(where, part, "main"))
    nproc = main["processors"]
    nproc = int(nproc) if nproc is not None else None
    if nranks is not None and nproc is not None and nproc > nranks:
        fail("%s.main.processors = %r exceeds the processes of the run (%r)"
             % (where, nproc, nranks))
    comp = _get(where, part, "comparative")
    _check_comparative(where + ".comparative", comp, main, nproc, nranks)
    bp = _get(where, part, "by_process")
    _check_by_process(where + ".by_process", bp, main, comp, nproc, nranks)
    if real:  # the predicted part keeps the real Overlap, not the real time
        _check_time_shares(where, main, bp)


def _check_src(where, src, nproc):
    for k in ("id", "function", "calls", "bytes_sent", "bytes_recv", "time",
              "stack"):
        _get(where, src, k)
    if not isinstance(src["function"], str) or not src["function"]:
        fail("%s.function is %r" % (where, src["function"]))
    for k in ("calls", "bytes_sent", "bytes_recv"):
        x = src[k]
        if isinstance(x, bool) or not isinstance(x, int) or x < 0:
            fail("%s.%s = %r, not a non-negative integer" % (where, k, x))
    t = src["time"]
    w = where + ".time"
    s = _num(w + ".sum", _get(w, t, "sum"))
    mn = _num(w + ".min", _get(w, t, "min"))
    mx = _num(w + ".max", _get(w, t, "max"))
    mean = _num(w + ".mean", _get(w, t, "mean"))
    for name, x in (("sum", s), ("min", mn), ("max", mx), ("mean", mean)):
        if x is not None and x < -ABS_TOL:
            fail("%s.%s = %r is negative" % (w, name, x))
    if mn is not None and mx is not None and mn > mx + ABS_TOL:
        fail("%s: min = %.9f > max = %.9f" % (w, mn, mx))
    if mean is not None and mn is not None and mn > mean + ABS_TOL:
        fail("%s: min = %.9f > mean = %.9f" % (w, mn, mean))
    if mean is not None and mx is not None and mean > mx + ABS_TOL:
        fail("%s: mean = %.9f > max = %.9f" % (w, mean, mx))
    if s is not None and mx is not None and mx > s + ABS_TOL:
        fail("%s: max = %.9f > sum = %.9f" % (w, mx, s))
    # real_sync, potential_sync, time_variation: the same kind of statistic
    # as time, or null (n/a).
    for key in ("real_sync", "potential_sync", "time_variation"):
        st = _get(where, src, key)
        if st is None:
            continue
        w = "%s.%s" % (where, key)
        vals = {}
        for k in ("sum", "min", "max", "mean"):
            vals[k] = _num(w + "." + k, _get(w, st, k))
            if vals[k] is not None and vals[k] < -ABS_TOL:
                fail("%s.%s = %r is negative" % (w, k, vals[k]))
        if None not in vals.values():
            if not vals["min"] <= vals["mean"] + ABS_TOL \
                    or not vals["mean"] <= vals["max"] + ABS_TOL:
                fail("%s: not min <= mean <= max (%r)" % (w, st))
            if vals["max"] > vals["sum"] + ABS_TOL:
                fail("%s: max = %.9f > sum = %.9f" % (w, vals["max"],
                                                      vals["sum"]))
        if key == "real_sync" and vals["sum"] is not None and s is not None \
                and vals["sum"] > s + ABS_TOL:
            fail("%s: real_sync.sum = %.9f > time.sum = %.9f"
                 % (where, vals["sum"], s))
    # predicted_time: the same kind of statistic as time; overlap: seconds;
    # both null when the communication model did not run.
    pt = src.get("predicted_time")
    if pt is not None:
        w = where + ".predicted_time"
        pv = {}
        for k in ("sum", "min", "max", "mean"):
            pv[k] = _num(w + "." + k, _get(w, pt, k))
            if pv[k] is not None and pv[k] < -ABS_TOL:
                fail("%s.%s = %r is negative" % (w, k, pv[k]))
        if None not in pv.values() and (pv["min"] > pv["mean"] + ABS_TOL
                                        or pv["mean"] > pv["max"] + ABS_TOL
                                        or pv["max"] > pv["sum"] + ABS_TOL):
            fail("%s: not min <= mean <= max <= sum (%r)" % (w, pt))
    # Real sync <= SendRecv per SRC point: a receiving call's Real sync is at
    # most its SendRecv part, so at most its time, in total and per process.
    bpx = src.get("by_process") or {}
    rcol, tcol = bpx.get("real_sync"), bpx.get("time")
    if isinstance(rcol, list) and isinstance(tcol, list):
        for i, (rv, tv) in enumerate(zip(rcol, tcol)):
            if rv is not None and tv is not None and rv > tv + ABS_TOL:
                fail("%s: rank %s's real_sync %.9f exceeds its time %.9f"
                     % (where, (bpx.get("ranks") or [None] * (i + 1))[i],
                        rv, tv))
    ov = _num(where + ".overlap", src.get("overlap"))
    if ov is not None and ov < -ABS_TOL:
        fail("%s.overlap = %r is negative" % (where, ov))
    stack = src["stack"]
    if not isinstance(stack, list) or not stack:
        fail("%s.stack is %r, expected a non-empty list of frames"
             % (where, stack))
    for i, fr in enumerate(stack):
        if not isinstance(fr, dict) or not isinstance(fr.get("text"), str) \
                or not fr["text"]:
            fail("%s.stack[%d] = %r has no text" % (where, i, fr))
    bp = src.get("by_process")
    if bp is None:
        return
    ranks = _get(where + ".by_process", bp, "ranks")
    if not isinstance(ranks, list):
        fail("%s.by_process.ranks is %r" % (where, ranks))
    complete = bool(nproc) and len(ranks) == nproc
    for key, total in (("time", s), ("calls", src["calls"]),
                       ("bytes_sent", src["bytes_sent"]),
                       ("bytes_recv", src["bytes_recv"]),
                       ("bytes_read", src.get("bytes_read")),
                       ("bytes_written", src.get("bytes_written")),
                       ("predicted_time", (pt or {}).get("sum")),
                       ("overlap", ov)):
        col = bp.get(key)
        w = "%s.by_process.%s" % (where, key)
        if col is None:
            continue
        if not isinstance(col, list) or len(col) != len(ranks):
            fail("%s has %s values for %d ranks"
                 % (w, len(col) if isinstance(col, list) else repr(col),
                    len(ranks)))
        # null: the process has no value (e.g. it never made the call),
        # which counts as 0 in the sum.
        vals = [_num("%s[%d]" % (w, i), x) for i, x in enumerate(col)]
        vals = [x for x in vals if x is not None]
        if total is None:
            continue
        if key in ("time", "predicted_time", "overlap"):
            if complete:
                ok = _close(sum(vals), total, sum(abs(x) for x in vals))
            else:  # the unselected processes' share is not listed
                ok = sum(vals) <= total + ABS_TOL + REL_TOL * abs(total)
        else:
            ok = sum(vals) == total if complete else sum(vals) <= total
        if not ok:
            fail("%s: the column %r sums to %r, the total is %r%s"
                 % (w, vals, sum(vals), total,
                    "" if complete else " (ranks %r only)" % ranks))


def check_invariants(doc):
    """Check every invariant of characteristics.md in every interval.

    Raises ProtocolError (an AssertionError) on the first violation."""
    params = _get("protocol", doc, "parameters")
    intervals = _get("protocol", doc, "intervals")
    if not isinstance(intervals, list) or not intervals:
        fail("protocol has no intervals")
    nprocs = params.get("processes") if isinstance(params, dict) else None
    ids = set()
    for n, iv in enumerate(intervals):
        where = "intervals[%d]" % n
        iid = _get(where, iv, "id")
        where = "interval %s (%r)" % (iid, iv.get("name"))
        if iid in ids:
            fail("%s: the id is used twice" % where)
        ids.add(iid)
        for k in ("name", "file", "line", "level", "parent", "executions",
                  "real", "predicted", "src"):
            _get(where, iv, k)
        if n == 0:
            check_equal("intervals[0].id", iid, 0)
            check_equal("intervals[0].name", iv["name"], "whole program")
            check_equal("intervals[0].level", iv["level"], 0)
            check_equal("intervals[0].parent", iv["parent"], None)
            check_equal("intervals[0].executions", iv["executions"], 1)
            p0 = iv["real"]["main"].get("processors") \
                if isinstance(iv["real"], dict) and \
                isinstance(iv["real"].get("main"), dict) else None
            # A partial protocol holds the processes it names, of a run of
            # parameters.processes.
            partial = params.get("partial") if isinstance(params, dict) \
                else None
            present = partial.get("count") if isinstance(partial, dict) \
                else nprocs
            if present is not None and p0 is not None and p0 != present:
                fail("interval 0 has processors = %r but the protocol holds "
                     "the data of %r processes (parameters)" % (p0, present))
        else:
            if iv["parent"] not in ids:
                fail("%s: parent %r is not an interval listed before it"
                     % (where, iv["parent"]))
            if not isinstance(iv["level"], int) or iv["level"] < 1:
                fail("%s: level %r, expected >= 1" % (where, iv["level"]))
        # Ranks are those of the run: an interval that only some processes
        # entered has fewer processors than the run has processes.
        nranks = nprocs if isinstance(nprocs, int) \
            and not isinstance(nprocs, bool) else None
        _check_characteristics(where + " real", iv["real"], nranks)
        if iv["predicted"] is not None:
            _check_characteristics(where + " predicted", iv["predicted"],
                                   nranks, real=False)
        nproc = iv["real"]["main"].get("processors")
        srcs = iv["src"]
        if not isinstance(srcs, list):
            fail("%s.src is %r, not a list" % (where, srcs))
        seen = set()
        for s in srcs:
            sw = "%s SRC %s (%s)" % (where, s.get("id") if isinstance(s, dict)
                                    else "?",
                                    s.get("function") if isinstance(s, dict)
                                    else "?")
            _check_src(sw, s, nproc)
            if s["id"] in seen:
                fail("%s: SRC id %r listed twice" % (where, s["id"]))
            seen.add(s["id"])
        sums = [x["time"]["sum"] for x in srcs
                if x["time"].get("sum") is not None]
        if any(a < b - ABS_TOL for a, b in zip(sums, sums[1:])):
            fail("%s: SRC points are not in descending order of time.sum "
                 "(%r)" % (where, sums))
    return True


# Labels of the text protocol's main characteristics and their JSON keys.
TEXT_MAIN_LABELS = (
    ("Execution time", "execution_time"), ("Total time", "total_time"),
    ("Productive time", "productive_time"), ("Lost time", "lost_time"),
    ("Insufficient parallelism", "insufficient_parallelism"),
    ("Communication", "communication"), ("Idle time", "idle_time"),
    ("Load imbalance", "load_imbalance"), ("Potential sync", "potential_sync"),
    ("Time variation", "time_variation"), ("Overlap", "overlap"),
)


def check_text(doc, text_path):
    """Cross-check the text protocol at text_path against the JSON doc:
    the same intervals, the same main values (to the 6 printed decimals),
    the same SRC points (id, function, calls, bytes, first frame) and SRC
    points listed in descending order of summed time."""
    if not os.path.exists(text_path):
        fail("text protocol %s does not exist" % text_path)
    lines = read_lines(text_path)
    text = "\n".join(lines)
    blocks = interval_blocks(lines)
    for iv in doc["intervals"]:
        iid = iv["id"]
        where = "text protocol %s, interval %s" % (text_path, iid)
        if iid not in blocks:
            fail("%s: no header line '==== Interval %s ...'"
                 % (where, iid))
        block = blocks[iid]
        # Main characteristics (real), then (predicted): the text says
        # what the JSON says; predicted null is "n/a" in the text.
        for part in ("real", "predicted"):
            head = "--- Main characteristics (%s) ---" % part
            try:
                start = block.index(head)
            except ValueError:
                fail("%s: no '%s'" % (where, head))
            if iv.get(part) is None:
                if start + 1 >= len(block) or not block[start + 1].startswith("n/a"):
                    fail("%s: the JSON's %s part is null but the text's "
                         "'%s' is not n/a" % (where, part, head))
                continue
            main = iv[part]["main"]
            for label, key in TEXT_MAIN_LABELS:
                m = None
                for ln in block[start + 1:]:
                    if ln.startswith("---"):
                        break
                    m = re.match(r"^\s*%s\s+(\S+)" % re.escape(label), ln)
                    if m:
                        break
                if not m:
                    fail("%s: main characteristics (%s) lack the line '%s'"
                         % (where, part, label))
                if main.get(key) is None:
                    if m.group(1) != "n/a":
                        fail("%s: '%s' (%s) is %s in the text, null in the "
                             "JSON" % (where, label, part, m.group(1)))
                    continue
                try:
                    tv = float(m.group(1))
                except ValueError:
                    fail("%s: '%s' (%s) is %r in the text, %r in the JSON"
                         % (where, label, part, m.group(1), main[key]))
                if abs(tv - main[key]) > 2e-6 + 1e-9 * abs(main[key]):
                    fail("%s: '%s' (%s) is %s in the text, %r in the JSON"
                         % (where, label, part, m.group(1), main[key]))
            # The Productive split after its line: (CPU=.. Sys=.. I/O=..).
            split = None
            for ln in block[start + 1:]:
                if ln.startswith("---"):
                    break
                split = re.match(r"^Productive time\s+\S+\s+\(CPU=(\S+) "
                                 r"Sys=(\S+) I/O=(\S+)\)", ln)
                if split:
                    break
            if not split:
                fail("%s: main characteristics (%s) lack the split "
                     "'Productive time ... (CPU=.. Sys=.. I/O=..)'"
                     % (where, part))
            for n, key in enumerate(("productive_cpu", "productive_sys",
                                     "productive_io"), 1):
                tv, jv = split.group(n), main.get(key)
                if jv is None:
                    if tv != "n/a":
                        fail("%s: %s (%s) is %s in the text, null in the JSON"
                             % (where, key, part, tv))
                elif tv == "n/a" or abs(float(tv) - jv) > 2e-6 + 1e-9 * abs(jv):
                    fail("%s: %s (%s) is %s in the text, %r in the JSON"
                         % (where, key, part, tv, jv))
        # SRC points.
        try:
            start = block.index("--- SRC points ---")
        except ValueError:
            fail("%s: no '--- SRC points ---'" % where)
        sums = []
        for ln in block[start + 1:]:
            m = re.match(r"^\s+time\s+sum=([-+0-9.eE]+)", ln)
            if m:
                sums.append(float(m.group(1)))
        if any(a < b - 1e-6 for a, b in zip(sums, sums[1:])):
            fail("%s: SRC points are not in descending order of summed time "
                 "(time sum= values %r)" % (where, sums))
        src_lines = [ln for ln in block[start + 1:] if ln.startswith("SRC ")]
        for s in iv["src"]:
            # MPI-IO (every MPI_File_ function) reads and writes its bytes
            io = s["function"].startswith("MPI_File_")
            names = ("bytes_read", "bytes_written") if io else ("bytes_sent", "bytes_recv")
            values = (s.get("bytes_read"), s.get("bytes_written")) if io else (s["bytes_sent"], s["bytes_recv"])
            if io and (s["bytes_sent"] or s["bytes_recv"]):
                fail("%s: MPI-IO SRC %s counts bytes sent or received: %r"
                     % (where, s["id"], (s["bytes_sent"], s["bytes_recv"])))
            pat = (r"^SRC\s+%s\s+%s\s+calls=%d\s+%s=%s\s+"
                   r"%s=%s\b" % (s["id"], re.escape(s["function"]), s["calls"],
                                  names[0], values[0], names[1], values[1]))
            if not any(re.match(pat, ln) for ln in src_lines):
                fail("%s: no line 'SRC %s  %s  calls=%d  %s=%s  %s=%s' in the "
                     "SRC points (text has: %r)"
                     % (where, s["id"], s["function"], s["calls"], names[0],
                        values[0], names[1], values[1], src_lines))
            fr = (s.get("stack") or [{}])[0].get("text")
            if fr and fr not in text:
                fail("%s: the first frame %r of SRC %s is not in the text"
                     % (where, fr, s["id"]))
        if len(src_lines) != len(iv["src"]):
            fail("%s: %d SRC points in the text, %d in the JSON"
                 % (where, len(src_lines), len(iv["src"])))
        # Each SRC entry's predicted time and Overlap.
        entries, cur = {}, None
        for ln in block[start + 1:]:
            if ln.startswith("---"):
                break
            m = re.match(r"^SRC\s+(\d+)\s", ln)
            if m:
                cur = entries.setdefault(int(m.group(1)), [])
            elif cur is not None:
                cur.append(ln)
        for s in iv["src"]:
            lines_of = entries.get(s["id"], [])
            for label, value in (("predicted time",
                                  (s.get("predicted_time") or {}).get("sum")),
                                 ("overlap", s.get("overlap"))):
                found = [re.match(r"^\s+%s\s+(?:sum=)?(\S+)" % label, ln)
                         for ln in lines_of]
                found = [m.group(1) for m in found if m]
                if not found:
                    fail("%s: SRC %s has no '%s' line" % (where, s["id"], label))
                if value is None:
                    if found[0] != "n/a":
                        fail("%s: SRC %s '%s' is %s in the text, null in the "
                             "JSON" % (where, s["id"], label, found[0]))
                elif found[0] == "n/a" or \
                        abs(float(found[0]) - value) > 2e-6 + 1e-9 * value:
                    fail("%s: SRC %s '%s' is %s in the text, %r in the JSON"
                         % (where, s["id"], label, found[0], value))
    return True


def validate_schema(doc, schema_path):
    """Validate doc against the JSON Schema at schema_path (jsonschema)."""
    try:
        import jsonschema
    except ImportError:
        fail("python module jsonschema is not installed "
             "(Debian package python3-jsonschema)")
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
    if errors:
        msgs = ["  at /%s: %s" % ("/".join(str(p) for p in e.path), e.message)
                for e in errors[:10]]
        fail("protocol does not validate against %s (%d error%s):\n%s"
             % (schema_path, len(errors), "" if len(errors) == 1 else "s",
                "\n".join(msgs)))
    return True


def check_no_findings(doc):
    """A correct program gives no correctness finding (the tests run with
    MPIPROF_CHECK=full: run-mpi-test); a test that misuses MPI on purpose
    names the kinds it expects in MPIPROF_TEST_EXPECT_FINDINGS (separated by blanks)."""
    expected = set(os.environ.get("MPIPROF_TEST_EXPECT_FINDINGS", "").split())
    found = [f for f in (doc.get("correctness") or {}).get("findings", []) if f["kind"] not in expected]
    if found:
        fail("correctness findings the test does not expect: %s"
             % "; ".join("%s at %s: %s" % (f["kind"], f["stack"][0]["text"] if f["stack"] else f["function"],
                                          f["detail"]) for f in found))


def load_checked(json_path, text_path=None, schema=None, headers=False,
                 say=True):
    """Load the JSON protocol at json_path (None: text_path + ".json") and
    check it: every invariant; when text_path is given, the text protocol
    says the same (and, with headers, its interval headers); when schema
    is given, it validates against it.  say: print what held."""
    doc = load(json_path or text_path + ".json")
    check_invariants(doc)
    check_no_findings(doc)
    if say:
        print("invariants hold in every interval")
    if text_path:
        check_text(doc, text_path)
        if headers:
            check_interval_headers(doc, text_path)
        if say:
            print("text protocol agrees with the JSON")
    if schema:
        validate_schema(doc, schema)
        if say:
            print("schema valid")
    return doc


def main(argv):
    usage = ("usage: protocol_check.py [--schema SCHEMA.json] "
             "[--text PROTOCOL.txt] PROTOCOL.json | --selftest")
    args = argv[1:]
    if args == ["--selftest"]:
        import protocol_selftest
        protocol_selftest._selftest()
        return 0
    opts = {"--schema": None, "--text": None}
    for opt in opts:
        if opt in args:
            i = args.index(opt)
            if i + 1 >= len(args):
                print(usage, file=sys.stderr)
                return 2
            opts[opt] = args[i + 1]
            del args[i:i + 2]
    if len(args) != 1:
        print(usage, file=sys.stderr)
        return 2
    try:
        doc = load(args[0])
        check_invariants(doc)
        if opts["--text"]:
            check_text(doc, opts["--text"])
        if opts["--schema"]:
            validate_schema(doc, opts["--schema"])
    except AssertionError as e:
        print("FAIL: %s" % e, file=sys.stderr)
        return 1
    print("protocol %s: invariants hold%s%s"
          % (args[0], ", text agrees" if opts["--text"] else "",
             ", schema valid" if opts["--schema"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
