#!/bin/sh
# wrong_family: libmpiprof.so built for one MPI family (MPICH or Open MPI),
# preloaded into a program built and run with the other, says so in one line
# at MPI_Init and stops the program with exit status 1, instead of crashing
# in its first call with a handle (the families' handle types differ, so the
# program cannot run even unprofiled).  Skipped unless the other family is
# installed (its mpicc.NAME and mpiexec.NAME).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPI_FAMILY

need_library
case "$MPI_FAMILY" in
    mpich) other=openmpi other_name="Open MPI" ;;
    openmpi) other=mpich other_name=MPICH ;;
    *) skip "the library is built for MPI family '$MPI_FAMILY', neither MPICH nor Open MPI" ;;
esac
if ! command -v "mpicc.$other" >/dev/null 2>&1 || ! command -v "mpiexec.$other" >/dev/null 2>&1; then
    skip "$other_name is not installed (mpicc.$other, mpiexec.$other)"
fi

cd "$tmp"
"mpicc.$other" -o plain "$srcdir/preload.c" || fail "compiling preload.c with mpicc.$other"
# Open MPI as root and on more processes than cores: its documented opt-ins.
status=0
env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_pml=ob1 \
    "mpiexec.$other" -n 2 env LD_PRELOAD="$(preload "$lib")" MPIPROF_OUTPUT="$tmp/prot.txt" ./plain \
    >out 2>err || status=$?
show() { echo "---- stdout ----"; cat out; echo "---- stderr ----"; cat err; }
[ "$status" -ne 0 ] || { show; fail "the program of the other family ran to its end with exit status 0"; }
if grep -qiE 'segmentation|signal 11|core dumped|backtrace' err; then
    show
    fail "the program crashed instead of stopping at MPI_Init"
fi
[ "$(grep -c '^mpiprof: ' err)" -eq 1 ] || { show; fail "expected exactly one 'mpiprof: ' line on stderr"; }
grep -q "^mpiprof: this libmpiprof is built for .* but the program runs on $other_name.*--with-mpi=$other" err ||
    { show; fail "the line does not name both libraries and the build to use"; }
grep -q '^preload: ok$' out && { show; fail "the program ran past MPI_Init"; }
[ ! -e prot.txt ] || fail "a protocol was written"
echo "PASS: wrong_family ($other_name program, $MPI_FAMILY build preloaded: one line, exit status $status)"
