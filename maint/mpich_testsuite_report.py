#!/usr/bin/env python3
"""Compares the runs of maint/mpich-testsuite.sh and checks their protocols.

Reads, in the work dir: tests.json (the tests chosen and left out), and for
each run (run-baseline, run-profiled): junit.xml (MPICH runtests' verdict of
every test), runs.tsv (one line per mpiexec from the script's wrapper: exit
status, seconds, time limit, timed out, id), out/ID.out (the output) and, in
the profiled run, prot/ID.prof* (the protocols).  Writes the text report and
a JSON beside it (report.json).  Exit status: 1 when a test passes without
the profiler and fails with it, a protocol breaks an invariant or the profiler
printed something under MPIPROF_QUIET=1; 0 otherwise.

A regression is run again without the profiler (--recheck N times, in the
suite's build dir, its limit ten times its unprofiled time, at least 30 s):
a test that then fails, hangs or prints more than its passing run's " No
Errors" fails without the profiler too (MPICH's rma/mutex_bench_shm hangs
in some runs and passes in others; UCX warns of an unmatched message at the
end of rma/mutex_bench_shm_ordered in 6 of 10) and is listed apart, not
counted.

Usage: mpich_testsuite_report.py --workdir DIR --schema SCHEMA.json
                                 [--lib PATH] [--out REPORT.txt] [--recheck N]
       (tests/mpi/lib of mpiprof on PYTHONPATH, for protocol_check)
"""

import argparse
import contextlib
import glob
import io
import json
import multiprocessing
import os
import re
import subprocess
import sys
import time
from collections import Counter, OrderedDict

SLOW_RATIO, SLOW_MIN_S = 3.0, 5.0    # "much slower with the profiler"
HEAD_LINES = 15                      # output lines shown for a regression
PROFILER_LINE = re.compile(r"^mpiprof|mpiprof:")


def read_junit(path):
    """[(name, status, seconds or None, failure text)] in run order."""
    if not os.path.exists(path):
        return []
    text = open(path, errors="replace").read()
    cases = []
    pat = re.compile(r'<testcase name="([^"]*)"(?: time="([^"]*)")?>'
                     r'(.*?)</testcase>', re.S)
    for m in pat.finditer(text):
        body = m.group(3)
        status = "pass"
        if "<failure" in body:
            status = "fail"
        elif "<skipped" in body:
            status = "skip"
        detail = "\n".join(ln[3:] for ln in body.splitlines()
                           if ln.startswith("## "))
        if status == "skip":
            r = re.search(r"# SKIP (.*?)\]\]>", body)
            detail = r.group(1) if r else ""
        t = float(m.group(2)) if m.group(2) else None
        cases.append((m.group(1), status, t, detail))
    return cases


def case_fields(name):
    """junit name ' - ./coll/allred 2 ARGS ENV' -> (dir, prog, np, rest)."""
    m = re.match(r"\s*\d*\s*-\s*(\S+)\s+(\S+)\s*(.*)$", name)
    if not m:
        return ".", name, "?", ""
    path, np_, rest = m.groups()
    d, _, prog = path.rpartition("/")
    d = re.sub(r"^\./?", "", d) or "."
    return d, prog, np_, " ".join(rest.split())


def read_run(workdir, mode, listed):
    """OrderedDict key -> record of one run, or None if it did not run.
    LISTED: (test, np, args) -> the process count MPICH's list asks for,
    when the run has fewer."""
    rundir = os.path.join(workdir, "run-" + mode)
    if not os.path.isdir(rundir):
        return None
    runs = []
    tsv = os.path.join(rundir, "runs.tsv")
    if os.path.exists(tsv):
        for ln in open(tsv, errors="replace"):
            f = ln.rstrip("\n").split("\t")
            if len(f) >= 9:
                runs.append({"dir": re.sub(r"^\./?", "", f[1]) or ".",
                             "prog": f[2], "np": f[3], "rc": int(f[4]),
                             "seconds": float(f[5]), "limit": int(f[6]),
                             "timed_out": f[7] == "1", "id": f[8]})
    records, seen, i = OrderedDict(), Counter(), 0
    for name, status, t, detail in read_junit(
            os.path.join(rundir, "junit.xml")):
        d, prog, np_, rest = case_fields(name)
        label = (d + "/" if d != "." else "") + prog
        more = listed.get((label, np_, rest))
        key = "%s np=%s%s%s" % (label, np_, " (listed for %s)" % more
                                if more else "", " " + rest if rest else "")
        seen[key] += 1
        if seen[key] > 1:
            key += " #%d" % seen[key]
        rec = {"test": label, "np": np_, "extra": rest, "status": status,
               "seconds": t, "detail": detail, "run": None}
        # the wrapper's lines come in the same order; a test that did not
        # build (or was skipped) never reached mpiexec and has none
        if status != "skip" and i < len(runs):
            r = runs[i]
            if r["prog"] == prog and r["np"] == np_ and \
                    (r["dir"] + "/").startswith(d + "/" if d != "." else ""):
                rec["run"] = r
                rec["seconds"] = r["seconds"]
                i += 1
        records[key] = rec
    wall = None
    try:
        wall = int(open(os.path.join(rundir, "walltime")).read())
    except (OSError, ValueError):
        pass
    return {"dir": rundir, "records": records, "wall": wall,
            "wrapper_lines": len(runs), "unmatched": len(runs) - i}


