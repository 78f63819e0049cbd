#!/bin/sh
# check_ends: how a process ended, as findings of its partial protocol
# (errors.c), MPIPROF_CHECK=basic: MPI_Abort is an abort finding at its
# call; SIGSEGV raised outside MPI an abend finding at the raise, whose
# function is the signal; SIGTERM from the other process while waiting in
# MPI_Recv both an abort and an incomplete-call finding at that MPI_Recv.
# The exit status and output are those without the profiler.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o errors "$srcdir/errors.c" || fail "compiling errors.c with mpicc-prof"
run_scenario_partial errors "$srcdir/errors.c" abort 1 basic
run_scenario_partial errors "$srcdir/errors.c" abend 1 basic crash
grep -q '"function": "SIGSEGV"' abend.prof.partial.1.json || fail "abend: the finding does not name SIGSEGV"
run_scenario_partial errors "$srcdir/errors.c" incomplete 0 basic crash
echo "PASS: check_ends"
