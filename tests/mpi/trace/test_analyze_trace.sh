#!/bin/sh
# analyze_trace: trace mode gives, through mpiprof-analyze, the protocol
# the dynamic mode gives for the same run.  Each program runs once with MPIPROF_TRACE=on, which writes its
# dynamic protocol and its trace; mpiprof-analyze of the trace gives a
# protocol that mpiprof-compare finds structurally identical to the dynamic
# one (the same intervals with names, positions, levels and executions, the
# same SRC points with functions, stacks, calls and bytes) and numerically
# equal within 1% or 2 ms for every time (its default tolerance).  What the
# two modes give differently by design (mpiprof-analyze(1), DYNAMIC AND
# TRACE PROTOCOLS) is told to mpiprof-compare by name ($by_design), never
# by a wider tolerance.  Both protocols hold the invariants, the analyzed
# one validates against the schema, its text agrees with its JSON, and it
# says "Collection mode: trace".
#
# Programs: trace.c (point-to-point, requests, collectives on two
# communicators, two intervals, replicated code), a late sender
# (waitstates_late_sender.c), collective skew (waitstates_collective.c),
# load imbalance (load_imbalance.c), nested intervals (intervals.c),
# replicated code (intervals_seq.c), nonblocking overlap (model_overlap.c,
# with a given model so that the dynamic mode computes Overlap),
# examples/jacobi.c (whose MPI_Sendrecv with MPI_PROC_NULL count bytes that
# no message event carries: its Leave says them, mpiprof-trace(5)), late
# senders to every kind of receive (waitstates_p2p_kinds.c: persistent
# requests, probes, matched receives, a cancelled request) and persistent
# collectives (trace_persistent.c).  An earlier mpiprof's archive, which
# recorded no events for starts and matched receives, has Warnings say so.
#
# MPIPROF_TEST_BY_DESIGN, when set, replaces the list of exceptions (to
# show that each is needed).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_analyzer

# The differences by design, each by its name (mpiprof-analyze(1)):
#   productive_cpu productive_sys   no getrusage in a trace
#   overlap predicted predicted_time
#                                   no calibration of the model in a trace
#   machine placement hardware_counters
#                                   hwloc and PAPI are read at run time only
#   program threads_level mpi_library mpi_standard
#                                   not in the trace
#   collection_mode wait_states trace
#                                   say how each protocol was made
# (The analyzer's Configuration is its own MPIPROF_* values: it runs with
# the run's.)
by_design=${MPIPROF_TEST_BY_DESIGN-$analyze_by_design}
ignore=$(ignore_options "$by_design")

