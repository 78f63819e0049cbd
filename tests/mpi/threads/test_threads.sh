#!/bin/sh
# threads: tests/mpi/threads/threads.c at each thread level (MPI_Init_thread with
# MPI_THREAD_SINGLE, FUNNELED, SERIALIZED, MULTIPLE; one run each).  Four
# workers make known numbers of MPI calls (blocking, nonblocking, persistent
# requests made and freed at every step) from their own call sites; under
# MULTIPLE from four threads at once.  The protocol must give every worker's
# SRC points their exact calls and bytes per process, non-negative times,
# and the thread level; every invariant must hold (for MULTIPLE see
# test_threads_invariants.sh).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

steps=200
cd "$tmp"
"$MPICC_PROF" -o threads "$srcdir/threads.c" -lpthread || fail "compiling threads.c with mpicc-prof"
for level in single funneled serialized multiple; do
    rm -f prot.txt prot.txt.json
    mpirun_2 "out.$level" "err.$level" env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
        ./threads "$level" "$steps"
    grep -q "^threads: $level ok " "out.$level" || fail "$level: the program did not print its result: $(cat "out.$level" "err.$level")"
    # MULTIPLE: the invariants fail for a known reason, checked apart (XFAIL).
    invariants=--invariants
    [ "$level" = multiple ] && invariants=--no-invariants
    "$PYTHON3" "$srcdir/check_threads.py" "$invariants" prot.txt.json prot.txt "$srcdir/threads.c" "$level" "$steps" \
        || fail "$level: protocol check failed (see above)"
done
echo "PASS: threads"
