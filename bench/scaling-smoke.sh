#!/bin/sh
# scaling-smoke.sh: bench/scaling runs at a few sizes with threads, and
# under mpiexec -n 2, and both count the same rounds, messages and bytes
# per step (the simulation is what MPI does).  No timing is checked.  Run by
# make check (bench/local.mk) under tests/mpi/lib/run-mpi-test, which holds the
# one-MPI-job-at-a-time lock.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/..}" && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir}" && pwd)
scaling="$top_builddir/bench/scaling"

[ -x "$scaling" ] || { echo "FAIL: $scaling not built" >&2; exit 1; }

threads=$(mktemp "${TMPDIR:-/tmp}/mpiprof-scaling.XXXXXX")
mpi=$(mktemp "${TMPDIR:-/tmp}/mpiprof-scaling-mpi.XXXXXX")
trap 'rm -f "$threads" "$mpi"' EXIT

"$scaling" --sites 5 --intervals 2 --per-node 4 2 8 64 >"$threads"
${MPIEXEC:-mpiexec} -n 2 "$scaling" --mpi --sites 5 --intervals 2 --per-node 4 >"$mpi"
cat "$threads" "$mpi"

"${PYTHON3:-python3}" - "$threads" "$mpi" <<'PY'
import re, sys
def steps(path):
    out = {}
    for line in open(path):
        if line.startswith(("STEP ", "TOTAL ")):
            kv = dict(f.split("=", 1) for f in line.split()[1:] if "=" in f)
            out[(int(kv["P"]), kv.get("step", "TOTAL"))] = kv
    return out
sim, real = steps(sys.argv[1]), steps(sys.argv[2])
bad = []
for p in (2, 8, 64):
    if (p, "TOTAL") not in sim:
        bad.append("no TOTAL line for P=%d" % p)
    elif int(sim[(p, "TOTAL")]["protocol_bytes"]) <= 0:
        bad.append("P=%d: no protocol written" % p)
names = [s for (p, s) in sim if p == 2]
if len(names) < 13:
    bad.append("P=2: %d steps, expected 13 and the total" % len(names))
for s in names:
    for k in ("rounds", "messages", "bytes"):
        a, b = sim.get((2, s), {}).get(k), real.get((2, s), {}).get(k)
        if a != b:
            bad.append("P=2 %s %s: threads %s, mpiexec %s" % (s, k, a, b))
# rounds of the clock alignment grow with log2 P: 1, 3 and 6 levels of the tree
ca = [float(sim[(p, "init:clock_alignment")]["rounds"]) for p in (2, 8, 64)]
if not ca[0] < ca[1] < ca[2] or ca[2] > 6 * ca[0] + 1:
    bad.append("clock alignment rounds %s do not grow as log2 P" % ca)
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "PASS: bench/scaling"
