#!/bin/sh
# waitstates_collective: Potential sync and Time variation, the waits at
# collective operations for the last process to enter and to leave.  Rank
# r computes (r+1) x 10 ms before each of 20 MPI_Allreduce, then of 20
# MPI_Iallreduce + MPI_Wait, then of 20 MPI_Barrier (one interval each):
# Potential sync of each ~ 20 x 10 ms = 0.2 s, within 10% of what the
# definition gives from the instants the program recorded around the
# operations, all of it rank 0's, on the operation's SRC point and in the
# interval; Time variation small (within 10% of 0.2 s of the program's);
# interval 0's Potential sync the three phases' (0.6 s).  Every invariant
# holds, the text agrees with the JSON.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o waitstates_collective "$srcdir/waitstates_collective.c" \
    || fail "compiling waitstates_collective.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./waitstates_collective "$tmp/events"
[ "$(grep -c '^rank=[01] allreduce=' out)" -eq 2 ] || fail "the program did not print its measurements: $(cat out err)"
check_text_protocol prot.txt
grep -qE '^ *Wait states[^:]*:' prot.txt || fail "the text protocol's Parameters lack the line 'Wait states ... : ...'"

# shellcheck disable=SC2086  # no schema: no argument
"$PYTHON3" "$srcdir/check_waitstates_collective.py" prot.txt.json prot.txt \
    "$srcdir/waitstates_collective.c" out "$tmp/events" $schema \
    || fail "protocol check failed (see above)"
echo "PASS: waitstates_collective"
