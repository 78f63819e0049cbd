#!/bin/sh
# analyze_findings: trace mode carries each process's correctness findings
# (mpiprof::findings, mpiprof-trace(5)) and mpiprof-analyze gives the
# Correctness section of the dynamic protocol of the same run
# (mpiprof-analyze(1), CORRECTNESS).  Scenarios of tests/mpi/check run with
# MPIPROF_TRACE=on MPIPROF_CHECK=full (errors.c's at basic, as tests/mpi/check runs them): a send never completed
# (local.c pending-send: a finding of the checks at MPI_Finalize), a
# receive of the wrong datatype and a send nobody receives (between.c
# p2p-datatype, unmatched-send: between processes, with the other side's
# call), an MPI error returned to the program (errors.c error-return), a
# clean run (trace.c: no finding); one of them analysed under mpiexec;
# and the kinds the analyzer makes from the message events (between.c
# p2p-truncate, p2p-shorter, p2p-persistent, p2p-derived-ok).  For each,
# the analyzed protocol's findings are those the source marks
# (check_findings.py, JSON and text), its Correctness section (JSON)
# equals the dynamic protocol's, and mpiprof-compare, correctness not
# ignored, finds the two protocols the same.  Traces whose carried
# findings are renamed still give those kinds (from the events) and none
# of the local ones.  A trace that carries no findings and no attributes
# of the checks (an earlier mpiprof's: renamed here) gives "no check ran"
# and Warnings say why; a run
# that ends early (errors.c error-fatal: MPI's fatal error on rank 0)
# carries the findings of rank 0's partial protocol.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_analyzer
checks="$mpitests/check"
# messages left unmatched on purpose: UCX would warn of them on stdout
export UCX_LOG_LEVEL=error

# What the two modes give differently by design (test_analyze_trace.sh);
# correctness is not among them.
ignore=$(ignore_options "$analyze_by_design")

# The correctness sections of two JSON protocols, the same.
same_correctness() {
    "$PYTHON3" - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p)).get("correctness") for p in sys.argv[1:3])
if a != b:
    print("dynamic:  " + json.dumps(a, indent=1, sort_keys=True), file=sys.stderr)
    print("analyzed: " + json.dumps(b, indent=1, sort_keys=True), file=sys.stderr)
    sys.exit(1)
PY
}

# findings NAME PROGRAM SOURCE SCENARIO [LEVEL [COMPARE]]: one run, traced,
# with the checks at LEVEL (default full); COMPARE no: the protocols are
# not compared beyond their Correctness sections
findings() {
    name=$1 program=$2 source=$3 scenario=$4 level=${5:-full} whole=${6:-yes}
    mpirun_2 "$name.out" "$name.err" env MPIPROF_TRACE=on MPIPROF_CHECK="$level" MPIPROF_QUIET=1 MPIPROF_FORMAT=both \
        MPIPROF_OUTPUT="$tmp/$name.prof" "./$program" "$scenario"
    [ -f "$name.prof.otf2/traces.otf2" ] || fail "$name: no trace written: $(ls)"
    env MPIPROF_TRACE=on MPIPROF_CHECK="$level" MPIPROF_QUIET=1 MPIPROF_FORMAT=both "$analyze" -q -f both -o "$name.trace.prof" \
        "$name.prof.otf2/traces.otf2" 2>"$name.analyze.err" ||
        fail "$name: mpiprof-analyze failed: $(cat "$name.analyze.err")"
    cp "$name.trace.prof" prot.txt # shown on failure
    "$PYTHON3" "$checks/check_findings.py" "$name.prof.json" "$source" "$scenario" "$name.prof" ||
        fail "$name: the dynamic protocol's findings are not those marked in $(basename "$source")"
    "$PYTHON3" "$checks/check_findings.py" "$name.trace.prof.json" "$source" "$scenario" "$name.trace.prof" ||
        fail "$name: the analyzed protocol's findings are not those marked in $(basename "$source")"
    unwrapped "$name.trace.prof" | grep -q "^Checks .*(MPIPROF_CHECK=$level)\$" ||
        fail "$name: the analyzed protocol does not say the checks were $level: $(grep -A3 '^Correctness' "$name.trace.prof")"
    ! grep -q "carries no findings\|findings of .* of its" "$name.trace.prof" ||
        fail "$name: the analyzed protocol warns of missing findings"
    same_correctness "$name.prof.json" "$name.trace.prof.json" ||
        fail "$name: the Correctness sections differ (above)"
    [ "$whole" = yes ] || return 0
    # shellcheck disable=SC2086  # a list of words
    "$compare" --brief $ignore "$name.prof.json" "$name.trace.prof.json" >"$name.compare" 2>&1 || {
        cat "$name.compare" >&2
        fail "$name: mpiprof-compare finds the dynamic protocol and the trace's different (above)"
    }
    tail -n 1 "$name.compare"
}

