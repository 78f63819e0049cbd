"""Checks of mpiprof's JSON protocol, shared by the MPI integration tests.

The definitions checked here are those of spec/characteristics.md; the JSON
shape is the one of spec/protocol.md ("JSON sibling") and of
schema/mpiprof-protocol.schema.json.  A value of None (JSON null) means "n/a"
and is skipped by every check (in a by-process column it counts as 0 in the
column's sum).  Every main value that is a sum over processes must equal the
sum of its by-process column (when all processes are listed) and the
comparative mean times P; Execution time is the maximum instead.

Library use (tests/mpi is on PYTHONPATH when run through run-mpi-test):

    import protocol_check as pc
    doc = pc.load("prot.txt.json")
    pc.check_invariants(doc)
    pc.validate_schema(doc, "schema/mpiprof-protocol.schema.json")
    src = pc.find_src(doc, "MPI_Allreduce", file="x.c", line=42)
    pc.check_text(doc, "prot.txt")         # the text says the same
    pc.check_call_sites(doc, "x.c", [...])  # exact SRC points, see there
    pc.check_approx("Idle time", value, expected, rel=0.10)

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

import copy
import json
import math
import os
import re
import sys

# Per-process characteristics: the rows of the comparative table and the
# columns of the by-process table, in protocol order.
PER_PROCESS_KEYS = (
    "execution_time", "productive_time", "lost_time",
    "insufficient_parallelism", "communication", "sendrecv", "real_sync",
    "collective", "system", "idle_time", "load_imbalance", "potential_sync",
    "time_variation", "overlap",
)

# Keys of "main" (real and predicted).
MAIN_KEYS = (
    "parallelization_efficiency", "execution_time", "processors",
    "total_time", "productive_time", "productive_cpu", "productive_sys",
    "productive_io", "lost_time", "insufficient_parallelism",
    "communication", "sendrecv", "real_sync", "collective", "system",
    "idle_time", "load_imbalance", "potential_sync", "time_variation",
    "overlap",
)

# Tolerances for "equal" sums of floating-point seconds: the library may
# round its output (the text protocol has 6 decimals).
ABS_TOL = 1e-5
REL_TOL = 1e-6


class ProtocolError(AssertionError):
    """A protocol that breaks the contract."""


def fail(msg):
    raise ProtocolError(msg)


# --------------------------------------------------------------------------
# Loading and generic helpers

def load(path):
    """Load the JSON protocol at path (the .json file itself)."""
    if not os.path.exists(path):
        fail("JSON protocol %s does not exist" % path)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except ValueError as e:
        fail("JSON protocol %s is not valid JSON: %s" % (path, e))
    if not isinstance(doc, dict):
        fail("JSON protocol %s: top level is %s, not an object"
             % (path, type(doc).__name__))
    if doc.get("format") != "mpiprof-protocol":
        fail("JSON protocol %s: format is %r, expected 'mpiprof-protocol'"
             % (path, doc.get("format")))
    if not isinstance(doc.get("intervals"), list) or not doc["intervals"]:
        fail("JSON protocol %s: no intervals" % path)
    return doc


def approx(actual, expected, rel=0.10, abs_tol=0.0):
    """True when actual is within rel (relative to expected) or abs_tol."""
    if actual is None or expected is None:
        return False
    return abs(actual - expected) <= max(rel * abs(expected), abs_tol)


def check_approx(what, actual, expected, rel=0.10, abs_tol=0.0):
    """Raise with a clear message unless approx(actual, expected, ...)."""
    if actual is None:
        fail("%s is null (n/a), expected about %.6f" % (what, expected))
    if not approx(actual, expected, rel, abs_tol):
        fail("%s = %.6f, expected %.6f within %g%%%s (off by %.1f%%)"
             % (what, actual, expected, rel * 100,
                " or %g s" % abs_tol if abs_tol else "",
                100.0 * abs(actual - expected) / expected if expected
                else float("inf")))


def check_equal(what, actual, expected):
    if actual != expected:
        fail("%s = %r, expected %r" % (what, actual, expected))


def _close(a, b, scale=None):
    if scale is None:
        scale = max(abs(a), abs(b))
    return abs(a - b) <= ABS_TOL + REL_TOL * scale


def _num(where, x):
    """x if it is a number or None; otherwise fail."""
    if x is None:
        return None
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        fail("%s is %r, not a number" % (where, x))
    if isinstance(x, float) and not math.isfinite(x):
        fail("%s is %r" % (where, x))
    return x


def _get(where, obj, key):
    if not isinstance(obj, dict):
        fail("%s is %r, not an object" % (where, obj))
    if key not in obj:
        fail("%s has no key %r (keys: %s)"
             % (where, key, ", ".join(sorted(obj))))
    return obj[key]


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
# and MODEL): at most the Total time; per process, Potential sync and Time
# variation at most the interval's Execution time (a window may reach past
# the process's own end, to the last process's entry or exit), Overlap at
# most the process's own Execution time (its windows lie between its own
# calls).
TIME_SHARES = ("potential_sync", "time_variation", "overlap")


def _check_time_shares(where, main, bp):
    total, texec = main.get("total_time"), main.get("execution_time")
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
            bound = exec_col[i] if key == "overlap" else texec
            if v is not None and bound is not None \
                    and v > bound + ABS_TOL + REL_TOL * bound:
                fail("%s.by_process (rank %s): %s = %.9f exceeds %s %.9f"
                     % (where, r, key, v, "its execution_time"
                        if key == "overlap" else "the interval's "
                        "execution_time", bound))


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
    with open(text_path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    text = "\n".join(lines)
    # Split into intervals by their headers.
    heads = [(i, re.match(r"^==== Interval (\d+)\b", ln))
             for i, ln in enumerate(lines)]
    heads = [(i, int(m.group(1))) for i, m in heads if m]
    blocks = {}
    for n, (i, iid) in enumerate(heads):
        end = heads[n + 1][0] if n + 1 < len(heads) else len(lines)
        blocks[iid] = lines[i:end]
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
            pat = (r"^SRC\s+%s\s+%s\s+calls=%d\s+bytes_sent=%d\s+"
                   r"bytes_recv=%d\b" % (s["id"], re.escape(s["function"]),
                                          s["calls"], s["bytes_sent"],
                                          s["bytes_recv"]))
            if not any(re.match(pat, ln) for ln in src_lines):
                fail("%s: no line 'SRC %s  %s  calls=%d  bytes_sent=%d  "
                     "bytes_recv=%d' in the SRC points (text has: %r)"
                     % (where, s["id"], s["function"], s["calls"],
                        s["bytes_sent"], s["bytes_recv"], src_lines))
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


# --------------------------------------------------------------------------
# SRC points

def src_points(doc, interval=0):
    """The SRC points of the interval with that id (default: interval 0)."""
    for iv in doc["intervals"]:
        if iv.get("id") == interval:
            return iv.get("src") or []
    fail("protocol has no interval %r" % interval)


def _frame_file_matches(frame, file):
    names = set()
    for k in ("file", "path"):
        if frame.get(k):
            names.add(frame[k])
            names.add(os.path.basename(frame[k]))
    return file in names or os.path.basename(file) in names


def find_src(doc, function, file=None, line=None, interval=0):
    """The list of SRC points of function whose first stack frame is in file
    (basename or path) at line; file and line None match anything."""
    out = []
    for s in src_points(doc, interval):
        if s.get("function") != function:
            continue
        stack = s.get("stack") or []
        fr = stack[0] if stack else {}
        if file is not None and not _frame_file_matches(fr, file):
            continue
        if line is not None and fr.get("line") != line:
            continue
        out.append(s)
    return out


def describe_src(s):
    """One line for messages: 'SRC 3 MPI_Send calls=500 at f.c:12 (main)'."""
    stack = s.get("stack") or []
    return "SRC %s %s calls=%s bytes_sent=%s bytes_recv=%s at %s" % (
        s.get("id"), s.get("function"), s.get("calls"), s.get("bytes_sent"),
        s.get("bytes_recv"),
        " <- ".join(str(f.get("text")) for f in stack) or "(no stack)")


def describe_srcs(doc, interval=0):
    return "\n".join("  " + describe_src(s) for s in src_points(doc, interval))


def marker_line(source, name):
    """The line number of the unique line of source containing the marker
    comment 'MARK:name' (C: /* MARK:name */, Fortran: ! MARK:name)."""
    pat = re.compile(r"MARK:%s(?![A-Za-z0-9_])" % re.escape(name))
    with open(source, encoding="utf-8") as f:
        hits = [n for n, ln in enumerate(f, 1) if pat.search(ln)]
    if len(hits) != 1:
        fail("%s: marker MARK:%s found on lines %r, expected exactly one"
             % (source, name, hits))
    return hits[0]


def check_call_sites(doc, source, expected, others=(), interval=0):
    """Check the SRC points of interval against what the program did.

    source: the program's source file (markers are looked up in it);
    expected: a list of dicts, one per call site, with keys
        function  MPI function name, e.g. "MPI_Allreduce"
        marker    name of the MARK: comment on the line of the call
        calls, bytes_sent, bytes_recv
                  {rank: value}, ranks not listed: 0 (so {} is all zero);
                  a key left out is not checked
        caller    optional: marker of the line calling the function that
                  contains the call (checked as the second frame)
        in_function  optional: the function name of the first frame;
    others: names of MPI functions whose SRC points may also be present
    (e.g. MPI_Comm_rank); an SRC point of any other function is an error.

    Every expected function must have exactly one SRC point, whose first
    stack frame is the marked line of source, with exactly those totals and
    per-process values.
    """
    srcs = src_points(doc, interval)
    listing = describe_srcs(doc, interval)
    base = os.path.basename(source)
    names = set(e["function"] for e in expected)
    for s in srcs:
        if s["function"] not in names and s["function"] not in others:
            fail("unexpected SRC point %s: the program makes no such call "
                 "(allowed besides %s: %s). All SRC points:\n%s"
                 % (describe_src(s), ", ".join(sorted(names)),
                    ", ".join(sorted(others)) or "none", listing))
    ranks = present_ranks(doc)
    for e in expected:
        fn = e["function"]
        line = marker_line(source, e["marker"])
        where = "%s at %s:%d" % (fn, base, line)
        found = [s for s in srcs if s["function"] == fn]
        if len(found) != 1:
            fail("%d SRC points for %s, expected exactly 1 (the call at "
                 "%s:%d). All SRC points:\n%s"
                 % (len(found), fn, base, line, listing))
        s = found[0]
        fr = s["stack"][0]
        if not _frame_file_matches(fr, base) or fr.get("line") != line:
            fail("%s: the first stack frame is %r (file=%r line=%r), "
                 "expected %s:%d. All SRC points:\n%s"
                 % (where, fr.get("text"), fr.get("file"), fr.get("line"),
                    base, line, listing))
        if e.get("in_function") and fr.get("function") != e["in_function"]:
            fail("%s: the first frame's function is %r, expected %r"
                 % (where, fr.get("function"), e["in_function"]))
        if not fr.get("text", "").startswith("%s:%d" % (base, line)):
            fail("%s: the first frame's text %r does not start with '%s:%d'"
                 % (where, fr.get("text"), base, line))
        if e.get("caller"):
            cline = marker_line(source, e["caller"])
            if len(s["stack"]) < 2:
                fail("%s: the stack %r has one frame; expected the caller "
                     "%s:%d as the second (default MPIPROF_DEPTH is > 1)"
                     % (where, fr.get("text"), base, cline))
            f2 = s["stack"][1]
            if not _frame_file_matches(f2, base) or f2.get("line") != cline:
                fail("%s: the second stack frame is %r, expected %s:%d"
                     % (where, f2.get("text"), base, cline))
        for key in ("calls", "bytes_sent", "bytes_recv"):
            if key not in e:
                continue
            per = e[key]
            want = [per.get(r, 0) for r in ranks]
            if s[key] != sum(want):
                fail("%s: %s = %r, expected %r (sum over processes of %r)"
                     % (where, key, s[key], sum(want), want))
            got = by_rank(s, key)
            for r, v in got.items():
                # null (n/a) is accepted for a process that never made the
                # call; it counts as 0.
                if (0 if v is None else v) != per.get(r, 0) \
                        or (v is None and r in per and per[r]):
                    fail("%s: by_process %s of rank %s = %r, expected %r "
                         "(all ranks: %r)" % (where, key, r, v,
                                              per.get(r, 0), got))
            if sorted(got) != ranks:
                fail("%s: by_process lists ranks %r, expected all of %r "
                     "(default selection for P <= 64)"
                     % (where, sorted(got), ranks))
    return True


def parse_ranges(text):
    """[0, 1, 2, 3, 7] from "0-3,7" ("" gives [])."""
    out = []
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def present_ranks(doc):
    """The ranks whose data the protocol holds: all of the run, or those a
    partial protocol names (parameters.partial.ranks)."""
    partial = doc["parameters"].get("partial")
    if isinstance(partial, dict):
        return parse_ranges(partial["ranks"])
    return list(range(doc["intervals"][0]["real"]["main"]["processors"]))


def by_rank(obj, key):
    """{rank: value} of the by_process column key of obj (an interval's
    real/predicted part or an SRC point); fails if there is no such column."""
    bp = obj.get("by_process")
    if not bp:
        fail("no by_process part (is MPIPROF's process selection empty?)")
    col = bp.get(key)
    if col is None:
        fail("by_process has no column %r" % key)
    return dict(zip(bp["ranks"], col))


# --------------------------------------------------------------------------
# Intervals

# MPI functions whose time is not Communication (characteristics.md): the
# clock and tool-control functions, and MPI-IO (productive I/O).
NOT_COMMUNICATION = ("MPI_Wtime", "MPI_Wtick", "MPI_Pcontrol", "MPI_T_",
                     "MPI_File_")


def interval(doc, iid):
    """The interval with that id."""
    for iv in doc["intervals"]:
        if iv.get("id") == iid:
            return iv
    fail("protocol has no interval %r. Intervals:\n%s"
         % (iid, describe_intervals(doc)))


def describe_intervals(doc):
    """One line per interval, for messages."""
    return "\n".join(
        "  %s %r file=%s line=%s level=%s parent=%s executions=%s" % (
            iv.get("id"), iv.get("name"), iv.get("file"), iv.get("line"),
            iv.get("level"), iv.get("parent"), iv.get("executions"))
        for iv in doc["intervals"])


def find_intervals(doc, name, parent=None):
    """The intervals named name (with that parent id, when given)."""
    return [iv for iv in doc["intervals"] if iv.get("name") == name
            and (parent is None or iv.get("parent") == parent)]


def find_interval(doc, name, parent=None):
    """The one interval named name (with that parent id, when given)."""
    found = find_intervals(doc, name, parent)
    if len(found) != 1:
        fail("%d intervals named %r%s, expected exactly 1. Intervals:\n%s"
             % (len(found), name, "" if parent is None else
                " with parent %r" % parent, describe_intervals(doc)))
    return found[0]


def children(doc, iid):
    """Ids of the intervals whose parent is iid, in protocol order."""
    return [iv["id"] for iv in doc["intervals"] if iv.get("parent") == iid]


def subtree(doc, iid):
    """Ids of the interval iid and of every interval nested in it."""
    out = [iid]
    for c in children(doc, iid):
        out.extend(subtree(doc, c))
    return out


def check_interval(doc, iv, name=None, file=None, line=None, level=None,
                   parent=None, executions=None):
    """Check the header fields of interval iv (a dict or an id); a field
    given as None is not checked; file matches by basename too."""
    if not isinstance(iv, dict):
        iv = interval(doc, iv)
    where = "interval %s (%r)" % (iv.get("id"), iv.get("name"))
    for key, want in (("name", name), ("line", line), ("level", level),
                      ("parent", parent), ("executions", executions)):
        if want is not None and iv.get(key) != want:
            fail("%s: %s = %r, expected %r. Intervals:\n%s"
                 % (where, key, iv.get(key), want, describe_intervals(doc)))
    if file is not None and iv.get("file") not in (file,) and \
            os.path.basename(str(iv.get("file"))) != os.path.basename(file):
        fail("%s: file = %r, expected %r. Intervals:\n%s"
             % (where, iv.get("file"), file, describe_intervals(doc)))
    return iv


def check_interval_tree(doc):
    """The intervals form a tree listed depth-first: ids are the positions
    in the list, each parent is listed before its children and is the
    previous interval or one of its ancestors (pre-order), levels are the
    parent's plus one."""
    ivs = doc["intervals"]
    by_id = {}
    for n, iv in enumerate(ivs):
        where = "interval %s (%r)" % (iv.get("id"), iv.get("name"))
        if iv.get("id") != n:
            fail("%s is listed at position %d: ids must number the intervals "
                 "in the order listed. Intervals:\n%s"
                 % (where, n, describe_intervals(doc)))
        by_id[n] = iv
        if n == 0:
            continue
        par = iv.get("parent")
        if par not in by_id:
            fail("%s: parent %r is not listed before it" % (where, par))
        if iv.get("level") != by_id[par].get("level") + 1:
            fail("%s: level %r, but its parent %r has level %r"
                 % (where, iv.get("level"), par, by_id[par].get("level")))
        ancestors, a = [], n - 1
        while a is not None:
            ancestors.append(a)
            a = by_id[a].get("parent")
        if par not in ancestors:
            fail("%s: its parent %r is neither the interval listed just "
                 "before it nor one of that one's ancestors %r: the list is "
                 "not depth-first. Intervals:\n%s"
                 % (where, par, ancestors, describe_intervals(doc)))
    return True


