#!/bin/sh
# check_clean: a correct program (point-to-point blocking, nonblocking,
# persistent and probed; collectives in place and not on duplicates and
# splits; handles created and freed) gives no finding at MPIPROF_CHECK=basic,
# full or full,checksum; its output and status are those without the
# profiler; the section says which checks ran, and off says none did (n/a);
# without MPIPROF_QUIET rank 0's summary line says there is no finding.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o clean "$srcdir/clean.c" || fail "compiling clean.c with mpicc-prof"
for level in basic full full,checksum; do
    run_scenario clean "$srcdir/clean.c" clean "$level"
    unwrapped clean.prof | grep -q "^Checks *: .*(MPIPROF_CHECK=$level)" || fail "the Checks line does not name $level"
    grep -q "^Findings *: 0 errors, 0 warnings$" clean.prof || fail "MPIPROF_CHECK=$level: $(sed -n '3,12p' clean.prof)"
done
check_text_protocol clean.prof
"$PYTHON3" - "$schema" clean.prof.json <<'PY' || fail "the JSON protocol does not follow the schema"
import json, sys
import jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY

mpirun_2 off.out off.err env MPIPROF_CHECK=off MPIPROF_OUTPUT="$tmp/off.prof" MPIPROF_FORMAT=both ./clean
unwrapped off.prof | grep -q "^Checks *: none (MPIPROF_CHECK=off)" || fail "off: $(sed -n '3,6p' off.prof)"
grep -q "^Findings *: n/a (no correctness check ran" off.prof || fail "off: $(sed -n '3,6p' off.prof)"
! grep -q "correctness findings\|Correctness section" off.err || fail "off: a summary line on stderr: $(cat off.err)"

mpirun_2 loud.out loud.err env MPIPROF_OUTPUT="$tmp/loud.prof" MPIPROF_CHECK=basic ./clean
[ "$(grep -c '^mpiprof: no correctness findings (MPIPROF_CHECK=basic)$' loud.err)" -eq 1 ] \
    || fail "no summary line, or more than one: $(cat loud.err)"
echo "PASS: check_clean"
