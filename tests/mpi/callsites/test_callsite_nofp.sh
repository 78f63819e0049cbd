#!/bin/sh
# callsite_nofp: programs and a shared library built with plain mpicc -O2
# -fomit-frame-pointer (and a Fortran program with plain mpifort -O2), as
# distributions and most users build them, profiled by LD_PRELOAD (and
# linked with mpicc-prof): no crash in MPI_Init or anywhere, in 50 runs,
# though the frame-pointer register holds garbage at the calls; the same SRC
# points on every process and in every run, with the marked source lines;
# the MPI library's own calls (MPI_File_f2c/c2f of its Fortran bindings) are
# not the program's.  The Fortran I/O program's call lines are also taken
# from its DWARF line table (check_callsite_nofp.py --dwarf): gfortran -O2
# with Open MPI's `use mpi` puts the MPI_File_close call on the `program`
# line, and the profiler reports what DWARF says.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC
need_var MPICC_PROF

need_library
runs=${MPIPROF_TEST_NOFP_RUNS:-50}

cd "$tmp"
nofp="-O2 -g -fomit-frame-pointer"
# shellcheck disable=SC2086  # $nofp: several flags
"$MPICC" $nofp -fPIC -shared -o libcallsite_nofp.so "$srcdir/callsite_nofp_lib.c" ||
    fail "compiling callsite_nofp_lib.c into a shared library"
# shellcheck disable=SC2086
"$MPICC" $nofp -c -o callsite_nofp.o "$srcdir/callsite_nofp.c" || fail "compiling callsite_nofp.c"
# shellcheck disable=SC2016  # $ORIGIN is the loader's
"$MPICC" -o callsite_nofp callsite_nofp.o -L. -lcallsite_nofp -Wl,-rpath,'$ORIGIN' || fail "linking callsite_nofp"
# shellcheck disable=SC2016
"$MPICC_PROF" -o callsite_nofp_linked callsite_nofp.o -L. -lcallsite_nofp -Wl,-rpath,'$ORIGIN' ||
    fail "linking callsite_nofp with mpicc-prof"

# run_program NAME OUT.prot [ENV...]: one 2-process run, its protocol at OUT.prot(.json)
run_program() {
    _prog=$1
    _prot=$2
    shift 2
    mpirun_2 out err env "$@" MPIPROF_OUTPUT="$tmp/$_prot" MPIPROF_FORMAT=both MPIPROF_QUIET=1 "./$_prog"
    grep -q ': ok' out || fail "$_prog did not print its result: $(cat out err)"
    [ ! -s err ] || fail "$_prog printed on stderr with MPIPROF_QUIET=1: $(cat err)"
}

i=1
while [ "$i" -le "$runs" ]; do
    run_program callsite_nofp "c$i.prot" LD_PRELOAD="$(preload "$lib")"
    i=$((i + 1))
done
cp "c$runs.prot" prot.txt # shown on failure
check_text_protocol "c$runs.prot"
run_program callsite_nofp_linked linked.prot
# shellcheck disable=SC2046  # one argument per protocol
"$PYTHON3" "$srcdir/check_callsite_nofp.py" c "$srcdir" $(ls c*.prot.json) linked.prot.json ||
    fail "protocol check of the C program failed (see above)"

if [ "${MPIFORT:-no}" = no ] || ! command -v "$MPIFORT" >/dev/null 2>&1; then
    echo "PASS: callsite_nofp (C only: no Fortran MPI compiler, MPIFORT=${MPIFORT:-})"
    exit 0
fi
# The mpi_f08 program's main is C: it leaves garbage in the frame-pointer
# register when the Fortran code calls MPI_Init.  -fno-inline keeps the
# frame of its subroutine `exchange`, which gfortran -O2 inlines with Open
# MPI's smaller mpi_f08 interfaces (not with MPICH's).
"$MPIFORT" -O2 -fno-inline -g -c -o callsite_nofp_f08.o "$srcdir/callsite_nofp_f08.f90" || fail "compiling callsite_nofp_f08.f90"
# shellcheck disable=SC2086
"$MPICC" $nofp -c -o callsite_nofp_f08_main.o "$srcdir/callsite_nofp_f08_main.c" ||
    fail "compiling callsite_nofp_f08_main.c"
"$MPIFORT" -o callsite_nofp_f08 callsite_nofp_f08_main.o callsite_nofp_f08.o || fail "linking callsite_nofp_f08"
"$MPIFORT" -O2 -g -o callsite_fortran_io "$srcdir/callsite_fortran_io.f90" || fail "compiling callsite_fortran_io.f90"
for i in 1 2 3 4 5; do
    run_program callsite_nofp_f08 "f$i.prot" LD_PRELOAD="$(preload "$lib")"
done
run_program callsite_fortran_io io.prot LD_PRELOAD="$(preload "$lib")"
"$PYTHON3" "$srcdir/check_callsite_nofp.py" f08 "$srcdir" f1.prot.json f2.prot.json f3.prot.json f4.prot.json \
    f5.prot.json || fail "protocol check of the mpi_f08 program failed (see above)"
"$PYTHON3" "$srcdir/check_callsite_nofp.py" io --dwarf callsite_fortran_io "$srcdir" io.prot.json ||
    fail "protocol check of the Fortran I/O program failed (see above)"
echo "PASS: callsite_nofp"
