#!/bin/sh
# intervals_stub: a program with MPIPROF_INTERVAL_BEGIN/END and
# MPIPROF_SEQ_BEGIN/END, built with the plain MPI compiler:
#   1. linked with -lmpiprof_stub: it runs, writes no protocol, and
#      mpiprof_version() is the stub's;
#   2. the same binary with LD_PRELOAD=libmpiprof.so: a protocol with the
#      interval at the line of its begin mark, its MPI calls and replicated
#      code in it (every invariant, text = JSON, schema), and
#      mpiprof_version() is the library's;
#   3. compiled with -DMPIPROF_DISABLE and no mpiprof library: it links,
#      needs no mpiprof library and runs.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC

need_library
[ -f "$MPIPROF_LIBDIR/libmpiprof_stub.so" ] || fail "$MPIPROF_LIBDIR/libmpiprof_stub.so does not exist (build it first)"
version=$(sed -n 's/^#define MPIPROF_VERSION_STRING "\(.*\)"$/\1/p' "$top_srcdir/include/mpiprof.h")
[ -n "$version" ] || fail "no MPIPROF_VERSION_STRING in $top_srcdir/include/mpiprof.h"

cd "$tmp"
# 1. With the stub: no protocol.
"$MPICC" -g -I"$top_srcdir/include" -o stubbed "$srcdir/intervals_stub.c" \
    -L"$MPIPROF_LIBDIR" -Wl,-rpath,"$MPIPROF_LIBDIR" -lmpiprof_stub \
    || fail "compiling intervals_stub.c with plain $MPICC and -lmpiprof_stub"
mkdir run1
(cd run1 && mpirun_2 ../out1 ../err1 env MPIPROF_OUTPUT="$tmp/run1/prot.txt" MPIPROF_FORMAT=both ../stubbed)
grep -q '^intervals_stub: ok version=stub$' out1 || fail "the stub-linked program did not run with the stub: $(cat out1 err1)"
[ -z "$(ls run1)" ] || fail "the stub-linked program wrote files: $(ls run1)"
if grep -q 'mpiprof' err1; then
    fail "the stub-linked program printed profiler messages: $(cat err1)"
fi
echo "ok: linked with -lmpiprof_stub, no protocol"

# 2. The same binary, profiled through LD_PRELOAD.
mpirun_2 out2 err2 env LD_PRELOAD="$(preload "$lib")" MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./stubbed
grep -q "^intervals_stub: ok version=$version\$" out2 \
    || fail "with LD_PRELOAD=$lib the program did not run with the library's functions (expected version=$version): $(cat out2 err2)"
[ -s prot.txt.json ] || fail "no JSON protocol prot.txt.json with LD_PRELOAD=$lib"
check_text_protocol prot.txt
# shellcheck disable=SC2086  # $schema: no word or one (common.sh)
"$PYTHON3" "$srcdir/check_intervals_stub.py" prot.txt.json prot.txt "$srcdir/intervals_stub.c" $schema || fail "protocol check failed (see above)"
echo "ok: the stub-linked binary profiled with LD_PRELOAD"

# 3. -DMPIPROF_DISABLE: no mpiprof library at all.
"$MPICC" -DMPIPROF_DISABLE -I"$top_srcdir/include" -o disabled "$srcdir/intervals_stub.c" \
    || fail "compiling and linking intervals_stub.c with -DMPIPROF_DISABLE and no mpiprof library"
if command -v readelf >/dev/null 2>&1; then
    if readelf -d disabled | grep -q 'mpiprof'; then
        fail "the -DMPIPROF_DISABLE binary needs an mpiprof library: $(readelf -d disabled | grep mpiprof)"
    fi
fi
mkdir run3
(cd run3 && mpirun_2 ../out3 ../err3 env MPIPROF_OUTPUT="$tmp/run3/prot.txt" ../disabled)
grep -q '^intervals_stub: ok version=disabled$' out3 || fail "the -DMPIPROF_DISABLE program did not run: $(cat out3 err3)"
[ -z "$(ls run3)" ] || fail "the -DMPIPROF_DISABLE program wrote files: $(ls run3)"
echo "ok: -DMPIPROF_DISABLE links without any mpiprof library"
echo "PASS: intervals_stub"