def _is_communication(function):
    return not any(function == x or (x.endswith("_")
                                     and function.startswith(x))
                   for x in NOT_COMMUNICATION)


def check_inclusive(doc, part="real"):
    """Intervals are inclusive: the communication of each interval (in total
    and per process) is the time of the SRC points of the interval and of
    every interval nested in it (their predicted_time for part "predicted");
    a nested interval's execution time and insufficient parallelism on a
    process are at most its parent's."""
    tkey = "time" if part == "real" else "predicted_time"
    for iv in doc["intervals"]:
        where = "interval %s (%r)" % (iv["id"], iv["name"])
        chars = iv.get(part)
        if not chars:
            continue
        srcs = [s for i in subtree(doc, iv["id"])
                for s in interval(doc, i)["src"]
                if _is_communication(s["function"])]
        total = chars["main"].get("communication")
        got = sum((s.get(tkey) or {}).get("sum") or 0.0 for s in srcs)
        if total is not None and not _close(total, got, total + got):
            fail("%s: communication = %.9f, but the SRC points of the "
                 "interval and of the intervals nested in it (%s) sum to "
                 "%.9f" % (where, total, ", ".join(
                     str(i) for i in subtree(doc, iv["id"])), got))
        bp = chars.get("by_process")
        if not bp:
            continue
        comm = dict(zip(bp["ranks"], bp["communication"]))
        for r, c in comm.items():
            if c is None:
                continue
            per = 0.0
            for s in srcs:
                sbp = s.get("by_process") or {}
                col = dict(zip(sbp.get("ranks", []), sbp.get(tkey) or []))
                per += col.get(r) or 0.0
            if not _close(c, per, c + per):
                fail("%s: communication of rank %s = %.9f, but its time in "
                     "the SRC points of the interval and of the intervals "
                     "nested in it sums to %.9f" % (where, r, c, per))
        if iv["id"] == 0:
            continue
        pbp = interval(doc, iv["parent"])[part]["by_process"]
        for key in ("execution_time", "insufficient_parallelism"):
            mine = dict(zip(bp["ranks"], bp[key]))
            theirs = dict(zip(pbp["ranks"], pbp[key]))
            for r, x in mine.items():
                if x is None:
                    continue
                if theirs.get(r) is None:
                    fail("%s: rank %s has %s %r in it but none in its "
                         "parent %s" % (where, r, key, x, iv["parent"]))
                if x > theirs[r] + ABS_TOL:
                    fail("%s: %s of rank %s = %.9f exceeds that of its "
                         "parent %s (%.9f)" % (where, key, r, x,
                                               iv["parent"], theirs[r]))
    return True


