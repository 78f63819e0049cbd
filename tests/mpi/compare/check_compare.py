"""mpiprof-compare on real protocols, for test_compare.sh.

usage: check_compare.py MPIPROF-COMPARE DIR

DIR holds run1.prof (+ .json) and run2.prof.json, two runs of intervals.c
on 2 processes, and jacobi1.prof.json / jacobi2.prof.json, jacobi on 1 and
2 processes.  Each check runs the tool and says what it expected; edited
copies of run1.prof.json are written to DIR.
"""
import copy
import json
import os
import sys

import compare_session
import protocol_check as pc

session = compare_session.Session(sys.argv[1], sys.argv[2])
run, check, load, save = session.run, session.check, session.load, session.save
DIR = session.dir


def interval(doc, name):
    return pc.find_interval(doc, name)


def src(doc, name, function):
    """The one SRC point of function in the interval named name."""
    found = pc.find_src(doc, function, interval=interval(doc, name)["id"])
    if len(found) != 1:
        pc.fail("%d SRC points of %s in %r, expected 1" % (len(found), function, name))
    return found[0]


def differences(*args):
    """The tool's --json answer and the CompletedProcess."""
    p = run("--json", *args)
    try:
        return json.loads(p.stdout), p
    except ValueError:
        return None, p


def one_difference(name, edited, expect_lines, expect_kind, extra=()):
    """A against its copy edited in one place: exit 1, each expected text
    on a line of the text output, and in --json exactly the differences
    expected (len(expect_lines)) of the kind expected."""
    p = run(*extra, "run1.prof.json", edited)
    lines = p.stdout.splitlines()
    ok = p.returncode == 1 and all(any(all(t in line for t in texts) for line in lines) for texts in expect_lines)
    check(ok, "%s: exit 1 and a line with each of %s" % (name, expect_lines), p)
    doc, pj = differences(*extra, "run1.prof.json", edited)
    ok = doc is not None and pj.returncode == 1 and len(doc["differences"]) == len(expect_lines) and \
        all(d["kind"] == expect_kind for d in doc["differences"]) and doc["equal"] is False
    check(ok, "%s: --json lists exactly %d difference(s) of kind %s" % (name, len(expect_lines), expect_kind), pj)


base = load("run1.prof.json")

# ---- two runs of one program: equal within a loose tolerance ----
p = run("--rtol", "0.5", "--atol", "0.1", "run1.prof", "run2.prof.json")
check(p.returncode == 0 and "equal within the tolerance" in p.stdout,
      "two runs of intervals.c: structurally equal, times within 50% + 0.1 s (exit 0)", p)
check("the JSON sibling of the text protocol run1.prof" in p.stdout,
      "a text protocol is read through its JSON sibling, and the output says so", p)
check("speedup" in p.stdout and '"exchange"' in p.stdout, "the change from A to B is printed for each interval", p)
p = run("run1.prof.json", save(copy.deepcopy(base), "same.json"))
check(p.returncode == 0 and "Differences" not in p.stdout, "a protocol against its own copy: equal (exit 0)", p)

# ---- edited copies: each one difference, the right message ----
reduce_src = src(base, "final", "MPI_Reduce")
doc = copy.deepcopy(base)
interval(doc, "final")["src"] = [s for s in interval(doc, "final")["src"] if s["function"] != "MPI_Reduce"]
frame = reduce_src["stack"][0]["text"]
one_difference("an SRC point removed", save(doc, "no_reduce.json"),
               [['"final"', "SRC MPI_Reduce at " + frame, "SRC point only in A"]], "structure")

doc = copy.deepcopy(base)
allreduce = src(doc, "exchange", "MPI_Allreduce")
calls = allreduce["calls"]
allreduce["calls"] = calls + 1
one_difference("a call count changed", save(doc, "calls.json"),
               [['"exchange"', "SRC MPI_Allreduce", "calls: %d in A, %d in B" % (calls, calls + 1)]], "structure")

doc = copy.deepcopy(base)
interval(doc, "update")["name"] = "updated"
one_difference("an interval renamed", save(doc, "renamed.json"),
               [['"update"', "interval only in A"], ['"updated"', "interval only in B"]], "structure")

