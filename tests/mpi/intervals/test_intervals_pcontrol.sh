#!/bin/sh
# intervals_pcontrol: the MPI_Pcontrol convention.  MPI_Pcontrol(1, "region")
# / MPI_Pcontrol(-1, "region") (twice) mark an interval "region" at the line
# of the begin call, with 2 executions and its MPI_Allreduce calls (exact
# counts) in it only; MPI_Pcontrol(0) pauses collection: the MPI calls made
# while paused are not counted anywhere; MPI_Pcontrol(2) and MPI_Pcontrol(1)
# without a name resume it and mark no interval: the calls made after them
# are counted exactly.  Every invariant, text = JSON, schema.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o intervals_pcontrol "$srcdir/intervals_pcontrol.c" || fail "compiling intervals_pcontrol.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./intervals_pcontrol
[ "$(grep -c '^rank=[01] region=' out)" -eq 2 ] || fail "intervals_pcontrol did not print its measurements: $(cat out err)"
[ -s prot.txt.json ] || fail "no JSON protocol prot.txt.json (MPIPROF_FORMAT=both)"
check_text_protocol prot.txt

# shellcheck disable=SC2086  # $schema: no word or one (common.sh)
"$PYTHON3" "$srcdir/check_intervals_pcontrol.py" prot.txt.json prot.txt "$srcdir/intervals_pcontrol.c" out $schema || fail "protocol check failed (see above)"
echo "PASS: intervals_pcontrol"
