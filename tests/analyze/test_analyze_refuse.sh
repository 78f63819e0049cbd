#!/bin/sh
# analyze_refuse: mpiprof-analyze's bad input (check_refuse.py): a missing
# or truncated archive, a missing or corrupt event file, bytes changed at
# random, an archive without MPI events each get one line and exit 1,
# never a crash nor a protocol; the trace of a run that died is analysed
# and said to be incomplete (exit 3).  No MPI run.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_analyze.sh
. "$top_srcdir/tests/analyze/common_analyze.sh"
cd "$tmp"
scorep_trace late_sender good
scorep_trace died died
scorep_trace no_mpi no_mpi
mkdir run && cd run
"$PYTHON3" "$top_srcdir/tests/analyze/check_refuse.py" "$analyze" ../good ../died ../no_mpi ||
    fail "bad input (see above)"
echo "PASS: analyze_refuse"
