#!/bin/sh
# link order: a program linked with the MPI library before libmpiprof loads
# the profiler but calls MPI's own MPI_Init: rank 0 says so in one line
# (what happened, what to do) and the run goes on, unprofiled, exit 0;
# nothing is said with MPIPROF_QUIET=1 or MPIPROF_DISABLE=yes, for the same program preloaded
# (through mpiexec: mpiexec, Hydra's proxies and a shell load it too,
# without being MPI programs), nor for a program linked in the right order.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_toolchain.sh
. "$srcdir/common_toolchain.sh"
need_var MPICC
need_library
cd "$tmp"

libs=$(mpi_libs)
link="-L$MPIPROF_LIBDIR -Wl,-rpath,$MPIPROF_LIBDIR -Wl,--no-as-needed -lmpiprof"
# The wrong order: the MPI library named first (as CMake's MPI::MPI_C ahead
# of a pkg-config target puts it), then mpiprof.pc's Libs.
# shellcheck disable=SC2086
"$MPICC" -g -o wrong "$srcdir/barrier.c" $libs $link || fail "linking barrier.c MPI first"
# shellcheck disable=SC2086
"$MPICC" -g -o right "$srcdir/barrier.c" $link || fail "linking barrier.c libmpiprof first"
order=$(needed_order wrong)
echo "wrong: NEEDED $order"
case "$order" in
    *libmpi*libmpiprof*) ;;
    *) fail "the wrong-order program does not load the MPI library before libmpiprof: $order" ;;
esac
case "$(needed_order right)" in
    *libmpiprof*libmpi*) ;;
    *) fail "the right-order program does not load libmpiprof first: $(needed_order right)" ;;
esac

said='^mpiprof: MPI_Init resolves to libmpi[a-z]*\.so[.0-9]*, loaded before libmpiprof: this run is not profiled; link -lmpiprof before the MPI library .* or run the program with mpiprof-run'

mpirun_2 out err env MPIPROF_OUTPUT="$tmp/wrong.prof" ./wrong
cat err
grep -q '^barrier: ok$' out || fail "the wrong-order program did not run to its end: $(cat out err)"
[ "$(grep -c "$said" err)" = 1 ] || fail "the wrong-order run did not say its link order in one line (once for the run)"
[ "$(grep -c . err)" = 1 ] || fail "the wrong-order run said more than the one line: $(cat err)"
[ ! -e wrong.prof ] || fail "the wrong-order run wrote a protocol: the check's premise is gone"

mpirun_2 out err env MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/wrong.prof" ./wrong
[ ! -s err ] || fail "MPIPROF_QUIET=1, yet the wrong-order run wrote on stderr: $(cat err)"
mpirun_2 out err env MPIPROF_DISABLE=yes ./wrong
[ ! -s err ] || fail "MPIPROF_DISABLE=yes, yet the wrong-order run wrote on stderr: $(cat err)"

mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" ./right
! grep -q 'resolves to' err || fail "the right-order program got the link-order line: $(cat err)"
check_text_protocol prot.txt

rm -f prot.txt
mpirun_2 out err env LD_PRELOAD="$(preload "$MPIPROF_LIBDIR/libmpiprof.so")" MPIPROF_OUTPUT="$tmp/prot.txt" \
    "$MPIEXEC" -n 2 sh -c ./wrong
! grep -q 'resolves to' err || fail "the wrong-order program preloaded (with mpiexec and sh) got the link-order line: $(cat err)"
check_text_protocol prot.txt
grep -q "stack  *barrier\.c:$(barrier_line) (main)" prot.txt || fail "the preloaded run has no SRC point at barrier.c:$(barrier_line)"
echo "PASS: link order"