cd "$tmp"
for program in local between errors; do
    "$MPICC_PROF" -g -o "$program" "$checks/$program.c" || fail "compiling $program.c with mpicc-prof"
done
"$MPICC_PROF" -g -o trace "$srcdir/trace.c" || fail "compiling trace.c with mpicc-prof"
findings pending-send local "$checks/local.c" pending-send
findings p2p-datatype between "$checks/between.c" p2p-datatype
# the same analysed by two processes, each replaying one (mpiprof-analyze(1),
# UNDER MPIEXEC): each process's findings go through the split reduction
mpirun_2 p2p-datatype.mpi.out p2p-datatype.mpi.err env MPIPROF_QUIET=1 "$analyze" -q -f json -o p2p-datatype.mpi.prof \
    p2p-datatype.prof.otf2/traces.otf2
same_correctness p2p-datatype.prof.json p2p-datatype.mpi.prof.json ||
    fail "p2p-datatype: the Correctness sections of the dynamic protocol and of the trace analysed by 2 differ (above)"
findings unmatched-send between "$checks/between.c" unmatched-send
# (the bytes a receive request never completed posted are not in its trace)
findings pending-irecv between "$checks/between.c" pending-irecv full no
# wrong-send-size (a truncation, beside the local mpi-error) and
# incorrect-send-size: kinds the analyzer makes from the events
findings p2p-truncate between "$checks/between.c" p2p-truncate
findings p2p-itruncate between "$checks/between.c" p2p-itruncate
findings p2p-shorter between "$checks/between.c" p2p-shorter
findings p2p-persistent between "$checks/between.c" p2p-persistent
findings p2p-derived-ok between "$checks/between.c" p2p-derived-ok
# the collectives' agreement kinds, also made from the events
for scenario in bcast-roots reduce-ops coll-mismatch coll-size coll-datatype pcoll-roots; do
    findings "$scenario" between "$checks/between.c" "$scenario"
done
# (persistent collectives started in different orders: the replay's
# instances go by order on the communicator, the dynamic mode's by
# request, so their waits differ; their findings stay the carried ones)
findings coll-forms-ok between "$checks/between.c" coll-forms-ok full no
# (at full the argument checks see the invalid rank before MPI does)
findings error-return errors "$checks/errors.c" error-return basic
findings clean trace "$srcdir/trace.c" none
grep -q '^Findings *: 0 errors, 0 warnings$' clean.trace.prof ||
    fail "clean: the analyzed protocol does not say 0 errors, 0 warnings: $(grep -A3 '^Correctness' clean.trace.prof)"

# rename FILE OLD NEW...: the definitions' names OLD renamed NEW (as
# long; \0 a NUL)
rename() {
    "$PYTHON3" -c 'import sys
p = sys.argv[1]; data = open(p, "rb").read()
for old, new in zip(sys.argv[2::2], sys.argv[3::2]):
    old, new = (x.encode().replace(b"\\0", b"\0") for x in (old, new))
    if old not in data:
        sys.exit("no %r in %s" % (old, p))
    data = data.replace(old, new)
open(p, "wb").write(data)' "$@"
}

