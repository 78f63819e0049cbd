#!/bin/sh
# hang_cycle: two processes each in MPI_Recv from the other, with
# MPIPROF_HANG_TIMEOUT=1.  Both must write a hang dump naming MPI_Recv, its
# partner (rank and MPI_COMM_WORLD rank), tag, communicator and the
# file:line of its call; mpiprof-hang must report the cycle 0 -> 1 -> 0 with
# both SRC lines, and no process as running, as a real-deadlock (the
# finding's name).  Then the job is killed and no process of it may be left.
# Again with both in a standard-mode MPI_Send of 16 MiB to the other
# ("send"): a potential-deadlock.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=hang.sh
. "$srcdir/hang.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o hang_cycle "$srcdir/hang_cycle.c" || fail "compiling hang_cycle.c with mpicc-prof"
line0=$(line_of "$srcdir/hang_cycle.c" recv0)
line1=$(line_of "$srcdir/hang_cycle.c" recv1)

start_job out err env MPIPROF_HANG_TIMEOUT=1 MPIPROF_OUTPUT="$tmp/prot.txt" ./hang_cycle
wait_for_files 30 prot.txt.hang.0 prot.txt.hang.1

# The dumps themselves.
for r in 0 1; do
    p=$((1 - r))
    line=$(eval echo "\$line$r")
    for want in "rank $r" "world_size 2" "timeout 1" "function MPI_Recv" "category SendRecv" \
        "source rank=$p world=$p" "tag 7" "count 1" "comm size=2 inter=0 id=" "members=0-1" \
        "frame hang_cycle.c:$line (main)" "outstanding 0" "end"
    do
        grep -qF -- "$want" "prot.txt.hang.$r" ||
            { cat "prot.txt.hang.$r" >&2; fail "prot.txt.hang.$r lacks '$want'"; }
    done
    grep -q '^resumed' "prot.txt.hang.$r" && fail "prot.txt.hang.$r says the call returned"
    [ "$(grep -c '^call$' "prot.txt.hang.$r")" = 1 ] || fail "prot.txt.hang.$r does not hold exactly one call"
    grep -qF "mpiprof: rank $r has been inside MPI_Recv" err || fail "rank $r did not say on stderr that it is stuck: $(cat err)"
done

# The report.
"$MPIPROF_HANG" prot.txt >report 2>report.err || fail "mpiprof-hang exited $?: $(cat report.err)"
cat report
for want in \
    "blocked: 0-1; running: none" \
    "DEADLOCK 1: ranks 0-1 wait for each other (cycle 0 -> 1 -> 0)" \
    "rank 0: thread " "in MPI_Recv (source 1, tag 7, count 1, communicator of 2 processes, world ranks 0-1)" \
    "stack  hang_cycle.c:$line0 (main)" \
    "in MPI_Recv (source 0, tag 7, count 1, communicator of 2 processes, world ranks 0-1)" \
    "stack  hang_cycle.c:$line1 (main)" \
    "waits for rank 1" "waits for rank 0" \
    "RUNNING: none" \
    "finding: real-deadlock"
do
    grep -qF -- "$want" report || fail "the report lacks '$want'"
done
grep -q "COLLECTIVE" report && fail "the report names a collective"
[ "$(grep -c '^DEADLOCK' report)" = 1 ] || fail "the report does not give exactly one deadlock"
# The dump files themselves are accepted as well as the protocol path.
"$MPIPROF_HANG" prot.txt.hang.1 prot.txt.hang.0 >report2 || fail "mpiprof-hang on the dump files exited $?"
cmp -s report report2 || fail "mpiprof-hang gives another report for the dump files than for the protocol path"

stop_job
grep -q "hang_cycle: rank 0 receives" out || fail "hang_cycle did not start: $(cat out err)"

# Both in a standard-mode send: a deadlock only because MPI does not buffer.
start_job out2 err2 env MPIPROF_HANG_TIMEOUT=1 MPIPROF_OUTPUT="$tmp/send.txt" ./hang_cycle send
wait_for_files 30 send.txt.hang.0 send.txt.hang.1
"$MPIPROF_HANG" send.txt >report.send 2>report.err || fail "mpiprof-hang exited $?: $(cat report.err)"
cat report.send
grep -qF "DEADLOCK 1: ranks 0-1 wait for each other" report.send || fail "the standard sends' deadlock is not reported"
grep -qF "finding: potential-deadlock (ranks 0-1 wait in a standard-mode send" report.send ||
    fail "the standard sends' deadlock is not a potential-deadlock"
grep -q "real-deadlock" report.send && fail "the standard sends' deadlock is called real"
stop_job
echo "PASS: hang_cycle"
