#!/bin/sh
# check_threads: an MPI call from another thread than MPI_Init_thread's
# under MPI_THREAD_SINGLE and FUNNELED (thread-level; MPI_Initialized is
# allowed), a call while another thread is inside one under
# MPI_THREAD_SERIALIZED, and none when the threads take turns or under
# MPI_THREAD_MULTIPLE.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o local "$srcdir/local.c" -lpthread 2>cc.err || fail "compiling local.c: $(cat cc.err)"
for scenario in thread-single thread-funneled thread-serialized thread-serialized-ok thread-multiple; do
    run_scenario local "$srcdir/local.c" "$scenario" basic
done
echo "PASS: check_threads"
