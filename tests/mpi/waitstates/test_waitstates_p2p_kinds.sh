#!/bin/sh
# waitstates_p2p_kinds: Real sync (the wait for a late sender) through every
# kind of point-to-point receive: MPI_Irecv + MPI_Wait, MPI_Waitall (the
# latest of its messages counts, once), MPI_Waitany and MPI_Waitsome
# completing out of order, an MPI_Test loop, persistent requests,
# MPI_Sendrecv, MPI_Probe + MPI_Recv, MPI_Mprobe + MPI_Mrecv, MPI_ANY_SOURCE /
# MPI_ANY_TAG with and without a status, tags received in another order than
# sent, MPI_PROC_NULL, a cancelled MPI_Irecv followed by the message it
# would have matched, and (MPI 4) MPI_Isendrecv. Each phase is an interval; rank 1 sends 8 messages each
# 10 ms late; Real sync of the receiving SRC point within 15% of what the
# definition gives from the instants the program recorded around its calls
# (nominally 8 x 10 ms; see check_waitstates_p2p_kinds.py for every expected
# value), ~0 everywhere else; calls and bytes exact; every invariant holds.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# the MPI_Cancel of a receive (m_cancel) is on purpose: a warning
export MPIPROF_TEST_EXPECT_FINDINGS=request-cancel
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o waitstates_p2p_kinds "$srcdir/waitstates_p2p_kinds.c" \
    || fail "compiling waitstates_p2p_kinds.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./waitstates_p2p_kinds "$tmp/events"
[ "$(grep -c '^rank=[01] waitsome_calls=' out)" -eq 2 ] || fail "the program did not print its measurements: $(cat out err)"
check_text_protocol prot.txt
grep -qE '^ *Wait states[^:]*:' prot.txt || fail "the text protocol's Parameters lack the line 'Wait states ... : ...'"

# shellcheck disable=SC2086  # no schema: no argument
"$PYTHON3" "$srcdir/check_waitstates_p2p_kinds.py" prot.txt.json prot.txt \
    "$srcdir/waitstates_p2p_kinds.c" out "$tmp/events" $schema \
    || fail "protocol check failed (see above)"
echo "PASS: waitstates_p2p_kinds"