doc = copy.deepcopy(base)
loop_main = interval(doc, "loop")["real"]["main"]
loop_main["execution_time"] *= 1.5
one_difference("a time changed beyond the tolerance", save(doc, "slower.json"),
               [['"loop"', "real.main.execution_time:", "differs by"]], "number")
# at the edge of the default tolerance, |a - b| > 0.002 + 0.01 max(|a|, |b|)
t = base["intervals"][0]["real"]["main"]["execution_time"]
for factor, rc, verdict in ((0.9, 0, "equal"), (1.1, 1, "different")):
    doc = copy.deepcopy(base)
    b = (t + factor * 0.002) / (1 - factor * 0.01)  # |b - t| = factor x (0.002 + 0.01 b)
    doc["intervals"][0]["real"]["main"]["execution_time"] = b
    p = run("run1.prof.json", save(doc, "edge%d.json" % rc))
    check(p.returncode == rc, "execution time %.6f against %.6f, %.1f x the default tolerance: %s" %
          (b, t, factor, verdict), p)
p = run("--rtol", "0", "--atol", "0", "run1.prof.json", "edge0.json")
check(p.returncode == 1 and "real.main.execution_time" in p.stdout,
      "the same within the tolerance with --rtol 0 --atol 0: different", p)

# two SRC points of one function in one interval (jacobi's two MPI_Sendrecv):
# one frame's line changed leaves both matched (by function and frames'
# functions, the lines breaking the tie), the one said moved
j2 = load("jacobi2.prof.json")
doc = copy.deepcopy(j2)
sendrecvs = [s for s in doc["intervals"][0]["src"] if s["function"] == "MPI_Sendrecv"]
check(len(sendrecvs) == 2, "jacobi has two SRC points of MPI_Sendrecv in interval 0")
if sendrecvs:
    moved = sendrecvs[-1]["stack"][0]
    old_text, old_line = moved["text"], moved["line"]
    moved["line"] += 1000
    moved["text"] = "%s:%d (%s)" % (moved["file"], moved["line"], moved["function"])
    p = run("jacobi2.prof.json", save(doc, "moved.json"))
    lines = p.stdout.splitlines()
    said = "moved: #0 %s:%d -> %s:%d" % (moved["file"], old_line, moved["file"], moved["line"])
    ok = p.returncode == 0 and "only in" not in p.stdout and \
        any("SRC MPI_Sendrecv at " + old_text in x and said in x for x in lines)
    check(ok, "an SRC point's frame moved: matched, said moved (%s), no difference" % said, p)
    p = run("--ignore", "line", "jacobi2.prof.json", "moved.json")
    check(p.returncode == 0 and "Moved" not in p.stdout, "the same with --ignore line: equal, nothing said moved", p)

# ---- --ignore NAME: that name, nothing wider ----
doc = copy.deepcopy(base)
doc["parameters"]["collection_mode"] = "trace"
one_difference("collection mode changed", save(doc, "trace_mode.json"),
               [["parameters.collection_mode", '"dynamic" in A, "trace" in B']], "parameter")
p = run("--ignore", "collection_mode", "run1.prof.json", "trace_mode.json")
check(p.returncode == 0, "--ignore collection_mode: equal", p)
p = run("--ignore", "execution_time", "run1.prof.json", "slower.json")
check(p.returncode == 0, "--ignore execution_time: the slower copy is equal", p)
p = run("--ignore", "Execution time", "run1.prof.json", "slower.json")
check(p.returncode == 0, "--ignore 'Execution time' (the text label): the same", p)
p = run("--ignore", "execution_time", "run1.prof.json", "calls.json")
check(p.returncode == 1 and "calls:" in p.stdout, "--ignore execution_time leaves the changed call count found", p)
p = run("--ignore", "collection_mode", "run1.prof.json", "slower.json")
check(p.returncode == 1 and "real.main.execution_time" in p.stdout,
      "--ignore collection_mode leaves the slower time found", p)

