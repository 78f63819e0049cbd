"""Finding things in a JSON protocol (re-exported by protocol_check.py, as
pc.find_src, pc.site, pc.find_interval, pc.warnings ...): SRC points and
their counts, intervals and their values per process, warnings, the
programs' own measurements, and the checks of call sites and of the
interval tree."""

import os
import re

from protocol_base import ABS_TOL, _close, check_approx, check_equal, fail
from protocol_text import read_lines

# --------------------------------------------------------------------------
# SRC points

def src_points(doc, interval=0):
    """The SRC points of the interval with that id (default: interval 0)."""
    for iv in doc["intervals"]:
        if iv.get("id") == interval:
            return iv.get("src") or []
    fail("protocol has no interval %r" % interval)


def frame_file_matches(frame, file):
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
        if file is not None and not frame_file_matches(fr, file):
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


def sites(doc, iv, function, source, marker, count):
    """The count SRC points of function in interval iv (a dict or an id)
    whose first stack frame is the line of source marked MARK:marker;
    fails unless there are exactly count."""
    iid = iv["id"] if isinstance(iv, dict) else iv
    line = marker_line(source, marker)
    found = find_src(doc, function, os.path.basename(source), line,
                     interval=iid)
    if len(found) != count:
        fail("interval %s: %d SRC points of %s at %s:%d (MARK:%s), "
             "expected %s. SRC points of the interval:\n%s"
             % (iid, len(found), function, os.path.basename(source), line,
                marker, "exactly 1" if count == 1 else count,
                describe_srcs(doc, iid)))
    return found


def site(doc, iv, function, source, marker):
    """The one SRC point of function in interval iv (a dict or an id) whose
    first stack frame is the line of source marked MARK:marker."""
    return sites(doc, iv, function, source, marker, 1)[0]


def srcs_at(doc, source, marker):
    """[(interval id, SRC point)] of every SRC point, in any interval, whose
    first stack frame is the line of source marked MARK:marker."""
    line = marker_line(source, marker)
    return [(iv["id"], s) for iv in doc["intervals"] for s in iv["src"]
            if (s.get("stack") or [{}])[0].get("line") == line
            and frame_file_matches(s["stack"][0], os.path.basename(source))]


def check_counts(s, calls=None, bytes_sent=None, bytes_recv=None,
                 ranks=None, exact=False, where=None):
    """The totals and per-process values of calls and bytes at SRC point s.

    Each of calls, bytes_sent, bytes_recv is {rank: value}, or None (not
    checked).  The total is the sum of the values; per process, a rank left
    out is 0, and null (n/a: the process never made the call) counts as 0.
    exact: the by-process value is exactly the one given, null where the
    value given is None, 0 (not null) where it is 0.  ranks: the by-process
    column lists exactly those ranks."""
    where = where or describe_src(s)
    for key, per in (("calls", calls), ("bytes_sent", bytes_sent),
                     ("bytes_recv", bytes_recv)):
        if per is None:
            continue
        want = sum(v for v in per.values() if v is not None)
        if s[key] != want:
            fail("%s: %s = %r, expected %r (sum over processes of %r)"
                 % (where, key, s[key], want, per))
        got = by_rank(s, key)
        for r, v in got.items():
            w = per.get(r, 0)
            if (v != w) if exact else ((v or 0) != w):
                fail("%s: by_process %s of rank %s = %r, expected %r "
                     "(all ranks: %r)" % (where, key, r, v, w, got))
        if ranks is not None and sorted(got) != sorted(ranks):
            fail("%s: by_process %s lists ranks %r, expected %r"
                 % (where, key, sorted(got), sorted(ranks)))


def check_no_other_srcs(what, iv, listed, functions=()):
    """Interval iv has no SRC point but those listed (SRC points) and those
    of the functions named."""
    for s in iv["src"]:
        if all(s is not x for x in listed) and s["function"] not in functions:
            fail("%s: unexpected SRC point %s. SRC points of the interval:"
                 "\n%s" % (what, describe_src(s), "\n".join(
                     "  " + describe_src(x) for x in iv["src"])))


def calls_by_function(doc, interval=0):
    """{function: calls summed over its SRC points} of the interval."""
    out = {}
    for s in src_points(doc, interval):
        out[s["function"]] = out.get(s["function"], 0) + s["calls"]
    return out


