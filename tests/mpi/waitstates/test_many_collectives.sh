#!/bin/sh
# many_collectives: 10^5 short collectives (MPI_Ibarrier and MPI_Wait on 2
# processes, one process holding each instance some 20 us:
# many_collectives.c) have the Potential sync and Time variation the
# program's own instants give, within 1% (or 0.7 us an instance, below), in the dynamic protocol and in the
# trace analyzer's of the same run, and mpiprof-compare finds the two equal
# with only the names that differ by design ignored.  (Waits this short are
# where a threshold of the clock alignment, or an attribution the modes do
# not share, would show.)
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_analyzer

ignore=$(ignore_options "$analyze_by_design")
cd "$tmp"
"$MPICC_PROF" -g -o many_collectives "$srcdir/many_collectives.c" || fail "compiling many_collectives.c with mpicc-prof"
mpirun_2 out err env MPIPROF_TRACE=on MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    ./many_collectives 100000
grep -q '^many_collectives: ok$' out || fail "the program did not finish: $(cat out err)"
known=$(grep '^known ' out) || fail "the program printed no known answer: $(cat out)"
check_text_protocol prot.txt
env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_FORMAT=both "$analyze" -q -f both -o trace.txt \
    prot.txt.otf2/traces.otf2 2>analyze.err || fail "mpiprof-analyze failed: $(cat analyze.err)"
for p in prot.txt trace.txt; do
    "$PYTHON3" - "$p.json" "$known" <<'PY' || fail "$p: the wait states of 10^5 collectives (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
known = dict(kv.split("=") for kv in sys.argv[2].split()[1:])
main = doc["intervals"][0]["real"]["main"]
# The program reads its instants outside the MPI call, the profiler inside:
# the work a wrapper does after its clock read (the trace's events, the
# batches) lies between them, and differs between the processes by up to
# about 0.7 us per instance on this machine (the two modes agree exactly).
SLACK = 0.7e-6
for key in ("potential_sync", "time_variation"):
    want, got = float(known[key]), main.get(key)
    tol = max(0.01 * want, SLACK * int(known["rounds"]))
    if got is None or abs(got - want) > tol:
        sys.exit("%s: %s = %r, the program's instants give %.6f (%s rounds): not within 1%% or %g s"
                 % (sys.argv[1], key, got, want, known["rounds"], tol))
    print("%s: %s %.6f s, the program's instants %.6f s (%+.2f%%)"
          % (sys.argv[1], key, got, want, 100 * (got - want) / want))
PY
done
# shellcheck disable=SC2086  # a list of words
"$compare" --brief $ignore prot.txt.json trace.txt.json >compare.out 2>&1 || {
    cat compare.out >&2
    fail "mpiprof-compare finds the dynamic protocol and the trace's different (above)"
}
tail -n 1 compare.out
echo "PASS: many_collectives"
