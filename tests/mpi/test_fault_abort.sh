#!/bin/sh
# fault_abort: rank 1 of faults.c calls MPI_Abort(MPI_COMM_WORLD, 7) after
# 100 MPI_Allreduce and 50 MPI_Recv.  Its partial protocol, written before
# PMPI_Abort, must count exactly those calls and name MPI_Abort, its
# communicator, errorcode and call site; mpiexec ends with status 7 with and
# without the profiler (it kills rank 0 with SIGKILL: faults.sh).
set -eu
# shellcheck source=common.sh
. "${top_srcdir:?run through tests/mpi/run-mpi-test}/tests/mpi/common.sh"
# shellcheck source=faults.sh
. "$srcdir/faults.sh"

cd "$tmp"
build_faults
run_both abort abort
[ "$status" -eq 7 ] || fail "abort: exit status $status, expected MPI_Abort's errorcode 7"
check_partials abort abort 1
echo "PASS: fault_abort"
