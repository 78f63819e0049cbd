#!/bin/sh
# callsite_stacks: a call site reached by several stacks in turn stays on
# the profiler's fast path (MPICH's datatype tests ran 2.4-4.4x slower
# under the profiler: MPI_Type_size at the end of a recursion whose depth
# changes every call, each call a failed walk, a capture and a lookup).
# callsite_stacks.c under callgrind, which counts instructions (the same
# every run, whatever the machine does): the instructions the profiler adds
# per call of its loop through three stacks are at most 1.5 times those it
# adds through one (before: 3.5 times; now about 1.1), and the protocol has
# the three SRC points with every call.  Skipped without valgrind, and with
# the sanitizers (they change every count).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
[ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ] && skip "the library is built with the sanitizers: instruction counts mean nothing"
command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed"
n=30000

cd "$tmp"
"$MPICC" -O2 -g -o plain "$srcdir/callsite_stacks.c" || fail "compiling callsite_stacks.c with $MPICC"
"$MPICC_PROF" -O2 -o profiled "$srcdir/callsite_stacks.c" || fail "compiling callsite_stacks.c with mpicc-prof"

# count BINARY MODE: the instructions of its query_loop (inclusive)
count() {
    "$MPIEXEC" -n 1 env MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/prot.$1.$2" MPIPROF_FORMAT=both \
        valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1.$2" --collect-atstart=no \
        '--toggle-collect=query_loop*' "./$1" "$2" "$n" >"$1.$2.out" 2>"$1.$2.err" ||
        fail "$1 $2 under callgrind: $(cat "$1.$2.out" "$1.$2.err")"
    grep -q '^callsite_stacks: ok$' "$1.$2.out" || fail "$1 $2: $(cat "$1.$2.out")"
    sed -n 's/^==[0-9]*== Collected : \([0-9]*\)$/\1/p' "$1.$2.err"
}
p1=$(count plain one) p3=$(count plain three) q1=$(count profiled one) q3=$(count profiled three)
[ -n "$p1" ] && [ -n "$p3" ] && [ -n "$q1" ] && [ -n "$q3" ] || fail "callgrind counted nothing: $(cat ./*.err)"
echo "instructions per call: unprofiled $((p1 / n)) (one stack), $((p3 / n)) (three); profiled $((q1 / n)), $((q3 / n))"
one=$(((q1 - p1) / n)) three=$(((q3 - p3) / n))
echo "added per call: $one through one stack, $three through three in turn"
[ "$one" -gt 0 ] || fail "the profiler added no instructions: was it loaded?"
[ $((2 * three)) -le $((3 * one)) ] ||
    fail "through three stacks the profiler adds $three instructions per call, more than 1.5 x the $one through one"

cp prot.profiled.three prot.txt
"$PYTHON3" - prot.profiled.three.json "$srcdir/callsite_stacks.c" "$n" <<'PY' || fail "the protocol (above)"
import sys
import protocol_check as pc
doc = pc.load_checked(sys.argv[1], say=False)
source, n = sys.argv[2], int(sys.argv[3])
srcs = pc.sites(doc, 0, "MPI_Type_size", source, "type_size", 3)
calls = sorted(s["calls"] for s in srcs)
assert calls == [n // 3] * 3, "MPI_Type_size: %r calls in SRC points %s" % (calls, pc.describe_srcs(doc))
print("three SRC points of MPI_Type_size, %d calls each" % (n // 3))
PY
echo "PASS: callsite_stacks"
