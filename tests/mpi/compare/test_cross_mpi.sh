#!/bin/sh
# cross_mpi: the profiler gives the same protocols on both MPI families it
# supports: the same programs profiled on the two give protocols of the
# same structure.  examples/jacobi.c and
# the known-answer wait-state programs (waitstates_late_sender.c,
# waitstates_collective.c, load_imbalance.c) are built with this build's
# mpicc-prof and with the other family's build's, and run on each MPI.  On
# both, each protocol gives its known answers (the programs' own checks,
# with their tolerances); and mpiprof-compare finds the same intervals, SRC
# points, calls and bytes in both, with an absolute tolerance of 1e9 s for
# times (times differ as the libraries do).  What differs by design is
# named: the Parameters fields mpi_library and mpi_standard (Open MPI 4.1 is
# an MPI-3.1 library).
#
# Needs both builds: MPIPROF_TEST_OTHER_BUILD names the other family's
# build tree (maint/test.sh sets it in its Open MPI stage to the MPICH
# build); without it the test skips.  That tree's Makefile gives its
# MPICC, MPIEXEC and MPI_FAMILY.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_var MPICC
builddir=${top_builddir:?run through tests/mpi/lib/run-mpi-test}

other=${MPIPROF_TEST_OTHER_BUILD:-}
[ -n "$other" ] || skip "MPIPROF_TEST_OTHER_BUILD is not set (the other MPI family's build tree; maint/test.sh sets it in its Open MPI stage)"
for f in Makefile wrappers/mpicc-prof .libs/libmpiprof.so; do
    [ -f "$other/$f" ] || fail "MPIPROF_TEST_OTHER_BUILD=$other is not a built mpiprof tree: no $f there"
done
# make_var NAME: a variable of the other build's Makefile
make_var() {
    sed -n "s/^$1 = //p" "$other/Makefile" | head -n 1
}
o_family=$(make_var MPI_FAMILY)
o_mpicc=$(make_var MPICC)
o_mpiexec=$(make_var MPIEXEC)
o_srcdir=$(make_var abs_top_srcdir)
[ "$o_family" != "$MPI_FAMILY" ] || fail "MPIPROF_TEST_OTHER_BUILD=$other is built for $o_family too, not for the other MPI family"
compare="$builddir/tools/mpiprof-compare"

# lib_path MPICC FAMILY: the LIBRARY_PATH its Fortran/C links need (Open
# MPI's libmpi.so before the alternative's: run-mpi-test)
lib_path() {
    [ "$2" = openmpi ] || return 0
    "$1" -show 2>/dev/null | tr ' ' '\n' | sed -n 's/^-L//p' | head -n 1
}
this_lib=$(lib_path "$MPICC" "$MPI_FAMILY")
other_lib=$(lib_path "$o_mpicc" "$o_family")
# Open MPI's opt-in to run as root, more processes than cores, no binding,
# the point-to-point layer it selects anyway (as run-mpi-test sets them when this build is Open MPI's)
OMPI_ALLOW_RUN_AS_ROOT=1
OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
OMPI_MCA_rmaps_base_oversubscribe=1
OMPI_MCA_hwloc_base_binding_policy=none
OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
export OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM OMPI_MCA_rmaps_base_oversubscribe \
    OMPI_MCA_hwloc_base_binding_policy OMPI_MCA_pml

# build_run WHICH PROGRAM SOURCE [ARGS...]: build SOURCE with WHICH's
# (this or other) mpicc-prof in $tmp/WHICH/PROGRAM/ and run it there on 2
# processes of WHICH's MPI, protocol prot.txt(.json), stdout out
build_run() {
    _which=$1 _prog=$2 _src=$3
    shift 3
    mkdir -p "$tmp/$_which/$_prog"
    cd "$tmp/$_which/$_prog"
    if [ "$_which" = this ]; then
        set -- "$MPICC_PROF" "$MPIEXEC" "$this_lib" "$MPIPROF_WRAPPER_LIBDIR" "$MPIPROF_WRAPPER_INCDIR" "$@"
    else
        set -- "$other/wrappers/mpicc-prof" "$o_mpiexec" "$other_lib" "$other/.libs" "$o_srcdir/include" "$@"
    fi
    _cc=$1 _exec=$2 _lib=$3 _wlib=$4 _winc=$5
    shift 5
    (
        if [ -n "$_lib" ]; then LIBRARY_PATH=$_lib && export LIBRARY_PATH; else unset LIBRARY_PATH; fi
        MPIPROF_WRAPPER_LIBDIR=$_wlib MPIPROF_WRAPPER_INCDIR=$_winc "$_cc" -O2 -o "$_prog" "$_src"
    ) || fail "compiling $_src with $_cc"
    _this_exec=$MPIEXEC
    MPIEXEC=$_exec
    mpirun_2 out err env MPIPROF_OUTPUT="$PWD/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 "./$_prog" "$@"
    MPIEXEC=$_this_exec
    check_text_protocol prot.txt
    cd "$tmp"
}

# same_structure PROGRAM: mpiprof-compare of the two protocols, structure
# and counts exact, the named Parameters apart
same_structure() {
    _status=0
    "$compare" --brief --atol 1e9 --ignore mpi_library --ignore mpi_standard \
        "$tmp/other/$1/prot.txt.json" "$tmp/this/$1/prot.txt.json" >"$tmp/$1.compare" 2>&1 || _status=$?
    cat "$tmp/$1.compare"
    [ "$_status" -eq 0 ] || fail "$1: the protocols of $o_family and $MPI_FAMILY differ (see above)"
}

for which in this other; do
    build_run "$which" jacobi "$top_srcdir/examples/jacobi.c" 256 200
    grep -q '^jacobi: 256 x 256 grid, 2 processes, 200 iterations, residual ' "$tmp/$which/jacobi/out" \
        || fail "jacobi ($which): no result line: $(cat "$tmp/$which/jacobi/out")"
    for prog in waitstates_late_sender waitstates_collective; do
        build_run "$which" "$prog" "$mpitests/waitstates/$prog.c" events
        d="$tmp/$which/$prog"
        # shellcheck disable=SC2086  # $schema: no word or one
        "$PYTHON3" "$mpitests/waitstates/check_$prog.py" "$d/prot.txt.json" "$d/prot.txt" \
            "$mpitests/waitstates/$prog.c" "$d/out" "$d/events" $schema || fail "$prog on $which MPI: known answers (see above)"
    done
    build_run "$which" load_imbalance "$mpitests/characteristics/load_imbalance.c"
    d="$tmp/$which/load_imbalance"
    "$PYTHON3" "$mpitests/characteristics/check_load_imbalance.py" "$d/prot.txt.json" "$d/prot.txt" \
        "$mpitests/characteristics/load_imbalance.c" "$d/out" \
        || fail "load_imbalance on $which MPI: known answers (see above)"
done
# The same residual on both.
[ "$(sed -n 's/, [0-9.]* s$//p' "$tmp/this/jacobi/out")" = "$(sed -n 's/, [0-9.]* s$//p' "$tmp/other/jacobi/out")" ] \
    || fail "jacobi: different results: $(cat "$tmp/this/jacobi/out" "$tmp/other/jacobi/out")"
for prog in jacobi waitstates_late_sender waitstates_collective load_imbalance; do
    same_structure "$prog"
done
echo "PASS: cross_mpi ($o_family and $MPI_FAMILY: the same structure, the known answers on both)"
