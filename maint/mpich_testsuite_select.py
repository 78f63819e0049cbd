#!/usr/bin/env python3
"""Choose the tests of MPICH's test/mpi that maint/mpich-testsuite.sh runs.

Walks the testlists the way MPICH's runtests does (testlist, testlist.dtp,
testlist.cvar of every directory, configured copy in the build tree first,
then the source tree), keeps the tests that can run here and writes, in every
build directory that has some, a `testlist.mpiprof` that runtests is pointed
at (-tests=testlist.mpiprof).  MPICH's own lists are not touched, so a plain
`make testing` in the build tree still runs the whole suite.

Usage: mpich_testsuite_select.py --build DIR --srcdir DIR --out TESTS.json
                                 [--maxnp 2] [--no-cap] [--only REGEX] [--make]

A test listed for more than maxnp processes runs with maxnp (what runtests
-maxnp does: most such tests adapt to the size they get), once when several
lines then ask for the same run; with --no-cap it is left out.

--make builds the programs of the chosen tests that are not built yet (one
`make -k` per directory) and leaves out those that still do not build.
TESTS.json lists the tests kept and the ones left out, each with the reason.
"""

import argparse
import json
import os
import re
import subprocess
import sys

# The lists MPICH's `make testing` runs (Makefile_common.mtest, no GPU).
LISTS = ("testlist", "testlist.dtp", "testlist.cvar")
OUR_LIST = "testlist.mpiprof"
# Keys runtests reads; lock= and mem= take locks in /tmp/runtests-*.lock,
# pointless when one test runs at a time, so they are dropped.
DROPPED_KEYS = ("lock", "mem")


def list_source(build, srcdir, rel, name):
    """The file runtests would read for list NAME in directory REL."""
    here = os.path.join(build, rel, name)
    if os.path.isfile(here) and os.path.getsize(here) > 0:
        return here
    there = os.path.join(srcdir, rel, name)
    if os.path.isfile(there) and os.path.getsize(there) > 0:
        return there
    return None


def parse_entry(line):
    """(program, np, [key=value...]) of one list line, None if empty."""
    line = re.sub(r"#.*", "", line).strip()
    if not line:
        return None
    words = line.split()
    np_ = words[1] if len(words) > 1 else "2"   # runtests' np_default
    return words[0], np_, words[2:]


def walk(build, srcdir, rel, opts, kept, left_out, depth=0):
    """Fills kept/left_out for directory REL; writes its testlist.mpiprof.
    Returns how many tests it and its subdirectories keep."""
    out_lines, count = [], 0
    for name in LISTS:
        path = list_source(build, srcdir, rel, name)
        if path is None:
            continue
        with open(path, errors="replace") as f:
            lines = f.readlines()
        for raw in lines:
            stripped = re.sub(r"#.*", "", raw).strip()
            if stripped.startswith("!"):
                # "!dir:target": a support target built before the tests
                out_lines.append(stripped)
                continue
            entry = parse_entry(raw)
            if entry is None:
                continue
            prog, np_, keys = entry
            sub = os.path.join(rel, prog) if rel != "." else prog
            if os.path.isdir(os.path.join(build, sub)):
                if depth < 10 and walk(build, srcdir, sub, opts, kept,
                                       left_out, depth + 1):
                    out_lines.append(prog)
                    count += 1
                continue
            test = describe(rel, prog, np_, keys, name)
            reason = exclusion(test, keys, opts)
            if not reason and int(np_) > opts.maxnp:
                # as runtests -maxnp does: the run gets maxnp processes
                test["listed_np"], test["np"] = np_, str(opts.maxnp)
                np_ = test["np"]
            same = (test["name"], np_, tuple(keys))
            if not reason and same in opts.seen:
                reason = "the same run as another (after capping to %d " \
                    "processes)" % opts.maxnp
            opts.seen.add(same)
            if reason:
                test["reason"] = reason
                left_out.append(test)
                continue
            kept.append(test)
            count += 1
            keys = [k for k in keys
                    if k.split("=", 1)[0] not in DROPPED_KEYS + ("mpix",)]
            out_lines.append(" ".join([prog, np_] + keys))
    target = os.path.join(build, rel, OUR_LIST)
    if count:
        with open(target, "w") as f:
            f.write("# written by mpiprof's maint/mpich_testsuite_select.py\n")
            f.write("\n".join(out_lines) + "\n")
    elif os.path.exists(target):
        os.unlink(target)
    return count


