#!/bin/sh
# analyze_io: mpiprof-analyze replays every MPI-IO call as the dynamic mode
# profiles it.  io_calls.c calls each data-access function of MPI-IO
# (explicit offsets, individual and shared file pointers; blocking,
# nonblocking with MPI_Wait, split collective) three times on 2 processes,
# traced; the analyzed protocol has the same SRC points with the same
# calls, bytes and times as the dynamic one (mpiprof-compare, with only the
# names that differ by design ignored), each data-access function among
# them, and the waits' time is I/O time in both.  (The analyzer once found
# functions by a binary search over a table not in strcmp's order, and
# dropped 38 functions, 28 of MPI-IO among them; it counted a wait of I/O
# requests as point-to-point time.)
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_analyzer

ignore=$(ignore_options "$analyze_by_design")

cd "$tmp"
"$MPICC_PROF" -g -o io_calls "$srcdir/io_calls.c" || fail "compiling io_calls.c with mpicc-prof"
mpirun_2 io.out io.err env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_FORMAT=both MPIPROF_OUTPUT="$tmp/io.prof" \
    ./io_calls "$tmp/io.dat"
grep -q "io_calls done" io.out || fail "io_calls did not finish: $(cat io.out io.err)"
[ -f io.prof.otf2/traces.otf2 ] || fail "no trace written: $(ls)"
env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_FORMAT=both "$analyze" -q -f both -o io.trace.prof \
    io.prof.otf2/traces.otf2 2>analyze.err || fail "mpiprof-analyze failed: $(cat analyze.err)"
cp io.trace.prof prot.txt # shown on failure

# every data-access function of the program is an SRC point of both protocols
functions=$(grep -o 'MPI_File_[a-z_]*(' "$srcdir/io_calls.c" | tr -d '(' | sort -u)
[ "$(echo "$functions" | wc -l)" -ge 38 ] || fail "io_calls.c calls fewer MPI_File functions than expected: $functions"
for f in $functions MPI_Wait; do
    for p in io.prof io.trace.prof; do
        grep -q "^SRC [0-9]*  $f  calls=" "$p" || fail "$p has no SRC point of $f"
    done
done
# the waits of I/O requests are I/O time, not point-to-point time, in both
"$PYTHON3" - io.prof.json io.trace.prof.json <<'PY' || fail "the waits' time is not I/O time (above)"
import json, sys
for path in sys.argv[1:]:
    main = json.load(open(path))["intervals"][0]["real"]["main"]
    if main.get("sendrecv", 0) > 1e-4:
        sys.exit("%s: %g s of point-to-point time in a program of I/O and waits on file requests" %
                 (path, main["sendrecv"]))
PY
# shellcheck disable=SC2086  # a list of words
"$compare" --brief $ignore io.prof.json io.trace.prof.json >compare.out 2>&1 || {
    cat compare.out >&2
    fail "mpiprof-compare finds the dynamic protocol and the trace's different (above)"
}
tail -n 1 compare.out
echo "PASS: analyze_io"
