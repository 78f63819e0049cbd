#!/bin/sh
# callsites_inlined: frames of inlined functions.  callsites_inlined.cc
# built -O2 -g with mpicxx-prof: the double and float instances of the
# inlined template Field<T>::exchange are two SRC points, each starting at
# the template's own line under its demangled name (then main at its call),
# in the dynamic protocol and in mpiprof-analyze's of its trace;
# built without -g: frames named by the symbol table (main+0x...), not
# module+0x...; examples/jacobi.c built -O2 as its header says: its halo
# exchange is in exchange_halo, at its two lines, not in main.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICXX_PROF
need_var MPICC_PROF

MPICXX=${MPICXX:-mpicxx}
if [ "$MPICXX" = no ] || ! command -v "$MPICXX" >/dev/null 2>&1; then
    skip "no C++ MPI compiler (MPICXX=$MPICXX)"
fi
need_library
need_analyzer

cd "$tmp"
check() { # MODE PROGRAM SOURCE [ARGS]
    mode=$1 program=$2 source=$3
    shift 3
    rm -f prot.txt prot.txt.json
    mpirun_2 "out.$mode" "err.$mode" env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
        "./$program" "$@"
    check_text_protocol prot.txt
    "$PYTHON3" "$srcdir/check_callsites_inlined.py" "$mode" prot.txt.json prot.txt "$source" \
        || fail "protocol check failed: $mode (see above)"
}

"$MPICXX_PROF" -O2 -o inlined "$srcdir/callsites_inlined.cc" || fail "compiling callsites_inlined.cc -O2 -g"
check debug inlined "$srcdir/callsites_inlined.cc"
grep -q '^callsites_inlined: ok$' out.debug || fail "callsites_inlined did not print its result: $(cat out.debug)"

# trace mode: mpiprof-analyze names the frames of the trace's SRC keys the same way
rm -rf trace.prof*
mpirun_2 out.trace err.trace env MPIPROF_TRACE=on MPIPROF_OUTPUT="$tmp/trace.prof" MPIPROF_QUIET=1 ./inlined
"$analyze" -q -f both -o analyzed.prof trace.prof.otf2/traces.otf2 2>analyze.err ||
    fail "mpiprof-analyze failed: $(cat analyze.err)"
"$PYTHON3" "$srcdir/check_callsites_inlined.py" debug analyzed.prof.json analyzed.prof "$srcdir/callsites_inlined.cc" ||
    fail "protocol check failed: the analyzed trace (see above)"

"$MPICXX_PROF" -mpiprof-no-debug -O2 -o nodebug "$srcdir/callsites_inlined.cc" \
    || fail "compiling callsites_inlined.cc -O2 without -g"
check nodebug nodebug "$srcdir/callsites_inlined.cc"
grep -q '^callsites_inlined: ok$' out.nodebug || fail "callsites_inlined did not print its result: $(cat out.nodebug)"

"$MPICC_PROF" -O2 -o jacobi "$top_srcdir/examples/jacobi.c" || fail "compiling examples/jacobi.c -O2"
check jacobi jacobi "$top_srcdir/examples/jacobi.c" 64 20
echo "PASS: callsites_inlined"
