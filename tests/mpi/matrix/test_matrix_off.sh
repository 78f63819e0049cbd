#!/bin/sh
# matrix_off: MPIPROF_MATRIX (pairs.c on 2 processes, one host).  On (the
# default), the matrix has the known pairs 0 -> 1 (7 messages, 700 bytes)
# and 1 -> 0 (3, 150).  off, the text protocol's Communication matrix says
# "n/a (MPIPROF_MATRIX=off)", the JSON's matrix is null and Warnings say
# why.  Rank 0's value is every process's: rank 0 off and rank 1 on gives
# n/a (and no hang); rank 0 on and rank 1 off gives both pairs, rank 1's
# calls counted.  The program's output is the same in every run.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o pairs "$srcdir/pairs.c" || fail "compiling pairs.c with mpicc-prof"

# run NAME RANK0_VALUE RANK1_VALUE ("-": MPIPROF_MATRIX unset)
run() {
    set -- "$1" "$([ "$2" = - ] || echo "MPIPROF_MATRIX=$2")" "$([ "$3" = - ] || echo "MPIPROF_MATRIX=$3")"
    # shellcheck disable=SC2086  # an empty $2 or $3 is no word
    if ! timeout 120 "$MPIEXEC" -n 1 env MPIPROF_OUTPUT="$tmp/$1.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 $2 ./pairs : \
        -n 1 env MPIPROF_OUTPUT="$tmp/$1.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 $3 ./pairs >"$1.out" 2>"$1.err"; then
        cat "$1.out" "$1.err" >&2
        fail "$1: the run did not exit 0 (or hung)"
    fi
    [ "$(sort "$1.out")" = "$(printf 'pairs: rank 0 done\npairs: rank 1 done')" ] ||
        fail "$1: the program's output changed: $(cat "$1.out" "$1.err")"
    [ ! -s "$1.err" ] || fail "$1: output on stderr with MPIPROF_QUIET=1: $(cat "$1.err")"
    cp "$1.prof" prot.txt # shown on failure
    check_text_protocol "$1.prof"
}

# check NAME on|off
check() {
    "$PYTHON3" - "$1.prof" "$2" <<'PY' || fail "$1: the communication matrix (above)"
import json, sys
text_path, want = sys.argv[1], sys.argv[2]
doc = json.load(open(text_path + ".json"))
text = open(text_path).read()
section = text.split("==== Communication matrix", 1)[1].split("\n==== ", 1)[0]
warning = "The communication matrix is n/a: MPIPROF_MATRIX=off"
if want == "off":
    if doc["matrix"] is not None:
        sys.exit("MPIPROF_MATRIX=off: the JSON has a matrix: %s" % json.dumps(doc["matrix"])[:300])
    if section.splitlines()[1] != "n/a (MPIPROF_MATRIX=off)":
        sys.exit("MPIPROF_MATRIX=off: the text section reads %r" % section[:300])
    if warning not in doc["parameters"]["warnings"] or warning not in text:
        sys.exit("MPIPROF_MATRIX=off: Warnings do not say %r: %s" % (warning, doc["parameters"]["warnings"]))
    sys.exit(0)
m = doc["matrix"]
if m is None:
    sys.exit("MPIPROF_MATRIX on at rank 0: no matrix; text: %r" % section[:300])
p = m["pairs"]
got = {(p["from"][i], p["to"][i]): (p["messages"][i], p["bytes"][i]) for i in range(len(p["from"]))}
if got != {(0, 1): (7, 700), (1, 0): (3, 150)}:
    sys.exit("the process pairs are %r, not 0 -> 1 (7, 700) and 1 -> 0 (3, 150)" % got)
if any(warning in w for w in doc["parameters"]["warnings"]):
    sys.exit("the matrix is there and Warnings call it n/a")
PY
}

run default - -
check default on
run off off off
check off off
run rank0_off off on
check rank0_off off
run rank0_on on off
check rank0_on on
echo "PASS: matrix_off"
