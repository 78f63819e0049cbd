"""mpiprof-compare across an edit and across process counts, for
test_compare_n.sh.

usage: check_compare_n.py MPIPROF-COMPARE DIR

DIR holds before.prof.json and after.prof.json, two runs of intervals.c,
the second built from a copy with three lines added at its top; and
jacobi1.prof.json, jacobi2.prof.json, jacobi4.prof.json, jacobi at 1, 2
and 4 processes (copies of jacobi2's with a known law are written to DIR).
"""
import json
import math
import os
import re
import sys

import compare_session

session = compare_session.Session(sys.argv[1], sys.argv[2])
run, check, load, save = session.run, session.check, session.load, session.save
DIR = session.dir


# ---- an edit: three lines above every call ----
before, after = load("before.prof.json"), load("after.prof.json")
nint = len(before["intervals"])
nsrc = sum(len(i["src"]) for i in before["intervals"])
check(nint == len(after["intervals"]) and nint >= 5, "both runs have the %d intervals of intervals.c" % nint)
loose = ("--rtol", "0.5", "--atol", "0.1")
p = run("--json", *loose, "before.prof.json", "after.prof.json")
try:
    doc = json.loads(p.stdout)
except ValueError:
    doc = None
check(doc is not None, "--json gives JSON", p)
if doc is not None:
    only = [d for d in doc["differences"] if "only in" in d["message"]]
    check(not only, "no interval or SRC point in one protocol only: %s" % [d["message"] for d in only[:5]], p)
    check(len(doc["summary"]["intervals"]) == nint, "all %d intervals matched" % nint, p)
    moved = [d for d in doc["differences"] if d["kind"] == "moved"]
    moved_src = [d for d in moved if d.get("src")]
    moved_int = [d for d in moved if not d.get("src")]
    check(len(moved_int) == nint and len(moved_src) == nsrc,
          "every interval (%d) and every SRC point (%d) said moved: %d and %d" %
          (nint, nsrc, len(moved_int), len(moved_src)), p)
    # each with its old and new line, three apart
    bad = []
    for d in moved:
        pairs = re.findall(r"intervals\.c:(\d+) -> intervals\.c:(\d+)", d["message"])
        if not pairs or any(int(b) != int(a) + 3 for a, b in pairs):
            bad.append(d["message"])
    check(not bad, "each moved one says its old line and its new one, 3 lower: %s" % bad[:3], p)
    check(doc["counts"]["moved"] == nint + nsrc and doc["equal"] is True and p.returncode == 0,
          "moved is no difference: equal within the loose tolerance, exit 0", p)
p = run(*loose, "before.prof.json", "after.prof.json")
check(p.returncode == 0 and "Moved in the source" in p.stdout and "equal within the tolerance" in p.stdout and
      'interval 0 "whole program"' in p.stdout,
      "the text says what moved and that the runs are equal", p)
check(p.stdout.startswith("mpiprof-compare: ./intervals: P = 2 (%s), P = 2 (%s)" %
                          (before["parameters"]["started"], after["parameters"]["started"])),
      "the title names the program, P and the dates", p)

# ---- P = 1, 2, 4: the scaling study ----
runs = {n: load("jacobi%d.prof.json" % n) for n in (1, 2, 4)}
p = run("jacobi1.prof.json", "jacobi2.prof.json", "jacobi4.prof.json")
check(p.returncode == 1 and "Scaling study of interval 0" in p.stdout and "P = 1, 2, 4" in p.stdout,
      "three runs: the scaling study (exit 1: they differ)", p)
t1 = runs[1]["intervals"][0]["real"]["main"]["execution_time"]
for n, d in runs.items():
    m = d["intervals"][0]["real"]["main"]
    t = m["execution_time"]
    row = re.compile(r"^\s+%d\s+%.6f\s+%.3f\s+%.3f\s+%.4f\s+%.6f\s+%.6f\s+jacobi%d\.prof\.json$" %
                     (n, t, t1 / t, t1 / t / n, m["parallelization_efficiency"], m["lost_time"], m["lost_time"] / n, n),
                     re.M)
    check(row.search(p.stdout) is not None,
          "the row of P = %d: execution time %.6f, speedup %.3f, scaling efficiency %.3f, K_eff, Lost time" %
          (n, t, t1 / t, t1 / t / n), p)
check("Scaling models (FITTED, not measured" in p.stdout and re.search(r"^  Execution time .* fit at P = 8: ", p.stdout,
                                                                         re.M) is not None,
      "the execution time's model, marked as a fit, with its prediction at P = 8 and 16", p)
check("Part of Lost time that grew fastest: " in p.stdout, "the part of Lost time that grew fastest is named", p)
check(p.stdout.count("==== A against ") == 2, "each run compared with the first", p)
p = run("--json", "jacobi4.prof.json", "jacobi1.prof.json", "jacobi2.prof.json")
try:
    doc = json.loads(p.stdout)
except ValueError:
    doc = None
check(doc is not None and len(doc["comparisons"]) == 2, "--json of three: two comparisons", p)
if doc is not None:
    s = doc["scaling"]
    check([r["processes"] for r in s["rows"]] == [1, 2, 4], "the study is by P whatever the order given", p)
    for r in s["rows"]:
        n = int(r["processes"])
        want = runs[n]["intervals"][0]["real"]["main"]["execution_time"]
        check(abs(r["execution_time"] - want) <= 1e-9 * want, "P = %d: execution time of the JSON" % n, p)
    fit = [f for f in s["fits"] if f["name"] == "execution_time"][0]["fit"]
    check([q["processes"] for q in fit["predictions"]] == [8, 16], "predictions at 2x and 4x the largest P", p)

# ---- a known law: jacobi's protocol made into runs at P = 2 ... 64 whose
# execution time is 0.3 + 0.02 P^(1/2) log2(P) and Collective 0.001 P^2:
# the fits give the laws back within 5%, their predictions marked as fits
base = runs[2]
names = []
for n in (2, 4, 8, 16, 32, 64):
    d = json.loads(json.dumps(base))
    d["parameters"]["processes"] = n
    m = d["intervals"][0]["real"]["main"]
    m["processors"] = n
    m["execution_time"] = 0.3 + 0.02 * n ** 0.5 * math.log2(n)
    m["collective"] = 0.001 * n ** 2
    names.append("law%d.json" % n)
    with open(os.path.join(DIR, names[-1]), "w") as f:
        json.dump(d, f)
p = run("--json", *reversed(names))
try:
    fits = {f["name"]: f.get("fit") for f in json.loads(p.stdout)["scaling"]["fits"]}
except (ValueError, KeyError):
    fits = {}
for name, a, b, i, j in (("execution_time", 0.3, 0.02, 0.5, 1), ("collective", 0, 0.001, 2, 0)):
    f = fits.get(name)
    ok = f is not None and f["p_exponent"] == i and f["log_exponent"] == j and \
        abs(f["a"] - a) <= 0.05 * max(a, 1e-9) + 1e-12 and abs(f["b"] - b) <= 0.05 * b
    check(ok, "the law of %s, %g + %g P^%g log2(P)^%d, given back within 5%%: %s" % (name, a, b, i, j, f), p)
p = run(*names)
check(re.search(r"^  Execution time +0\.3 \+ 0\.02 \* P\^\(1/2\) \* log2\(P\) \(error 0\.00%", p.stdout, re.M) is not None,
      "the text prints the model of the execution time", p)

session.finish("mpiprof-compare N-run")
