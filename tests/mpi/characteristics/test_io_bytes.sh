#!/bin/sh
# io_bytes: I/O in its own words.  io_bytes.c writes and reads known bytes
# with MPI-IO on 2 processes (part of them in a nested interval): each
# MPI_File SRC point gives bytes_read and bytes_written (its bytes_sent and
# bytes_recv 0) and its bandwidth, each interval its I/O section (calls,
# bytes, time = its Productive I/O, share, bandwidth), nested intervals
# included; the text equals the JSON; traced and analyzed by
# mpiprof-analyze, the same bytes (check_io_bytes.py).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o io_bytes "$srcdir/io_bytes.c" || fail "compiling io_bytes.c with mpicc-prof"
trace=off
[ -x "${top_builddir:?}/tools/mpiprof-analyze" ] && trace=on
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_TRACE=$trace \
    ./io_bytes "$tmp/data"
[ "$(grep -c '^io_bytes: rank [01] done$' out)" -eq 2 ] || fail "the program did not finish: $(cat out err)"
check_text_protocol prot.txt
if [ "$trace" = on ]; then
    need_analyzer
    env MPIPROF_QUIET=1 "$analyze" -q -f both -o trace.prof prot.txt.otf2/traces.otf2 2>analyze.err \
        || fail "mpiprof-analyze failed: $(cat analyze.err)"
    "$PYTHON3" "$srcdir/check_io_bytes.py" prot.txt prot.txt.json trace.prof.json || fail "I/O figures (above)"
else
    "$PYTHON3" "$srcdir/check_io_bytes.py" prot.txt prot.txt.json || fail "I/O figures (above)"
fi
echo "PASS: io_bytes"
