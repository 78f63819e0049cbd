#!/bin/sh
# view_inlined: the page marks the frames of inlined functions.
# tests/mpi/callsites/callsites_inlined.cc built -O2 -g: on the page of its
# protocol, each MPI_Sendrecv SRC point's stack shows frame #0, the inlined
# Field<T>::exchange(int), marked [inlined], and frame #1, main, unmarked.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_view.sh
. "$top_srcdir/tests/view/common_view.sh"
need_var MPICXX_PROF
MPICXX=${MPICXX:-mpicxx}
if [ "$MPICXX" = no ] || ! command -v "$MPICXX" >/dev/null 2>&1; then
    skip "no C++ MPI compiler (MPICXX=$MPICXX)"
fi
need_browser

cd "$tmp"
"$MPICXX_PROF" -O2 -o inlined "$mpitests/callsites/callsites_inlined.cc" || fail "compiling callsites_inlined.cc"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=json,html MPIPROF_QUIET=1 ./inlined
[ -s prot.txt.html ] || fail "no prot.txt.html: $(ls)"
"$view_python" "$view_src/check_view_inlined.py" prot.txt.html || fail "the page in Chromium (see above)"
echo "PASS: view_inlined"