# The kinds between processes that the events give come from them
# (mpiprof-analyze(1), CORRECTNESS): without the findings the traces carry
# (renamed here), the analyzer still finds the wrong datatype (naming the
# receive and the send), the truncation, the different reductions and
# the collective's other types, and no more of the local kinds (the
# truncated receive's mpi-error)
for name in p2p-datatype p2p-truncate reduce-ops coll-datatype unmatched-send; do
    cp -R "$name.prof.otf2" "$name.derived.otf2"
    rename "$name.derived.otf2/traces.def" "mpiprof::findings\0" "mpiprof::earliers\0" \
        "mpiprof::findings:" "mpiprof::earliers:"
    "$analyze" -q -f both -o "$name.derived.prof" "$name.derived.otf2/traces.otf2" 2>"$name.derived.err" ||
        fail "$name (derived): mpiprof-analyze failed: $(cat "$name.derived.err")"
    cp "$name.derived.prof" prot.txt # shown on failure
    unwrapped "$name.derived.prof" | grep -q "^Checks .*(MPIPROF_CHECK=full)\$" ||
        fail "$name (derived): the protocol does not say the checks were full: $(grep -A3 '^Correctness' "$name.derived.prof")"
done
for name in p2p-datatype reduce-ops coll-datatype unmatched-send; do
    "$PYTHON3" "$checks/check_findings.py" "$name.derived.prof.json" "$checks/between.c" "$name" \
        "$name.derived.prof" || fail "$name (derived): the findings are not those marked in between.c"
done
# ... and the same by two processes, the receive's share naming the send
# of the other's (the trace's strings)
mpirun_2 derived.mpi.out derived.mpi.err env MPIPROF_QUIET=1 "$analyze" -q -f json -o p2p-datatype.derived.mpi.prof \
    p2p-datatype.derived.otf2/traces.otf2
same_correctness p2p-datatype.derived.prof.json p2p-datatype.derived.mpi.prof.json ||
    fail "p2p-datatype (derived): the Correctness sections analysed by 1 and by 2 differ (above)"
mkdir between-only
sed 's|/\* expect p2p-truncate,p2p-truncate-basic: mpi-error ranks=1 \*/||' "$checks/between.c" >between-only/between.c
"$PYTHON3" "$checks/check_findings.py" p2p-truncate.derived.prof.json between-only/between.c p2p-truncate \
    p2p-truncate.derived.prof ||
    fail "p2p-truncate (derived): the findings are not wrong-send-size alone (between.c's, its mpi-error gone)"

# An earlier mpiprof's trace: no mpiprof::findings properties, no
# attributes of the checks on its message events (renamed here)
rename p2p-datatype.prof.otf2/traces.def "mpiprof::findings" "mpiprof::earliers" \
    "mpiprof::check_bytes" "mpiprof::earlr_bytes" "mpiprof::sig_" "mpiprof::old_" "mpiprof::coll_row" \
    "mpiprof::oldc_row" ||
    fail "p2p-datatype: the archive's definitions (above)"
"$analyze" -q -o earlier.prof p2p-datatype.prof.otf2/traces.otf2 2>earlier.err ||
    fail "earlier: mpiprof-analyze failed: $(cat earlier.err)"
grep -q '^Findings *: n/a (no correctness check ran' earlier.prof ||
    fail "earlier: the section does not say no check ran: $(grep -A3 '^Correctness' earlier.prof)"
unwrapped earlier.prof | grep -q 'Correctness: the trace carries no findings of mpiprof.s checks' ||
    fail "earlier: Warnings do not say why the findings are n/a: $(cat earlier.prof)"

# A run that ends early: rank 0's findings are its partial protocol's
set +e
"$MPIEXEC" -n 2 env MPIPROF_TRACE=on MPIPROF_CHECK=basic MPIPROF_QUIET=1 MPIPROF_FORMAT=both \
    MPIPROF_OUTPUT="$tmp/fatal.prof" ./errors error-fatal >fatal.out 2>fatal.err
set -e
[ -s fatal.prof.partial.0.json ] || fail "error-fatal: no partial protocol of rank 0: $(ls) $(cat fatal.err)"
status=0
"$analyze" -q -f both -o fatal.trace.prof fatal.prof.otf2/traces.otf2 2>fatal.analyze.err || status=$?
[ "$status" -eq 3 ] || fail "error-fatal: mpiprof-analyze exited $status, not 3 (incomplete): $(cat fatal.analyze.err)"
"$PYTHON3" "$checks/check_findings.py" fatal.trace.prof.json "$checks/errors.c" error-fatal fatal.trace.prof ||
    fail "error-fatal: the analyzed protocol's findings are not those marked in errors.c"
echo "PASS: analyze_findings"
