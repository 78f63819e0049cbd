#!/bin/sh
# origin_threads: a request started by one thread and completed by another
# (MPI_THREAD_SERIALIZED): its Overlap goes to the starting call's SRC point,
# which the completing thread finds in its own table by the frames the
# request's origin keeps (a copy of the starting cell's frames made once per
# cell, thread_state.c).  6 rounds, a new thread each; MPIPROF_MODEL gives
# the transfer 5 ms, so the MPI_Isend's Overlap is 6 x 5 ms
# (check_origin_threads.py).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

rounds=6
cd "$tmp"
"$MPICC_PROF" -o origin_threads "$srcdir/origin_threads.c" -lpthread || fail "compiling origin_threads.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    MPIPROF_MODEL="lat_intra=5ms,bw_intra=1GB/s" ./origin_threads "$rounds"
if grep -q 'MPI_THREAD_SERIALIZED not provided' out; then
    skip "the MPI library does not provide MPI_THREAD_SERIALIZED"
fi
grep -q "^origin_threads: ok rounds=$rounds\$" out || fail "the program did not finish: $(cat out err)"
"$PYTHON3" "$srcdir/check_origin_threads.py" prot.txt.json prot.txt "$srcdir/origin_threads.c" "$rounds" \
    || fail "protocol check failed (see above)"
echo "PASS: origin_threads"
