#!/bin/sh
# fault_finalize: a job ended by SIGTERM while rank 0 waits inside
# MPI_Finalize (faults.c, mode finalize_hold: rank 1 holds back outside MPI
# after the same calls).  Both ranks must write their partial protocols:
# rank 0's names MPI_Finalize and its call site, and its intervals end at
# MPI_Finalize's entry (check_faults.py, finalize:SIGTERM); the exit status
# is the one without the profiler.  With MPIPROF_HANG_TIMEOUT (the watchdog
# watches MPI_Finalize) and without, three tries each (MPIPROF_TEST_FAULT_TRIES:
# CI's Open MPI and sanitizer stages make one): the call a process is in
# used to be a stale pointer into a dead stack frame there, naming garbage
# ("SIGTERM in MPIX_Comm_agree") and crashing the writer of the partial
# protocol with the watchdog on, naming no call without it.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=faults.sh
. "$srcdir/faults.sh"

cd "$tmp"
build_faults
tries=${MPIPROF_TEST_FAULT_TRIES:-3}
case $tries in '' | *[!0-9]* | 0) fail "MPIPROF_TEST_FAULT_TRIES=$tries: expected a count of 1 or more" ;; esac
for watch in 5 off; do
    for try in $(seq "$tries"); do
        name=finalize_$watch.$try
        profiled_env=
        [ "$watch" = off ] || profiled_env=MPIPROF_HANG_TIMEOUT=$watch
        run_both_killed "$name" TERM ranks finalize_hold
        grep -q "rank 0: SIGTERM in MPI_Finalize: writing a partial protocol" "$name.out" \
            || fail "$name: rank 0 did not say it ended in MPI_Finalize: $(cat "$name.out")"
        check_partials finalize:SIGTERM "$name" 0 1
    done
done
echo "PASS: fault_finalize"
