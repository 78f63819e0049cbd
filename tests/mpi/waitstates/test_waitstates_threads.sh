#!/bin/sh
# waitstates_threads: wait states (Real sync, Potential sync, Time variation)
# under MPI_THREAD_MULTIPLE.  Two threads per process, each on its own
# duplicate of MPI_COMM_WORLD, make late-sender messages, exchanges and skewed
# collectives at once, with the wait-state analyses on.  The run must finish
# (no deadlock: 60 s at most), every invariant hold, every call site have
# exactly its calls and bytes, every message be paired with its receive, and
# the wait states be there (Real sync at the late sender's MPI_Recv, rank 0's;
# Potential sync at the skewed MPI_Allreduce).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o waitstates_threads "$srcdir/waitstates_threads.c" -lpthread \
    || fail "compiling waitstates_threads.c with mpicc-prof"
set -- env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./waitstates_threads
if command -v timeout >/dev/null 2>&1; then
    status=0
    timeout -k 5 60 "$MPIEXEC" -n 2 "$@" >out 2>err || status=$?
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        cat out err >&2
        fail "the program did not finish within 60 s (a deadlock with the wait-state analyses and threads?)"
    fi
    if [ "$status" -ne 0 ]; then
        cat out err >&2
        fail "'$MPIEXEC -n 2 $*' exited $status"
    fi
else
    mpirun_2 out err "$@"
fi
if grep -q '^waitstates_threads: MPI_THREAD_MULTIPLE not provided' out; then
    skip "the MPI library does not provide MPI_THREAD_MULTIPLE"
fi
grep -q '^waitstates_threads: ok$' out || fail "the program's results are wrong: $(cat out err)"
check_text_protocol prot.txt
grep -qE '^ *Wait states[^:]*:' prot.txt || fail "the text protocol's Parameters lack the line 'Wait states ... : ...'"

# shellcheck disable=SC2086  # no schema: no argument
"$PYTHON3" "$srcdir/check_waitstates_threads.py" prot.txt.json prot.txt \
    "$srcdir/waitstates_threads.c" $schema \
    || fail "protocol check failed (see above)"
echo "PASS: waitstates_threads"
