#!/bin/sh
# intervals: nested intervals marked with MPIPROF_INTERVAL_BEGIN/END in C: a
# setup phase, a loop body entered 50 times with a nested "exchange" (an
# MPI_Allreduce) entered 50 times and, inside that, "pack" entered 49 times,
# and a final phase.  The protocol must list the intervals depth-first in
# order of first entry with their file:line (the begin mark), level, parent
# and executions; each SRC point only in the interval its call is made in
# (exact counts); each interval's execution time per process within 10% of
# what the rank measured itself, and its communication as well, nested
# intervals' included; every invariant in every interval, the text agreeing
# with the JSON, the JSON valid against the schema.  A run that fails and
# whose own measurements show it disturbed (a busy-only interval measured
# over 10% longer than its busy loop: other jobs on the processor) is made
# once more (check_intervals.py --again).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o intervals "$srcdir/intervals.c" || fail "compiling intervals.c with mpicc-prof"

# run_and_check [--again]: one run, its protocol checked (exit 3 with
# --again: the run was disturbed, see check_intervals.py)
run_and_check() {
    rm -f prot.txt prot.txt.json out err
    mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./intervals
    [ "$(grep -c '^rank=[01] exec=' out)" -eq 2 ] || fail "intervals did not print its measurements: $(cat out err)"
    [ -s prot.txt.json ] || fail "no JSON protocol prot.txt.json (MPIPROF_FORMAT=both)"
    check_text_protocol prot.txt
    "$PYTHON3" "$srcdir/check_intervals.py" "$@" prot.txt.json prot.txt "$srcdir/intervals.c" out "$schema"
}

checked=0
run_and_check --again || checked=$?
if [ "$checked" -eq 3 ]; then
    checked=0
    run_and_check || checked=$?
fi
[ "$checked" -eq 0 ] || fail "protocol check failed (see above)"
echo "PASS: intervals"
