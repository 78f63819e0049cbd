#!/bin/sh
# intervals_fortran: intervals and replicated code marked from a 'use mpi'
# Fortran program built with mpifort-prof, calling mpiprof_interval_begin,
# mpiprof_interval_end, mpiprof_seq_begin and mpiprof_seq_end without an
# interface block (intervals_fortran.f90) and with include 'mpiprof.fh'
# (intervals_fortran_fh.f90).  For each: the intervals are in the protocol
# with file = the .f90 file, line = the line of the begin call, the name
# without its padding blanks, the right level, parent and executions; the
# MPI_Allreduce SRC point in the nested interval only; execution times and
# insufficient parallelism within 10% of each rank's own measurement; every
# invariant, text = JSON, schema.  Skipped without a Fortran MPI compiler.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPIFORT_PROF

if [ "${MPIFORT:-no}" = no ] || ! command -v "$MPIFORT" >/dev/null 2>&1; then
    skip "no Fortran MPI compiler (MPIFORT=${MPIFORT:-})"
fi

cd "$tmp"
for prog in intervals_fortran intervals_fortran_fh; do
    # -O0 after the flags of the MPI wrapper (Debian's mpifort adds -O2), so
    # each call keeps its own line.
    "$MPIFORT_PROF" -O0 -o "$prog" "$srcdir/$prog.f90" || fail "compiling $prog.f90 with mpifort-prof"
    rm -f prot.txt prot.txt.json
    mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 "./$prog"
    [ "$(grep -c '^rank=[01] phase=' out)" -eq 2 ] || fail "$prog did not print its measurements: $(cat out err)"
    [ -s prot.txt.json ] || fail "$prog: no JSON protocol prot.txt.json (MPIPROF_FORMAT=both)"
    check_text_protocol prot.txt
    # shellcheck disable=SC2086  # $schema: no word or one (common.sh)
    "$PYTHON3" "$srcdir/check_intervals_fortran.py" prot.txt.json prot.txt "$srcdir/$prog.f90" out $schema || fail "$prog: protocol check failed (see above)"
    echo "ok: $prog"
done
echo "PASS: intervals_fortran"
