#!/bin/sh
# trace_died: the trace of a run that dies is readable up to where each
# process's events end, and mpiprof-analyze says it is incomplete
# (mpiprof-trace(5), RUNS THAT END EARLY).  tests/mpi/trace/trace_died.c: rank 0
# sends ROUNDS messages to rank 1, traced with the least MPIPROF_TRACE_BUFFER
# (flushes all along); then rank 1 faults (SIGSEGV) or calls MPI_Abort, and
# mpiexec ends rank 0: MPICH's hydra kills it (SIGKILL), so it never gets
# control; rank 0 writes over 4 MiB of events (libotf2 writes an event file
# in 4 MiB pieces): some of them are on disk when it is killed.  Open MPI's
# mpirun sends SIGTERM first: rank 0 then writes all its events out, as any
# process that gets control does.  For each end:
#   - the archive has its anchor file and definitions, otf2-print reads it
#     without error or warning and shows MPIPROF::INCOMPLETE;
#   - check_trace_died.py (python3-otf2): rank 1's ROUNDS receives, rank 0's
#     sends up to its last write (some, not all) when it was killed, all of
#     them when it handled its signal, mpiprof-analyze's
#     protocol with exactly those calls, its Warnings saying the trace is
#     incomplete and why, Trace complete: false in it and in rank 1's
#     partial protocol;
#   - mpiprof-analyze exits 3 with one line on stderr saying so.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
if ! grep -q '^#define MPIPROF_HAVE_OTF2 1' "$top_builddir/src/autoconf.h"; then
    echo "SKIP: trace_died (built without libotf2: trace mode is refused, test_trace.sh checks that)"
    exit 77
fi
command -v otf2-print >/dev/null || fail "otf2-print not found: install otf2-tools (maint/install-deps.sh)"
OTF2_PYTHON=/usr/bin/python3
"$OTF2_PYTHON" -c 'import otf2' 2>/dev/null || fail "$OTF2_PYTHON cannot import otf2: install python3-otf2"
ANALYZE="$top_builddir/tools/mpiprof-analyze"
ROUNDS=150000

cd "$tmp"
"$MPICC_PROF" -o trace_died "$srcdir/trace_died.c" || fail "compiling trace_died.c with mpicc-prof"

# $1: mode, $2: how rank 1 ended (a regular expression of the archive's property)
died() {
    mkdir -p "$1"
    status=0
    "$MPIEXEC" -n 2 env MPIPROF_TRACE=on MPIPROF_TRACE_BUFFER=262144 MPIPROF_OUTPUT="$tmp/$1/prot" \
        MPIPROF_FORMAT=both ./trace_died "$1" "$ROUNDS" >"$1/out" 2>&1 || status=$?
    [ "$status" -ne 0 ] || fail "$1: the run ended with status 0: $(cat "$1/out")"
    anchor="$1/prot.otf2/traces.otf2"
    [ -f "$anchor" ] || fail "$1: no anchor file $anchor, the archive cannot be read: $(ls -R "$1")"
    # otf2-print reads an event file cut without OTF2's end record forever:
    # its output is bounded (500 MB: SIGXFSZ; with the checks' attributes
    # of MPIPROF_CHECK=full on every message event, about 300 MB) as well
    # as its time
    (ulimit -f 1000000 && timeout 120 otf2-print -Werror -A "$anchor") >"$1/print" 2>"$1/print.err" ||
        fail "$1: otf2-print failed: $(head -c 2000 "$1/print.err")"
    [ ! -s "$1/print.err" ] || fail "$1: otf2-print warned: $(head -c 2000 "$1/print.err")"
    grep -q '^Property name  *MPIPROF::INCOMPLETE$' "$1/print" ||
        fail "$1: the anchor file has no MPIPROF::INCOMPLETE property: $(grep -i propert "$1/print")"
    astatus=0
    timeout 120 "$ANALYZE" -f both -o "$1/analyzed" "$anchor" >"$1/analyze.out" 2>"$1/analyze.err" || astatus=$?
    [ "$astatus" -eq 3 ] || fail "$1: mpiprof-analyze exited $astatus, expected 3 (incomplete): $(cat "$1/analyze.err")"
    [ "$(wc -l <"$1/analyze.err")" -eq 1 ] && grep -q ': the trace is incomplete (the run ended early; ' "$1/analyze.err" ||
        fail "$1: mpiprof-analyze did not say in one line that the trace is incomplete: $(cat "$1/analyze.err")"
    grep -q '^Collection mode *: trace, incomplete$' "$1/analyzed" ||
        fail "$1: the analyzed protocol's Collection mode: $(grep '^Collection mode' "$1/analyzed")"
    "$OTF2_PYTHON" "$srcdir/check_trace_died.py" "$anchor" "$1/analyzed.json" "$1/prot.partial.1.json" "$ROUNDS" "$2" ||
        fail "$1: see above"
}

died segv 'rank 1: signal SIGSEGV \(Segmentation fault'
died abort 'rank 1: MPI_Abort\(MPI_COMM_WORLD, 7\)'
echo "PASS: trace_died"
