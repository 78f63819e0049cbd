#!/bin/sh
# model_nodes: two ranks under two host names (UTS namespaces, as in
# test_two_hosts.sh) are on two nodes for the communication model.  With
# MPIPROF_MODEL giving different intra- and inter-node parameters, messages
# between the ranks (on MPI_COMM_WORLD and on a duplicate of it) and
# collectives on a communicator spanning both are priced with the
# inter-node ones, a message to itself with the intra-node ones, and a
# collective of one process costs nothing.  Skipped only when UTS
# namespaces cannot be created here.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

need_uts_namespaces

cd "$tmp"
"$MPICC_PROF" -o model_nodes "$srcdir/model_nodes.c" || fail "compiling model_nodes.c with mpicc-prof"
model=lat_intra=1us,bw_intra=10GB/s,lat_inter=10us,bw_inter=1GB/s
# shellcheck disable=SC2016  # $1 is expanded by the ranks' shell
if ! "$MPIEXEC" -n 1 env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_MODEL="$model" \
        unshare --uts sh -c 'hostname "$1" && exec ./model_nodes' sh mpiprof-node1 : \
    -n 1 env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_MODEL="$model" \
        unshare --uts sh -c 'hostname "$1" && exec ./model_nodes' sh mpiprof-node2 >out 2>err; then
    cat out err >&2
    fail "the MPMD run with two UTS namespaces did not exit 0"
fi
grep -q '^model_nodes: ok$' out || fail "model_nodes did not print its result: $(cat out err)"
check_text_protocol prot.txt
"$PYTHON3" "$srcdir/check_model.py" nodes prot.txt.json prot.txt "$srcdir/model_nodes.c" \
    "$schema" || fail "protocol check failed (see above)"
echo "PASS: model_nodes"
