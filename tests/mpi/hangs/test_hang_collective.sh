#!/bin/sh
# hang_collective: rank 0 in MPI_Allreduce that rank 1 never reaches, with
# MPIPROF_HANG_TIMEOUT=1.
#   sleep: rank 1 sleeps outside MPI.  Only rank 0 may write a dump;
#          mpiprof-hang must report the collective not yet reached (slow,
#          not a hang: rank 1 computes), with rank 0's SRC line, rank 1
#          missing and running, and neither a deadlock nor a collective
#          never reached.
#   recv:  rank 1 waits in MPI_Recv for rank 0.  The report must give the
#          collective with rank 1 missing (blocked in MPI_Recv at its line)
#          and the deadlock 0 -> 1 -> 0 through it.
#   finalize: the same with rank 0 in MPI_Finalize, which is watched too.
# Each job is killed once the dumps are there; none of its processes may be
# left.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=hang.sh
. "$srcdir/hang.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o hang_collective "$srcdir/hang_collective.c" || fail "compiling hang_collective.c with mpicc-prof"
allreduce=$(line_of "$srcdir/hang_collective.c" allreduce)
finalize=$(line_of "$srcdir/hang_collective.c" finalize)
recv=$(line_of "$srcdir/hang_collective.c" recv)

# need REPORT TEXT...: every TEXT is in the report.
need() {
    _r=$1
    shift
    for _want in "$@"; do
        grep -qF -- "$_want" "$_r" || fail "$_r lacks '$_want'"
    done
}

# --- rank 1 sleeps
start_job out err env MPIPROF_HANG_TIMEOUT=1 MPIPROF_OUTPUT="$tmp/sleep.txt" ./hang_collective sleep
wait_for_files 30 sleep.txt.hang.0
sleep 2 # a dump of rank 1 would be there by now (it is not inside MPI)
[ -e sleep.txt.hang.1 ] && fail "rank 1, sleeping outside MPI, wrote a hang dump: $(cat sleep.txt.hang.1)"
need sleep.txt.hang.0 "function MPI_Allreduce" "category Collective" "comm size=2 inter=0" "members=0-1" \
    "count 1" "frame hang_collective.c:$allreduce (main)"
"$MPIPROF_HANG" sleep.txt >report.sleep 2>report.err || fail "mpiprof-hang exited $?: $(cat report.err)"
cat report.sleep
need report.sleep \
    "dumps of rank 0; blocked: 0; running: 1" \
    "COLLECTIVE NOT YET REACHED (its missing members are running: slow, not a hang): MPI_Allreduce on a communicator of 2 processes, world ranks 0-1" \
    "reached by rank 0" \
    "stack  hang_collective.c:$allreduce (main)" \
    "missing: rank 1" \
    "rank 1: running: no dump"
grep -q "DEADLOCK" report.sleep && fail "a deadlock is reported, but rank 1 is running"
grep -q "NOT REACHED BY ALL" report.sleep && fail "a collective is reported never reached, but rank 1 is computing"
stop_job

# --- rank 1 waits for rank 0
start_job out2 err2 env MPIPROF_HANG_TIMEOUT=1 MPIPROF_OUTPUT="$tmp/recv.txt" ./hang_collective recv
wait_for_files 30 recv.txt.hang.0 recv.txt.hang.1
need recv.txt.hang.1 "function MPI_Recv" "source rank=0 world=0" "tag 3" "frame hang_collective.c:$recv (main)"
"$MPIPROF_HANG" recv.txt >report.recv 2>report.err || fail "mpiprof-hang exited $?: $(cat report.err)"
cat report.recv
need report.recv \
    "blocked: 0-1; running: none" \
    "DEADLOCK 1: ranks 0-1 wait for each other (cycle 0 -> 1 -> 0)" \
    "COLLECTIVE NOT REACHED BY ALL: MPI_Allreduce on a communicator of 2 processes, world ranks 0-1" \
    "stack  hang_collective.c:$allreduce (main)" \
    "stack  hang_collective.c:$recv (main)" \
    "missing: rank 1" \
    "rank 1: blocked in MPI_Recv at hang_collective.c:$recv (main)"
stop_job

# --- rank 0 in MPI_Finalize, rank 1 waits for it
start_job out3 err3 env MPIPROF_HANG_TIMEOUT=1 MPIPROF_OUTPUT="$tmp/fin.txt" ./hang_collective finalize
wait_for_files 30 fin.txt.hang.0 fin.txt.hang.1
need fin.txt.hang.0 "function MPI_Finalize" "comm size=2 inter=0" "members=0-1" \
    "frame hang_collective.c:$finalize (main)"
"$MPIPROF_HANG" fin.txt >report.fin 2>report.err || fail "mpiprof-hang exited $?: $(cat report.err)"
cat report.fin
need report.fin \
    "DEADLOCK 1: ranks 0-1 wait for each other (cycle 0 -> 1 -> 0)" \
    "COLLECTIVE NOT REACHED BY ALL: MPI_Finalize on a communicator of 2 processes, world ranks 0-1" \
    "stack  hang_collective.c:$finalize (main)" \
    "rank 1: blocked in MPI_Recv at hang_collective.c:$recv (main)"
[ -e fin.txt ] && fail "a protocol was written although rank 1 never reached MPI_Finalize"
stop_job
echo "PASS: hang_collective"
