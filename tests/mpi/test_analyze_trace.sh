#!/bin/sh
# analyze_trace: a run with MPIPROF_TRACE=on writes its dynamic protocol and
# its trace; mpiprof-analyze of the trace gives a protocol structurally
# identical to it (the same intervals and SRC points, calls and bytes) and
# numerically equal within 1% or 2 ms (check_analyze_trace.py; what differs
# by design is named there).  Programs: trace.c (point-to-point, requests,
# collectives on two communicators, two intervals, replicated code), a late
# sender (waitstates_late_sender.c) and load imbalance (load_imbalance.c).
set -eu
# shellcheck source=common.sh
. "${top_srcdir:?run through tests/mpi/run-mpi-test}/tests/mpi/common.sh"
need_var MPICC_PROF
analyze="${top_builddir:?}/tools/mpiprof-analyze"
[ -x "$analyze" ] || skip "mpiprof-analyze is not built (configure found no libotf2: install libotf2-trace-dev)"

cd "$tmp"
for program in trace waitstates_late_sender load_imbalance; do
    "$MPICC_PROF" -o "$program" "$srcdir/$program.c" || fail "compiling $program.c with mpicc-prof"
    mpirun_2 "$program.out" "$program.err" env MPIPROF_TRACE=on MPIPROF_QUIET=1 \
        MPIPROF_OUTPUT="$tmp/$program.prof" MPIPROF_FORMAT=both "./$program"
    [ -f "$program.prof.otf2/traces.otf2" ] || fail "$program: no trace written: $(ls)"
    "$analyze" -q -f both -o "$program.trace.prof" "$program.prof.otf2/traces.otf2" 2>"$program.analyze.err" ||
        fail "$program: mpiprof-analyze failed: $(cat "$program.analyze.err")"
    cp "$program.trace.prof" prot.txt # shown on failure
    "$PYTHON3" "$srcdir/check_analyze_trace.py" "$program.prof.json" "$program.trace.prof.json" \
        "$top_srcdir/schema/mpiprof-protocol.schema.json" || fail "$program: the two protocols differ (see above)"
done
echo "PASS: analyze_trace"
