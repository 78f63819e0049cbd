#!/bin/sh
# thread_times: under MPI_THREAD_MULTIPLE two threads call MPI_Sendrecv at
# one source line on different communicators (thread_times.c), with
# partners 300 ms and 100 ms late.  The protocol must give one SRC point for
# the line, with the per-thread times: 2 threads on each process, rank 0's
# at about 300 ms and 100 ms, rank 1's both about 0, in the JSON and the
# text; rank 0's Communication about 300 ms (the threads waited at once);
# and 3 threads per process, all of them calling MPI.  The run is traced
# when mpiprof-analyze is built: the analyzer's protocol of its trace (OTF2
# locations are threads; trace mode records the thread counts) must give
# the same.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

late_ms=300
cd "$tmp"
"$MPICC_PROF" -o thread_times "$srcdir/thread_times.c" -lpthread || fail "compiling thread_times.c with mpicc-prof"
# with the trace analyzer built, the run is traced: its protocol must say the same
analyze="$top_builddir/tools/mpiprof-analyze"
trace=off
[ -x "$analyze" ] && trace=on
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_TRACE=$trace \
    ./thread_times "$late_ms"
grep -q "^thread_times: ok" out || fail "the program's output is wrong: $(cat out err)"
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_threads_openmp.py" times prot.txt.json prot.txt "$schema" "$srcdir/thread_times.c" "$late_ms" \
    || fail "protocol check failed (see above)"
if [ "$trace" = on ]; then
    "$analyze" -q -f both -o trace.prof prot.txt.otf2/traces.otf2 2>analyze.err || fail "mpiprof-analyze failed: $(cat analyze.err)"
    cp trace.prof prot.txt # shown on failure
    "$PYTHON3" "$srcdir/check_threads_openmp.py" times trace.prof.json trace.prof "$schema" "$srcdir/thread_times.c" \
        "$late_ms" || fail "mpiprof-analyze's protocol: check failed (see above)"
else
    echo "NOTE: mpiprof-analyze is not built (no libotf2): its protocol of the run is not checked"
fi
echo "PASS: thread_times"
