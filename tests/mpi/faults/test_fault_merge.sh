#!/bin/sh
# fault_merge: mpiprof-merge on the partial protocols of a 2-process run of
# faults.c (mode wait) that both ranks ended on SIGTERM.  The merged
# protocol (text and JSON, the protocol's own writers) must hold both
# processes, count every call exactly, say how each ended and be the sum of
# the two (check_merge.py); merging one rank names the other as missing;
# a directory stands for the partial protocols in it (of one run);
# reading the text forms (no .json) gives the same protocol; a rank given
# twice, or a file that is not a process's partial protocol, is refused.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=faults.sh
. "$srcdir/faults.sh"
merge="$top_builddir/tools/mpiprof-merge"
[ -x "$merge" ] || fail "$merge is not built"

cd "$tmp"
build_faults
run_both_killed job TERM
check_partials sig:SIGTERM job 0 1

"$merge" job.partial.0 job.partial.1.json >merge.out 2>&1 || fail "mpiprof-merge failed: $(cat merge.out)"
grep -q "ranks 0-1 of 2 processes (missing: none) merged into job.partial (and .json)" merge.out \
    || fail "mpiprof-merge said: $(cat merge.out)"
"$PYTHON3" "$srcdir/check_merge.py" job.partial "$SOURCE" "$schema" job 0 1 || fail "the merged protocol"

"$merge" -q -o one job.partial.1 || fail "mpiprof-merge of rank 1 alone"
"$PYTHON3" "$srcdir/check_merge.py" one "$SOURCE" "$schema" job 1 || fail "the protocol of rank 1 merged alone"

# the communication matrix from the rows the partial protocols carry: the
# known messages of mode wait (0 -> 1: N_SEND of 32 bytes and N_PEER of 4;
# 1 -> 0: N_PEER of 4), each process's blocking receives' time to the
# sender; one rank alone: n/a, the other's row missing
"$PYTHON3" - job.partial.json one.json <<'PY' || fail "the merged communication matrix (above)"
import json, sys
both, one = (json.load(open(p)) for p in sys.argv[1:3])
m = both["matrix"]
if m is None:
    sys.exit("the merge of both ranks has no communication matrix: %s" % both["parameters"]["warnings"])
p = m["pairs"]
got = {(p["from"][i], p["to"][i]): (p["messages"][i], p["bytes"][i], p["time"][i]) for i in range(len(p["from"]))}
if {k: v[:2] for k, v in got.items()} != {(0, 1): (53, 1612), (1, 0): (3, 12)} or not all(v[2] > 0 for v in got.values()):
    sys.exit("the merged matrix's pairs are %r, not 0 -> 1 (53, 1612) and 1 -> 0 (3, 12) with their time" % got)
if m["processes"] != 2 or len(m["nodes"]) != 1 or m["nodes"][0]["ranks"] != [0, 1]:
    sys.exit("the merged matrix has %s processes on %s nodes" % (m["processes"], m["nodes"]))
why = "The communication matrix is n/a: the partial protocols of some processes are missing"
if one["matrix"] is not None or not any(w.startswith(why) for w in one["parameters"]["warnings"]):
    sys.exit("rank 1 merged alone: matrix %r, warnings %r" % (one["matrix"], one["parameters"]["warnings"]))
if m["not_attributed"] != 0:
    sys.exit("the merged matrix has %s calls not attributed, none were" % m["not_attributed"])
print("merged matrix: %s" % sorted(got.items()))
PY
# the calls each process counted in no pair (its row's matrix_not_counted) are summed, as MPI_Finalize sums them
mkdir uncounted
"$PYTHON3" - job.partial.0.json job.partial.1.json uncounted <<'PY' || fail "making partial protocols with calls in no pair"
import json, os, sys
for path, n in zip(sys.argv[1:3], (2, 3)):
    d = json.load(open(path))
    d["process"]["matrix_not_counted"] = n
    json.dump(d, open(os.path.join(sys.argv[3], os.path.basename(path)), "w"))
PY
"$merge" -q -o uncounted.merged uncounted/job.partial.0.json uncounted/job.partial.1.json || fail "mpiprof-merge of uncounted/"
"$PYTHON3" -c 'import json, sys; m = json.load(open(sys.argv[1]))["matrix"]; sys.exit(0 if m and m["not_attributed"] == 5 else "not attributed: %r" % (m and m["not_attributed"]))' \
    uncounted.merged.json || fail "the merged matrix does not sum the processes' calls in no pair"

# same_merge A B: the JSON protocols A and B are equal but for when they were written
same_merge() {
    "$PYTHON3" - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d["parameters"].pop("protocol_written")
if a != b:
    sys.exit("the protocols differ")
PY
}

# from the text forms only
mkdir text
cp job.partial.0 job.partial.1 text/
"$merge" -q -o text/merged -f both text/job.partial.1 text/job.partial.0 || fail "mpiprof-merge of the text forms"
same_merge job.partial.json text/merged.json || fail "the merge of the text forms differs"

# a directory: the partial protocols in it, a text one and its JSON sibling once
mkdir dir
cp job.partial.0 job.partial.0.json job.partial.1 job.partial.1.json dir/
"$merge" -q -o dir.merged dir || fail "mpiprof-merge of a directory"
same_merge job.partial.json dir.merged.json || fail "the merge of a directory's partial protocols differs"
cp job.partial.0 dir/other.partial.0
st=0
"$merge" -q -o mixed dir 2>mixed.err || st=$?
[ "$st" -eq 1 ] && grep -q "dir: the partial protocols of several runs" mixed.err ||
    fail "a directory of two runs' partial protocols: status $st, $(cat mixed.err)"

st=0
"$merge" -q -o twice job.partial.0 job.partial.0.json 2>twice.err || st=$?
[ "$st" -eq 1 ] && grep -q "rank 0 is given twice" twice.err || fail "a rank given twice: status $st, $(cat twice.err)"
st=0
"$merge" -q -o whole job.partial 2>whole.err || st=$?
[ "$st" -eq 1 ] && grep -q "no process data" whole.err || fail "a merged protocol as input: status $st, $(cat whole.err)"
echo "PASS: fault_merge"
