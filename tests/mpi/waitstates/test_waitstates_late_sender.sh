#!/bin/sh
# waitstates_late_sender: Real sync, the time a receive waits for a late
# sender.  Rank 1 computes 20 ms before each of 20 MPI_Send while rank 0
# already waits in MPI_Recv: Real sync of that MPI_Recv's SRC point within 10%
# of 0.4 s (as the definition gives it from the instants the program recorded
# around its calls), all of it rank 0's.  Then the receiver is the late one:
# Real sync of its MPI_Recv about 0 (below 10% of 0.4 s).  Real sync <=
# SendRecv (every invariant holds), the text agrees with the JSON, the
# Parameters say which wait-state analyses ran.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o waitstates_late_sender "$srcdir/waitstates_late_sender.c" \
    || fail "compiling waitstates_late_sender.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./waitstates_late_sender "$tmp/events"
[ "$(grep -c '^rank=[01] compute1=' out)" -eq 2 ] || fail "the program did not print its measurements: $(cat out err)"
check_text_protocol prot.txt
grep -qE '^ *Wait states[^:]*:' prot.txt || fail "the text protocol's Parameters lack the line 'Wait states ... : ...'"

# shellcheck disable=SC2086  # no schema: no argument
"$PYTHON3" "$srcdir/check_waitstates_late_sender.py" prot.txt.json prot.txt \
    "$srcdir/waitstates_late_sender.c" out "$tmp/events" $schema \
    || fail "protocol check failed (see above)"
echo "PASS: waitstates_late_sender"
