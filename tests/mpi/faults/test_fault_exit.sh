#!/bin/sh
# fault_exit: processes of faults.c that never call MPI_Finalize:
#   exit    rank 1 calls exit(3) (rank 0 waits in MPI_Recv, and mpiexec
#           kills it when rank 1 exits);
#   return  both ranks return 4 from main.
# The partial protocols (written at exit by an on_exit handler) must count
# exactly the MPI calls made, say exit(3) and where it was called, or the
# return from main and its status, and the exit status must be the one
# without the profiler.  Both ranks of "return" must have written theirs:
# each waits (a bounded time) for the other's before it ends, or mpiexec
# would kill the slower one when the faster one exits.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=faults.sh
. "$srcdir/faults.sh"
[ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ] && skip "under AddressSanitizer the partial protocol takes longer than hydra waits before it kills the job (exit status 9, not the program's); exit paths run in the plain build"

cd "$tmp"
build_faults
# hydra reports the exit code (3, 4), or 9 when it killed one rank after the
# other had exited: seen WITHOUT the profiler too on a loaded machine
run_both exit exit
[ "$status" -eq 3 ] || [ "$status" -eq 9 ] || fail "exit: exit status $status, expected 3 (or hydra's 9)"
check_partials exit exit 1
run_both return return
[ "$status" -eq 4 ] || [ "$status" -eq 9 ] || fail "return: exit status $status, expected 4 (or hydra's 9)"
check_partials return return 0 1
echo "PASS: fault_exit"