def src_stat(s, key):
    """The statistic key of SRC point s ({"sum", "min", ...}); fails when
    it is null (n/a) or its sum is."""
    st = s.get(key)
    if st is None:
        fail("%s: %s is null (n/a), expected a value" % (describe_src(s),
                                                         key))
    if st.get("sum") is None:
        fail("%s: %s.sum is null" % (describe_src(s), key))
    return st


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
        if not frame_file_matches(fr, base) or fr.get("line") != line:
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
            if not frame_file_matches(f2, base) or f2.get("line") != cline:
                fail("%s: the second stack frame is %r, expected %s:%d"
                     % (where, f2.get("text"), base, cline))
        # every process listed (default selection for P <= 64); null (n/a)
        # accepted for a process that never made the call, as 0
        check_counts(s, e.get("calls"), e.get("bytes_sent"),
                     e.get("bytes_recv"), ranks=ranks, where=where)
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
                   parent=None, executions=None, marker=None):
    """Check the header fields of interval iv (a dict or an id); a field
    given as None is not checked; file matches by basename too; marker: the
    line is the one of file marked MARK:marker (its begin mark)."""
    if not isinstance(iv, dict):
        iv = interval(doc, iv)
    if marker is not None:
        line = marker_line(file, marker)
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


def check_interval_names(doc, expected, why=None):
    """The intervals are listed with exactly the names expected, in that
    order (why: the reason for that order, for the message); returns
    {name: id}."""
    names = [iv["name"] for iv in doc["intervals"]]
    if names != list(expected):
        fail("intervals listed as %r, expected %r%s. Intervals:\n%s"
             % (names, list(expected), " (%s)" % why if why else "",
                describe_intervals(doc)))
    return {iv["name"]: iv["id"] for iv in doc["intervals"]}


def main_value(iv, key, part="real"):
    """Interval iv's main key; fails when it is null (n/a)."""
    v = iv[part]["main"].get(key)
    if v is None:
        fail("interval %s (%r): %s main %s is null (n/a), expected a value"
             % (iv["id"], iv["name"], part, key))
    return v


def check_main(what, iv, key, expected, rel, abs_tol=0.0, part="real"):
    """Interval iv's main key within rel (or abs_tol) of expected."""
    v = main_value(iv, key, part)
    check_approx("%s: interval %s (%r) main %s" % (what, iv["id"],
                                                  iv["name"], key),
                 v, expected, rel, abs_tol)
    return v


def check_rank(what, iv, key, rank, expected, rel, abs_tol=0.0,
               part="real"):
    """Interval iv's by-process value of key for rank within rel (or
    abs_tol) of expected."""
    v = by_rank(iv[part], key).get(rank)
    if v is None:
        fail("%s: interval %s (%r) by_process %s of rank %d is null, "
             "expected about %.6f" % (what, iv["id"], iv["name"], key,
                                      rank, expected))
    check_approx("%s: interval %s (%r) by_process %s of rank %d"
                 % (what, iv["id"], iv["name"], key, rank),
                 v, expected, rel, abs_tol)
    return v


def check_ranks(what, iv, key, expected, rel, abs_tol=0.0, part="real"):
    """check_rank for each rank of expected ({rank: value})."""
    return {r: check_rank(what, iv, key, r, x, rel, abs_tol, part)
            for r, x in sorted(expected.items())}


def check_no_prediction(doc, why):
    """Nothing predicted anywhere: no interval has predicted
    characteristics or an Overlap, no SRC point a predicted time or an
    Overlap (why: the reason, for the messages)."""
    for iv in doc["intervals"]:
        if iv["predicted"] is not None:
            fail("interval %s has predicted characteristics although %s"
                 % (iv["id"], why))
        if iv["real"]["main"]["overlap"] is not None:
            fail("interval %s has an Overlap although %s" % (iv["id"], why))
        for s in iv["src"]:
            if s["predicted_time"] is not None or s["overlap"] is not None:
                fail("SRC %s has a predicted time or Overlap although %s"
                     % (s["id"], why))


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
    heads = [ln for ln in read_lines(text_path)
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


def need_warning(doc, *parts):
    """The first warning containing every one of parts; fails when there
    is none."""
    found = find_warnings(doc, *parts)
    if not found:
        fail("no warning contains all of %r. Warnings:\n  %s"
             % (parts, "\n  ".join(warnings(doc))))
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


def measurements(path, keys, ranks=(0, 1)):
    """{rank: {key: float}} from the program's lines 'rank=R key=V ...'
    (every rank prints every key); fails unless each of ranks printed
    one."""
    got = read_measurements(path, keys)
    if sorted(got) != sorted(ranks):
        fail("%s: expected a measurement line 'rank=R %s' from ranks %r, "
             "got ranks %r" % (path, " ".join("%s=.." % k for k in keys),
                               list(ranks), sorted(got)))
    return got


def check_threads_level(doc, level):
    """The protocol states the thread level the program asked for."""
    check_equal("parameters.threads_level",
                doc["parameters"].get("threads_level"), level)