def output_of(run, rec):
    if not rec or not rec["run"]:
        return rec["detail"] if rec else ""
    path = os.path.join(run["dir"], "out", rec["run"]["id"] + ".out")
    try:
        return open(path, errors="replace").read()
    except OSError:
        return rec["detail"]


def findings_of(path):
    """The correctness findings of a JSON protocol, one line each."""
    try:
        with open(path, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return []
    out = []
    for f in (doc.get("correctness") or {}).get("findings", []):
        where = f["stack"][0]["text"] if f.get("stack") else "?"
        other = f.get("other") or {}
        there = other.get("stack", [{}])[0].get("text") if other.get("stack") else None
        out.append("%s %s in %s at %s%s; ranks %d-%d, %d time%s: %s" % (
            f["severity"], f["kind"], f["function"], where, " (other side %s)" % there if there else "",
            f["first_rank"], f["last_rank"], f["count"], "" if f["count"] == 1 else "s", f["detail"]))
    return out


def check_one(args):
    """protocol_check on one text protocol and its JSON: None, or why not.
    Findings are no failure here: they are listed apart (findings_of)."""
    import protocol_check as pc
    f, schema = args
    with open(schema, encoding="utf-8") as fh:  # every kind's name: no finding fails the check
        kinds = json.load(fh)["$defs"]["finding"]["properties"]["kind"]["enum"]
    os.environ["MPIPROF_TEST_EXPECT_FINDINGS"] = " ".join(kinds)
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), \
                contextlib.redirect_stdout(io.StringIO()):
            rc = pc.main(["protocol_check.py", "--schema", schema,
                          "--text", f, f + ".json"])
    except Exception as e:  # noqa: BLE001  a checker crash is news
        rc, err = 1, io.StringIO("checker raised %r" % e)
    return None if rc == 0 else err.getvalue().strip() or "exit status %d" % rc


def check_protocols(run, schema):
    """Checks every protocol of the profiled run with protocol_check, on
    every processor (they are independent)."""
    found = {"checked": 0, "failures": [], "partial": [], "hang": [], "findings": []}
    todo = []
    for key, rec in run["records"].items():
        if not rec["run"]:
            continue
        base = os.path.join(run["dir"], "prot", rec["run"]["id"] + ".prof")
        files = sorted(glob.glob(glob.escape(base) + "*"))
        for f in files:
            tail = f[len(base):]
            if re.search(r"\.partial\.\d+$", tail):
                found["partial"].append((key, os.path.basename(f)))
                found["findings"] += [(key, ln) for ln in findings_of(f + ".json")]
                continue
            if ".partial." in tail or f.endswith(".html"):
                continue
            if re.search(r"\.hang\.\d+$", tail):
                found["hang"].append((key, os.path.basename(f)))
                continue
            if f.endswith(".json"):
                if f[:-5] not in files:
                    found["failures"].append(
                        (key, os.path.basename(f), "JSON without its text"))
                continue
            if f + ".json" not in files:
                found["failures"].append(
                    (key, os.path.basename(f), "text without its JSON"))
                continue
            todo.append((key, f))
            found["findings"] += [(key, ln) for ln in findings_of(f + ".json")]
    found["checked"] = len(todo)
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        results = pool.map(check_one, [(f, schema) for _, f in todo], chunksize=8)
    for (key, f), msg in zip(todo, results):
        if msg:
            found["failures"].append((key, os.path.basename(f), msg))
    return found


