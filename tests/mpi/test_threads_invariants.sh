#!/bin/sh
# threads_invariants: the invariants of characteristics.md for
# tests/mpi/threads.c under MPI_THREAD_MULTIPLE (four threads in MPI at
# once).  An expected failure (XFAIL_TESTS in local.mk) while the process's
# Communication is the sum of its threads' times in MPI: with several threads
# in MPI at once it exceeds the process's execution time, so Productive time
# and Parallelization efficiency come out negative.  When that is fixed this
# test passes, automake reports XPASS (a failure), and the XFAIL mark goes.
set -eu
# shellcheck source=common.sh
. "${top_srcdir:?run through tests/mpi/run-mpi-test}/tests/mpi/common.sh"
need_var MPICC_PROF

steps=200
cd "$tmp"
"$MPICC_PROF" -o threads "$srcdir/threads.c" -lpthread || fail "compiling threads.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./threads multiple "$steps"
grep -q '^threads: multiple ok ' out || fail "the program did not print its result: $(cat out err)"
"$PYTHON3" "$srcdir/check_threads.py" --only-invariants prot.txt.json prot.txt "$srcdir/threads.c" multiple "$steps" \
    || fail "invariants under MPI_THREAD_MULTIPLE (see above)"
echo "PASS: threads_invariants"
