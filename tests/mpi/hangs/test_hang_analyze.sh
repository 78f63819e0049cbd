#!/bin/sh
# hang_analyze: mpiprof-hang on hand-made hang dumps (no MPI job): cycles of
# point-to-point calls and waits, MPI_ANY_SOURCE and MPI_Waitany (any one
# partner will do), collectives not reached by all members and mismatched
# ones, processes running again, several threads, dumps of an earlier run,
# and unreadable input.  See check_hang_analyze.py for every case.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=hang.sh
. "$srcdir/hang.sh"

"$PYTHON3" "$srcdir/check_hang_analyze.py" "$MPIPROF_HANG" "$tmp" || fail "mpiprof-hang's report (see above)"
echo "PASS: hang_analyze"
