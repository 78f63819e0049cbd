#!/bin/sh
# Every function the installed mpi.h declares, and every mpi_f08 entry point
# the MPI Fortran library exports, has a wrapper: the description
# (src/intercept/mpi_functions.txt) is checked against both.
set -eu
srcdir=${top_srcdir:-$(dirname "$0")/..}
fortran_lib=$(${MPIFORT:-mpifort} -show 2>/dev/null | tr ' ' '\n' | sed -n 's/^-L//p' | head -n 1)
fortran_lib=${fortran_lib:-/usr/lib/x86_64-linux-gnu}/libmpichfort.so
exec "${PYTHON3:-python3}" "$srcdir/src/intercept/check_coverage.py" "$srcdir/src/intercept/mpi_functions.txt" \
    --mpicc "${MPICC:-mpicc}" --fortran-lib "$fortran_lib"
