#!/bin/sh
# list_vars: mpiprof-view --list-vars lists every MPIPROF_* variable as the
# ENVIRONMENT section of mpiprof(7) does (both come from
# src/context/config_vars.def), with the value this environment gives it,
# and the MPIPROF_* variables of the environment mpiprof does not know
# (check_list_vars.py).  No MPI run.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
man=${top_builddir:?}/man/mpiprof.7
[ -s "$man" ] || fail "$man is not built (make builds it from man/mpiprof.7.in and maint/config-doc)"
cd "$tmp"
"$PYTHON3" "$srcdir/check_list_vars.py" "$top_builddir/tools/mpiprof-view" "$man" ||
    fail "the listing of the variables (see above)"
echo "PASS: list_vars"
