#!/bin/sh
# compare_n: mpiprof-compare across an edit and across process counts
# (check_compare_n.py).  intervals.c is built twice with mpicc-prof, the
# second copy with three comment lines added at its top, so that every
# interval mark and every MPI call is three lines lower: the comparison of
# the two runs matches every interval and every SRC point, none in one
# protocol only, and says each moved (old and new line).  jacobi at P = 1,
# 2 and 4 (oversubscribed, a small grid): the scaling table, its times
# those of the JSONs, speedup and scaling efficiency against P = 1, the
# fitted models marked as fits with their predictions at P = 8 and 16; and
# copies of its protocol made into runs at P = 2 ... 64 with a known law
# (execution time 0.3 + 0.02 P^(1/2) log2(P), Collective 0.001 P^2): the
# fits give the laws back within 5%.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
mkdir before after
cp "$mpitests/intervals/intervals.c" before/intervals.c
{
    printf '/* three lines added above every call */\n/* ... */\n/* ... */\n'
    cat "$mpitests/intervals/intervals.c"
} >after/intervals.c
for side in before after; do
    (cd "$side" && "$MPICC_PROF" -I"$mpitests/intervals" -o intervals intervals.c) ||
        fail "compiling $side/intervals.c with mpicc-prof"
    (cd "$side" && mpirun_2 out err env MPIPROF_OUTPUT="$tmp/$side.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 ./intervals)
done

"$MPICC_PROF" -O2 -o jacobi "$top_srcdir/examples/jacobi.c" || fail "compiling examples/jacobi.c with mpicc-prof"
for np in 1 2 4; do
    "$MPIEXEC" -n $np env MPIPROF_OUTPUT="$tmp/jacobi$np.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 ./jacobi 128 50 \
        >out$np 2>err$np || fail "jacobi on $np processes: $(cat out$np err$np)"
done

"$PYTHON3" "$srcdir/check_compare_n.py" "${top_builddir:?}/tools/mpiprof-compare" "$tmp" ||
    fail "mpiprof-compare checks (see above)"
echo "PASS: compare_n"
