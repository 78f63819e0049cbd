#!/bin/sh
# clock_descheduled: the profiler's times stay right when the process is
# descheduled while it reads its clocks.  tests/mpi/context/clock_delay.c, preloaded,
# makes libmpiprof's first reads of CLOCK_MONOTONIC in MPI_Finalize sleep
# 300 ms after reading (every other one: parity 0, then parity 1), as a
# loaded node can; clock_busy.c spins 0.4 s.  Each rank's execution time in
# the protocol must be within 10% of what it measured itself (before the
# fix, the TSC rate was measured with a TSC read 300 ms after its
# CLOCK_MONOTONIC read, and every time came out 40% short).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_var MPICC

cd "$tmp"
"$MPICC_PROF" -o clock_busy "$srcdir/clock_busy.c" || fail "compiling clock_busy.c with mpicc-prof"
"$MPICC" -shared -fPIC -o clock_delay.so "$srcdir/clock_delay.c" -ldl || fail "compiling clock_delay.c"
for parity in 0 1; do
    rm -f prot.txt prot.txt.json out err
    mpirun_2 out err env LD_PRELOAD="$(preload "$tmp/clock_delay.so")" CLOCK_DELAY_PARITY=$parity \
        MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./clock_busy
    [ -s prot.txt.json ] || fail "no JSON protocol (parity $parity)"
    "$PYTHON3" "$srcdir/check_clock_descheduled.py" prot.txt.json out ||
        fail "times wrong with the reads of parity $parity descheduled"
done
echo "PASS: clock_descheduled"
