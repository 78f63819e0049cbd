#!/bin/sh
# fault_crash: rank 1 of faults.c gets SIGSEGV, SIGBUS, SIGFPE, SIGILL or
# SIGABRT from a real fault outside MPI (null pointer, a mapping past the
# end of its file, integer division by zero, an undefined instruction,
# abort()), or SIGSEGV inside MPI_Allreduce (an invalid buffer), after 100
# MPI_Allreduce and 50 MPI_Recv.  Its partial protocol must count exactly
# those calls, name the signal and where it came (the faulting line, or the
# MPI call and its call site), and the job must end with the same exit
# status as without the profiler.  Rank 0, waiting in MPI_Recv, is killed
# by mpiexec with SIGKILL (faults.sh) and writes nothing.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=faults.sh
. "$srcdir/faults.sh"
[ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ] && skip "AddressSanitizer handles SIGSEGV, SIGBUS, SIGFPE and SIGABRT itself (the process exits 1 before any handler of the program or the profiler runs); the crash paths run in the plain build"

cd "$tmp"
build_faults
for mode in segv bus fpe ill abrt segv_in_mpi; do
    run_both "$mode" "$mode"
    [ "$status" -ne 0 ] || fail "$mode: the job ended with status 0"
    check_partials "$mode" "$mode" 1
done
echo "PASS: fault_crash"
