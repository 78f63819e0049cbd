#!/bin/sh
# init_comms: the communicators the profiler makes, counted by
# tests/mpi/preload/init_comms.c preloaded before libmpiprof: on one node, no
# MPI_Comm_split (the calibration's node is the whole world: before, it
# split it by host at every MPI_Init, an MPI collective of its own), and
# one duplicate of MPI_COMM_WORLD, which the wait states' batches share
# (before, a second one of their own).  The protocol says one node and has
# its wait states.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC

need_library
cd "$tmp"
"$MPICC" -o preload "$srcdir/preload.c" || fail "compiling preload.c with plain $MPICC"
"$MPICC" -shared -fPIC -o init_comms.so "$srcdir/init_comms.c" -ldl || fail "compiling init_comms.c"
# (MPIPROF_CHECK=basic: full's argument checks make one more duplicate, an
# errors-return one to ask MPI about datatypes without an abort)
mpirun_2 out err env LD_PRELOAD="$(preload "$tmp/init_comms.so:$lib")" MPIPROF_OUTPUT="$tmp/prot.txt" \
    MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_CHECK=basic ./preload
grep -q '^preload: ok$' out || fail "preload did not print its result: $(cat out err)"
[ "$(grep -c '^init_comms: ' err)" -eq 2 ] || fail "not two processes' counts: $(cat err)"
grep '^init_comms: ' err | while read -r _ split dup; do
    [ "$split" = split=0 ] || fail "the profiler split a communicator on one node ($split $dup)"
    [ "$dup" = dup=1 ] || fail "the profiler made not one duplicate of MPI_COMM_WORLD ($split $dup)"
done
nodes=$("$PYTHON3" -c 'import json, sys
print(json.load(open(sys.argv[1]))["parameters"]["prediction_model"]["nodes"])' prot.txt.json)
[ "$nodes" = 1 ] || fail "the protocol's model says $nodes nodes, not one"
grep -q '^Real sync  *[0-9]' prot.txt || fail "no wait states in the protocol: $(grep '^Real sync' prot.txt)"
echo "PASS: init_comms"