# check PROGRAM SOURCE [ENV=VALUE ...] [-- ARGS ...]
check() {
    program=$1 source=$2
    shift 2
    settings=""
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        settings="$settings $1"
        shift
    done
    [ $# -gt 0 ] && shift
    "$MPICC_PROF" -o "$program" "$source" || fail "compiling $source with mpicc-prof"
    # shellcheck disable=SC2086  # settings and ignore are lists of words
    mpirun_2 "$program.out" "$program.err" env MPIPROF_TRACE=on MPIPROF_QUIET=1 $settings \
        MPIPROF_OUTPUT="$tmp/$program.prof" MPIPROF_FORMAT=both "./$program" "$@"
    [ -f "$program.prof.otf2/traces.otf2" ] || fail "$program: no trace written: $(ls)"
    # the analyzer's Configuration lists its own MPIPROF_*: the run's
    # shellcheck disable=SC2086
    env MPIPROF_TRACE=on MPIPROF_QUIET=1 $settings MPIPROF_FORMAT=both "$analyze" -q -f both -o "$program.trace.prof" \
        "$program.prof.otf2/traces.otf2" 2>"$program.analyze.err" ||
        fail "$program: mpiprof-analyze failed: $(cat "$program.analyze.err")"
    cp "$program.trace.prof" prot.txt # shown on failure
    "$PYTHON3" "$testlib/protocol_check.py" "$program.prof.json" || fail "$program: the dynamic protocol (above)"
    "$PYTHON3" "$testlib/protocol_check.py" --schema "$schema" \
        --text "$program.trace.prof" "$program.trace.prof.json" || fail "$program: the analyzed protocol (above)"
    grep -q '^Collection mode *: trace$' "$program.trace.prof" ||
        fail "$program: the analyzed protocol does not say 'Collection mode: trace'"
    # shellcheck disable=SC2086
    "$compare" --brief $ignore "$program.prof.json" "$program.trace.prof.json" >"$program.compare" 2>&1 || {
        cat "$program.compare" >&2
        fail "$program: mpiprof-compare finds the dynamic protocol and the trace's different (above)"
    }
    tail -n 1 "$program.compare"
}

cd "$tmp"
check trace "$srcdir/trace.c"
check waitstates_late_sender "$mpitests/waitstates/waitstates_late_sender.c" -- "$tmp/events"
check waitstates_collective "$mpitests/waitstates/waitstates_collective.c" -- "$tmp/events"
check load_imbalance "$mpitests/characteristics/load_imbalance.c"
check intervals "$mpitests/intervals/intervals.c"
check intervals_seq "$mpitests/intervals/intervals_seq.c"
check model_overlap "$mpitests/model/model_overlap.c" MPIPROF_MODEL=lat_intra=10us,bw_intra=100MB/s
check jacobi "$top_srcdir/examples/jacobi.c"
# late senders to every kind of receive: persistent requests, probes and
# matched receives (the probe waits), a cancelled request among them
check waitstates_p2p_kinds "$mpitests/waitstates/waitstates_p2p_kinds.c" -- "$tmp/events"
# persistent collectives (MPI-4) with a late member, started with a
# persistent send and receive; the waits compared are there
check trace_persistent "$srcdir/trace_persistent.c"
"$PYTHON3" "$srcdir/check_trace_persistent.py" trace_persistent.prof.json trace_persistent.trace.prof.json ||
    fail "trace_persistent: the run did not wait where it should, or the modes split its time differently (above)"
# the starts' events carry the bytes the protocol counts: no Leave needs to
# say them (mpiprof::bytes_sent, mpiprof-trace(5))
command -v otf2-print >/dev/null || fail "otf2-print not found: install otf2-tools (maint/install-deps.sh)"
otf2-print trace_persistent.prof.otf2/traces.otf2 >trace_persistent.print 2>&1 ||
    fail "trace_persistent: otf2-print failed: $(head -20 trace_persistent.print)"
! grep -q 'mpiprof::bytes_sent' trace_persistent.print ||
    fail "trace_persistent: calls whose events do not give their bytes: $(grep -B1 'mpiprof::bytes_sent' trace_persistent.print | head -20)"

# An earlier mpiprof's archive has no events for starts and matched
# receives: without the mpiprof::probed attribute in its definitions
# (renamed here), Warnings say so rather than count no wait; model_known
# has 10 MPI_Start on each of the 2 ranks.
"$MPICC_PROF" -o model_known "$mpitests/model/model_known.c" || fail "compiling model_known.c with mpicc-prof"
mpirun_2 model_known.out model_known.err env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/model_known.prof" \
    ./model_known
"$analyze" -q -o model_known.trace.prof model_known.prof.otf2/traces.otf2 2>model_known.analyze.err ||
    fail "model_known: mpiprof-analyze failed: $(cat model_known.analyze.err)"
! unwrapped model_known.trace.prof | grep -q 'calls start persistent requests' ||
    fail "model_known: this mpiprof's trace warns of unrecorded starts: $(cat model_known.trace.prof)"
"$PYTHON3" -c 'import sys
p = sys.argv[1]; data = open(p, "rb").read()
if b"mpiprof::probed\0" not in data: sys.exit("no mpiprof::probed attribute in " + p)
open(p, "wb").write(data.replace(b"mpiprof::probed\0", b"mpiprof::earlie\0"))' model_known.prof.otf2/traces.def ||
    fail "model_known: the archive's definitions (above)"
"$analyze" -q -o model_known.earlier.prof model_known.prof.otf2/traces.otf2 2>model_known.analyze.err ||
    fail "model_known: mpiprof-analyze of the earlier archive failed: $(cat model_known.analyze.err)"
unwrapped model_known.earlier.prof | grep -q 'Time variation: 20 calls start persistent requests or receive matched messages' ||
    fail "model_known: the earlier archive's Warnings do not name the 20 starts of persistent requests: $(cat model_known.earlier.prof)"
echo "PASS: analyze_trace"
