#!/bin/sh
# intervals_seq: replicated code of known duration marked with
# MPIPROF_SEQ_BEGIN/END on both ranks, in an interval and in an interval
# nested in it (there with nested SEQ marks, which count once).
# Insufficient parallelism must be within 10% of (P-1)/P x the time each
# rank measured for its replicated code, per process, and of the sum in the
# main characteristics, in the interval, in the nested one (its own code
# only) and in interval 0 (inclusive); zero in an interval without replicated
# code; every invariant, text = JSON, schema.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o intervals_seq "$srcdir/intervals_seq.c" || fail "compiling intervals_seq.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./intervals_seq
[ "$(grep -c '^rank=[01] seq=' out)" -eq 2 ] || fail "intervals_seq did not print its measurements: $(cat out err)"
[ -s prot.txt.json ] || fail "no JSON protocol prot.txt.json (MPIPROF_FORMAT=both)"
check_text_protocol prot.txt

# shellcheck disable=SC2086  # $schema: no word or one (common.sh)
"$PYTHON3" "$srcdir/check_intervals_seq.py" prot.txt.json prot.txt "$srcdir/intervals_seq.c" out $schema || fail "protocol check failed (see above)"
echo "PASS: intervals_seq"
