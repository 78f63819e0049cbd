#!/bin/sh
# io_digest: a run that is nearly all MPI-IO (io_digest.c, 2 processes).
# By the method I/O is productive, so K_eff alone looks healthy: the
# digest must name I/O with its share of Total time, in the JSON, in the
# text's first 40 lines and in the summary on stderr, and its top SRC
# point, an MPI_File_* call, is no Lost time (check_io_digest.py).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o io_digest "$srcdir/io_digest.c" || fail "compiling io_digest.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both ./io_digest "$tmp/data"
grep -q '^io_digest: ok$' out || fail "the program did not read back what it wrote: $(cat out err)"
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_io_digest.py" prot.txt.json prot.txt err "$schema" || fail "protocol check failed (see above)"
echo "PASS: io_digest"
