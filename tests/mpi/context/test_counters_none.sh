#!/bin/sh
# counters_none: hardware counters asked for and none available must degrade
# cleanly.  (1) Events PAPI does not have: each is named in the Warnings with
# PAPI's reason, the Hardware counters parameter is one "none counted" line,
# each interval's counters part one line, the JSON has no counts; and apart
# from that the protocol is the one of a run with MPIPROF_PAPI_EVENTS=none.
# (2) The default events (PAPI_TOT_INS, PAPI_TOT_CYC): on a machine without
# hardware counters (a VM), the same degradation; where PAPI can count them,
# they are counted in every interval with IPC derived.  Built without PAPI:
# the n/a lines instead.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=context.sh
. "$srcdir/context.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o context "$srcdir/context.c" || fail "compiling context.c with mpicc-prof"

# protocol NAME [VAR=VALUE...]: a 2-process run writing NAME.txt(.json)
protocol() {
    _name=$1
    shift
    mpirun_2 "$_name.out" "$_name.err" env MPIPROF_OUTPUT="$tmp/$_name.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 "$@" ./context
    grep -q '^context: 2 processes' "$_name.out" || fail "run $_name: the program's output is wrong: $(cat "$_name.out")"
    cp "$_name.txt" prot.txt # shown on failure
    check_text_protocol "$_name.txt"
}

if ! built_with papi; then
    protocol na
    check_context na na.txt.json na.txt "$schema" papi
    echo "PASS: counters_none (built without PAPI: Hardware counters n/a)"
    exit 0
fi

# (1) events that do not exist
protocol bogus MPIPROF_PAPI_EVENTS=MPIPROF_NO_SUCH_EVENT,perf::MPIPROF_NO_SUCH_EVENT
check_context none bogus.txt.json bogus.txt "$schema" MPIPROF_NO_SUCH_EVENT perf::MPIPROF_NO_SUCH_EVENT
protocol off MPIPROF_PAPI_EVENTS=none
grep -q '^Hardware counters *: none counted (PAPI [^:]*: MPIPROF_PAPI_EVENTS=none)$' off.txt \
    || fail "MPIPROF_PAPI_EVENTS=none: $(grep '^Hardware counters' off.txt)"
check_context same-structure bogus.txt off.txt

# (2) the default events, where this machine has them or not
protocol default
if command -v papi_command_line >/dev/null 2>&1; then
    if papi_command_line PAPI_TOT_INS PAPI_TOT_CYC 2>&1 | grep -q 'Successfully added: PAPI_TOT_CYC' &&
        papi_command_line PAPI_TOT_INS PAPI_TOT_CYC 2>&1 | grep -q 'Successfully added: PAPI_TOT_INS'; then
        echo "NOTE: this machine counts PAPI_TOT_INS and PAPI_TOT_CYC: checking they are counted"
        check_context counted default.txt.json default.txt "$schema" PAPI_TOT_INS PAPI_TOT_CYC
    else
        echo "NOTE: PAPI cannot count PAPI_TOT_INS and PAPI_TOT_CYC here: checking the degradation"
        check_context none default.txt.json default.txt "$schema" PAPI_TOT_INS PAPI_TOT_CYC
        check_context same-structure default.txt off.txt
    fi
else
    echo "NOTE: papi_command_line (papi-tools) is not installed: the default events are checked for consistency only"
    "$PYTHON3" -c '
import sys, protocol_check as pc
pc.load_checked(sys.argv[1], sys.argv[2], sys.argv[3])
' default.txt.json default.txt "$schema" || fail "the protocol of the default events is not consistent"
fi
echo "PASS: counters_none"
