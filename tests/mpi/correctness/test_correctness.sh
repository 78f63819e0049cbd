#!/bin/sh
# correctness: the profiler must not change what a program sees of MPI.
# tests/mpi/correctness/correctness.c writes a canonical transcript of return codes,
# error classes and strings, status contents, flags, indices and counts of
# the completion functions, received data and request handles (point-to-
# point, probes, MPI_PROC_NULL, persistent requests restarted five times,
# MPI_Request_free of an active request, cancel of an unmatched receive,
# generalized requests, provoked errors under MPI_ERRORS_RETURN and with a
# user error handler whose calls are counted).  It is built plainly and with
# mpicc-prof, and run three ways: plain (twice: the transcript must not
# depend on the run), linked with the profiler, and plain with
# LD_PRELOAD=libmpiprof.so.  The transcripts of every rank must be byte for
# byte those of the plain run, stdout too, and both profiled runs must write
# a protocol whose invariants hold.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC
need_var MPICC_PROF
need_var MPIPROF_LIBDIR

lib="$MPIPROF_LIBDIR/libmpiprof.so"
cd "$tmp"
"$MPICC" -g -fno-omit-frame-pointer -o plain "$srcdir/correctness.c" || fail "compiling correctness.c with $MPICC"
"$MPICC_PROF" -o linked "$srcdir/correctness.c" || fail "compiling correctness.c with mpicc-prof"

# same RUN1 RUN2: the transcripts of both ranks are identical.
same() {
    for r in 0 1; do
        [ -s "$1.$r" ] || fail "$1: no transcript of rank $r"
        if ! cmp -s "$1.$r" "$2.$r"; then
            diff "$1.$r" "$2.$r" >&2 || true
            fail "rank $r: the transcript of the $2 run differs from the $1 run's (diff above)"
        fi
    done
    cmp -s "out.$1" "out.$2" || fail "stdout of the $2 run differs: $(cat "out.$2")"
}

mpirun_2 out.plain err.plain ./plain plain
mpirun_2 out.plain2 err.plain2 ./plain plain2
same plain plain2
mpirun_2 out.linked err.linked env MPIPROF_OUTPUT="$tmp/linked.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./linked linked
same plain linked
mpirun_2 out.preloaded err.preloaded env LD_PRELOAD="$(preload "$lib")" MPIPROF_OUTPUT="$tmp/preloaded.txt" \
    MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./plain preloaded
same plain preloaded
for run in linked preloaded; do
    "$PYTHON3" "$testlib/protocol_check.py" --text "$run.txt" "$run.txt.json" || fail "protocol of the $run run (see above)"
done
echo "PASS: correctness ($(cat plain.0 plain.1 | wc -l) transcript lines identical with and without the profiler)"
