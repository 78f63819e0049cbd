#!/bin/sh
# check_errors: mpi-error (errors.c), MPIPROF_CHECK=basic.  An error MPI
# returns (MPI_ERRORS_RETURN, the program's own handler, which still runs)
# is a finding at its call; one MPI makes fatal (the default handler on a
# communicator or a window, or MPI_ERRORS_ARE_FATAL set again) is one in the
# failing process's partial protocol, MPI's message is on stderr and the job
# ends with the status it has without the profiler (MPICH: the error class,
# 6).  The handlers a get returns are those the program set, or
# MPI_ERRORS_ARE_FATAL (get-errhandler: no finding).  With
# MPIPROF_CHECK=off nothing is installed: the fatal error leaves no
# protocol, as before.  The same through mpi_f08 (errors_f08.f90), when
# there is a Fortran compiler.  mpiprof-merge of the partial protocol
# carries the finding.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o errors "$srcdir/errors.c" || fail "compiling errors.c with mpicc-prof"
for scen in error-return return-self-win own-handler get-errhandler dup-defers; do
    run_scenario errors "$srcdir/errors.c" "$scen" basic
done
grep -c "own handler called" own-handler.out | grep -qx 2 || fail "own-handler: the program's handler did not run on both ranks: $(cat own-handler.out)"
! grep -q "NOT as set" get-errhandler.out || fail "get-errhandler: $(grep 'NOT as set' get-errhandler.out)"
[ "$(grep -c 'as set' get-errhandler.out)" -eq 22 ] || fail "get-errhandler: $(cat get-errhandler.out)"

for scen in error-fatal error-fatal-set error-fatal-win; do
    run_scenario_partial errors "$srcdir/errors.c" "$scen" 0 basic
    grep -q "^Fatal error in MPI_\(Send\|Put\): Invalid rank" "$scen.err" \
        || fail "$scen: no 'Fatal error in MPI_Send: Invalid rank' on stderr: $(cat "$scen.err")"
    [ ! -e "$scen.prof.partial.1" ] || fail "$scen: rank 1 wrote a partial protocol"
done
grep -q '"mpi_call": "MPI_Send"' error-fatal.prof.partial.0.json || fail "error-fatal: the end does not name MPI_Send"

# mpiprof-merge of the failing process's partial protocol
"$top_builddir/tools/mpiprof-merge" -q -o merged error-fatal.prof.partial.0 || fail "mpiprof-merge failed"
grep -q "error mpi-error: MPI_Send" merged \
    || fail "mpiprof-merge dropped the finding of the partial protocol: $(sed -n 3,8p merged | tr '\n' ' ')"

# checks off: MPI's own handler, no protocol (the run as without the checks)
set +e
"$MPIEXEC" -n 2 env MPIPROF_CHECK=off MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/off.prof" ./errors error-fatal >off.out 2>off.err
status=$?
set -e
if [ "${MPI_FAMILY:-mpich}" = mpich ]; then
    [ "$status" -eq 6 ] || fail "off: exit status $status, expected 6: $(cat off.err)"
    # MPICH's own words, not the profiler's ("Fatal error in MPI_Send: ...").
    # MPICH's message itself is lost about 1 run in 30, without the profiler
    # too (the process aborts before hydra forwards its stderr), so its
    # absence is no failure; the status and the missing protocol still show
    # whose handler ran.
    ! grep -q "^Fatal error in MPI_Send" off.err || fail "off: the profiler's message, not MPICH's own: $(cat off.err)"
    [ ! -s off.err ] || grep -q "Fatal error in internal_Send" off.err || fail "off: not MPICH's own message: $(cat off.err)"
fi
[ ! -e off.prof.partial.0 ] || fail "off: a partial protocol was written"
mpirun_2 off-get.out off-get.err env MPIPROF_CHECK=off MPIPROF_OUTPUT="$tmp/off-get.prof" ./errors get-errhandler
[ "$(grep -c 'as set' off-get.out)" -eq 22 ] && ! grep -q "NOT as set" off-get.out || fail "off: get-errhandler: $(cat off-get.out)"
# the same through mpi_f08 (MPICH's calls PMPI_ directly), when there is one
if [ "${MPIFORT:-no}" != no ] && [ -n "${MPIFORT_PROF:-}" ] && command -v "$MPIFORT" >/dev/null 2>&1 &&
    "$MPIFORT_PROF" -g -O0 -o errors_f08 "$srcdir/errors_f08.f90" >f08.log 2>&1; then
    run_scenario errors_f08 "$srcdir/errors_f08.f90" f08 basic
    [ "$(grep -c ' T$' f08.out)" -eq 10 ] || fail "f08: $(cat f08.out)"
    run_scenario_partial errors_f08 "$srcdir/errors_f08.f90" f08-fatal 0 basic
else
    echo "NOTE: no mpi_f08 program (MPIFORT=${MPIFORT:-}): $(cat f08.log 2>/dev/null)"
fi
echo "PASS: check_errors"
