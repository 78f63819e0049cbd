#!/bin/sh
# view_refuse: mpiprof-view refuses what is not a protocol, and a JSON
# protocol that fails the protocol's JSON Schema where the page reads it,
# each with one line on stderr that says which file and what is wrong, and
# exit status 1, writing no page (check_refuse.py); a valid protocol (the
# schema's example) gives a page.  No MPI run, no browser.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
cd "$tmp"
"$PYTHON3" "$top_srcdir/tests/view/check_refuse.py" "${top_builddir:?}/tools/mpiprof-view" \
    "$top_srcdir/schema/example-protocol.json" "$top_srcdir/schema/mpiprof-protocol.schema.json" ||
    fail "refusals of bad input (see above)"
echo "PASS: view_refuse"
