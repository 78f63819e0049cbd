#!/bin/sh
# matrix_trace: the communication matrix of mpiprof-analyze equals the
# dynamic one.  matrix_roles.c on 2 processes counts every way a call
# counts (sends, blocking receives, a nonblocking receive's posting,
# MPI_Sendrecv with both sides and with one side MPI_PROC_NULL, a
# persistent send that does not count), traced: the dynamic protocol and
# the analyzer's (alone, and as 2 processes under mpiexec) have the known
# messages and bytes per pair (0 -> 1: 7, 850; 1 -> 0: 5, 592) and the
# same time per pair within 1% or 20 us, and mpiprof-compare finds them
# equal; with MPIPROF_MATRIX=off the analyzer says n/a (check_matrix_trace
# below).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_analyzer

ignore=$(ignore_options "$analyze_by_design")
cd "$tmp"
"$MPICC_PROF" -o matrix_roles "$srcdir/matrix_roles.c" || fail "compiling matrix_roles.c with mpicc-prof"
mpirun_2 out err env MPIPROF_TRACE=on MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./matrix_roles
grep -q '^matrix_roles: ok$' out || fail "the program did not finish: $(cat out err)"
check_text_protocol prot.txt
env MPIPROF_TRACE=on MPIPROF_FORMAT=both MPIPROF_QUIET=1 "$analyze" -q -f both -o alone.prof prot.txt.otf2 2>alone.err || fail "mpiprof-analyze: $(cat alone.err)"
mpirun_2 shared.out shared.err env MPIPROF_TRACE=on MPIPROF_FORMAT=both MPIPROF_QUIET=1 "$analyze" -q -f both -o shared.prof prot.txt.otf2
env MPIPROF_QUIET=1 MPIPROF_MATRIX=off "$analyze" -q -f both -o off.prof prot.txt.otf2 2>off.err ||
    fail "mpiprof-analyze with MPIPROF_MATRIX=off: $(cat off.err)"

"$PYTHON3" - prot.txt.json alone.prof.json shared.prof.json off.prof.json <<'PY' || fail "the matrices (above)"
import json, sys
known = {(0, 1): (7, 850), (1, 0): (5, 592)}
docs = [json.load(open(p)) for p in sys.argv[1:]]
def pairs(doc):
    p = doc["matrix"]["pairs"]
    return {(p["from"][i], p["to"][i]): (p["messages"][i], p["bytes"][i], p["time"][i]) for i in range(len(p["from"]))}
dynamic = pairs(docs[0])
for path, doc in zip(sys.argv[1:4], docs[:3]):
    if doc["matrix"] is None:
        sys.exit("%s: no communication matrix" % path)
    got = pairs(doc)
    if {k: v[:2] for k, v in got.items()} != known:
        sys.exit("%s: the pairs are %r, not %r" % (path, got, known))
    for k, v in got.items():
        if abs(v[2] - dynamic[k][2]) > max(0.01 * dynamic[k][2], 20e-6):
            sys.exit("%s: pair %r took %.9f s, the dynamic protocol %.9f s" % (path, k, v[2], dynamic[k][2]))
    print("%s: %s" % (path, sorted(got.items())))
off = docs[3]
if off["matrix"] is not None or "The communication matrix is n/a: MPIPROF_MATRIX=off" not in off["parameters"]["warnings"]:
    sys.exit("%s: MPIPROF_MATRIX=off: matrix %r, warnings %r" % (sys.argv[4], off["matrix"], off["parameters"]["warnings"]))
PY
for a in alone shared; do
    # shellcheck disable=SC2086  # a list of words
    "$compare" --brief $ignore prot.txt.json $a.prof.json >compare.$a 2>&1 || {
        cat compare.$a >&2
        fail "mpiprof-compare finds the dynamic protocol and the analyzer's ($a) different (above)"
    }
done
echo "PASS: matrix_trace"
