#!/bin/sh
# check_arguments: invalid-argument (MPIPROF_CHECK=full) finds each
# argument MPI forbids (a negative count; a rank, root or tag out of range;
# a null communicator or operation; a NULL request, status or buffer; an
# uncommitted or freed datatype) at the call that passes it, on every
# process, exactly as args.c marks them, with the program's status and
# output those without the profiler (MPI_ERRORS_RETURN: MPI returns the
# error and the run goes on); the values MPI allows that look alike
# (MPI_PROC_NULL, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_BOTTOM, MPI_IN_PLACE,
# MPI_ROOT on an intercommunicator, NULL with no element, a buffer that
# matters at the root only, counts and datatypes MPI ignores: with
# MPI_IN_PLACE, at a non-root, with MPI_NO_OP) give none, at full and
# basic; below full no argument is checked (basic, basic,checksum: MPI's own error, mpi-error, alone); where
# MPI aborts
# (fatal-count) the line on standard error comes first, and the exit status
# is MPI's.  The same through mpi_f08 (args_f08.f90), whose entry points
# the profiler wraps apart from the C functions: the checks that need no
# buffer's address, at the Fortran source line.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o args "$srcdir/args.c" || fail "compiling args.c with mpicc-prof"
# (an uncommitted datatype is found with MPICH only: mpiprof(7); Open MPI's
# MPI_STATUS_IGNORE is NULL, so there null-status is a legal receive that
# waits for a message never sent, with the profiler or without)
uncommitted=uncommitted-type null_status=null-status
[ "${MPI_FAMILY:-mpich}" = mpich ] || uncommitted="" null_status=""
for s in negative-count bad-rank bad-root bad-tag null-buffer $uncommitted freed-type null-comm null-op \
    null-request $null_status legal-args; do
    run_scenario args "$srcdir/args.c" "$s"
done
run_scenario args "$srcdir/args.c" legal-args basic
run_scenario args "$srcdir/args.c" legal-args full,checksum
run_scenario args "$srcdir/args.c" negative-count-basic basic
run_scenario args "$srcdir/args.c" negative-count-basic basic,checksum
run_scenario_abort args "$srcdir/args.c" fatal-count
# the same checks through mpi_f08's entry points (which do not reach the C
# wrappers), at the Fortran lines, when there is a Fortran compiler
if [ "${MPIFORT:-no}" != no ] && [ -n "${MPIFORT_PROF:-}" ] && command -v "$MPIFORT" >/dev/null 2>&1 &&
    "$MPIFORT_PROF" -g -O0 -o args_f08 "$srcdir/args_f08.f90" >f08.log 2>&1; then
    for s in f08-bad-rank f08-negative-count f08-bad-tag f08-null-handles ${uncommitted:+f08-uncommitted} f08-legal; do
        run_scenario args_f08 "$srcdir/args_f08.f90" "$s"
    done
    run_scenario args_f08 "$srcdir/args_f08.f90" f08-legal basic
else
    echo "NOTE: no mpi_f08 program (MPIFORT=${MPIFORT:-}): $(cat f08.log 2>/dev/null)"
fi
echo "PASS: check_arguments"
