#!/bin/sh
# windows_bound: Potential sync and Time variation are parts of a
# process's time in an interval, so they never exceed it, whatever the
# other processes' instants and the clocks say (MPICH's coll/oplor and
# coll/opland gave Potential sync of 0.0013 s in a Total time of 0.0006 s:
# the processes returned from MPI_Init a millisecond apart).  Each window
# ends where its interval ended on its process.
#
# windows_bound.c "late": rank 1 leaves its MPI_Reduce and the interval
# "short" while rank 0 still computes 50 ms before it: in both modes (the
# dynamic protocol and mpiprof-analyze's of its trace), every process's
# Potential sync and Time variation in "short" are at most its own
# Execution time there (rank 1's windows of 50 ms cut to its few
# microseconds there), and no Warning: Warnings name only windows cut by
# less than the clock alignment's uncertainty.  windows_bound.c "short" (a few collectives right after
# MPI_Init) run RUNS times (MPIPROF_TEST_WINDOW_RUNS, default 10): every
# protocol within the invariants, per process too.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
runs=${MPIPROF_TEST_WINDOW_RUNS:-10}
case $runs in '' | *[!0-9]*) fail "MPIPROF_TEST_WINDOW_RUNS=$runs: a number of runs is expected" ;; esac
analyze="${top_builddir:?}/tools/mpiprof-analyze"

cd "$tmp"
"$MPICC_PROF" -o windows_bound "$srcdir/windows_bound.c" || fail "compiling windows_bound.c with mpicc-prof"

trace=MPIPROF_TRACE=off
[ -x "$analyze" ] && trace=MPIPROF_TRACE=on
mpirun_2 late.out late.err env $trace MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/late.prof" MPIPROF_FORMAT=both \
    ./windows_bound late
grep -q '^windows_bound: ok$' late.out || fail "late: the program did not finish: $(cat late.out late.err)"
protocols=late.prof
if [ -x "$analyze" ]; then
    env MPIPROF_QUIET=1 "$analyze" -q -f both -o late.trace.prof late.prof.otf2/traces.otf2 2>analyze.err ||
        fail "mpiprof-analyze failed: $(cat analyze.err)"
    protocols="$protocols late.trace.prof"
else
    echo "mpiprof-analyze is not built (no libotf2): the dynamic mode only"
fi
for prot in $protocols; do
    cp "$prot" prot.txt # shown on failure
    "$PYTHON3" - "$prot.json" "$prot" "$schema" "$srcdir/windows_bound.c" <<'PY' || fail "late: $prot (above)"
import sys
import protocol_check as pc
json_path, text_path, schema, source = sys.argv[1:5]
doc = pc.load_checked(json_path, text_path, schema, say=False)
short = pc.find_interval(doc, "short")
main, bp = short["real"]["main"], short["real"]["by_process"]
ranks = bp["ranks"]
for key in ("potential_sync", "time_variation"):
    for i, r in enumerate(ranks):
        v, t = bp[key][i], bp["execution_time"][i]
        assert v <= t + 1e-6, "rank %s: %s %.6f exceeds its execution time %.6f in 'short'" % (r, key, v, t)
    assert main[key] <= main["total_time"] + 1e-6, (key, main[key], main["total_time"])
# the windows of rank 1 were 50 ms long and cut far beyond the clocks'
# uncertainty: no Warning (one names only windows cut within it)
assert not [w for w in pc.warnings(doc) if "reached past the end" in w], pc.warnings(doc)
r1 = ranks.index(1)
assert bp["potential_sync"][r1] < 0.010, "rank 1's Potential sync in 'short': %r" % bp["potential_sync"][r1]
assert pc.find_src(doc, "MPI_Reduce", file="windows_bound.c", line=pc.marker_line(source, "reduce"),
                   interval=short["id"]), pc.describe_srcs(doc, short["id"])
print("%s: Potential sync %.6f, Time variation %.6f in 'short' (Total time %.6f)" % (
    doc["parameters"]["collection_mode"], main["potential_sync"], main["time_variation"], main["total_time"]))
PY
done

for i in $(seq 1 "$runs"); do
    rm -f short.prof short.prof.json
    mpirun_2 short.out short.err env MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/short.prof" MPIPROF_FORMAT=both \
        ./windows_bound short
    grep -q '^windows_bound: ok$' short.out || fail "short, run $i: $(cat short.out short.err)"
    cp short.prof prot.txt
    "$PYTHON3" "$testlib/protocol_check.py" --text short.prof short.prof.json >check.out 2>&1 ||
        fail "short, run $i: $(cat check.out)"
done
echo "short: $runs runs within the invariants"
echo "PASS: windows_bound"
