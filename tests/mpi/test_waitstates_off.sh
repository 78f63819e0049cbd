#!/bin/sh
# waitstates_off: MPIPROF_WAITSTATES (issue #4).  The same program (late
# messages, skewed collectives) run with the wait-state analyses on (the
# default), off, and with MPIPROF_WAITSTATES=bogus.  On: Real sync and
# Potential sync within 10% of what the definitions give from the program's
# instants.  Off: Real sync, Potential sync and Time variation n/a in every
# interval, by process and SRC point, one warning giving the reason
# (MPIPROF_WAITSTATES=off), everything else as with them on (SRC points,
# calls and bytes exactly; times roughly).  Bogus: one warning naming the
# variable, the value and what is accepted (once on stderr too), the
# default used, the run fine.
set -eu
# shellcheck source=common.sh
. "${top_srcdir:?run through tests/mpi/run-mpi-test}/tests/mpi/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o waitstates_off "$srcdir/waitstates_off.c" \
    || fail "compiling waitstates_off.c with mpicc-prof"
for run in on off bogus; do
    mkdir "$run"
    case $run in
        on) set -- MPIPROF_QUIET=1 ;;
        off) set -- MPIPROF_QUIET=1 MPIPROF_WAITSTATES=off ;;
        bogus) set -- MPIPROF_WAITSTATES=bogus ;;  # not quiet: the warning on stderr
    esac
    mpirun_2 "$run/out" "$run/err" env MPIPROF_OUTPUT="$tmp/$run/prot.txt" MPIPROF_FORMAT=both "$@" \
        ./waitstates_off "$tmp/$run/events"
    [ "$(grep -c '^rank=[01] errors=0$' "$run/out")" -eq 2 ] || fail "$run: the program reports errors: $(cat "$run/out" "$run/err")"
    check_text_protocol "$run/prot.txt"
    grep -qE '^ *Wait states[^:]*:' "$run/prot.txt" || fail "$run: the text protocol's Parameters lack the line 'Wait states ... : ...'"
done

schema="$top_srcdir/schema/mpiprof-protocol.schema.json"
[ -f "$schema" ] || schema=-
"$PYTHON3" "$srcdir/check_waitstates_off.py" "$srcdir/waitstates_off.c" "$schema" \
    "$tmp/on/prot.txt:$tmp/on/events:$tmp/on/out" \
    "$tmp/off/prot.txt:$tmp/off/events:$tmp/off/out" \
    "$tmp/bogus/prot.txt:$tmp/bogus/events:$tmp/bogus/out" "$tmp/bogus/err" \
    || fail "protocol check failed (see above)"
echo "PASS: waitstates_off"
