#!/bin/sh
# check_resources: communicators, datatypes, groups (MPICH returns one
# group twice: each needs a free), operations, info objects and files made
# and not freed at MPI_Finalize, one resource-leak per creating SRC point
# with its count (null and predefined handles never), with the wait states
# off too; 10^4 datatypes and 10^3 communicators left cost under 100 bytes
# each (mpiprof(7)); an attribute on MPI_COMM_SELF, whose delete callback
# MPI_Finalize runs after the protocol, turns the check off, said in the
# Warnings.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o local "$srcdir/local.c" -lpthread 2>cc.err || fail "compiling local.c: $(cat cc.err)"
for scenario in leak-comm leak-types leak-others leak-many freed-at-finalize; do
    run_scenario local "$srcdir/local.c" "$scenario" basic
done
MPIPROF_WAITSTATES=off run_scenario local "$srcdir/local.c" leak-comm basic
unwrapped freed-at-finalize.prof | grep -q "resource-leak not checked: the program set attributes on MPI_COMM_SELF" \
    || fail "no warning that resource-leak was not checked: $(grep -A3 '^Warnings' freed-at-finalize.prof)"

# memory: the peak of a process with the check, against without (the most
# of 3 runs without, the least of 3 with): 11000 handles, under 2 MiB more
peak() {
    "$MPIEXEC" -n 2 env MPIPROF_CHECK="$1" MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/peak.prof" MPIPROF_OVERWRITE=1 \
        ./local leak-many 2>&1 >/dev/null | sed -n 's/^peak \([0-9]*\) kB$/\1/p' | sort -n | tail -n 1
}
off=0
with=999999999
for _ in 1 2 3; do
    p=$(peak off)
    [ -n "$p" ] || fail "leak-many printed no peak"
    [ "$p" -gt "$off" ] && off=$p
    p=$(peak basic)
    [ "$p" -lt "$with" ] && with=$p
done
echo "peak memory of leak-many: $off kB without the check, $with kB with"
[ $((with - off)) -lt 2048 ] || fail "11000 handles left cost $((with - off)) kB (at most 2048 expected)"
echo "PASS: check_resources"
