#!/bin/sh
# load_imbalance: rank 1 computes 20 ms and rank 0 10 ms before each of 20
# barriers.  Load imbalance must be within 10% of sum_p (max C - C(p))
# (~20 x 10 ms) and rank 0's Communication within 10% of its barrier waits
# (~20 x 10 ms), both as measured by the program itself.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o load_imbalance "$srcdir/load_imbalance.c" || fail "compiling load_imbalance.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./load_imbalance
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_load_imbalance.py" prot.txt.json prot.txt "$srcdir/load_imbalance.c" out \
    || fail "protocol check failed (see above)"
echo "PASS: load_imbalance"
