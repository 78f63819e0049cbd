#!/bin/sh
# windows_split: where windows of collectives on two communicators overlap
# on one process's time line, each instant counts for the window that
# began first, in the dynamic mode and in the trace analyzer alike
# (windows_split.c: rank 0 runs ahead through MPI_Ibcast on A, then on B;
# B's communicator is freed, and its instances reduced, first).  Both
# protocols split rank 0's Potential sync between the two SRC points as the
# program's instants give (check_windows_split.py), and mpiprof-compare
# finds them equal with only the names that differ by design ignored; in
# two runs, A's instances in their batch or in their reduction when B's
# are applied (the dynamic mode's horizon, hooks.c, must see both: missing
# either it gave rank 0 more Potential sync than its execution time).
# (The dynamic mode once gave the overlap to the window it learnt first:
# B's, and the analyzer to A's.)
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_analyzer

ignore=$(ignore_options "$analyze_by_design")
cd "$tmp"
"$MPICC_PROF" -g -o windows_split "$srcdir/windows_split.c" || fail "compiling windows_split.c with mpicc-prof"
# settle: B's reduction ends while A's instances are still in their batch;
# else while A's are in their reduction (the profiler's two places of
# instances not yet applied)
for variant in settle direct; do
    mpirun_2 "$variant.out" "$variant.err" env MPIPROF_TRACE=on MPIPROF_OUTPUT="$tmp/$variant.txt" MPIPROF_FORMAT=both \
        MPIPROF_QUIET=1 ./windows_split "$tmp/$variant.ev" "$variant"
    [ "$(grep -c '^rank=[01] done=1' "$variant.out")" -eq 2 ] || fail "$variant: the program did not finish: $(cat "$variant.out" "$variant.err")"
    cp "$variant.txt" prot.txt # shown on failure
    check_text_protocol "$variant.txt"
    # shellcheck disable=SC2086  # no schema: no argument
    "$PYTHON3" "$srcdir/check_windows_split.py" "$srcdir/windows_split.c" "$variant.txt" "$tmp/$variant.ev" $schema \
        || fail "$variant: the dynamic protocol's split (above)"
    env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_FORMAT=both "$analyze" -q -f both -o "$variant.trace.txt" \
        "$variant.txt.otf2/traces.otf2" 2>analyze.err || fail "$variant: mpiprof-analyze failed: $(cat analyze.err)"
    # shellcheck disable=SC2086
    "$PYTHON3" "$srcdir/check_windows_split.py" "$srcdir/windows_split.c" "$variant.trace.txt" "$tmp/$variant.ev" \
        $schema || fail "$variant: the analyzed protocol's split (above)"
    # shellcheck disable=SC2086  # a list of words
    "$compare" --brief $ignore "$variant.txt.json" "$variant.trace.txt.json" >compare.out 2>&1 || {
        cat compare.out >&2
        fail "$variant: mpiprof-compare finds the dynamic protocol and the trace's different (above)"
    }
    echo "$variant: $(tail -n 1 compare.out)"
done
echo "PASS: windows_split"
