#!/bin/sh
# counters_sde: the counter path end to end on a machine without hardware
# counters, with PAPI's software-defined events (libsde): counters_sde.c
# registers counters it controls and changes them by known amounts inside
# intervals, outside and inside MPI calls.  With MPIPROF_PAPI_SRC=on the
# protocol must give, per interval and rank, exactly those counts, split into
# inside and outside MPI, with sum, min/max with rank and mean; off, the same
# totals and no split.  Text = JSON, every invariant, schema.  Built without
# PAPI: the n/a lines instead; libsde missing: skipped.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=context.sh
. "$srcdir/context.sh"
need_var MPICC_PROF

cd "$tmp"
if ! built_with papi; then
    "$MPICC_PROF" -o context "$srcdir/context.c" || fail "compiling context.c with mpicc-prof"
    mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./context
    check_text_protocol prot.txt
    check_context na prot.txt.json prot.txt "$schema" papi
    echo "PASS: counters_sde (built without PAPI: Hardware counters n/a)"
    exit 0
fi
sde_libs=${MPIPROF_TEST_SDE_LIBS--lsde}
[ -n "$sde_libs" ] || skip "configure found no libsde (PAPI's software-defined events, sde_lib.h): no counters the test can drive"
# shellcheck disable=SC2086  # flags
"$MPICC_PROF" ${MPIPROF_TEST_PAPI_CFLAGS:-} -o counters_sde "$srcdir/counters_sde.c" $sde_libs \
    || fail "compiling counters_sde.c with mpicc-prof and $sde_libs"

events=sde:::mpiprof_test::WORK,sde:::mpiprof_test::PHASES
for split in on off; do
    rm -f prot.txt prot.txt.json
    mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
        MPIPROF_PAPI_EVENTS="$events" MPIPROF_PAPI_SRC="$split" ./counters_sde
    grep -q '^counters_sde: ok$' out || fail "counters_sde did not print its result: $(cat out err)"
    check_text_protocol prot.txt
    check_context sde prot.txt.json prot.txt "$schema" "$split"
done
echo "PASS: counters_sde"
