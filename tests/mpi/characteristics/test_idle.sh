#!/bin/sh
# idle: rank 0 computes ~200 ms after its last MPI call while rank 1 goes
# straight to MPI_Finalize.  Idle time must be within 10% of the difference
# of the ranks' execution times as the program measures them (~200 ms), and
# it must be rank 1's.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o idle "$srcdir/idle.c" || fail "compiling idle.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./idle
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_idle.py" prot.txt.json prot.txt "$srcdir/idle.c" out \
    || fail "protocol check failed (see above)"
echo "PASS: idle"
