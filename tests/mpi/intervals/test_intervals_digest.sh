#!/bin/sh
# intervals_digest: the digest and the SRC tables summed over intervals, on
# intervals.c's nested intervals (2 processes, every one selected): each
# interval's src_inclusive is the src of its subtree summed ("loop" lists
# its own MPI_Barrier, and "exchange"'s MPI_Allreduce with it), the whole
# run's table is interval 0's inclusive one, the digest's numbers are
# interval 0's and its top SRC points the whole run's first; the text
# protocol opens with the same digest within its first 40 lines, no line
# over 160 characters, and the summary MPI_Finalize prints on stderr says
# the same (check_intervals_digest.py).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o intervals "$srcdir/intervals.c" || fail "compiling intervals.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both ./intervals
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_intervals_digest.py" prot.txt.json prot.txt err "$schema" ||
    fail "digest check failed (see above)"
echo "PASS: intervals_digest"
