#!/bin/sh
# counters_kernel: the counter path with counts the kernel makes, on a
# machine without hardware counters: perf::TASK-CLOCK (CPU time of the
# counted thread, in ns) through PAPI's perf_event component, with
# MPIPROF_PAPI_SRC=on.  Per interval and process the count must be at most
# the wall time spent in the interval, its inside-MPI part at most the time
# in MPI calls, inside + outside = total, and most of a busy interval; text =
# JSON, every invariant, schema; the same when one process enters
# MPI_Finalize 0.3 s after the other (what the profiler does there is not
# counted).  Built without PAPI: n/a (checked by
# counters_none); the kernel refusing perf events (perf_event_paranoid):
# skipped, with PAPI's reason.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=context.sh
. "$srcdir/context.sh"
need_var MPICC_PROF

built_with papi || skip "built without PAPI (the n/a lines are checked by test_counters_none.sh)"
cd "$tmp"
"$MPICC_PROF" -o context "$srcdir/context.c" || fail "compiling context.c with mpicc-prof"
event=perf::TASK-CLOCK
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    MPIPROF_PAPI_EVENTS="$event" MPIPROF_PAPI_SRC=on ./context
grep -q '^context: 2 processes' out || fail "the program's output is wrong: $(cat out err)"
check_text_protocol prot.txt
if unwrapped prot.txt | grep -q "hardware counter $event cannot be counted"; then
    skip "the kernel does not let PAPI count $event here: $(grep "hardware counter $event" prot.txt | head -1)"
fi
check_context task-clock prot.txt.json prot.txt "$schema" "$event"
# Rank 1 enters MPI_Finalize 0.3 s after rank 0, which waits for it there,
# in the profiler's exchange: not the program's CPU time (its intervals
# ended when it entered MPI_Finalize).
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/late.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    MPIPROF_PAPI_EVENTS="$event" MPIPROF_PAPI_SRC=on ./context late-finalize
grep -q '^context: 2 processes' out || fail "the program's output is wrong: $(cat out err)"
check_context task-clock late.txt.json late.txt "$schema" "$event"
echo "PASS: counters_kernel"