def compare(base, prof):
    res = {"regressions": [], "both_fail": [], "fixed": [], "timeouts": [],
           "slow": [], "quiet": [], "not_compared": []}
    keys = list(prof["records"]) if prof else []
    for key in keys:
        p = prof["records"][key]
        b = base["records"].get(key) if base else None
        # init/timeout passes when hydra ends it: only failures count
        if p["run"] and p["run"]["timed_out"] and p["status"] == "fail":
            res["timeouts"].append((key, "profiled", p["run"]["limit"]))
        lines = output_of(prof, p).splitlines()
        theirs = set(output_of(base, b).splitlines()) if b else set()
        loud = [ln for ln in lines
                if PROFILER_LINE.search(ln) and ln not in theirs]
        if loud:
            res["quiet"].append((key, loud[:5]))
        if b is None or "skip" in (b["status"], p["status"]):
            res["not_compared"].append(key)
            continue
        if b["status"] == "pass" and p["status"] == "fail":
            res["regressions"].append(key)
        elif b["status"] == "fail" and p["status"] == "fail":
            res["both_fail"].append(key)
        elif b["status"] == "fail" and p["status"] == "pass":
            res["fixed"].append(key)
        bt, pt = b["seconds"], p["seconds"]
        if bt is not None and pt is not None and pt > SLOW_MIN_S and \
                pt > SLOW_RATIO * max(bt, 0.01):
            res["slow"].append((key, bt, pt))
    for key, b in (base["records"].items() if base else []):
        if b["run"] and b["run"]["timed_out"] and b["status"] == "fail":
            res["timeouts"].append((key, "baseline", b["run"]["limit"]))
    return res


def rerun(workdir, tests, rec, limit, expected):
    """Run a test once without the profiler, as runtests ran it: None when
    it passed, else why not.  EXPECTED: the output of its passing run, when
    that was runtests' own verdict's (" No Errors" alone): more is a failure
    (a library's warning on stderr, which runtests counts as one).
    Raises LookupError or OSError when it cannot be run again."""
    entry = next((t for t in tests.get("kept", []) if t["name"] == rec["test"] and t["np"] == rec["np"] and
                  " ".join(t["args"] + t["env"]) == rec["extra"]), None)
    if entry is None:
        raise LookupError("not in tests.json")
    env = dict(os.environ, MPIEXEC_TIMEOUT=str(limit))
    env.pop("LD_PRELOAD", None)
    env.update(kv.split("=", 1) for kv in entry["env"] if "=" in kv)
    cmd = ["timeout", "-k", "15", str(limit + 15), "mpiexec", "-n", rec["np"], "./" + entry["program"]]
    done = subprocess.run(cmd + entry["args"], cwd=os.path.join(workdir, "build", entry["dir"]), env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          errors="replace")
    if done.returncode in (124, 137) or "APPLICATION TIMED OUT" in done.stdout:
        return "hung (no end within %d s)" % limit
    if done.returncode != 0:
        return "exit status %d" % done.returncode
    if expected is not None and done.stdout.strip() != expected:
        extra = [ln for ln in done.stdout.splitlines() if ln.strip() and ln.strip() != expected]
        return "it printed more than '%s': %s" % (expected, (extra or ["?"])[0][:160])
    return None


def recheck(workdir, tests, base, res, times):
    """Regressions that fail without the profiler too, in one of TIMES
    reruns: moved from res["regressions"] to res["flaky"] (key, reason)."""
    res["flaky"] = []
    for key in list(res["regressions"]):
        rec = base["records"][key]
        limit = int(max(30, 10 * (rec["seconds"] or 0)))
        expected = "No Errors" if output_of(base, rec).strip() == "No Errors" else None
        for i in range(times):
            try:
                why = rerun(workdir, tests, rec, limit, expected)
            except (LookupError, OSError) as e:  # not rerun: it stays a regression
                print("mpich_testsuite_report: %s not run again: %s" % (key, e), file=sys.stderr)
                break
            if why:
                res["flaky"].append((key, "rerun %d of %d without the profiler: %s" % (i + 1, times, why)))
                res["regressions"].remove(key)
                break


