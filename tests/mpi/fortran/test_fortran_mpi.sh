#!/bin/sh
# fortran_mpi: a 'use mpi' Fortran program making known MPI calls (100
# MPI_Allreduce, 50 MPI_Send/MPI_Recv pairs), built with mpifort-prof.  Every
# call must be counted, and the first stack frame of each SRC point must be
# the .f90 file at the line of the call.  Skipped without a Fortran MPI
# compiler.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPIFORT_PROF

if [ "${MPIFORT:-no}" = no ] || ! command -v "$MPIFORT" >/dev/null 2>&1; then
    skip "no Fortran MPI compiler (MPIFORT=${MPIFORT:-})"
fi

cd "$tmp"
# -O0 after the flags of the MPI wrapper (Debian's mpifort adds -O2), so each
# call keeps its own line.
"$MPIFORT_PROF" -O0 -o fortran_mpi "$srcdir/fortran_mpi.f90" || fail "compiling fortran_mpi.f90 with mpifort-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./fortran_mpi
grep -q 'fortran_mpi: ok' out || fail "fortran_mpi did not print its result: $(cat out err)"
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_fortran.py" prot.txt.json prot.txt "$srcdir/fortran_mpi.f90" \
    || fail "protocol check failed (see above)"
echo "PASS: fortran_mpi"
