#!/bin/sh
# view_page: the page of a known program's protocol in a real headless
# Chromium.  view_known runs twice on 2 processes: A (MPIPROF_FORMAT=
# text,json,html) and B, where rank 1 computes 0.1 s more before the
# MPI_Allreduce of "solve".  A's page written at MPI_Finalize must be
# the page mpiprof-view makes of A's JSON, byte for byte (one writer); then
# check_view.py drives A's page and the page of A and B side by side: no
# console error, the interval tree of view_known, the source line of an SRC
# point's call, every SRC point at a source line, sorting by time, the
# filter, the keyboard, and the known difference of the two runs
# (Collective grew by about 0.1 s, the speedup of the JSONs).  Screenshots
# of each state are kept in the build tree, tests/view/screenshots/.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_view.sh
. "$top_srcdir/tests/view/common_view.sh"
need_var MPICC_PROF
need_browser
view="${top_builddir:?}/tools/mpiprof-view"
shots="$top_builddir/tests/view/screenshots/view_page"
rm -rf "$shots"
mkdir -p "$shots"

cd "$tmp"
"$MPICC_PROF" -O1 -o view_known "$view_src/view_known.c" || fail "compiling view_known.c with mpicc-prof"
mpirun_2 out_a err_a env MPIPROF_OUTPUT="$tmp/a.prof" MPIPROF_FORMAT=text,json,html MPIPROF_QUIET=1 ./view_known 0
mpirun_2 out_b err_b env MPIPROF_OUTPUT="$tmp/b.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 ./view_known 0.1
for f in a.prof a.prof.json a.prof.html b.prof.json; do
    [ -s "$f" ] || fail "no $f after the runs (MPIPROF_FORMAT=text,json,html for a, json for b): $(ls)"
done
if [ -e b.prof ] || [ -e b.prof.html ]; then
    fail "MPIPROF_FORMAT=json wrote more than b.prof.json: $(ls)"
fi

"$view" a.prof.json -o view_a.html >view.out 2>view.err || fail "mpiprof-view a.prof.json failed: $(cat view.err)"
grep -q "page written to view_a.html" view.out || fail "mpiprof-view did not say where the page is: $(cat view.out)"
[ ! -s view.err ] || fail "mpiprof-view wrote on stderr: $(cat view.err)"
cmp a.prof.html view_a.html ||
    fail "the page written at MPI_Finalize differs from mpiprof-view's page of the same protocol's JSON"
"$view" a.prof.json b.prof.json -o view_ab.html >/dev/null 2>view.err || fail "mpiprof-view of two protocols failed: $(cat view.err)"
# the default name: the JSON's, .json replaced by .html
cp b.prof.json default.json
"$view" default.json >/dev/null 2>&1 || fail "mpiprof-view default.json failed"
[ -s default.html ] || fail "mpiprof-view default.json did not write default.html"

"$view_python" "$view_src/check_view.py" "$shots" "$view_src/view_known.c" a.prof.html a.prof.json view_ab.html b.prof.json ||
    fail "the pages in Chromium (see above; screenshots in $shots)"
cp a.prof.html view_ab.html "$shots/"
echo "PASS: view_page"
