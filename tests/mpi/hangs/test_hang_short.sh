#!/bin/sh
# hang_short, with MPIPROF_HANG_TIMEOUT=2: a 1 s MPI_Recv and 3 s of short
# calls write no hang dump (the program checks, then prints "ok"); a 4 s
# MPI_Recv is dumped once, and the dump says that the call returned; the
# run ends normally with its protocol at the path the dumps are next to,
# whose Warnings name the stuck call.  mpiprof-hang lists rank 0 as running
# (it left the call) and reports no deadlock or collective.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=hang.sh
. "$srcdir/hang.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o hang_short "$srcdir/hang_short.c" || fail "compiling hang_short.c with mpicc-prof"
long=$(line_of "$srcdir/hang_short.c" long)
mpirun_2 out err env MPIPROF_HANG_TIMEOUT=2 MPIPROF_OUTPUT="$tmp/prot.txt" ./hang_short \
    "$tmp/prot.txt.hang.0" "$tmp/prot.txt.hang.1"
grep -qx "hang_short: ok" out || fail "hang_short found a dump after calls shorter than the timeout: $(cat out err)"
check_text_protocol prot.txt
[ -e prot.txt.hang.1 ] && fail "rank 1 never stayed 2 s in a call, yet wrote $(cat prot.txt.hang.1)"
[ -e prot.txt.hang.0 ] || fail "rank 0's 4 s MPI_Recv was not dumped"
cat prot.txt.hang.0
for want in "function MPI_Recv" "source rank=1 world=1" "tag 2" "frame hang_short.c:$long (main)" "resumed "; do
    grep -qF -- "$want" prot.txt.hang.0 || fail "prot.txt.hang.0 lacks '$want'"
done
[ "$(grep -c '^call$' prot.txt.hang.0)" = 1 ] || fail "prot.txt.hang.0 does not hold exactly one call"
# as in the protocol, the stack ends at main: not the C library's frames below
[ "$(grep -c '^frame ' prot.txt.hang.0)" = 1 ] || fail "prot.txt.hang.0: frames other than main's: $(grep '^frame ' prot.txt.hang.0)"
unwrapped prot.txt | grep -q "rank 0 stayed inside MPI_Recv at hang_short.c:$long (main) for more than MPIPROF_HANG_TIMEOUT=2 s" \
    || fail "the protocol's Warnings do not name the stuck call"
grep -q "MPIPROF_HANG_TIMEOUT.*2" prot.txt || fail "the protocol's Configuration lacks MPIPROF_HANG_TIMEOUT=2"

"$MPIPROF_HANG" prot.txt >report 2>report.err || fail "mpiprof-hang exited $?: $(cat report.err)"
cat report
grep -qF "rank 0: running: left MPI_Recv (hang_short.c:$long (main)) after" report \
    || fail "the report does not list rank 0 as running again"
grep -qF "rank 1: running: no dump" report || fail "the report does not list rank 1 as running"
grep -qF "No process is blocked." report || fail "the report does not say that no process is blocked"
grep -qE "DEADLOCK|COLLECTIVE|BLOCKED" report && fail "the report names a deadlock, collective or blocked process"
echo "PASS: hang_short"
