#!/bin/sh
# fault_signal: what a batch system or a user does to a job.  Both ranks of
# faults.c (mode wait) make 100 MPI_Allreduce, 50 MPI_Send/MPI_Recv and 3
# messages to each other, then wait in MPI_Recv; then
#   SIGTERM, SIGINT, SIGXCPU are sent to both ranks (kill), and SIGTERM
#   to mpiexec (which forwards it to the ranks):
#     each rank must write its partial protocol (exact counts, the signal,
#     in MPI_Recv at the SRC point of that receive), and the job end with
#     the exit status it has without the profiler;
#   SIGUSR1: MPICH's own handler takes it and the process goes on, with
#     and without the profiler (faults.sh); mode finalize_after_usr1, where
#     the program's own SIGUSR1 handler returns too: the run ends with
#     MPI_Finalize, so its protocol is complete and no partial protocol
#     remains (the one written at the signal is removed when the handlers
#     return).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=faults.sh
. "$srcdir/faults.sh"

cd "$tmp"
build_faults
for sig in TERM INT XCPU; do
    run_both_killed "$sig" "$sig"
    check_partials "sig:SIG$sig" "$sig" 0 1
done
run_both_killed TERM_mpiexec TERM mpiexec
check_partials sig:SIGTERM TERM_mpiexec 0 1

run_both usr1 finalize_after_usr1
[ "$status" -eq 0 ] || fail "finalize_after_usr1: exit status $status"
grep -q "did not run" usr1.out && fail "finalize_after_usr1: the program's SIGUSR1 handler did not run: $(cat usr1.out)"
grep -q "partial protocol written" usr1.out || fail "finalize_after_usr1: no partial protocol was written at SIGUSR1: $(cat usr1.out)"
grep -q "the program handled SIGUSR1 and goes on: partial protocol removed" usr1.out \
    || fail "finalize_after_usr1: the partial protocol was not removed: $(cat usr1.out)"
ls usr1.partial.* >/dev/null 2>&1 && fail "finalize_after_usr1: partial protocols remain: $(ls usr1.partial.*)"
[ -s usr1.json ] || fail "finalize_after_usr1: no complete protocol"
"$PYTHON3" "$testlib/protocol_check.py" --schema "$schema" --text usr1 usr1.json || fail "finalize_after_usr1: protocol check"
echo "PASS: fault_signal"
