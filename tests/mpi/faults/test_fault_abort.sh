#!/bin/sh
# fault_abort: MPI_Abort in faults.c after 100 MPI_Allreduce and 50
# MPI_Send/MPI_Recv.  The partial protocol of each process that called it,
# written before PMPI_Abort, must count exactly those calls and name
# MPI_Abort, its communicator, errorcode and call site; mpiexec ends with
# status 7 with and without the profiler (it kills the other processes with
# SIGKILL: faults.sh; after an MPI_Abort on a communicator of one process,
# which MPICH makes an exit with the errorcode, hydra may report that SIGKILL
# instead, 9, as after an exit: seen without the profiler too).
#   abort        rank 1 on MPI_COMM_WORLD, rank 0 waits in MPI_Recv
#   abort_self   rank 1 on MPI_COMM_SELF, rank 0 computes outside MPI
#   abort_split  rank 1 on a communicator of its own from MPI_Comm_split,
#                rank 0 waits in MPI_Recv
#   abort_both   both ranks on MPI_COMM_SELF, rank 0 (two threads of its
#                own computing) once rank 1's partial protocol exists, three
#                tries: rank 1 reaches PMPI_Abort first and ends (MPICH exits
#                with the errorcode on a communicator of one process), and
#                mpiexec kills rank 0 with its process group while rank 0's
#                partial protocol is being written: "MPI_Abort: writing a
#                partial protocol" and no file (10 runs of 10 before the
#                fix).  Its writer, in a process group of its own, now
#                finishes it, and mpiexec waits for it (it holds the
#                process's stdout and stderr).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=faults.sh
. "$srcdir/faults.sh"

cd "$tmp"
build_faults
for mode in abort abort_self abort_split; do
    run_both "$mode" "$mode"
    # hydra's 9 or 1 for an abort on a communicator of one process: as
    # compare_status (faults.sh) accepts them, both seen without the profiler
    [ "$status" -eq 7 ] || { [ "$mode" != abort ] && { [ "$status" -eq 9 ] || [ "$status" -eq 1 ]; }; } ||
        fail "$mode: exit status $status, expected MPI_Abort's errorcode 7"
    check_partials "$mode" "$mode" 1
done
for try in 1 2 3; do
    run_both "abort_both.$try" abort_both
    [ "$status" -eq 7 ] || [ "$status" -eq 9 ] || [ "$status" -eq 1 ] ||
        fail "abort_both: exit status $status, expected MPI_Abort's errorcode 7"
    check_partials abort_both "abort_both.$try" 0 1
done
echo "PASS: fault_abort"
