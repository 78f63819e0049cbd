#!/bin/sh
# preload: a program built with plain mpicc (no profiler, but -g) and run with
# LD_PRELOAD=libmpiprof.so must yield a protocol of the same structure as a
# program built with mpicc-prof: interval 0, SRC points for its calls with
# exact counts and call sites, every invariant.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC

need_library

cd "$tmp"
"$MPICC" -g -o preload "$srcdir/preload.c" || fail "compiling preload.c with plain $MPICC"
# LD_PRELOAD is set for the MPI processes only (through env), not for mpiexec.
mpirun_2 out err env LD_PRELOAD="$(preload "$lib")" MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./preload
grep -q '^preload: ok$' out || fail "preload did not print its result: $(cat out err)"
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_preload.py" prot.txt.json prot.txt "$srcdir/preload.c" \
    || fail "protocol check failed (see above)"
echo "PASS: preload"
