# shellcheck shell=sh
# What the correctness tests (tests/mpi/check/test_*.sh) share.  Sourced
# after tests/mpi/lib/common.sh, in $tmp.
#
#   run_scenario PROGRAM SOURCE SCENARIO [LEVEL]
#       run "./PROGRAM SCENARIO" on 2 processes without the profiler
#       (MPIPROF_DISABLE=1) and with MPIPROF_CHECK=LEVEL (default full):
#       the same exit status and the same standard output (lines sorted:
#       the processes interleave) both times, and the protocol's findings
#       exactly those SOURCE marks for SCENARIO (check_findings.py), in the
#       JSON and the text.  The protocol is $tmp/SCENARIO.prof (.json).
#
#   run_scenario_partial PROGRAM SOURCE SCENARIO RANK [LEVEL [crash]]
#       the same for a run that ends early (MPI_Abort, a signal, MPI's
#       fatal error): the findings are those of RANK's partial protocol,
#       $tmp/SCENARIO.prof.partial.RANK (.json), which must exist.  With
#       crash (a process killed by a signal), an exit status that differs
#       is accepted when both are deaths by a signal as hydra reports them
#       (it reports whichever death it sees first: tests/mpi/faults/faults.sh).
#   run_scenario_abort PROGRAM SOURCE SCENARIO [LEVEL]
#       the same for a scenario MPI aborts on (its error handler fatal):
#       the same exit status with and without the profiler, and on standard
#       error, before MPI's message, a line "mpiprof: error: KIND in
#       MPI_... at FILE:LINE" for a mark of SCENARIO (each process writes its
#       own, if MPI's abort has not ended it first); the findings of a
#       protocol written anyway (a partial one) at the marked lines.

# run_both PROGRAM SCENARIO LEVEL [QUIET]: the scenario on 2 processes without
# the profiler ($_plain, SCENARIO.plain.out/.err) and with MPIPROF_CHECK=LEVEL
# ($_status, SCENARIO.out/.err; the protocol $tmp/SCENARIO.prof, any earlier
# one removed); QUIET (default 1) is MPIPROF_QUIET.
run_both() {
    set +e
    "$MPIEXEC" -n 2 env MPIPROF_DISABLE=1 "./$1" "$2" >"$2.plain.out" 2>"$2.plain.err"
    _plain=$?
    rm -f "$tmp/$2.prof"*
    "$MPIEXEC" -n 2 env MPIPROF_CHECK="$3" MPIPROF_FORMAT=both MPIPROF_QUIET="${4:-1}" MPIPROF_OVERWRITE=1 \
        MPIPROF_OUTPUT="$tmp/$2.prof" "./$1" "$2" >"$2.out" 2>"$2.err"
    _status=$?
    set -e
}

run_scenario() {
    _prog=$1
    _src=$2
    _scen=$3
    run_both "$_prog" "$_scen" "${4:-full}"
    [ "$_status" -eq "$_plain" ] \
        || fail "scenario $_scen: exit status $_status with the profiler, $_plain without: $(cat "$_scen.err")"
    sort "$_scen.plain.out" >"$_scen.plain.sorted"
    sort "$_scen.out" >"$_scen.sorted"
    cmp -s "$_scen.plain.sorted" "$_scen.sorted" \
        || fail "scenario $_scen: the program's output differs with the profiler: $(diff "$_scen.plain.sorted" "$_scen.sorted")"
    ! grep -q mpiprof "$_scen.err" || fail "scenario $_scen: mpiprof wrote on stderr with MPIPROF_QUIET=1: $(cat "$_scen.err")"
    "$PYTHON3" "$srcdir/check_findings.py" "$_scen.prof.json" "$_src" "$_scen" "$_scen.prof" \
        || fail "scenario $_scen: the findings are not those marked in $(basename "$_src")"
}

