# shellcheck shell=sh
# What the correctness tests (tests/mpi/check/test_*.sh) share.  Sourced
# after tests/mpi/lib/common.sh, in $tmp.
#
#   run_scenario PROGRAM SOURCE SCENARIO [LEVEL]
#       run "./PROGRAM SCENARIO" on 2 processes without the profiler
#       (MPIPROF_DISABLE=1) and with MPIPROF_CHECK=LEVEL (default full):
#       the same exit status and the same standard output (lines sorted:
#       the processes interleave) both times, and the protocol's findings
#       exactly those SOURCE marks for SCENARIO (check_findings.py), in the
#       JSON and the text.  The protocol is $tmp/SCENARIO.prof (.json).

run_scenario() {
    _prog=$1
    _src=$2
    _scen=$3
    _level=${4:-full}
    set +e
    "$MPIEXEC" -n 2 env MPIPROF_DISABLE=1 "./$_prog" "$_scen" >"$_scen.plain.out" 2>"$_scen.plain.err"
    _plain=$?
    "$MPIEXEC" -n 2 env MPIPROF_CHECK="$_level" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_OVERWRITE=1 \
        MPIPROF_OUTPUT="$tmp/$_scen.prof" "./$_prog" "$_scen" >"$_scen.out" 2>"$_scen.err"
    _status=$?
    set -e
    [ "$_status" -eq "$_plain" ] \
        || fail "scenario $_scen: exit status $_status with the profiler, $_plain without: $(cat "$_scen.err")"
    sort "$_scen.plain.out" >"$_scen.plain.sorted"
    sort "$_scen.out" >"$_scen.sorted"
    cmp -s "$_scen.plain.sorted" "$_scen.sorted" \
        || fail "scenario $_scen: the program's output differs with the profiler: $(diff "$_scen.plain.sorted" "$_scen.sorted")"
    ! grep -q mpiprof "$_scen.err" || fail "scenario $_scen: mpiprof wrote on stderr with MPIPROF_QUIET=1: $(cat "$_scen.err")"
    "$PYTHON3" "$srcdir/check_findings.py" "$_scen.prof.json" "$_src" "$_scen" "$_scen.prof" \
        || fail "scenario $_scen: the findings are not those marked in $(basename "$_src")"
}