def describe_run(run, label, planned):
    if run is None:
        return ["%s: not run" % label]
    recs = list(run["records"].values())
    ran = [r for r in recs if r["status"] != "skip"]
    nps = Counter(r["np"] for r in ran)
    out = ["%s: %d test runs (%s), %d pass, %d fail, %d skipped by runtests;"
           " wall time %s" % (
               label, len(ran), ", ".join("%s at np=%s" % (nps[k], k)
                                          for k in sorted(nps)),
               sum(r["status"] == "pass" for r in ran),
               sum(r["status"] == "fail" for r in ran),
               len(recs) - len(ran), fmt_time(run["wall"]))]
    if run["wall"] is None:
        out.append("  UNFINISHED (running or stopped): %d of the %d test runs"
                   " chosen have run" % (run["wrapper_lines"], planned))
    try:
        log = open(os.path.join(run["dir"], "runtests.log"),
                   errors="replace").read()
    except OSError:
        log = ""
    # runtests stops early on a stop file or when most tests time out
    out += ["  runtests: " + ln for ln in log.splitlines()
            if ln.startswith("Terminating test")]
    if run["unmatched"]:
        out.append("  (%d mpiexec runs not matched to runtests' results)"
                   % run["unmatched"])
    return out


def fmt_time(s):
    if s is None:
        return "?"
    return "%d s (%dh%02dm)" % (s, s // 3600, s % 3600 // 60)


def write_report(args, tests, base, prof, res, prots):
    L = ["mpiprof on MPICH's test suite (maint/mpich-testsuite.sh)",
         "date: %s" % time.strftime("%Y-%m-%d %H:%M"),
         "profiler: %s" % args.lib,
         "tests: at most %s processes (%s)%s" % (
             tests.get("maxnp"),
             "tests listed for more left out" if tests.get("no_cap") else
             "%d runs of tests listed for more processes run with %s" % (
                 sum("listed_np" in t for t in tests.get("kept", [])),
                 tests.get("maxnp")),
             ", --only %s" % tests["only"] if tests.get("only") else ""), ""]
    planned = len(tests.get("kept", []))
    L += describe_run(base, "without profiler", planned)
    L += describe_run(prof, "with profiler   ", planned)
    L.append("")

    def section(title, items):
        L.append("== %s: %d" % (title, len(items)))
        return items

    for key in section("Regressions (pass without, fail with the profiler)",
                       res["regressions"]):
        p = prof["records"][key]
        r = p["run"]
        how = "not run (%s)" % p["detail"][:100] if not r else \
            "exit status %d, %.1f s%s" % (
                r["rc"], r["seconds"],
                ", TIMED OUT (limit %d s)" % r["limit"]
                if r["timed_out"] else "")
        L.append("* %s: %s; without: %.1f s" % (
            key, how, base["records"][key]["seconds"] or 0))
        for ln in output_of(prof, p).splitlines()[:HEAD_LINES]:
            L.append("    | " + ln[:200])
    L.append("")
    for key, why in section("Failing without the profiler too, on a rerun (not counted)", res.get("flaky", [])):
        L.append("* %s: %s" % (key, why))
    L.append("")
    if prots is not None:
        L.append("== Protocols checked: %d (protocol_check.py: invariants, "
                 "text, schema)" % prots["checked"])
        fails = section("Protocols breaking an invariant", prots["failures"])
        if fails:
            by_test = Counter(k.split(" np=")[0] for k, _, _ in fails)
            L.append("  by test: " + ", ".join(
                "%s (%d)" % kv for kv in sorted(by_test.items())))
        for key, f, msg in fails:
            L.append("* %s (%s):" % (key, f))
            L += ["    " + m for m in msg.splitlines()[:8]]
        L.append("")
        for key, ln in section("Correctness findings (each a real misuse in the test, or a false finding to fix)",
                               prots["findings"]):
            L.append("* %s: %s" % (key, ln))
        L.append("")
        for kind in ("partial", "hang"):
            for key, f in section(
                    {"partial": "Partial protocols", "hang": "Hang dumps"}
                    [kind], prots[kind]):
                L.append("* %s: %s" % (key, f))
        L.append("")
    for key, lines in section("Output of the profiler under MPIPROF_QUIET=1",
                              res["quiet"]):
        L.append("* %s:" % key)
        L += ["    | " + ln[:200] for ln in lines]
    L.append("")
    for key, mode, limit in section("Timeouts", res["timeouts"]):
        L.append("* %s: %s run, limit %d s" % (key, mode, limit))
    L.append("")
    for key, bt, pt in section(
            "Much slower with the profiler (> %gx and > %g s)"
            % (SLOW_RATIO, SLOW_MIN_S), sorted(res["slow"],
                                               key=lambda s: -s[2])):
        L.append("* %s: %.1f s without, %.1f s with (%.0fx)"
                 % (key, bt, pt, pt / max(bt, 0.01)))
    L.append("")
    for key in section("Fail both without and with the profiler (not "
                       "counted against it)", res["both_fail"]):
        first = [ln for ln in output_of(prof, prof["records"][key])
                 .splitlines() if ln.strip()][:1]
        L.append("* %s%s" % (key, ": " + first[0][:150] if first else ""))
    L.append("")
    for key in section("Fail without, pass with the profiler", res["fixed"]):
        L.append("* " + key)
    L.append("")
    # failures of the plain run that the profiled run did not reach
    alone = [k for k, r in (base["records"].items() if base else [])
             if r["status"] == "fail" and k not in
             (prof["records"] if prof else {})]
    for key in section("Fail without the profiler, not run with it", alone):
        first = [ln for ln in output_of(base, base["records"][key])
                 .splitlines() if ln.strip()][:1]
        L.append("* %s%s" % (key, ": " + first[0][:150] if first else ""))
    L.append("")
    skipped = [(k, r["detail"]) for k, r in
               (prof or base or {"records": {}})["records"].items()
               if r["status"] == "skip"]
    for key, why in section("Skipped by runtests", skipped):
        L.append("* %s: %s" % (key, why))
    L.append("")
    L += exclusions(tests)
    return L


def exclusions(tests):
    L = ["== Left out",
         "* configure: spawn/ and the spawn tests of every language "
         "(--disable-spawn): MPI_Comm_spawn fails in the installed MPICH "
         "(ch4:ucx) with 'Error in spawn call' even without the profiler",
         "* configure, MPICH's defaults: large tests, fault tolerance (ft/), "
         "checkpointing, GPU lists (testlist.gpu), xfail tests"]
    by_reason = OrderedDict()
    for t in tests.get("left_out", []):
        reason = t["reason"]
        group = re.sub(r"needs \d+ processes", "needs more processes", reason)
        group = re.sub(r"^(does not build|marked xfail).*", r"\1", group)
        by_reason.setdefault(group, []).append(t)
    for group, ts in by_reason.items():
        L.append("* %s: %d test runs" % (group, len(ts)))
        if group.startswith(("needs more", "not selected", "the same run")):
            continue
        for t in ts:
            L.append("    %s np=%s%s: %s" % (
                t["name"], t["np"],
                "".join(" " + a for a in t["args"]), t["reason"][:160]))
    return L


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--lib", default="?")
    ap.add_argument("--out")
    ap.add_argument("--recheck", type=int, default=5, metavar="N",
                    help="runs without the profiler of each regression (0: none)")
    args = ap.parse_args(argv[1:])
    out = args.out or os.path.join(args.workdir, "report.txt")
    try:
        tests = json.load(open(os.path.join(args.workdir, "tests.json")))
    except (OSError, ValueError):
        tests = {}
    listed = {(t["name"], t["np"], " ".join(t["args"] + t["env"])):
              t["listed_np"] for t in tests.get("kept", []) if "listed_np" in t}
    base = read_run(args.workdir, "baseline", listed)
    prof = read_run(args.workdir, "profiled", listed)
    res = compare(base, prof)
    if args.recheck > 0 and base:
        recheck(args.workdir, tests, base, res, args.recheck)
    prots = check_protocols(prof, args.schema) if prof else None
    lines = write_report(args, tests, base, prof, res, prots)
    bad = bool(res["regressions"] or res["quiet"] or
               (prots and prots["failures"]))
    lines.insert(5, "verdict: %s" % (
        "FAIL (regressions, broken invariants or output under quiet)"
        if bad else "ok"))
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    js = os.path.splitext(out)[0] + ".json"
    with open(js, "w") as f:
        json.dump({"baseline": base and {"wall": base["wall"],
                                         "records": base["records"]},
                   "profiled": prof and {"wall": prof["wall"],
                                         "records": prof["records"]},
                   "comparison": res, "protocols": prots,
                   "left_out": tests.get("left_out", [])}, f, indent=1)
    head = [ln for ln in lines if ln.startswith(("without", "with ", "=="))]
    print("\n".join(head))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
