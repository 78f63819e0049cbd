#!/bin/sh
# check_collectives: members of a collective operation that disagree
# (between.c): different roots (blocking, and a persistent operation's at
# each start), reduction operations, operations at one position, sizes
# and, at MPIPROF_CHECK=full only, type signatures; a member that made one
# collective call more than the others (incomplete-collective), a
# nonblocking one never completed (unfinished-collective); the forms
# of one operation and equal signatures of other types give nothing.  With
# the wait states off the checks do not run, and Warnings says so.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF
# messages left unmatched on purpose: UCX would warn of them on stdout, at
# other addresses in each run
export UCX_LOG_LEVEL=error

cd "$tmp"
"$MPICC_PROF" -g -o between "$srcdir/between.c" || fail "compiling between.c with mpicc-prof"
for scenario in bcast-roots reduce-ops coll-mismatch coll-size coll-datatype coll-forms-ok incomplete unfinished; do
    run_scenario between "$srcdir/between.c" "$scenario"
done
# persistent collectives are MPI-4's (Open MPI's mpi.h is MPI-3.1)
[ "${MPI_FAMILY:-mpich}" = openmpi ] || run_scenario between "$srcdir/between.c" pcoll-roots
# basic: the same checks but the type signatures'
run_scenario between "$srcdir/between.c" bcast-roots-basic basic
run_scenario between "$srcdir/between.c" coll-datatype-basic basic

# the wait states off: no check between processes, said in Warnings
mpirun_2 off.out off.err env MPIPROF_WAITSTATES=off MPIPROF_CHECK=full MPIPROF_FORMAT=both \
    MPIPROF_OUTPUT="$tmp/off.prof" ./between bcast-roots
unwrapped off.prof | grep -q "collective and message checks .* need MPIPROF_WAITSTATES=on" \
    || fail "MPIPROF_WAITSTATES=off: no warning that the checks between processes did not run: $(grep -A5 '^Warnings' off.prof)"
grep -q "^Findings *: 0 errors, 0 warnings$" off.prof || fail "MPIPROF_WAITSTATES=off: $(sed -n '3,12p' off.prof)"
echo "PASS: check_collectives"
