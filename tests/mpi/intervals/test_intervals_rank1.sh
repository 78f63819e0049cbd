#!/bin/sh
# intervals_rank1: intervals that only some processes enter.  Rank 0 enters
# A->B, rank 1 enters A->C and, alone, "only1" three times.  The protocol must
# give the union of the two trees (A with children C and B, depth-first in
# order of first entry); an interval entered by one rank has processors = 1,
# by_process entered true for that rank only and null values for the other,
# and comparative min/max ranks = that rank; executions are those of the
# process that entered most; execution times within 10% of each rank's own
# measurement; SRC points in their interval; every invariant, text = JSON,
# schema.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o intervals_rank1 "$srcdir/intervals_rank1.c" || fail "compiling intervals_rank1.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./intervals_rank1
[ "$(grep -c '^rank=[01] a=' out)" -eq 2 ] || fail "intervals_rank1 did not print its measurements: $(cat out err)"
[ -s prot.txt.json ] || fail "no JSON protocol prot.txt.json (MPIPROF_FORMAT=both)"
check_text_protocol prot.txt

# shellcheck disable=SC2086  # $schema: no word or one (common.sh)
"$PYTHON3" "$srcdir/check_intervals_rank1.py" prot.txt.json prot.txt "$srcdir/intervals_rank1.c" out $schema || fail "protocol check failed (see above)"
echo "PASS: intervals_rank1"
