#!/bin/sh
# io_split: the I/O part of Productive time, the time in MPI-IO calls
# (CPU and Sys share the rest as the program's CPU time does).  Each rank
# writes, syncs and reads back 4 MiB of one file in the test's directory
# with MPI_File_write_at / MPI_File_sync / MPI_File_read_at, computes,
# sleeps, and waits for the other in MPI_Recv (CPU time that is
# Communication).  The I/O of the Productive split is the sum of the
# MPI_File_* SRC points' times exactly (JSON and text); CPU + Sys + I/O =
# Productive; CPU / (CPU + Sys) is the program's user / (user + sys); every
# invariant holds, the text agrees with the JSON.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o io_split "$srcdir/io_split.c" || fail "compiling io_split.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./io_split "$tmp/data"
[ "$(grep -c '^rank=[01] user=' out)" -eq 2 ] || fail "the program did not finish: $(cat out err)"
[ ! -e "$tmp/data" ] || fail "the program did not delete its file"
check_text_protocol prot.txt

# shellcheck disable=SC2086  # no schema: no argument
"$PYTHON3" "$srcdir/check_io_split.py" prot.txt.json prot.txt out $schema \
    || fail "protocol check failed (see above)"
echo "PASS: io_split"
