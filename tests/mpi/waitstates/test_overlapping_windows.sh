#!/bin/sh
# overlapping_windows: Potential sync, Time variation and Overlap of
# operations whose windows overlap on one process's time line count each
# instant once: a root running ahead through 100 MPI_Bcast while the other rank
# is late by 80 ms, the same with MPI_Gather and a late root, 48 nonblocking
# collectives in flight at once, and 96 point-to-point requests in flight at
# once (MPIPROF_MODEL: 5 ms per transfer, under the 40 ms computed
# meanwhile).  Each instant of a process's time counts once: per phase and
# rank, each within 15% (or 4 ms) of the union of its windows computed from
# the program's instants, at most the interval's Total time and the
# process's Execution time; every invariant holds, the text agrees with the
# JSON.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o overlapping_windows "$srcdir/overlapping_windows.c" \
    || fail "compiling overlapping_windows.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    MPIPROF_MODEL=lat_intra=5ms,bw_intra=1GB/s ./overlapping_windows "$tmp/events"
[ "$(grep -c '^rank=[01] done=1' out)" -eq 2 ] || fail "the program did not finish: $(cat out err)"
check_text_protocol prot.txt

# shellcheck disable=SC2086  # no schema: no argument
"$PYTHON3" "$srcdir/check_overlapping_windows.py" prot.txt.json prot.txt "$tmp/events" $schema \
    || fail "protocol check failed (see above)"
echo "PASS: overlapping_windows"
