#!/bin/sh
# analyze_scorep: traces in Score-P's shape (python3-otf2, no mpiprof
# attribute; scorep_trace.py) of a late sender, collective skew and load
# imbalance are analysed into protocols with the right SRC points by
# function and exactly the right wait states (check_analyze.py); a trace in
# mpiprof's shape (its call-site attribute, intervals and replicated code as
# user regions) into its SRC points by call site and its intervals; the late
# sender again with one clock 5 ms ahead and drifting, and the ClockOffset
# definitions that correct it, into the same answers.  No MPI run.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_analyze.sh
. "$top_srcdir/tests/analyze/common_analyze.sh"
cd "$tmp"
for scenario in late_sender collective_skew imbalance intervals_sites skewed; do
    scorep_trace "$scenario" "$scenario"
    "$analyze" -f both -o "$scenario.prof" "$scenario/traces.otf2" >out.txt 2>err.txt ||
        { cat out.txt err.txt >&2; fail "mpiprof-analyze of $scenario did not exit 0"; }
    [ ! -s err.txt ] || { cat err.txt >&2; fail "mpiprof-analyze of $scenario wrote on stderr"; }
    cp "$scenario.prof" prot.txt # shown on failure
    "$PYTHON3" "$top_srcdir/tests/analyze/check_analyze.py" "$scenario" "$scenario.prof.json" "$scenario.prof" \
        "$top_srcdir/schema/mpiprof-protocol.schema.json" || fail "protocol of $scenario (see above)"
done
echo "PASS: analyze_scorep"