def check_interval_headers(doc, text_path):
    """The text protocol's interval headers ('==== Interval 3  "name"
    file=F line=L  level=N  parent=P  executions=E ====') give, in the same
    order, what the JSON gives."""
    with open(text_path, encoding="utf-8", errors="replace") as f:
        heads = [ln for ln in f.read().splitlines()
                 if ln.startswith("==== Interval ")]
    pat = re.compile(r'^==== Interval (\d+)\s+"(.*)"\s+file=(\S*)\s+'
                     r'line=(\d+)\s+level=(\d+)\s+parent=(\S+)\s+'
                     r'executions=(\d+)\s+====$')
    if len(heads) != len(doc["intervals"]):
        fail("text protocol %s has %d interval headers, the JSON %d "
             "intervals:\n%s" % (text_path, len(heads), len(doc["intervals"]),
                                 "\n".join(heads)))
    for ln, iv in zip(heads, doc["intervals"]):
        m = pat.match(ln)
        if not m:
            fail("text protocol %s: interval header %r is not '==== Interval "
                 "N  \"name\"  file=F line=L  level=N  parent=P  "
                 "executions=E ===='" % (text_path, ln))
        par = iv["parent"]
        want = (str(iv["id"]), iv["name"], iv["file"], str(iv["line"]),
                str(iv["level"]), None if par is None else str(par),
                str(iv["executions"]))
        got = m.groups()
        for i, key in enumerate(("id", "name", "file", "line", "level",
                                 "parent", "executions")):
            if want[i] is None:
                continue
            if got[i] != want[i] and not (key == "file" and os.path.basename(
                    got[i]) == os.path.basename(want[i])):
                fail("text protocol %s: header %r gives %s=%s, the JSON %r"
                     % (text_path, ln, key, got[i], want[i]))
    return True


