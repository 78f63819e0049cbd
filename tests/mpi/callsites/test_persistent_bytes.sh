#!/bin/sh
# persistent_bytes: a persistent barrier's MPI_Start moves 0 bytes on every
# process, and the protocol holds its invariants (MPICH's coll/p_barrier
# once had its MPI_Start at -9.2e18 bytes per process: the bytes that
# MPI_Barrier_init's wrapper left unset were what its request kept).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -O0 -o persistent_bytes "$srcdir/persistent_bytes.c" || fail "compiling persistent_bytes.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./persistent_bytes
! grep -q 'has no MPI_Barrier_init' out || skip "$(cat out)"
grep -q '^persistent_bytes: ok$' out || fail "the program did not print its result: $(cat out err)"
"$PYTHON3" - prot.txt.json prot.txt "$schema" <<'PY' || fail "the protocol (above)"
import sys
import protocol_check as pc
doc = pc.load_checked(sys.argv[1], sys.argv[2], sys.argv[3], say=False)
starts = [s for i in doc["intervals"] for s in i["src"] if s["function"] == "MPI_Start"]
if not starts:
    sys.exit("FAIL: no SRC point of MPI_Start")
for s in starts:
    for key in ("bytes_sent", "bytes_recv"):
        if s[key] != 0:
            sys.exit("FAIL: MPI_Start of a persistent barrier: %s = %r, expected 0" % (key, s[key]))
print("MPI_Start of a persistent barrier: 0 bytes sent and received; invariants hold")
PY
echo "PASS: persistent_bytes"
