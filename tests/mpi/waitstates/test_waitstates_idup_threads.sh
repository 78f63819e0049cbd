#!/bin/sh
# waitstates_idup_threads: the wait-state analyses with threads duplicating
# their communicators with MPI_Comm_idup, overlapped with nonblocking
# collectives on the parents and on the new communicators, at
# MPI_THREAD_MULTIPLE on 2 processes (waitstates_idup_threads.c).  Under the
# profiler it must finish: 10 runs in a row (MPIPROF_TEST_IDUP_RUNS: CI's
# Open MPI and sanitizer stages make fewer), each killed as hung after 8 x
# the slowest of 3 runs without the profiler + 4 s (the profiler once ran a
# blocking MPI_Intercomm_merge inside a nonblocking collective with its lock
# held, and the run never ended).  How long a run that ends takes is
# bench/run's to measure, not a timed test's.  Each run's program checks its results, and its
# protocol (check_waitstates_idup_threads.py) holds every invariant, pairs
# every message, and has the collectives of the idup'ed communicators
# analysed: Potential sync computed at the skewed MPI_Allreduce on an idup'ed
# communicator, Real sync at the late message on another, each within 25% of
# what the program's own instants give. Skipped on Open MPI when the program
# hangs there without the profiler (Open MPI 4.1.4 does in most runs:
# common.sh, idup_threads_hang_plain; or when one of the test's own runs
# without the profiler hangs).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_var MPICC

cd "$tmp"
# Open MPI only, with the evidence taken now: the program hangs without the
# profiler too (common.sh).
if idup_threads_hang_plain 150; then
    skip "$idup_threads_hang"
fi
"$MPICC" -o plain "$srcdir/waitstates_idup_threads.c" -lpthread \
    || fail "compiling waitstates_idup_threads.c with mpicc"
"$MPICC_PROF" -o profiled "$srcdir/waitstates_idup_threads.c" -lpthread \
    || fail "compiling waitstates_idup_threads.c with mpicc-prof"

now_ms() {
    echo $(($(date +%s%N) / 1000000))
}

# run NAME LIMIT_MS PROGRAM [ENV...]: one run, killed after LIMIT_MS; the
# milliseconds it took in NAME.ms.  Fails unless it finished, exited 0 and
# the program's results are right.
run() {
    _name=$1 _limit=$2 _prog=$3
    shift 3
    _start=$(now_ms)
    _status=0
    timeout -k 5 "$(((_limit + 999) / 1000))" env "$@" "$MPIEXEC" -n 2 "./$_prog" "$tmp/$_name.events" \
        >"$_name.out" 2>"$_name.err" || _status=$?
    echo $(($(now_ms) - _start)) >"$_name.ms"
    if [ "$_status" -eq 124 ] || [ "$_status" -eq 137 ]; then
        cat "$_name.out" "$_name.err" >&2
        # Without the profiler, on Open MPI: the MPI's own hang (common.sh).
        [ "$_prog" != plain ] || [ "$MPI_FAMILY" != openmpi ] ||
            skip "$("$MPIEXEC" --version 2>/dev/null | head -n 1): $_name, without the profiler, did not finish within $_limit ms"
        fail "$_name: did not finish within $_limit ms"
    fi
    [ "$_status" -eq 0 ] || fail "$_name: exited $_status: $(cat "$_name.out" "$_name.err")"
    if grep -q 'MPI_THREAD_MULTIPLE not provided' "$_name.out"; then
        skip "the MPI library does not provide MPI_THREAD_MULTIPLE"
    fi
    grep -q '^waitstates_idup_threads: ok$' "$_name.out" || fail "$_name: wrong results: $(cat "$_name.out" "$_name.err")"
}

slowest=0
for i in 1 2 3; do
    run "plain$i" 60000 plain
    ms=$(cat "plain$i.ms")
    echo "without the profiler: $ms ms"
    [ "$ms" -gt "$slowest" ] && slowest=$ms
done
# A hang never ends: a run that outlasts this is one.
limit=$((8 * slowest + 4000))
runs=${MPIPROF_TEST_IDUP_RUNS:-10}
i=0
while [ "$i" -lt "$runs" ]; do
    i=$((i + 1))
    run "prof$i" "$limit" profiled MPIPROF_OUTPUT="$tmp/prot$i.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1
    echo "with the profiler, run $i: $(cat "prof$i.ms") ms"
    [ -s "prof$i.err" ] && fail "run $i: output on stderr with MPIPROF_QUIET=1: $(cat "prof$i.err")"
    check_text_protocol "prot$i.txt"
    "$PYTHON3" "$srcdir/check_waitstates_idup_threads.py" "$srcdir/waitstates_idup_threads.c" "${schema:--}" \
        "$tmp/prot$i.txt" "$tmp/prof$i.events" || fail "run $i: protocol check failed (see above)"
done
echo "PASS: waitstates_idup_threads (slowest without the profiler $slowest ms)"
