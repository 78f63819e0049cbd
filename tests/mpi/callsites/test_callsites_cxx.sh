#!/bin/sh
# callsites_cxx: a C++ program's call sites, their frames demangled and
# told apart by their callers in the summary, built with mpicxx-prof and, built with plain mpicxx, run with
# LD_PRELOAD=libmpiprof.so.  Its frames read as C++ source writes them
# (halo::exchange(halo::Grid&, int), not _ZN4halo8exchangeERNS_4GridEi) in
# the text protocol, the JSON and the summary rank 0 prints; and that
# summary tells apart its three MPI_Waitall SRC points, which share their
# first frame (one line reached from three callers), by each one's caller.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICXX_PROF

MPICXX=${MPICXX:-mpicxx}
if [ "$MPICXX" = no ] || ! command -v "$MPICXX" >/dev/null 2>&1; then
    skip "no C++ MPI compiler (MPICXX=$MPICXX)"
fi
need_library

cd "$tmp"
# -O0 after the wrapper's flags: each call keeps its own line, and the
# callers their frames.
"$MPICXX_PROF" -O0 -o linked "$srcdir/callsites_cxx.cc" || fail "compiling callsites_cxx.cc with mpicxx-prof"
"$MPICXX" -g -O0 -fno-omit-frame-pointer -o plain "$srcdir/callsites_cxx.cc" \
    || fail "compiling callsites_cxx.cc with plain $MPICXX"

# The summary is printed unless MPIPROF_QUIET: not set here.
mpirun_2 out1 err1 env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both ./linked
grep -q '^callsites_cxx: ok$' out1 || fail "callsites_cxx did not print its result: $(cat out1 err1)"
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_callsites_cxx.py" prot.txt.json prot.txt "$srcdir/callsites_cxx.cc" err1 \
    || fail "protocol check failed, built with mpicxx-prof (see above)"

rm -f prot.txt prot.txt.json
mpirun_2 out2 err2 env LD_PRELOAD="$(preload "$lib")" MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both ./plain
grep -q '^callsites_cxx: ok$' out2 || fail "callsites_cxx (preloaded) did not print its result: $(cat out2 err2)"
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_callsites_cxx.py" prot.txt.json prot.txt "$srcdir/callsites_cxx.cc" err2 \
    || fail "protocol check failed, plain $MPICXX with LD_PRELOAD (see above)"
echo "PASS: callsites_cxx"
