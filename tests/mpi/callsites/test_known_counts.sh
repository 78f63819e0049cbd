#!/bin/sh
# known_counts: 1000 MPI_Allreduce from one line, 500 MPI_Send/MPI_Recv pairs
# from two others.  The protocol must list exactly those SRC points with the
# exact call counts (summed over processes and per process), bytes, and the
# real file:line of the call as first stack frame (the caller as second); it
# must satisfy every invariant, agree with the text protocol and validate
# against the JSON Schema (skipped, with a note, while the schema is absent).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o known_counts "$srcdir/known_counts.c" || fail "compiling known_counts.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./known_counts
grep -q '^known_counts: ok$' out || fail "known_counts did not print its result: $(cat out err)"
[ -s prot.txt.json ] || fail "no JSON protocol prot.txt.json (MPIPROF_FORMAT=both)"
check_text_protocol prot.txt

# shellcheck disable=SC2086  # $schema: no word or one (common.sh)
"$PYTHON3" "$srcdir/check_known_counts.py" prot.txt.json prot.txt "$srcdir/known_counts.c" $schema || fail "protocol check failed (see above)"
echo "PASS: known_counts"