def entered(obj):
    """{rank: bool} of the by_process "entered" flags of an interval's
    real/predicted part; fails when there are none."""
    bp = obj.get("by_process")
    if not bp or bp.get("entered") is None:
        fail("no by_process.entered flags")
    return dict(zip(bp["ranks"], bp["entered"]))


def warnings(doc):
    """The protocol's warnings (parameters.warnings)."""
    w = doc["parameters"].get("warnings")
    if not isinstance(w, list):
        fail("parameters.warnings is %r, not a list" % (w,))
    return w


def find_warnings(doc, *parts):
    """The warnings that contain every one of the strings parts."""
    return [w for w in warnings(doc) if all(p in w for p in parts)]


def check_warning(doc, *parts):
    """The one warning containing every one of parts; fails unless there is
    exactly one."""
    found = find_warnings(doc, *parts)
    if len(found) != 1:
        fail("%d warnings contain all of %r, expected exactly 1. Warnings:"
             "\n  %s" % (len(found), parts, "\n  ".join(warnings(doc))))
    return found[0]


def read_measurements(path, keys):
    """The program's own measurements: from its output at path, every line
    'rank=R key=VALUE ...' that has all of keys, as {R: {key: float}}."""
    got = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for ln in f:
            fields = dict(x.split("=", 1) for x in ln.split() if "=" in x)
            if "rank" not in fields or not all(k in fields for k in keys):
                continue
            try:
                got[int(fields["rank"])] = {k: float(fields[k]) for k in keys}
            except ValueError:
                fail("%s: bad measurement line %r" % (path, ln))
    return got