def describe(rel, prog, np_, keys, listname):
    d = rel[2:] if rel.startswith("./") else rel
    test = {"dir": d, "program": prog, "np": np_, "list": listname,
            "args": [k[4:] for k in keys if k.startswith("arg=")],
            "env": [k[4:] for k in keys if k.startswith("env=")]}
    test["name"] = prog if d == "." else d + "/" + prog
    return test


def exclusion(test, keys, opts):
    """Why TEST is not run, or None."""
    if opts.only and not re.search(opts.only, test["name"]):
        return "not selected by --only"
    if not test["np"].isdigit():
        return "process count '%s' unreadable" % test["np"]
    if int(test["np"]) > opts.maxnp and opts.no_cap:
        return "needs %s processes (only runs of 1..%d processes here)" % (
            test["np"], opts.maxnp)
    for k in keys:
        if k.startswith("xfail="):
            # runtests skips these too unless MPICH is configured
            # --enable-xfail: MPICH knows they fail
            return "marked xfail by MPICH: " + k[6:]
    return None


def build_missing(build, kept, left_out, jobs):
    """make -k the programs not built yet, per directory; drop failures."""
    missing = {}
    for t in kept:
        exe = os.path.join(build, t["dir"], t["program"])
        if not os.access(exe, os.X_OK):
            missing.setdefault(os.path.dirname(exe), set()).add(
                os.path.basename(exe))
    logs = {}
    for d, progs in sorted(missing.items()):
        sys.stderr.write("building %d program(s) in %s\n" % (len(progs), d))
        p = subprocess.run(["make", "-k", "-j%d" % jobs] + sorted(progs),
                           cwd=d, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True,
                           errors="replace")
        logs[d] = p.stdout
    still = []
    for t in kept:
        exe = os.path.join(build, t["dir"], t["program"])
        if os.access(exe, os.X_OK):
            still.append(t)
            continue
        log = logs.get(os.path.dirname(exe), "")
        errs = [ln.strip() for ln in log.splitlines()
                if "error" in ln.lower() and os.path.basename(exe) in ln]
        errs = errs or [ln.strip() for ln in log.splitlines()
                        if "error:" in ln.lower()]
        t["reason"] = "does not build against the installed MPI" + (
            ": " + errs[0][:200] if errs else "")
        left_out.append(t)
    return still


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--srcdir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--maxnp", type=int, default=2)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-cap", action="store_true",
                    help="leave out tests of more than maxnp processes "
                    "instead of running them with maxnp")
    ap.add_argument("--make", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    opts = ap.parse_args(argv[1:])
    build = os.path.abspath(opts.build)
    srcdir = os.path.abspath(opts.srcdir)
    opts.seen = set()

    kept, left_out = [], []
    walk(build, srcdir, ".", opts, kept, left_out)
    if opts.make and kept:
        before = len(kept)
        kept = build_missing(build, kept, left_out, opts.jobs)
        if len(kept) != before:
            # rewrite the lists without the programs that did not build
            broken = {(t["dir"], t["program"]) for t in left_out
                      if t["reason"].startswith("does not build")}
            prune_lists(build, broken)
    with open(opts.out, "w") as f:
        json.dump({"maxnp": opts.maxnp, "no_cap": opts.no_cap,
                   "only": opts.only, "kept": kept,
                   "left_out": left_out}, f, indent=1)
    print("%d test runs chosen (%d of them listed for more than %d "
          "processes), %d left out (%s)"
          % (len(kept), sum("listed_np" in t for t in kept), opts.maxnp,
             len(left_out), opts.out))
    return 0 if kept else 1


def prune_lists(build, broken):
    """Removes BROKEN (dir, program) from the testlist.mpiprof files, and a
    directory entry whose list became empty."""
    def prune(rel):
        path = os.path.join(build, rel, OUR_LIST)
        if not os.path.exists(path):
            return 0
        d = rel[2:] if rel.startswith("./") else rel
        out, count = [], 0
        with open(path) as f:
            lines = f.read().splitlines()
        for ln in lines:
            if ln.startswith("#") or ln.startswith("!"):
                out.append(ln)
                continue
            prog = ln.split()[0]
            sub = os.path.join(rel, prog)
            if os.path.isdir(os.path.join(build, sub)):
                if prune(sub):
                    out.append(ln)
                    count += 1
            elif (d, prog) not in broken:
                out.append(ln)
                count += 1
        if count:
            with open(path, "w") as f:
                f.write("\n".join(out) + "\n")
        else:
            os.unlink(path)
        return count
    prune(".")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
