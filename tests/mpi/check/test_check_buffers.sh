#!/bin/sh
# check_buffers: sendrecv-overlap (the send and receive buffers of one
# MPI_Sendrecv or collective share bytes), overlapping-buffers (a call's
# buffer shares bytes with a pending nonblocking or started persistent
# operation's, one of them written) and, with MPIPROF_CHECK=full,checksum
# (or basic,checksum), send-buffer-modified (a pending send's bytes changed
# before it completed), exactly as buffers.c marks them; none for buffers
# whose ranges meet and bytes do not (strided vectors side by side, neighbours),
# for two pending sends of one buffer, for a buffer used again once its
# operation completed (wait, test, persistent), nor without ,checksum.
# many-pending: 10^5 receives pending at once cost, at full against basic,
# at most 200 bytes each and a few times the time (not quadratic).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o buffers "$srcdir/buffers.c" || fail "compiling buffers.c with mpicc-prof"
for s in sendrecv-overlap coll-overlap pending-overlap persistent-overlap pending-vector-gaps-no-finding \
    send-modified-unchecked; do
    run_scenario buffers "$srcdir/buffers.c" "$s"
done
run_scenario buffers "$srcdir/buffers.c" send-modified full,checksum
run_scenario buffers "$srcdir/buffers.c" send-modified basic,checksum
run_scenario buffers "$srcdir/buffers.c" pending-vector-gaps-no-finding full,checksum

# 10^5 pending receives: memory and time at full against basic (rank 0's lines)
figures() { # LEVEL: "SECONDS KIB" of rank 0
    run_scenario buffers "$srcdir/buffers.c" many-pending "$1" >&2
    sed -n 's/^many-pending: rank 0: [0-9]* receives in \([0-9.]*\) s, max RSS \([0-9]*\) KiB$/\1 \2/p' many-pending.err
}
basic=$(figures basic)
full=$(figures full)
if [ -z "$basic" ] || [ -z "$full" ]; then
    fail "many-pending printed no figures: $(cat many-pending.err)"
fi
echo "many-pending (seconds, max RSS KiB): basic $basic, full $full"
# shellcheck disable=SC2086  # two words each
set -- $basic $full
awk -v tb="$1" -v mb="$2" -v tf="$3" -v mf="$4" 'BEGIN {
    per = (mf - mb) * 1024 / 100000
    printf "full: %.0f bytes and %.2f us more per pending receive\n", per, (tf - tb) * 1e6 / 100000
    exit !(per < 200 && tf < 10 * tb + 2) }' || fail "many-pending costs too much at full: basic $basic, full $full"
echo "PASS: check_buffers"