# --------------------------------------------------------------------------
# Self test on hand-made documents

def _sample_doc():
    """A consistent two-process protocol, shaped as the library writes it."""
    def row(a, b):
        lo, hi = (0, 1) if a <= b else (1, 0)
        return {"min": min(a, b), "min_rank": lo, "max": max(a, b),
                "max_rank": hi, "mean": (a + b) / 2}
    # rank 0: T_exec(0)=1.0 comm=0.3 (sr .1 coll .15 sys .05); idle 0
    # rank 1: T_exec(1)=0.9 comm=0.1 (sr .05 coll .05 sys 0); idle 0.1
    # C(0)=0.7, C(1)=0.8 -> imbalance 0.1 (rank 0), 0 (rank 1)
    pp = {
        "execution_time": (1.0, 0.9), "productive_time": (0.7, 0.8),
        "lost_time": (0.3, 0.2), "insufficient_parallelism": (0.0, 0.0),
        "communication": (0.3, 0.1), "sendrecv": (0.1, 0.05),
        "real_sync": (None, None), "collective": (0.15, 0.05),
        "system": (0.05, 0.0), "idle_time": (0.0, 0.1),
        "load_imbalance": (0.1, 0.0), "potential_sync": (0.02, 0.0),
        "time_variation": (0.001, 0.0), "overlap": (0.0, 0.0),
    }
    main = {"parallelization_efficiency": 1.5 / 2.0, "execution_time": 1.0,
            "processors": 2, "total_time": 2.0, "productive_time": 1.5,
            "productive_cpu": 1.4, "productive_sys": 0.1, "productive_io": 0.0,
            "lost_time": 0.5, "insufficient_parallelism": 0.0,
            "communication": 0.4, "sendrecv": 0.15, "real_sync": None,
            "collective": 0.2, "system": 0.05, "idle_time": 0.1,
            "load_imbalance": 0.1, "potential_sync": 0.02,
            "time_variation": 0.001, "overlap": 0.0}
    comp = {k: (None if v[0] is None else row(*v)) for k, v in pp.items()}
    bp = {"ranks": [0, 1]}
    bp.update({k: list(v) for k, v in pp.items()})
    frame = {"file": "known_counts.c", "path": "/x/known_counts.c",
             "line": 42, "function": "main",
             "text": "known_counts.c:42 (main)"}
    src = [
        {"id": 3, "function": "MPI_Allreduce", "calls": 2000,
         "bytes_sent": 32000, "bytes_recv": 32000,
         "time": {"sum": 0.2, "min": 0.05, "min_rank": 1, "max": 0.15,
                  "max_rank": 0, "mean": 0.1},
         "predicted_time": None, "overlap": None,
         "real_sync": None, "potential_sync": None, "time_variation": None,
         "by_process": {"ranks": [0, 1], "time": [0.15, 0.05],
                        "calls": [1000, 1000], "bytes_sent": [16000, 16000],
                        "bytes_recv": [16000, 16000]},
         "stack": [frame]},
        {"id": 5, "function": "MPI_Send", "calls": 500, "bytes_sent": 16000,
         "bytes_recv": 0,
         "time": {"sum": 0.1, "min": 0.0, "min_rank": 1, "max": 0.1,
                  "max_rank": 0, "mean": 0.05},
         "predicted_time": None, "overlap": None,
         "real_sync": None, "potential_sync": None, "time_variation": None,
         "by_process": {"ranks": [0, 1], "time": [0.1, 0.0],
                        "calls": [500, 0], "bytes_sent": [16000, 0],
                        "bytes_recv": [0, 0]},
         "stack": [dict(frame, line=50, text="known_counts.c:50 (main)")]},
    ]
    return {"format": "mpiprof-protocol", "version": 1,
            "parameters": {
                "program": "./known_counts", "working_directory": "/x",
                "started": "2025-01-15T10:21:04",
                "finished": "2025-01-15T10:21:05",
                "protocol_written": "2025-01-15T10:21:05",
                "processes": 2, "nodes": 1,
                "threads_level": "MPI_THREAD_SINGLE",
                "mpi_library": "MPICH Version:      4.0.2",
                "mpi_standard": "4.0", "profiler": "mpiprof 0.1.0",
                "collection_mode": "dynamic", "partial": False,
                "configuration": {"MPIPROF_DEPTH": {"value": "4",
                                                    "default": True}},
                "machine": None, "placement": None,
                "hardware_counters": None, "clock": "CLOCK_MONOTONIC",
                "prediction_model": None, "warnings": [],
                "wait_states": "off (MPIPROF_WAITSTATES=off)"},
            "intervals": [{"id": 0, "name": "whole program",
                           "file": "known_counts.c", "line": 30, "level": 0,
                           "parent": None, "executions": 1,
                           "real": {"main": main, "comparative": comp,
                                    "by_process": bp},
                           "predicted": None, "src": src}]}


