#!/bin/sh
# view_findings: the Correctness panel of the page in a real headless
# Chromium.  view_known runs twice on 2 processes, with MPIPROF_CHECK=basic
# (clean: the program is correct, no finding) and with the checks off;
# inject_findings.py puts three findings at view_known.c's marked lines into
# the clean protocol (one of them at a line of no SRC point), and a copy
# without "correctness" stands for a protocol of an older mpiprof.  Then
# check_findings_view.py drives the pages: the panel first, its list, the
# source lines of a selected finding and of its other side, the link to its
# SRC point and back, the keyboard, the states without findings, and two
# protocols side by side (with a clean one, and with an old one).  Screenshots in tests/view/screenshots/.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_view.sh
. "$top_srcdir/tests/view/common_view.sh"
need_var MPICC_PROF
need_browser
view="${top_builddir:?}/tools/mpiprof-view"
shots="$top_builddir/tests/view/screenshots/view_findings"
rm -rf "$shots"
mkdir -p "$shots"

cd "$tmp"
"$MPICC_PROF" -O1 -o view_known "$view_src/view_known.c" || fail "compiling view_known.c with mpicc-prof"
mpirun_2 out_c err_c env MPIPROF_OUTPUT="$tmp/clean.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 MPIPROF_CHECK=basic \
    ./view_known 0
mpirun_2 out_o err_o env MPIPROF_OUTPUT="$tmp/off.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 MPIPROF_CHECK=off \
    ./view_known 0
"$view_python" "$view_src/inject_findings.py" clean.prof.json "$view_src/view_known.c" \
    "$top_srcdir/schema/mpiprof-protocol.schema.json" f.json || fail "injecting the findings"
"$view_python" -c 'import json, sys
d = json.load(open(sys.argv[1]))
del d["correctness"]
json.dump(d, open(sys.argv[2], "w"))' clean.prof.json old.json || fail "making the protocol without correctness"

for p in f clean.prof off.prof old; do
    "$view" "$p.json" -o "$p.html" >/dev/null 2>view.err || fail "mpiprof-view $p.json failed: $(cat view.err)"
done
cp clean.prof.json clean.json
"$view" f.json clean.json -o two.html >/dev/null 2>view.err || fail "mpiprof-view of two protocols failed: $(cat view.err)"
"$view" f.json old.json -o two_old.html >/dev/null 2>view.err || fail "mpiprof-view f.json old.json failed: $(cat view.err)"

"$view_python" "$view_src/check_findings_view.py" "$shots" "$view_src/view_known.c" f.html f.json clean.prof.html \
    off.prof.html old.html two.html two_old.html || fail "the Correctness panel in Chromium (see above; screenshots in $shots)"
echo "PASS: view_findings"
