#!/bin/sh
# waitstates_off: MPIPROF_WAITSTATES turns the wait-state analyses off
# (their values n/a, the rest as with them on).  The same program (late
# messages, skewed collectives) run with the wait-state analyses on (the
# default), off, and with MPIPROF_WAITSTATES=bogus.  On: Real sync and
# Potential sync within 10% of what the definitions give from the program's
# instants.  Off: Real sync, Potential sync and Time variation n/a in every
# interval, by process and SRC point, one warning giving the reason
# (MPIPROF_WAITSTATES=off), everything else as with them on (SRC points,
# calls and bytes exactly; times roughly).  Bogus: one warning naming the
# variable, the value and what is accepted (once on stderr too), the
# default used, the run fine.  Two runs' times differ as the host's load
# does: when on and off differ in times alone, both run again once
# (check_waitstates_off.py --again).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o waitstates_off "$srcdir/waitstates_off.c" \
    || fail "compiling waitstates_off.c with mpicc-prof"
# run DIR on|off|bogus: one run, its protocol and events in DIR
run() {
    mkdir "$1"
    case $2 in
        on) set -- "$1" MPIPROF_QUIET=1 ;;
        off) set -- "$1" MPIPROF_QUIET=1 MPIPROF_WAITSTATES=off ;;
        bogus) set -- "$1" MPIPROF_WAITSTATES=bogus ;;  # not quiet: the warning on stderr
    esac
    _dir=$1
    shift
    mpirun_2 "$_dir/out" "$_dir/err" env MPIPROF_OUTPUT="$tmp/$_dir/prot.txt" MPIPROF_FORMAT=both "$@" \
        ./waitstates_off "$tmp/$_dir/events"
    [ "$(grep -c '^rank=[01] errors=0$' "$_dir/out")" -eq 2 ] || fail "$_dir: the program reports errors: $(cat "$_dir/out" "$_dir/err")"
    check_text_protocol "$_dir/prot.txt"
    grep -qE '^ *Wait states[^:]*:' "$_dir/prot.txt" || fail "$_dir: the text protocol's Parameters lack the line 'Wait states ... : ...'"
}
for r in on off bogus; do
    run "$r" "$r"
done

# check [--again] ON_DIR OFF_DIR
check() {
    _again=
    [ "$1" = --again ] && { _again=--again; shift; }
    # shellcheck disable=SC2086  # $_again: no word or one
    "$PYTHON3" "$srcdir/check_waitstates_off.py" $_again "$srcdir/waitstates_off.c" "${schema:--}" \
        "$tmp/$1/prot.txt:$tmp/$1/events:$tmp/$1/out" \
        "$tmp/$2/prot.txt:$tmp/$2/events:$tmp/$2/out" \
        "$tmp/bogus/prot.txt:$tmp/bogus/events:$tmp/bogus/out" "$tmp/bogus/err"
}
status=0
check --again on off || status=$?
if [ "$status" -eq 3 ]; then
    # The runs on and off differ in times alone: the host's load moved a
    # process's arrival at a synchronizing call (check_waitstates_off.py,
    # --again).  Both once more, checked without --again.
    echo "the runs on and off differ in times alone: both again"
    run on_again on
    run off_again off
    check on_again off_again || fail "protocol check failed on the runs made again (see above)"
elif [ "$status" -ne 0 ]; then
    fail "protocol check failed (see above)"
fi
echo "PASS: waitstates_off"
