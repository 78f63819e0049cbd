#!/bin/sh
# clock_two_hosts: clocks of two hosts (UTS namespaces on this machine, as
# in test_model_nodes.sh) are measured, not shared.
#   skew: rank 1's clock skewed by -50 ms (MPIPROF_TEST_CLOCK_SKEW, a
#     library configured with --enable-test-hooks; skipped otherwise): the
#     offsets in the trace recover it within their stated uncertainty, and
#     the late sender's Real sync (clock_late_sender.c) is the program's
#     instants' within 1% or 2 ms in both modes (unrecovered, rank 1's sends
#     would seem 50 ms early: Real sync 0).
#   pinned: MPI_Finalize's alignment disturbed (both ranks and a spinning
#     process on one CPU): the Warnings of both modes name the uncertain
#     alignment at MPI_Finalize, and the analyzed protocol equals the
#     dynamic one (mpiprof-compare, the names that differ by design
#     ignored): the analyzer does not rescale durations by a drift smaller
#     than the offsets' uncertainty.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_analyzer

need_uts_namespaces

cd "$tmp"
"$MPICC_PROF" -o clock_late_sender "$srcdir/clock_late_sender.c" || fail "compiling clock_late_sender.c with mpicc-prof"
ignore=$(ignore_options "$analyze_by_design")

# run NAME SKEW [pinned]: the MPMD job, rank 1's clock skewed by SKEW s, and its analysis
run() {
    # shellcheck disable=SC2016  # $1 is expanded by the ranks' shell
    if ! "$MPIEXEC" -n 1 env MPIPROF_OUTPUT="$tmp/$1.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_TRACE=on \
            unshare --uts sh -c 'hostname "$1" && shift && exec ./clock_late_sender "$@"' sh mpiprof-node1 "$1.ev" ${3:-} : \
        -n 1 env MPIPROF_OUTPUT="$tmp/$1.prof" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_TRACE=on \
            MPIPROF_TEST_CLOCK_SKEW="$2" \
            unshare --uts sh -c 'hostname "$1" && shift && exec ./clock_late_sender "$@"' sh mpiprof-node2 "$1.ev" ${3:-} \
            >"$1.out" 2>"$1.err"; then
        cat "$1.out" "$1.err" >&2
        fail "$1: the MPMD run with two UTS namespaces did not exit 0"
    fi
    cp "$1.prof" prot.txt # shown on failure
    env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_FORMAT=both "$analyze" -q -f both -o "$1.an.prof" "$1.prof.otf2/traces.otf2" 2>"$1.an.err" \
        || fail "$1: mpiprof-analyze failed: $(cat "$1.an.err")"
    "$PYTHON3" "$srcdir/check_clock.py" "$1.prof.json" "$1.ev" measured || fail "$1: dynamic protocol (above)"
    "$PYTHON3" "$srcdir/check_clock.py" "$1.an.prof.json" "$1.ev" any || fail "$1: analyzed protocol (above)"
}

if grep -q '^#define MPP_TEST_HOOKS 1' "${top_builddir:?}/src/autoconf.h"; then
    run skew -0.05
    command -v otf2-print >/dev/null 2>&1 || fail "otf2-print (OTF2's tools) is needed to read the trace's offsets"
    # rank 1's ClockOffset definitions: offset (ticks) and deviation; the skew in ticks from the TSC's rate
    otf2-print -C skew.prof.otf2/traces.otf2 >skew.defs 2>&1 || fail "otf2-print -C failed: $(head skew.defs)"
    "$PYTHON3" - skew.defs skew.prof.json <<'PY' || fail "the trace's offsets do not recover the skew (above)"
import json, re, sys
text = open(sys.argv[1]).read()
res = json.load(open(sys.argv[2]))["parameters"]["clock"]
m = re.search(r"([0-9.]+) GHz", res)
rate = float(m.group(1)) * 1e9 if m else 1e9  # CLOCK_MONOTONIC: ns
offs = [(int(o), float(d)) for o, d in re.findall(r"CLOCK_OFFSET.*Offset: ([+-]?\d+), StdDev: ([0-9.e+-]+)", text)]
if len(offs) < 4:
    sys.exit("expected two ClockOffset definitions per rank, got %r:\n%s" % (offs, text[:2000]))
skew = -0.05 * rate
# rank 1 (location 1) adds +50 ms to read rank 0's clock, within the
# deviation and the error of the skew's ticks (the library converts it with
# the clock's rate measured over 1 ms at MPI_Init: good to ~1e-4)
ok = [abs(o - -skew) <= d + 2e-4 * abs(skew) for o, d in offs]
if sum(ok) != 2:
    sys.exit("no rank's offsets are %.0f ticks within their deviation: %r" % (-skew, offs))
print("offsets (ticks, deviation):", offs, "skew", -skew)
PY
else
    echo "no test hooks in this build (configure --enable-test-hooks): the skewed clock is not tested"
fi

run pinned 0 pinned
for p in pinned.prof pinned.an.prof; do
    unwrapped "$p" | grep -q 'Clock alignment: the offsets measured at MPI_Finalize are uncertain by up to' \
        || fail "$p: no warning names the uncertain alignment at MPI_Finalize: $(grep -A8 '^Warnings' "$p")"
done
# shellcheck disable=SC2086  # a list of words
"$compare" --brief $ignore pinned.prof.json pinned.an.prof.json >compare.out 2>&1 || {
    cat compare.out >&2
    fail "mpiprof-compare finds the dynamic protocol and the trace's different (above)"
}
echo "PASS: clock_two_hosts"
