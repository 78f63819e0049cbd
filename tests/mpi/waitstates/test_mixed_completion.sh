#!/bin/sh
# mixed_completion: point-to-point and collective requests completed by the
# same calls: Real sync stays within the call's SendRecv part.  Per round rank 1 is late by 15 ms with an
# MPI_Isend and three nonblocking collectives; rank 0 completes its
# MPI_Irecv and the same collectives with MPI_Waitall, MPI_Waitany,
# MPI_Waitsome, MPI_Wait, MPI_Testall, MPI_Testany, MPI_Testsome or MPI_Test
# (one interval each).  A call's time is split over the kinds of the
# requests it completed, and its Real sync is at most its SendRecv part:
# Real sync of rank 0 within 15% (or 3 ms) of what the definition gives
# from the program's instants, Real sync <= SendRecv everywhere (the
# invariants), the text agrees with the JSON.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o mixed_completion "$srcdir/mixed_completion.c" \
    || fail "compiling mixed_completion.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./mixed_completion "$tmp/events"
[ "$(grep -c '^rank=[01] rounds=' out)" -eq 2 ] || fail "the program did not finish: $(cat out err)"
check_text_protocol prot.txt

# shellcheck disable=SC2086  # no schema: no argument
"$PYTHON3" "$srcdir/check_mixed_completion.py" prot.txt.json prot.txt \
    "$srcdir/mixed_completion.c" "$tmp/events" $schema \
    || fail "protocol check failed (see above)"
echo "PASS: mixed_completion"