# ---- bad input: exit 2, one line on stderr, nothing on stdout ----
with open(os.path.join(DIR, "hello.txt"), "w") as f:
    f.write("hello\n")
with open(os.path.join(DIR, "other.json"), "w") as f:
    f.write('{"a": 1}\n')
with open(os.path.join(DIR, "run1.prof.json")) as f:
    text = f.read()
with open(os.path.join(DIR, "truncated.json"), "w") as f:
    f.write(text[: len(text) // 2])
with open(os.path.join(DIR, "run1.prof")) as f:
    text = f.read()
with open(os.path.join(DIR, "lonely.prof"), "w") as f:
    f.write(text)
bad = [
    (["run1.prof.json", "missing.json"], ["missing.json", "No such file"]),
    (["hello.txt", "run1.prof.json"], ["hello.txt", "not a protocol"]),
    (["run1.prof.json", "other.json"], ["other.json", "not a valid mpiprof protocol", "format"]),
    (["run1.prof.json", "truncated.json"], ["truncated.json", "not valid JSON", "cut short"]),
    (["lonely.prof", "run1.prof.json"], ["lonely.prof", "a text protocol", "lonely.prof.json"]),
    (["--ignore", "real_synk", "run1.prof.json", "run2.prof.json"], ["real_synk", "neither protocol"]),
    (["--ignore", "function", "run1.prof.json", "run2.prof.json"], ["function", "cannot be ignored"]),
    (["--rtol", "-1", "run1.prof.json", "run2.prof.json"], ["--rtol -1", "not a number >= 0"]),
    (["--include", "processes", "run1.prof.json", "run2.prof.json"], ["processes", "--include takes one of"]),
]
for args, texts in bad:
    p = run(*args)
    err = p.stderr.strip().splitlines()
    ok = p.returncode == 2 and len(err) == 1 and not p.stdout and all(t in err[0] for t in texts)
    check(ok, "bad input %s: exit 2, one line on stderr with %s" % (" ".join(args), texts), p)
p = run("run1.prof.json")
check(p.returncode == 2 and "two or more are compared" in p.stderr, "one protocol alone: exit 2", p)

# ---- two process counts: speedup, scaling efficiency, Lost time ----
j1 = load("jacobi1.prof.json")
p = run("jacobi1.prof.json", "jacobi2.prof.json")
ok = p.returncode == 1 and "speedup" in p.stdout and "scaling efficiency" in p.stdout and \
    "Lost time" in p.stdout and "parameters.processes: 1 in A, 2 in B" in p.stdout and \
    "Per-process values not compared" in p.stdout
check(ok, "jacobi at 1 and 2 processes: different, with speedup, scaling efficiency and Lost time", p)
doc, p = differences("jacobi1.prof.json", "jacobi2.prof.json")
if doc is None or not doc["summary"]["intervals"]:
    check(False, "--json output of jacobi at 1 and 2 processes is JSON with interval 0 in its summary", p)
else:
    whole = doc["summary"]["intervals"][0]
    ta = j1["intervals"][0]["real"]["main"]["execution_time"]
    tb = j2["intervals"][0]["real"]["main"]["execution_time"]
    check(abs(whole["speedup"] - ta / tb) <= 1e-9 * ta / tb,
          "speedup %.6f = execution time A / B = %.6f / %.6f" % (whole["speedup"], ta, tb), p)
    check(abs(whole["scaling_efficiency"] - ta / tb / 2) <= 1e-9,
          "scaling efficiency = speedup x 1 / 2", p)
    comps = {c["name"]: c for c in whole["components"]}
    ca = j1["intervals"][0]["real"]["main"]["communication"]
    cb = j2["intervals"][0]["real"]["main"]["communication"]
    check(abs(comps["communication"]["change"] - (cb - ca)) <= 1e-9 and
          comps["communication"]["trend"] in ("grew", "shrank", "unchanged"),
          "the change of Communication is B - A (%.6f)" % (cb - ca), p)
    check(doc["by_process_compared"] is False, "per-process values are not compared across process counts", p)

session.finish("mpiprof-compare")
