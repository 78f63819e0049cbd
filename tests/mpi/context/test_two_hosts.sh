#!/bin/sh
# two_hosts: host identity comes from the node, not from the MPI rank
# layout.  Two ranks on this one machine, each in its own UTS namespace
# with its own host name (unshare --uts under mpiexec's MPMD syntax), must
# give Nodes=2, a Placement line per host name (rank 0 on the first, rank 1
# on the second) and one Machine node type that both host names have (each
# host's lowest rank describes its node; the reduction keeps one record per
# distinct node type).  Text = JSON, schema.  Built without hwloc: Nodes=2
# and Machine/Placement n/a.  The communication model sees two nodes too: its
# inter-node parameters are calibrated between ranks 0 and 1, its intra-node
# ones cannot be (no host runs two processes) and take the inter-node values.  Skipped only when UTS namespaces cannot be
# created here (unshare missing, or not permitted: needs CAP_SYS_ADMIN).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=context.sh
. "$srcdir/context.sh"
need_var MPICC_PROF

need_uts_namespaces

cd "$tmp"
"$MPICC_PROF" -o context "$srcdir/context.c" || fail "compiling context.c with mpicc-prof"
a=mpiprof-node1
b=mpiprof-node2
# shellcheck disable=SC2016  # $1 is expanded by the ranks' shell
if ! "$MPIEXEC" -n 1 env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
        unshare --uts sh -c 'hostname "$1" && exec ./context' sh "$a" : \
    -n 1 env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
        unshare --uts sh -c 'hostname "$1" && exec ./context' sh "$b" >out 2>err; then
    cat out err >&2
    fail "the MPMD run with two UTS namespaces did not exit 0"
fi
grep -q '^context: 2 processes' out || fail "the program's output is wrong: $(cat out err)"
check_text_protocol prot.txt
unwrapped prot.txt | grep -q '^   inter-node: lat_inter=[0-9.]*[mu]s bw_inter=[0-9.]*[KMG]B/s (calibrated by a ping-pong of ranks 0 and 1, ' \
    || fail "the model's inter-node parameters are not calibrated between the two hosts: $(sed -n '/^Prediction model/,/^Warnings/p' prot.txt)"
unwrapped prot.txt | grep -q '^   intra-node: .* (not measured: no node runs two processes; the inter-node value)$' \
    || fail "the model's intra-node parameters are not stated as the inter-node values: $(sed -n '/^Prediction model/,/^Warnings/p' prot.txt)"
unwrapped prot.txt | grep -q '(2 nodes)$' || fail "the model's calibration does not count 2 nodes"
check_context two-hosts prot.txt.json prot.txt "$schema" "$a" "$b"
if built_with hwloc; then
    unwrapped prot.txt | grep -q "^   .*; hosts mpiprof-node\[1-2\]$" || fail "the Machine line does not name both hosts as mpiprof-node[1-2]: $(grep -A2 '^Machine' prot.txt)"
    grep -q "^   $a: rank 0 " prot.txt || fail "no Placement line for $a"
    grep -q "^   $b: rank 1 " prot.txt || fail "no Placement line for $b"
fi
echo "PASS: two_hosts"
