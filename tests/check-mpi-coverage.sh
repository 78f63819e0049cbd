#!/bin/sh
# Every function the installed mpi.h declares, and (MPICH) every mpi_f08
# entry point the MPI Fortran library exports, has a wrapper: the
# description (src/intercept/mpi_functions.txt) is checked against the MPI
# the build is for (MPICC, MPI_FAMILY: configure --with-mpi).  Open MPI's
# Fortran bindings are other symbols (mpi_send_, mpi_send_f08_), which the
# description does not mark.
set -eu
srcdir=${top_srcdir:-$(dirname "$0")/..}
set --
if [ "${MPI_FAMILY:-mpich}" = mpich ]; then
    fortran_lib=$(${MPIFORT:-mpifort} -show 2>/dev/null | tr ' ' '\n' | sed -n 's/^-L//p' | head -n 1)
    set -- --fortran-lib "${fortran_lib:-/usr/lib/x86_64-linux-gnu}/libmpichfort.so"
fi
exec "${PYTHON3:-python3}" "$srcdir/src/intercept/check_coverage.py" "$srcdir/src/intercept/mpi_functions.txt" \
    --mpicc "${MPICC:-mpicc}" "$@"
