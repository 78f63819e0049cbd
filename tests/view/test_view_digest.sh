#!/bin/sh
# view_digest: the digest first, the SRC table's fit and its inclusive
# toggle, on the page of view_known's protocol (2 processes, rank 1
# computing 0.1 s more before each MPI_Allreduce of "solve": Collective the
# largest part of Lost time, that MPI_Allreduce the top SRC point), in a
# real headless Chromium at 1400x900: check_view_digest.py reads K_eff, the
# largest part of Lost time and the top SRC point on the first screen, the
# same as the JSON and the text protocol's digest; Parameters collapsed;
# the table within its pane with the function column in view after a row
# is selected; interval 0 from its own calls to every SRC point with the
# toggle.  Screenshots are kept in tests/view/screenshots/view_digest.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_view.sh
. "$top_srcdir/tests/view/common_view.sh"
need_var MPICC_PROF
need_browser
shots="${top_builddir:?}/tests/view/screenshots/view_digest"
rm -rf "$shots"
mkdir -p "$shots"

cd "$tmp"
"$MPICC_PROF" -O1 -o view_known "$view_src/view_known.c" || fail "compiling view_known.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/a.prof" MPIPROF_FORMAT=text,json,html MPIPROF_QUIET=1 ./view_known 0.1
for f in a.prof a.prof.json a.prof.html; do
    [ -s "$f" ] || fail "no $f after the run (MPIPROF_FORMAT=text,json,html)"
done
"$view_python" "$view_src/check_view_digest.py" "$shots" "$view_src/view_known.c" a.prof.html a.prof.json a.prof ||
    fail "the digest page in Chromium (see above; screenshots in $shots)"
cp a.prof.html "$shots/"
echo "PASS: view_digest"
