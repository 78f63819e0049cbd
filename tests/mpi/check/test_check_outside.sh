#!/bin/sh
# check_outside: an MPI call before MPI_Init (MPICH converts a status then)
# is a call-outside-mpi finding in the protocol; one after MPI_Finalize is
# one line on stderr per process (the protocol is written), none with
# MPIPROF_QUIET; where MPICH aborts on the call (before MPI_Init, after
# MPI_Finalize) the line comes first and the exit status is MPICH's; with
# the checks off, no line.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o local "$srcdir/local.c" -lpthread 2>cc.err || fail "compiling local.c: $(cat cc.err)"
for scenario in before-init after-finalize after-finalize-abort; do
    run_scenario local "$srcdir/local.c" "$scenario" basic
done

# LINES SCENARIO FUNCTION WHEN [ENV...]: the status without the profiler,
# and exactly LINES lines "call-outside-mpi in FUNCTION ... called WHEN" on stderr
loud() {
    _lines=$1 _scen=$2 _fn=$3 _when=$4
    shift 4
    set +e
    "$MPIEXEC" -n 2 env MPIPROF_DISABLE=1 ./local "$_scen" >/dev/null 2>plain.err
    _plain=$?
    "$MPIEXEC" -n 2 env MPIPROF_OUTPUT="$tmp/loud.prof" MPIPROF_OVERWRITE=1 "$@" ./local "$_scen" >/dev/null 2>loud.err
    _status=$?
    set -e
    [ "$_status" -eq "$_plain" ] || fail "$_scen $*: exit status $_status, $_plain without the profiler"
    _n=$(grep -c "^mpiprof: error: call-outside-mpi in $_fn at local.c:[0-9]* ([a-z_]*): called $_when" loud.err || true)
    [ "$_n" -eq "$_lines" ] || fail "$_scen $*: $_n lines on stderr, $_lines expected: $(cat loud.err)"
}
loud 2 after-finalize MPI_Status_c2f "after MPI_Finalize (not in the protocol, written before)" MPIPROF_CHECK=basic
loud 2 after-finalize-abort MPI_Barrier "after MPI_Finalize" MPIPROF_CHECK=basic
[ "$_plain" -ne 0 ] || fail "MPICH did not abort on MPI_Barrier after MPI_Finalize: the test means nothing"
loud 2 before-init-abort MPI_Comm_rank "before MPI_Init" MPIPROF_CHECK=basic
loud 0 before-init-abort MPI_Comm_rank "before MPI_Init" MPIPROF_CHECK=basic MPIPROF_QUIET=1
loud 0 before-init-abort MPI_Comm_rank "before MPI_Init" MPIPROF_CHECK=off
loud 0 after-finalize-abort MPI_Barrier "after MPI_Finalize" MPIPROF_CHECK=off
echo "PASS: check_outside"
