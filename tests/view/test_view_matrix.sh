#!/bin/sh
# view_matrix: the Communication matrix panel of a page in headless
# Chromium.  The ring of tests/mpi/matrix/ring.c on 4 processes on two host
# names (UTS namespaces, as test_matrix_ring.sh), its page written at
# MPI_Finalize: the node-pair and process-pair heat maps have the JSON's
# known cells, the totals, heaviest pairs and per-node Lost time bars the
# JSON's figures (check_matrix_view.py), and a run's reason for none (MPIPROF_MATRIX=off); a synthetic ring of 1,024
# processes on 32 nodes is drawn a pixel a cell, nodes as blocks.  And the page of io_bytes.c's
# protocol (known MPI-IO bytes): its SRC table's bytes read and written and
# an MPI-IO point's bandwidth are the JSON's (check_io_view.py).
# Screenshots in the build tree, tests/view/screenshots/view_matrix/.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_view.sh
. "$top_srcdir/tests/view/common_view.sh"
need_var MPICC_PROF
need_browser
need_uts_namespaces
shots="${top_builddir:?}/tests/view/screenshots/view_matrix"
rm -rf "$shots"
mkdir -p "$shots"

cd "$tmp"
"$MPICC_PROF" -o ring "$top_srcdir/tests/mpi/matrix/ring.c" || fail "compiling ring.c with mpicc-prof"
# shellcheck disable=SC2016  # $1 is expanded by the ranks' shell
if ! "$MPIEXEC" -n 2 env MPIPROF_OUTPUT="$tmp/ring.prof" MPIPROF_FORMAT=all MPIPROF_QUIET=1 \
        unshare --uts sh -c 'hostname "$1" && exec ./ring' sh mpiprof-node1 : \
    -n 2 env MPIPROF_OUTPUT="$tmp/ring.prof" MPIPROF_FORMAT=all MPIPROF_QUIET=1 \
        unshare --uts sh -c 'hostname "$1" && exec ./ring' sh mpiprof-node2 >out 2>err; then
    cat out err >&2
    fail "the MPMD run with two UTS namespaces did not exit 0"
fi
[ -s ring.prof.html ] || fail "no page written: $(ls)"
"$view_python" "$view_src/check_matrix_view.py" "$shots" ring.prof.html ring.prof.json ||
    fail "the matrix panel in Chromium (see above; screenshots in $shots)"
cp ring.prof.html "$shots/"
# the same page at 1,024 processes on 32 nodes (a synthetic matrix)
"$PYTHON3" "$view_src/make_big_matrix.py" ring.prof.json big.json || fail "making the synthetic matrix"
"${top_builddir:?}/tools/mpiprof-view" big.json -o big.html >/dev/null 2>view.err || fail "mpiprof-view big.json: $(cat view.err)"
"$view_python" "$view_src/check_matrix_view.py" "$shots" big big.html ||
    fail "the matrix of 1,024 processes in Chromium (see above; screenshots in $shots)"

# a run's reason for no matrix (its Warnings) on the page
"$PYTHON3" - ring.prof.json off.json <<'PY' || fail "making the protocol of a run with MPIPROF_MATRIX=off"
import json, sys
d = json.load(open(sys.argv[1]))
d["matrix"] = None
d["parameters"]["warnings"].append("The communication matrix is n/a: MPIPROF_MATRIX=off")
json.dump(d, open(sys.argv[2], "w"))
PY
"${top_builddir:?}/tools/mpiprof-view" off.json -o off.html >/dev/null 2>view.err || fail "mpiprof-view off.json: $(cat view.err)"
"$view_python" "$view_src/check_matrix_view.py" "$shots" off off.html ||
    fail "the matrix panel of a run with MPIPROF_MATRIX=off in Chromium (see above)"

"$MPICC_PROF" -o io_bytes "$top_srcdir/tests/mpi/characteristics/io_bytes.c" || fail "compiling io_bytes.c with mpicc-prof"
mpirun_2 io.out io.err env MPIPROF_OUTPUT="$tmp/io.prof" MPIPROF_FORMAT=all MPIPROF_QUIET=1 ./io_bytes "$tmp/io.dat"
[ -s io.prof.html ] || fail "no page of io_bytes written: $(cat io.out io.err)"
"$view_python" "$view_src/check_io_view.py" "$shots" io.prof.html io.prof.json ||
    fail "the I/O figures of the page in Chromium (see above; screenshots in $shots)"
echo "PASS: view_matrix"
