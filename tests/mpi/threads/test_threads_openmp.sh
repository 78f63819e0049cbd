#!/bin/sh
# threads_openmp: a hybrid MPI+OpenMP program (openmp_hybrid.c, -fopenmp,
# MPI_THREAD_FUNNELED) on 2 processes.  With OMP_NUM_THREADS=2 the protocol
# must give 2 threads per process, 1 of them calling MPI, and the OpenMP
# team size 2 (from the OpenMP runtime), per process and over processes,
# in the JSON and the text; and, with the placement known, the
# oversubscription warning naming 2 processes x 2 threads against the
# node's cores when they are fewer than 4.  With OMP_NUM_THREADS=1: 1
# thread, and no such warning (the ranks alone do not oversubscribe 2
# cores).  On a node of more cores, one more run with as many threads per
# process as cores gets the warning too.  Each rank bound to a core of its
# own (mpiexec -bind-to core, when it has that option and the node 2 cores
# or more): with 2 threads each, the warning that each rank's threads share
# its core; with 1, none.  The program built without -fopenmp, with
# OMP_NUM_THREADS=3: 1 thread, and the team size 3 labelled as the
# variable's (no OpenMP runtime loaded).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -fopenmp -o openmp_hybrid "$srcdir/openmp_hybrid.c" || fail "compiling openmp_hybrid.c with mpicc-prof -fopenmp"
cores=$(nproc)
runs="2 1"
[ "$cores" -gt 2 ] && runs="$runs $cores"
for t in $runs; do
    rm -f prot.txt prot.txt.json
    mpirun_2 "out.$t" "err.$t" env OMP_NUM_THREADS="$t" OMP_WAIT_POLICY=passive MPIPROF_OUTPUT="$tmp/prot.txt" \
        MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./openmp_hybrid
    grep -q "^openmp_hybrid: $t threads ok" "out.$t" || fail "OMP_NUM_THREADS=$t: the program's output is wrong: $(cat "out.$t" "err.$t")"
    check_text_protocol prot.txt
    "$PYTHON3" "$srcdir/check_threads_openmp.py" openmp prot.txt.json prot.txt "$schema" "$t" \
        || fail "OMP_NUM_THREADS=$t: protocol check failed (see above)"
done
if [ "$cores" -ge 2 ] && "$MPIEXEC" -bind-to core -n 1 true >/dev/null 2>&1; then
    for t in 2 1; do
        rm -f prot.txt prot.txt.json
        "$MPIEXEC" -bind-to core -n 2 env OMP_NUM_THREADS="$t" OMP_WAIT_POLICY=passive MPIPROF_OUTPUT="$tmp/prot.txt" \
            MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./openmp_hybrid >"bound.out.$t" 2>"bound.err.$t" ||
            fail "bound, OMP_NUM_THREADS=$t: the run failed: $(cat "bound.out.$t" "bound.err.$t")"
        "$PYTHON3" "$srcdir/check_threads_openmp.py" openmp prot.txt.json prot.txt "$schema" "$t" bound \
            || fail "bound, OMP_NUM_THREADS=$t: protocol check failed (see above)"
    done
else
    echo "NOTE: $MPIEXEC has no -bind-to core, or the node 1 core: the bound runs are SKIPPED"
fi
"$MPICC_PROF" -o plain_hybrid "$srcdir/openmp_hybrid.c" || fail "compiling openmp_hybrid.c with mpicc-prof, no -fopenmp"
rm -f prot.txt prot.txt.json
mpirun_2 out.env err.env env OMP_NUM_THREADS=3 MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    ./plain_hybrid
grep -q "^openmp_hybrid: 1 threads ok" out.env || fail "no -fopenmp: the program's output is wrong: $(cat out.env err.env)"
"$PYTHON3" "$srcdir/check_threads_openmp.py" openmp prot.txt.json prot.txt "$schema" 3 env \
    || fail "no -fopenmp, OMP_NUM_THREADS=3: protocol check failed (see above)"
echo "PASS: threads_openmp"