run_scenario_partial() {
    _prog=$1
    _src=$2
    _scen=$3
    _rank=$4
    run_both "$_prog" "$_scen" "${5:-full}"
    if [ "$_status" -ne "$_plain" ]; then
        case "${6:-}:$_status:$_plain" in
        crash:[4-9]:[4-9] | crash:1[135]:[4-9] | crash:[4-9]:1[135] | crash:1[135]:1[135])
            echo "NOTE: scenario $_scen: exit status $_status with the profiler, $_plain without: both deaths by a signal" ;;
        *) fail "scenario $_scen: exit status $_status with the profiler, $_plain without: $(cat "$_scen.err")" ;;
        esac
    fi
    # the program's lines, without those of hydra's report of the early end (its pids differ)
    _launcher='^=\|^YOUR APPLICATION TERMINATED\|^This typically refers\|^Please see the FAQ\|^$'
    grep -v "$_launcher" "$_scen.plain.out" | sort >"$_scen.plain.sorted" || :
    grep -v "$_launcher" "$_scen.out" | sort >"$_scen.sorted" || :
    cmp -s "$_scen.plain.sorted" "$_scen.sorted" \
        || fail "scenario $_scen: the program's output differs with the profiler: $(diff "$_scen.plain.sorted" "$_scen.sorted")"
    # (a backtrace that MPI's own signal handler prints may name libmpiprof.so)
    ! grep -q '^mpiprof' "$_scen.err" || fail "scenario $_scen: mpiprof wrote on stderr with MPIPROF_QUIET=1: $(cat "$_scen.err")"
    _partial="$tmp/$_scen.prof.partial.$_rank"
    [ -s "$_partial.json" ] || fail "scenario $_scen: no partial protocol of rank $_rank ($(ls "$tmp"/"$_scen".prof* 2>&1)): $(cat "$_scen.err")"
    "$PYTHON3" "$srcdir/check_findings.py" "$_partial.json" "$_src" "$_scen" "$_partial" \
        || fail "scenario $_scen: the findings of rank $_rank's partial protocol are not those marked in $(basename "$_src")"
}

run_scenario_abort() {
    _prog=$1
    _src=$2
    _scen=$3
    run_both "$_prog" "$_scen" "${4:-full}" 0
    [ "$_plain" -ne 0 ] || fail "scenario $_scen: MPI did not abort without the profiler"
    [ "$_status" -eq "$_plain" ] \
        || fail "scenario $_scen: exit status $_status with the profiler, $_plain without: $(cat "$_scen.err")"
    _base=$(basename "$_src")
    "$PYTHON3" "$srcdir/check_findings.py" --marks "$_src" "$_scen" >"$_scen.marks" \
        || fail "scenario $_scen: the marks of $_base"
    while read -r _line _kind; do
        grep -q "^mpiprof: error: $_kind in MPI_[A-Za-z_]* at $_base:$_line " "$_scen.err" \
            || fail "scenario $_scen: no line on stderr for $_kind at $_base:$_line: $(cat "$_scen.err")"
        [ "$(grep -n "^mpiprof: error: $_kind in " "$_scen.err" | head -1 | cut -d: -f1)" -lt \
            "$(grep -n "Abort\|Fatal error\|aborted" "$_scen.err" | head -1 | cut -d: -f1)" ] \
            || fail "scenario $_scen: the line on stderr comes after MPI's: $(cat "$_scen.err")"
        [ ! -f "$_scen.prof.json" ] || "$PYTHON3" - "$_scen.prof.json" "$_base" "$_kind" "$_line" <<'PY' \
            || fail "scenario $_scen: the protocol written has no $_kind at $_base:$_line"
import json, sys
doc, base, kind, line = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], int(sys.argv[4])
found = [f for f in (doc.get("correctness") or {}).get("findings", []) if f["kind"] == kind and
         any(fr.get("file") == base and fr.get("line") == line for fr in f.get("stack") or [])]
sys.exit(0 if found else 1)
PY
    done <"$_scen.marks"
}