def _set_per_process(part, key, values):
    """Set the per-process values of key in a two-process part, with its
    main total and comparative row to match."""
    a, b = values
    lo, hi = (0, 1) if a <= b else (1, 0)
    part["main"][key] = a + b
    part["comparative"][key] = {"min": min(a, b), "min_rank": lo,
                                "max": max(a, b), "max_rank": hi,
                                "mean": (a + b) / 2}
    part["by_process"][key] = [a, b]


def _selftest():
    doc = _sample_doc()
    check_invariants(doc)
    assert len(find_src(doc, "MPI_Allreduce", "known_counts.c", 42)) == 1
    assert len(find_src(doc, "MPI_Allreduce", "/y/known_counts.c", 42)) == 1
    assert not find_src(doc, "MPI_Allreduce", "known_counts.c", 43)
    assert len(find_src(doc, "MPI_Send")) == 1
    assert approx(0.105, 0.1) and not approx(0.12, 0.1)
    assert by_rank(src_points(doc)[1], "calls") == {0: 500, 1: 0}

    iv = ("intervals", 0)
    broken = [
        ("total != exec*P", iv + ("real", "main", "total_time"), 2.1),
        ("prod+lost != total", iv + ("real", "main", "lost_time"), 0.6),
        ("K_eff > 1", iv + ("real", "main", "parallelization_efficiency"),
         1.2),
        ("comm split", iv + ("real", "main", "system"), 0.07),
        ("productive split", iv + ("real", "main", "productive_cpu"), 1.3),
        ("min > mean", iv + ("real", "comparative", "communication", "min"),
         0.25),
        ("column sum", iv + ("real", "by_process", "idle_time"), [0.0, 0.2]),
        ("missing key", iv + ("real", "main"), {"execution_time": 1.0}),
        ("SRC calls column", iv + ("src", 0, "by_process", "calls"),
         [1000, 999]),
        ("empty stack", iv + ("src", 0, "stack"), []),
        ("SRC order", iv + ("src", 1, "time", "sum"), 0.3),
        ("SRC real_sync", iv + ("src", 1, "real_sync"),
         {"sum": 0.2, "min": 0.0, "min_rank": 1, "max": 0.2, "max_rank": 0,
          "mean": 0.1}),
        ("SRC rank real_sync", iv + ("src", 1, "by_process", "real_sync"),
         [0.0, 0.05]),
    ]
    for name, path, value in broken:
        d = copy.deepcopy(doc)
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
        try:
            check_invariants(d)
        except ProtocolError as e:
            print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
        else:
            raise AssertionError("selftest: broken document (%s) passed"
                                 % name)
    # Parts of the processes' time beyond it, consistent otherwise (main,
    # comparative and by-process agree): each instant counted more than once.
    for name, key, values in (
            ("potsync > total", "potential_sync", (1.2, 1.1)),
            ("variation > total", "time_variation", (1.0, 1.01)),
            ("overlap > total", "overlap", (1.5, 0.6)),
            ("rank potsync", "potential_sync", (1.05, 0.0)),
            ("rank overlap", "overlap", (0.0, 0.95))):
        d = copy.deepcopy(doc)
        _set_per_process(d["intervals"][0]["real"], key, values)
        try:
            check_invariants(d)
        except ProtocolError as e:
            if "exceeds" not in str(e):
                raise AssertionError("selftest: %s detected for another "
                                     "reason: %s" % (name, e))
            print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
        else:
            raise AssertionError("selftest: broken document (%s) passed"
                                 % name)
    # nulls are skipped
    d = copy.deepcopy(doc)
    d["intervals"][0]["real"]["main"]["overlap"] = None
    d["intervals"][0]["real"]["comparative"]["overlap"] = None
    d["intervals"][0]["real"]["by_process"]["overlap"] = [None, None]
    check_invariants(d)
    _selftest_text_and_schema(doc)
    _selftest_intervals()
    _selftest_predicted(doc)
    print("selftest: all checks behave")


