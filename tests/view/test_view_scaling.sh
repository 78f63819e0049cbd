#!/bin/sh
# view_scaling: the page of three protocols in a real headless Chromium.
# view_known runs once on 2 processes; make_scaling_runs.py makes of its
# JSON three protocols at P = 1, 2 and 4 with known execution times and
# Lost time parts, the one at P = 4 with every interval and SRC frame 3
# lines lower (an edit above every call).  mpiprof-view of the three must
# show the Scaling panel: the three charts with a point or bar per P, the
# table with the known times, speedups and scaling efficiencies, Lost time
# by part, the fits marked as fits; the title naming program, P and date;
# and its side-by-side of the first and the last must pair their moved
# intervals and SRC points by the matching computed in C
# (check_view_scaling.py).  Screenshots in tests/view/screenshots/.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_view.sh
. "$top_srcdir/tests/view/common_view.sh"
need_var MPICC_PROF
need_browser
view="${top_builddir:?}/tools/mpiprof-view"
shots="$top_builddir/tests/view/screenshots/view_scaling"
rm -rf "$shots"
mkdir -p "$shots"

cd "$tmp"
"$MPICC_PROF" -O1 -o view_known "$view_src/view_known.c" || fail "compiling view_known.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/base.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 ./view_known 0
"$PYTHON3" "$view_src/make_scaling_runs.py" base.prof.json . || fail "making the three protocols"
"$view" run_1.json run_2.json run_4.json -o three.html >view.out 2>view.err ||
    fail "mpiprof-view of three protocols failed: $(cat view.err)"
[ ! -s view.err ] || fail "mpiprof-view wrote on stderr: $(cat view.err)"
"$view_python" "$view_src/check_view_scaling.py" "$shots" three.html known.json run_1.json run_2.json run_4.json ||
    fail "the three-run page in Chromium (see above; screenshots in $shots)"
cp three.html "$shots/"
echo "PASS: view_scaling"
