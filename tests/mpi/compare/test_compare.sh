#!/bin/sh
# compare: mpiprof-compare on real protocols (check_compare.py).  Two runs
# of the intervals program (intervals.c, 2 processes) compare structurally
# equal with the times within a loose tolerance (the host's speed changes
# from one millisecond to the next), the first given as its text protocol
# (read through its JSON sibling); copies of the first JSON edited in one
# place each differ, with exit 1 and the message naming what: an SRC point
# removed, a call count changed, an interval renamed, a time changed
# beyond the default tolerance (and one within it does not); --ignore
# NAME excepts that name alone; bad input (a missing file, a file that is
# not a protocol, truncated JSON, a text protocol without its JSON, an
# unknown --ignore name, a bad --rtol) exits 2 with one line on stderr;
# jacobi at 1 and 2 processes prints the speedup, the scaling efficiency
# and each part of Lost time, the speedup being A's execution time over
# B's.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o intervals "$mpitests/intervals/intervals.c" || fail "compiling intervals.c with mpicc-prof"
"$MPICC_PROF" -O2 -o jacobi "$top_srcdir/examples/jacobi.c" || fail "compiling examples/jacobi.c with mpicc-prof"
for run in 1 2; do
    mpirun_2 out err env MPIPROF_OUTPUT="$tmp/run$run.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./intervals
done
[ -s run1.prof ] && [ -s run1.prof.json ] && [ -s run2.prof.json ] || fail "the runs wrote no protocols (MPIPROF_FORMAT=both)"
# jacobi, a small grid, at 1 and 2 processes
"$MPIEXEC" -n 1 env MPIPROF_OUTPUT="$tmp/jacobi1.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 ./jacobi 256 200 >out 2>err ||
    fail "jacobi on 1 process: $(cat out err)"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/jacobi2.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 ./jacobi 256 200

"$PYTHON3" "$srcdir/check_compare.py" "${top_builddir:?}/tools/mpiprof-compare" "$tmp" ||
    fail "mpiprof-compare checks (see above)"
echo "PASS: compare"