def _selftest_predicted(doc):
    """The predicted part and the SRC points' predicted_time and overlap
    are checked like the real ones."""
    doc = copy.deepcopy(doc)
    iv = doc["intervals"][0]
    iv["predicted"] = copy.deepcopy(iv["real"])
    for s in iv["src"]:
        t = s["time"]
        s["predicted_time"] = {"sum": t["sum"] / 2, "min": t["min"] / 2, "min_rank": t["min_rank"],
                               "max": t["max"] / 2, "max_rank": t["max_rank"], "mean": t["mean"] / 2}
        s["overlap"] = 0.0
        s["by_process"]["predicted_time"] = [x / 2 for x in s["by_process"]["time"]]
        s["by_process"]["overlap"] = [0.0, 0.0]
    check_invariants(doc)
    at = ("intervals", 0)
    broken = [
        ("predicted total", at + ("predicted", "main", "total_time"), 2.1),
        ("predicted column", at + ("predicted", "by_process", "idle_time"), [0.0, 0.2]),
        ("SRC predicted col", at + ("src", 0, "by_process", "predicted_time"), [0.1, 0.1]),
        ("SRC predicted min", at + ("src", 0, "predicted_time", "min"), 0.09),
        ("SRC overlap < 0", at + ("src", 1, "overlap"), -1.0),
    ]
    for name, path, value in broken:
        d = copy.deepcopy(doc)
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
        try:
            check_invariants(d)
        except ProtocolError as e:
            print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
        else:
            raise AssertionError("selftest: broken document (%s) passed" % name)


def _sample_block(execs, comms):
    """A consistent "real" part for per-rank execution times and
    communication (all of it collective); None: the rank did not enter."""
    live = [r for r, e in enumerate(execs) if e is not None]
    texec = max(execs[r] for r in live)
    pp = {k: [None] * len(execs) for k in PER_PROCESS_KEYS}
    cmax = max(execs[r] - comms[r] for r in live)
    for r in live:
        e, c = execs[r], comms[r]
        pp["execution_time"][r] = e
        pp["communication"][r] = pp["collective"][r] = c
        pp["sendrecv"][r] = pp["system"][r] = 0.0
        pp["insufficient_parallelism"][r] = 0.0
        pp["idle_time"][r] = texec - e
        pp["lost_time"][r] = c + texec - e
        pp["productive_time"][r] = e - c
        pp["load_imbalance"][r] = cmax - (e - c)
    main = {k: None for k in MAIN_KEYS}
    for k in PER_PROCESS_KEYS:
        if pp[k][live[0]] is not None:
            main[k] = sum(pp[k][r] for r in live)
    main["execution_time"] = texec
    main["processors"] = len(live)
    main["total_time"] = texec * len(live)
    main["productive_time"] = main["total_time"] - main["lost_time"]
    main["productive_cpu"] = main["productive_time"]
    main["productive_sys"] = main["productive_io"] = 0.0
    main["parallelization_efficiency"] = \
        main["productive_time"] / main["total_time"]
    comp = {}
    for k in PER_PROCESS_KEYS:
        vals = [(pp[k][r], r) for r in live if pp[k][r] is not None]
        comp[k] = None if not vals else {
            "min": min(vals)[0], "min_rank": min(vals)[1],
            "max": max(vals)[0], "max_rank": max(vals)[1],
            "mean": sum(v for v, _ in vals) / len(vals)}
    bp = {"ranks": list(range(len(execs)))}
    bp.update(pp)
    bp["entered"] = [e is not None for e in execs]
    return {"main": main, "comparative": comp, "by_process": bp}


def _sample_intervals_doc():
    """_sample_doc with nested intervals: 'child' (both ranks, one
    MPI_Barrier SRC point) and 'only1' (rank 1 only), inclusive."""
    doc = _sample_doc()
    iv0 = doc["intervals"][0]
    iv0["real"] = _sample_block([1.0, 0.9], [0.3, 0.1])
    barrier = copy.deepcopy(iv0["src"][1])
    barrier.update({"id": 7, "function": "MPI_Barrier", "calls": 20,
                    "bytes_sent": 0,
                    "time": {"sum": 0.1, "min": 0.05, "min_rank": 0,
                             "max": 0.05, "max_rank": 0, "mean": 0.05},
                    "by_process": {"ranks": [0, 1], "time": [0.05, 0.05],
                                   "calls": [10, 10], "bytes_sent": [0, 0],
                                   "bytes_recv": [0, 0]}})
    child = {"id": 1, "name": "child", "file": "x.c", "line": 10, "level": 1,
             "parent": 0, "executions": 10,
             "real": _sample_block([0.5, 0.4], [0.05, 0.05]),
             "predicted": None, "src": [barrier]}
    only1 = {"id": 2, "name": "only1", "file": "x.c", "line": 20,
             "level": 1, "parent": 0, "executions": 3,
             "real": _sample_block([None, 0.2], [None, 0.0]),
             "predicted": None, "src": []}
    doc["intervals"] += [child, only1]
    return doc


