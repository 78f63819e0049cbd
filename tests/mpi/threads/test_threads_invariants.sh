#!/bin/sh
# threads_invariants: the invariants of characteristics.md for
# tests/mpi/threads/threads.c under MPI_THREAD_MULTIPLE (four threads in MPI at
# once).  A process's Communication is then the wall time during which one
# of its threads was inside MPI, not the sum of the threads' times, so
# Productive time and Parallelization efficiency stay within bounds.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

steps=200
cd "$tmp"
"$MPICC_PROF" -o threads "$srcdir/threads.c" -lpthread || fail "compiling threads.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./threads multiple "$steps"
grep -q '^threads: multiple ok ' out || fail "the program did not print its result: $(cat out err)"
"$PYTHON3" "$srcdir/check_threads.py" --only-invariants prot.txt.json prot.txt "$srcdir/threads.c" multiple "$steps" \
    || fail "invariants under MPI_THREAD_MULTIPLE (see above)"
echo "PASS: threads_invariants"
