#!/bin/sh
# clock_run_bounds: while the program runs, the wait states' own messages
# bound the clock offsets (round trips, as NTP's), and a threshold uses
# the best bound that applies then, not MPI_Init's (issue 27).  Two hosts
# (UTS namespaces, as test_clock_two_hosts.sh); rank 0 answers the pings
# of both clock alignments 0.1 s late, half before reading its clock and
# half after (MPIPROF_TEST_CLOCK_PONG_DELAY and _SPLIT, a library
# configured with --enable-test-hooks; skipped otherwise): rank 1's offset
# about right, but uncertain by ~50 ms, so MPI_Init's threshold (~0.1 s)
# would count the program's 20 ms waits as 0 and MPI_Finalize's
# alignment cannot vouch for them either (without the run's bounds this
# test failed so: Real sync and Potential sync 0).  Real sync and
# Potential sync are the program's instants' within 1% or 2 ms, and
# within the error the Clock line states for the offsets at each wait
# (the spin around the clock read is not quite even on a loaded node).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

grep -q '^#define MPP_TEST_HOOKS 1' "${top_builddir:?}/src/autoconf.h" ||
    skip "no test hooks in this build (configure --enable-test-hooks): no way to make MPI_Init's alignment uncertain"
need_uts_namespaces

cd "$tmp"
"$MPICC_PROF" -o clock_run_bounds "$srcdir/clock_run_bounds.c" || fail "compiling clock_run_bounds.c with mpicc-prof"

# shellcheck disable=SC2016  # $1 is expanded by the ranks' shell
if ! "$MPIEXEC" -n 1 env MPIPROF_OUTPUT="$tmp/run.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_SYNC_BATCH=8 \
        MPIPROF_TEST_CLOCK_PONG_DELAY=0.1 MPIPROF_TEST_CLOCK_PONG_SPLIT=yes \
        unshare --uts sh -c 'hostname "$1" && shift && exec ./clock_run_bounds "$@"' sh mpiprof-node1 run.ev : \
    -n 1 env MPIPROF_OUTPUT="$tmp/run.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_SYNC_BATCH=8 \
        unshare --uts sh -c 'hostname "$1" && shift && exec ./clock_run_bounds "$@"' sh mpiprof-node2 run.ev \
        >run.out 2>run.err; then
    cat run.out run.err >&2
    fail "the MPMD run with two UTS namespaces did not exit 0"
fi
cp run.prof prot.txt # shown on failure
"$PYTHON3" "$srcdir/check_run_bounds.py" run.prof.json run.ev || fail "(above)"
echo "PASS: clock_run_bounds"