def _selftest_intervals():
    doc = _sample_intervals_doc()
    check_invariants(doc)
    check_interval_tree(doc)
    check_inclusive(doc)
    assert entered(interval(doc, 2)["real"]) == {0: False, 1: True}
    assert find_interval(doc, "child", 0)["id"] == 1
    assert subtree(doc, 0) == [0, 1, 2]
    check_interval(doc, 1, name="child", file="/y/x.c", line=10, level=1,
                   parent=0, executions=10)
    doc["parameters"]["warnings"] = ["rank 1: interval end at x.c:5 (main)",
                                     "something else"]
    assert len(find_warnings(doc, "interval end", "x.c:5")) == 1

    iv = ("intervals",)
    broken = [
        ("value not entered", check_invariants,
         iv + (2, "real", "by_process", "execution_time"), [0.1, 0.2]),
        ("rank out of range", check_invariants,
         iv + (2, "real", "comparative", "execution_time", "max_rank"), 2),
        ("not inclusive", check_inclusive,
         iv + (1, "real", "main", "communication"), 0.2),
        ("rank not inclusive", check_inclusive,
         iv + (1, "real", "by_process", "communication"), [0.05, 0.01]),
        ("child longer", check_inclusive,
         iv + (1, "real", "by_process", "execution_time"), [1.5, 0.4]),
        ("parent after", check_interval_tree, iv + (1, "parent"), 2),
        ("level", check_interval_tree, iv + (2, "level"), 2),
        ("not depth-first", check_interval_tree, iv + (2, "parent"), 1),
    ]
    for name, check, path, value in broken:
        d = copy.deepcopy(doc)
        if name == "not depth-first":
            # 0, child, only1 (child of 0), x (child of child): x's parent
            # is neither only1 nor an ancestor of it.
            x = copy.deepcopy(d["intervals"][2])
            x.update({"id": 3, "name": "x", "parent": 1, "level": 2})
            d["intervals"].append(x)
            path, value = iv + (3, "parent"), 1
        obj = d
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
        try:
            check(d)
        except ProtocolError as e:
            print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
        else:
            raise AssertionError("selftest: broken document (%s) passed"
                                 % name)


def _sample_text(doc):
    """The text protocol matching _sample_doc (only the parts checked)."""
    iv = doc["intervals"][0]
    main = iv["real"]["main"]
    out = ["Parameters", "Program                 : ./known_counts", "",
           '==== Interval 0  "whole program"  file=known_counts.c line=30  '
           'level=0  parent=-  executions=1 ====',
           "--- Main characteristics (real) ---"]
    for label, key in TEXT_MAIN_LABELS:
        v = main[key]
        out.append("%-30s %12s" % (label, "n/a" if v is None else
                                   "%.6f" % v))
        if key == "productive_time":
            out[-1] += "  (CPU=%.6f Sys=%.6f I/O=%.6f)" % (
                main["productive_cpu"], main["productive_sys"],
                main["productive_io"])
    out += ["--- Main characteristics (predicted) ---", "n/a (see Warnings)"]
    out.append("--- SRC points ---")
    for s in iv["src"]:
        out.append("SRC %d  %s  calls=%d  bytes_sent=%d  bytes_recv=%d"
                   % (s["id"], s["function"], s["calls"], s["bytes_sent"],
                      s["bytes_recv"]))
        out.append("   time            sum=%.6f  min=%.6f (rank %d)"
                   % (s["time"]["sum"], s["time"]["min"],
                      s["time"]["min_rank"]))
        out.append("   predicted time  n/a")
        out.append("   overlap         n/a")
        out.append("   stack           " + " <- ".join(
            f["text"] for f in s["stack"]))
    return "\n".join(out) + "\n"


def _selftest_text_and_schema(doc):
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        txt = os.path.join(d, "prot.txt")
        good = _sample_text(doc)
        cases = [
            ("good text", good, True),
            ("text calls", good.replace("calls=500", "calls=499"), False),
            ("text value", good.replace("%.6f" % 0.5, "%.6f" % 0.6, 1),
             False),
            ("text order", good.replace("sum=0.100000", "sum=0.300000"),
             False),
            ("text frame", good.replace("known_counts.c:50", "x.c:50"),
             False),
            ("text I/O split", good.replace("I/O=0.000000", "I/O=0.000100"),
             False),
        ]
        for name, content, ok in cases:
            with open(txt, "w", encoding="utf-8") as f:
                f.write(content)
            try:
                check_text(doc, txt)
            except ProtocolError as e:
                if ok:
                    raise
                print("selftest: %-18s detected: %s" % (name, str(e)[:100]))
            else:
                if not ok:
                    raise AssertionError("selftest: broken text (%s) passed"
                                         % name)
        import importlib.util
        if importlib.util.find_spec("jsonschema") is None:
            print("selftest: jsonschema not installed, schema part skipped")
            return
        repo_schema = os.path.join(os.path.dirname(os.path.abspath(
            __file__)), "..", "..", "schema", "mpiprof-protocol.schema.json")
        if os.path.exists(repo_schema):
            validate_schema(doc, repo_schema)
            print("selftest: the sample document validates against %s"
                  % os.path.normpath(repo_schema))
        sch = os.path.join(d, "schema.json")
        for required, ok in ((["format", "intervals"], True),
                             (["no_such_key"], False)):
            with open(sch, "w", encoding="utf-8") as f:
                json.dump({"$schema":
                           "https://json-schema.org/draft/2020-12/schema",
                           "type": "object", "required": required}, f)
            try:
                validate_schema(doc, sch)
            except ProtocolError as e:
                if ok:
                    raise
                print("selftest: %-18s detected: %s"
                      % ("schema", str(e)[:100]))
            else:
                if not ok:
                    raise AssertionError("selftest: schema violation passed")


def main(argv):
    usage = ("usage: protocol_check.py [--schema SCHEMA.json] "
             "[--text PROTOCOL.txt] PROTOCOL.json | --selftest")
    args = argv[1:]
    if args == ["--selftest"]:
        _selftest()
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
