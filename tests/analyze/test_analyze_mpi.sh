#!/bin/sh
# analyze_mpi: the analyzer gives the same protocol alone and under mpiexec
# (mpiprof-analyze(1), MPI): mpiprof's own archive of a traced run of
# tests/mpi/trace/trace.c (2 processes: point-to-point, requests, collectives on
# two communicators, intervals, replicated code), a Score-P-shaped late
# sender (2 processes) and a ring of late senders with collectives on the
# world and on two sub-communicators (4 processes, ring_trace.py) are
# analysed alone, under mpiexec -n 2 and (the Score-P-shaped ones) -n 3
# (more processes than traced for the late sender, oversubscribed: 2
# cores; shares of 1, 1 and 2 processes for the ring), and every protocol
# under mpiexec is identical to the one alone (mpiprof-compare at a
# tolerance of 1e-9; the Trace parameter, which names the number of the
# analyzer's processes, aside).  The ring's shares pair sends and receives
# of other shares, and its collectives have members in several shares.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_analyze.sh
. "$top_srcdir/tests/analyze/common_analyze.sh"
need_var MPICC_PROF
compare="$top_builddir/tools/mpiprof-compare"
cd "$tmp"

"$MPICC_PROF" -o trace "$top_srcdir/tests/mpi/trace/trace.c" || fail "compiling trace.c with mpicc-prof"
mpirun_2 trace.out trace.err env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/trace.prof" ./trace
[ -f trace.prof.otf2/traces.otf2 ] || fail "trace.c: no trace written: $(ls)"
scorep_trace late_sender late_sender
"$OTF2_PYTHON" "$top_srcdir/tests/analyze/ring_trace.py" ring || fail "ring_trace.py did not write its trace"

# analyzed ARCHIVE NAME [N]: the protocol NAME.prof(.json) of ARCHIVE, alone
# or by N processes.
analyzed() {
    if [ $# -eq 2 ]; then
        set -- "$1" "$2" "" "$analyze"
    else
        set -- "$1" "$2" "$3" "$MPIEXEC" -n "$3" "$analyze"
    fi
    _archive=$1 _name=$2 _n=$3
    shift 3
    "$@" -q -f both -o "$_name.prof" "$_archive" >"$_name.out" 2>"$_name.err" ||
        { cat "$_name.out" "$_name.err" >&2; fail "mpiprof-analyze of $_archive${_n:+ by $_n processes} did not exit 0"; }
    if [ -s "$_name.out" ] || [ -s "$_name.err" ]; then
        cat "$_name.out" "$_name.err" >&2
        fail "mpiprof-analyze -q of $_archive${_n:+ by $_n processes} said something"
    fi
    [ -s "$_name.prof.json" ] || fail "mpiprof-analyze of $_archive${_n:+ by $_n processes} wrote no protocol"
}

for case in trace:trace.prof.otf2 late_sender:late_sender ring:ring; do
    name=${case%%:*}
    archive=${case#*:}/traces.otf2
    analyzed "$archive" "$name.alone"
    cp "$name.alone.prof" prot.txt # shown on failure
    counts="2 3"
    [ "$name" != trace ] || counts=2 # (mpiexec takes seconds here: -n 3 on the small ones)
    for n in $counts; do
        analyzed "$archive" "$name.$n" "$n"
        unwrapped "$name.$n.prof" | grep -q "^Trace .*by $n processes" ||
            fail "$name by $n processes: the Trace parameter does not say so: $(grep '^Trace' "$name.$n.prof")"
        "$compare" --rtol 1e-9 --atol 0 --brief --ignore trace "$name.alone.prof.json" "$name.$n.prof.json" \
            >"$name.$n.compare" 2>&1 ||
            { cat "$name.$n.compare" >&2; fail "$name: the protocol by $n processes differs from the one alone"; }
    done
done

# what was compared is right: the wait states by 2 processes (ring_trace.py:
# Real sync 0.5 + 2.5 + 4.5 + 2.5 ms, the barrier's and the allreduces'
# Potential sync and Time variation; the late sender's, scorep_trace.py)
"$PYTHON3" - ring.2.prof.json late_sender.2.prof.json <<'PY' || fail "the wait states by 2 processes (see above)"
import json, sys
want = {"ring.2.prof.json": {"real_sync": 0.010, "potential_sync": 0.0042, "time_variation": 0.0008},
        "late_sender.2.prof.json": {"real_sync": 0.02098}}
bad = 0
for path in sys.argv[1:]:
    main = json.load(open(path))["intervals"][0]["real"]["main"]
    for key, value in want[path].items():
        if main.get(key) is None or abs(main[key] - value) > 1e-9:
            print("%s: %s is %s, not %s" % (path, key, main.get(key), value))
            bad = 1
sys.exit(bad)
PY
echo "PASS: analyze_mpi"
