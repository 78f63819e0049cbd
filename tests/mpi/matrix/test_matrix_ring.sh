#!/bin/sh
# matrix_ring: the communication matrix of a known ring (ring.c) on 4
# processes on two host names (two per host, each host a UTS namespace of
# its own: unshare --uts under mpiexec's MPMD syntax): per process pair and
# per node pair (within against between nodes) with the known messages and
# bytes (those on a split communicator under their world ranks), text =
# JSON (check_matrix.py); then with MPIPROF_RANKS=0 and
# MPIPROF_MATRIX_RANKS=1, rank 0's pairs and the heaviest one, said so;
# with MPIPROF_WAITSTATES=off, the split communicator's calls not
# attributed; mpiprof-compare reports the differences of the matrices'
# counts.
# Skipped only when UTS namespaces cannot be created here.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

need_uts_namespaces

cd "$tmp"
"$MPICC_PROF" -o ring "$srcdir/ring.c" || fail "compiling ring.c with mpicc-prof"

# run NAME [VAR=VALUE...]: ranks 0-1 on mpiprof-node1, 2-3 on mpiprof-node2
run() {
    name=$1
    shift
    # shellcheck disable=SC2016  # $1 is expanded by the ranks' shell
    if ! "$MPIEXEC" -n 2 env MPIPROF_OUTPUT="$tmp/$name.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 "$@" \
            unshare --uts sh -c 'hostname "$1" && exec ./ring' sh mpiprof-node1 : \
        -n 2 env MPIPROF_OUTPUT="$tmp/$name.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 "$@" \
            unshare --uts sh -c 'hostname "$1" && exec ./ring' sh mpiprof-node2 >"$name.out" 2>"$name.err"; then
        cat "$name.out" "$name.err" >&2
        fail "$name: the MPMD run with two UTS namespaces did not exit 0"
    fi
    [ "$(grep -c '^ring: rank [0-3] done$' "$name.out")" = 4 ] || fail "$name: the program's output is wrong: $(cat "$name.out" "$name.err")"
    cp "$name.prof" prot.txt # shown on failure
    check_text_protocol "$name.prof"
}

run all
"$PYTHON3" "$srcdir/check_matrix.py" all.prof all.prof.json all || fail "the matrix of every pair (above)"
run limited MPIPROF_RANKS=0 MPIPROF_MATRIX_RANKS=1
"$PYTHON3" "$srcdir/check_matrix.py" limited.prof limited.prof.json limited || fail "the matrix past the limit (above)"
run nows MPIPROF_WAITSTATES=off
"$PYTHON3" "$srcdir/check_matrix.py" nows.prof nows.prof.json nows || fail "the matrix without the wait-state analysis (above)"

# mpiprof-compare: the matrix's counts; the run without the split
# communicator's pairs differs there, a copy with one byte more in one pair
# in that pair alone, the protocol and itself not at all
compare="${top_builddir:?}/tools/mpiprof-compare"
"$compare" all.prof.json nows.prof.json >cmp.out 2>&1 && fail "mpiprof-compare finds no difference without the split pairs"
grep -q '^communication matrix: process pair 0 -> 2: only in A$' cmp.out ||
    fail "mpiprof-compare does not report the pair only in A: $(grep -i matrix cmp.out)"
grep -q '^communication matrix: between_nodes messages: 36 in A, 30 in B$' cmp.out ||
    fail "mpiprof-compare does not report the messages between nodes: $(grep -i matrix cmp.out)"
"$PYTHON3" - all.prof.json one.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["matrix"]["pairs"]["bytes"][0] += 1
json.dump(d, open(sys.argv[2], "w"))
PY
"$compare" all.prof.json one.json >cmp1.out 2>&1 && fail "mpiprof-compare finds no difference in a pair's bytes"
[ "$(grep -c '^communication matrix' cmp1.out)" = 1 ] && grep -q '^communication matrix: process pair 0 -> 1 bytes: 10000 in A, 10001 in B$' cmp1.out ||
    fail "mpiprof-compare does not report the one pair's bytes alone: $(grep -i matrix cmp1.out)"
"$compare" all.prof.json all.prof.json >cmp2.out 2>&1 || fail "mpiprof-compare finds the protocol different from itself: $(cat cmp2.out)"
