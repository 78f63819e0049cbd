#!/bin/sh
# fortran_f08: as fortran_mpi, through the Fortran 2008 bindings ('use
# mpi_f08'), which in MPICH do not call the C MPI_* functions.  Skipped
# without a Fortran MPI compiler or when the MPI library has no mpi_f08
# module.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPIFORT_PROF

if [ "${MPIFORT:-no}" = no ] || ! command -v "$MPIFORT" >/dev/null 2>&1; then
    skip "no Fortran MPI compiler (MPIFORT=${MPIFORT:-})"
fi

cd "$tmp"
# Does the MPI library itself provide mpi_f08?  (Plain compiler, no profiler.)
cat >probe.f90 <<'EOP'
program probe
  use mpi_f08
  implicit none
  call MPI_Init()
  call MPI_Finalize()
end program probe
EOP
if ! "$MPIFORT" -o probe probe.f90 >probe.log 2>&1; then
    cat probe.log
    skip "$MPIFORT cannot compile a 'use mpi_f08' program"
fi

# -O0 after the flags of the MPI wrapper (Debian's mpifort adds -O2), so each
# call keeps its own line.
"$MPIFORT_PROF" -O0 -o fortran_f08 "$srcdir/fortran_f08.f90" || fail "compiling fortran_f08.f90 with mpifort-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./fortran_f08
grep -q 'fortran_f08: ok' out || fail "fortran_f08 did not print its result: $(cat out err)"
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_fortran.py" prot.txt.json prot.txt "$srcdir/fortran_f08.f90" \
    || fail "protocol check failed (see above)"
echo "PASS: fortran_f08"
