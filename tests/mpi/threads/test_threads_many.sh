#!/bin/sh
# threads_many: a program that starts short-lived threads one after the
# other, each calling MPI (MPICH's threads/pt2pt/alltoall: 10,000 threads
# took 16 s and 5.7 GB per process under the profiler, 0.5 s and 17 MB
# without: every thread kept a table of 573 KB, touched again at
# MPI_Finalize).  A thread's state goes to the next thread when it ends
# (mpiprof(7), THREADS): threads_many.c with ROUNDS threads
# (MPIPROF_TEST_THREAD_ROUNDS, default 2000) has the peak resident memory
# of its run with one thread, within 4 MiB (the bound the man page states
# is 1 MiB; the rest is the noise of the MPI library's own buffers), and
# the protocol counts every thread's receives at its one call site.  What
# a thread costs in time is bench/run's to measure ("Short-lived threads":
# slice by slice against threads the profiler does not see), never a timed
# test's (on a loaded host a run's wall time varies several times over).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
rounds=${MPIPROF_TEST_THREAD_ROUNDS:-2000}
case $rounds in '' | *[!0-9]*) fail "MPIPROF_TEST_THREAD_ROUNDS=$rounds: a number of threads is expected" ;; esac

cd "$tmp"
"$MPICC_PROF" -O2 -o profiled "$srcdir/threads_many.c" -lpthread || fail "compiling threads_many.c with mpicc-prof"

# run NAME PROGRAM N: each rank's peak in NAME.out
run() {
    mpirun_2 "$1.out" "$1.err" env MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/$1.prof" MPIPROF_FORMAT=both "./$2" "$3"
    [ "$(grep -c "^threads_many: ok $3 peak_kib" "$1.out")" -eq 2 ] || fail "$1: $(cat "$1.out" "$1.err")"
}
peak() { sed -n 's/.*peak_kib \([0-9]*\)$/\1/p' "$1.out" | sort -n | tail -n 1; }

run one profiled 1
run prof1 profiled "$rounds"
one=$(peak one) many=$(peak prof1)
echo "$rounds threads: peak $many KiB (one thread: $one KiB)"
if [ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ]; then
    # AddressSanitizer keeps what is freed in its quarantine (256 MB) and
    # gives each thread allocations of its own: peaks mean nothing there
    echo "the peak is not compared: the library is built with --enable-sanitizers"
else
    [ "$many" -le $((one + 4096)) ] ||
        fail "the peak resident memory grew with the threads: $many KiB with $rounds, $one KiB with one"
fi

cp prof1.prof prot.txt
"$PYTHON3" - prof1.prof.json "$srcdir/threads_many.c" "$rounds" <<'PY' || fail "the protocol (above)"
import sys
import protocol_check as pc
doc = pc.load_checked(sys.argv[1], say=False)
source, rounds = sys.argv[2], int(sys.argv[3])
pc.check_call_sites(doc, source, [
    {"function": "MPI_Recv", "marker": "recv", "calls": {0: 2 * rounds, 1: 2 * rounds}},
    {"function": "MPI_Send", "marker": "send", "calls": {0: 2 * rounds, 1: 2 * rounds}},
], ("MPI_Init_thread", "MPI_Comm_rank", "MPI_Comm_size", "MPI_Barrier"))
print("every thread's receives at the one call site: %d per process" % (2 * rounds))
PY
echo "PASS: threads_many"
