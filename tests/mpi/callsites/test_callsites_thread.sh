#!/bin/sh
# callsites_thread: the stack of an MPI call made by a thread that
# pthread_create started ends at the thread's function, as the main
# thread's ends at main: no start_thread, clone or clone3 frames below
# (MPIPROF_DEPTH=8, deep enough to reach them).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_library

cd "$tmp"
"$MPICC_PROF" -O0 -pthread -o thread "$srcdir/callsites_thread.c" || fail "compiling callsites_thread.c"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_DEPTH=8 ./thread
if grep -q '^callsites_thread: skipped$' out; then
    skip "the MPI library does not provide MPI_THREAD_MULTIPLE"
fi
grep -q '^callsites_thread: ok$' out || fail "callsites_thread did not print its result: $(cat out err)"
check_text_protocol prot.txt
status=0
"$PYTHON3" "$srcdir/check_callsites_thread.py" prot.txt.json prot.txt "$srcdir/callsites_thread.c" || status=$?
[ "$status" = 77 ] && skip "the C library has no symbols here (Debian: libc6-dbg, maint/install-deps.sh)"
[ "$status" = 0 ] || fail "protocol check failed (see above)"
echo "PASS: callsites_thread"
