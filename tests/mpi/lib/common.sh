# shellcheck shell=sh
# Shared helpers for the MPI integration tests (tests/mpi/GROUP/test_*.sh).
# Sourced, never run.  The driver tests/mpi/lib/run-mpi-test exports the
# variables used here (top_srcdir, top_builddir, MPICC_PROF, MPIEXEC,
# PYTHON3, ...).
#
# After sourcing, a test has:
#   $tmp          a fresh temporary directory, removed on exit (kept when
#                 MPIPROF_TEST_KEEP=1, for debugging)
#   $srcdir       the test's own folder (tests/mpi/GROUP: its programs and
#                 check scripts), absolute
#   $testlib      the helpers the groups share (tests/mpi/lib: this file,
#                 the protocol checks' python modules, busy.h, ...)
#   $mpitests     tests/mpi, for a program of another group
#                 ($mpitests/intervals/intervals.c)
#   $schema       the protocol's JSON Schema (schema/mpiprof-protocol.schema.json)
#   fail MSG      print "FAIL: MSG" and exit 1
#   skip MSG      print "SKIP: MSG" and exit 77
#   need_var V    fail unless the environment variable V is set
#   mpirun_2 OUT ERR CMD...
#                 run "$MPIEXEC -n 2 CMD..." with stdout to OUT and stderr to
#                 ERR; fail (showing both) when it does not exit 0
#   check_text_protocol FILE
#                 fail unless the text protocol FILE has the sections and
#                 labels of protocol.md
#   preload LIB   print the LD_PRELOAD value that loads LIB into a process:
#                 LIB, after the sanitizer runtime when the library is built
#                 with --enable-sanitizers (run-mpi-test)
#   idup_threads_hang_plain
#                 on Open MPI only: whether waitstates_idup_threads.c hangs
#                 without the profiler (status 0, its reason in
#                 $idup_threads_hang); always status 1 on MPICH
#
# On failure the text protocol $tmp/prot.txt, if any, is printed so the test
# log shows what the library wrote.

# The test's own folder: that of the script sourcing this file (sourced
# before the test changes directory, so a relative $0 still names it).
# shellcheck disable=SC2034  # used by the tests that source this file
mpitests="${top_srcdir:?top_srcdir not set: run through tests/mpi/lib/run-mpi-test}/tests/mpi"
# shellcheck disable=SC2034
testlib="$mpitests/lib"
# shellcheck disable=SC2034
srcdir=$(cd "$(dirname "$0")" && pwd) || { echo "FAIL: cannot find the folder of $0" >&2; exit 1; }
# shellcheck disable=SC2034
schema="$top_srcdir/schema/mpiprof-protocol.schema.json"
[ -f "$schema" ] || { echo "FAIL: $schema does not exist: the source tree is incomplete" >&2; exit 1; }

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

skip() {
    echo "SKIP: $*"
    exit 77
}

need_var() {
    eval "_v=\${$1:-}"
    # shellcheck disable=SC2154
    [ -n "$_v" ] || fail "environment variable $1 is not set (run through tests/mpi/lib/run-mpi-test)"
}

# need_library: $lib, the built libmpiprof.so (fails when it is not built).
need_library() {
    need_var MPIPROF_LIBDIR
    lib="$MPIPROF_LIBDIR/libmpiprof.so"
    [ -f "$lib" ] || fail "$lib does not exist (build the library first)"
}

_cleanup() {
    _status=$1
    if [ "$_status" -ne 0 ] && [ "$_status" -ne 77 ] && [ -f "$tmp/prot.txt" ]; then
        echo "---- text protocol $tmp/prot.txt (first 200 lines) ----" >&2
        head -n 200 "$tmp/prot.txt" >&2 || true
        echo "---- end of protocol ----" >&2
    fi
    if [ "${MPIPROF_TEST_KEEP:-0}" = 1 ]; then
        echo "temporary directory kept: $tmp" >&2
    else
        rm -rf "$tmp"
    fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-test.XXXXXX")
trap '_cleanup $?' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

need_var MPIEXEC
need_var PYTHON3

mpirun_2() {
    _out=$1
    _err=$2
    shift 2
    if ! "$MPIEXEC" -n 2 "$@" >"$_out" 2>"$_err"; then
        echo "---- stdout ----" >&2
        cat "$_out" >&2
        echo "---- stderr ----" >&2
        cat "$_err" >&2
        fail "'$MPIEXEC -n 2 $*' did not exit 0"
    fi
}

# The text protocol $1 with the lines it broke to stay within 160
# characters (ending in "\", going on in the next after six blanks) joined.
unwrapped() {
    awk 'function flush() { if (held != "") print held; held = "" }
        { line = $0
          if (held != "" && substr(line, 1, 6) == "      ") { line = substr(held, 1, length(held) - 1) substr(line, 7); held = "" }
          else flush()
          if (line ~ /\\$/) held = line; else print line }
        END { flush() }' "$1"
}

check_text_protocol() {
    [ -s "$1" ] || fail "text protocol $1 missing or empty"
    # No correctness finding but those the test expects (run-mpi-test).
    _unexpected=$(sed -n '/^Parameters$/q; s/^   \(error\|warning\) \([a-z-]*\): .*/\2/p' "$1" |
        grep -vxF -e "$(echo "${MPIPROF_TEST_EXPECT_FINDINGS:-none}" | tr -s ' ' '\n')" | tr -s '\n' ' ' || true)
    [ -z "$_unexpected" ] || fail "text protocol $1 has correctness findings the test does not expect: $_unexpected
$(sed -n '1,/^Parameters$/p' "$1")"
    # Parameters: "Label : value" lines.
    for _label in Program 'Working directory' Started Finished 'Protocol written' \
        Processes Nodes 'Threads level' 'MPI library' 'MPI standard' Profiler \
        'Collection mode' Configuration Clock Warnings
    do
        grep -qE -- "^ *$_label *:" "$1" || fail "text protocol $1 lacks the parameter line '$_label : ...'"
    done
    grep -qE -- '^==== Interval 0 +"whole program" +file=[^ ]+ +line=[0-9]+ +level=0 ' "$1" \
        || fail "text protocol $1 lacks the header of interval 0 ('==== Interval 0  \"whole program\"  file=... line=... level=0 ...')"
    for _label in \
        '--- Main characteristics (real) ---' \
        'Parallelization efficiency' \
        'Execution time' \
        'Processors' \
        'Total time' \
        'Productive time' \
        'Lost time' \
        'Insufficient parallelism' \
        'Communication' \
        'SendRecv=' \
        'Collective=' \
        'System=' \
        'Idle time' \
        'Load imbalance' \
        'Potential sync' \
        'Time variation' \
        'Overlap' \
        '--- Comparative characteristics (real) ---' \
        'Characteristics by process (real)' \
        '--- SRC points ---'
    do
        grep -qF -- "$_label" "$1" || fail "text protocol $1 lacks the label '$_label'"
    done
}

preload() {
    echo "${MPIPROF_TEST_PRELOAD_FIRST:+$MPIPROF_TEST_PRELOAD_FIRST:}$1"
}

# Open MPI 4.1.4 does not finish waitstates_idup_threads.c, without the
# profiler too (MPI_Comm_idup of intercommunicators from several threads at
# once, amid nonblocking collectives; every run here since the test came).
# The evidence is taken at run time: the plain program, ROUNDS rounds
# (default 150, as the test runs it), under a timeout of 10 s (MPICH takes
# under 2 s for 150).  A hang seen is kept in the build tree for the
# suite's other test that asks (MPI tests run one at a time), as long as
# mpiexec is the same version.  Never on MPICH.
idup_threads_hang_plain() {
    [ "${MPI_FAMILY:-mpich}" = openmpi ] || return 1
    _version=$("$MPIEXEC" --version 2>/dev/null | head -n 1)
    _seen="${top_builddir:?}/tests/mpi/idup-threads-hang.txt"
    if [ -f "$_seen" ] && [ "$(head -n 1 "$_seen")" = "$_version" ]; then
        idup_threads_hang="$(sed -n 2p "$_seen") (seen by an earlier test of this build)"
        return 0
    fi
    [ -x "$tmp/idup_probe" ] || "$MPICC" -o "$tmp/idup_probe" "$mpitests/waitstates/waitstates_idup_threads.c" -lpthread \
        || fail "compiling waitstates_idup_threads.c with $MPICC"
    _status=0
    timeout -k 5 10 "$MPIEXEC" -n 2 "$tmp/idup_probe" "$tmp/idup_probe.events" "${1:-150}" \
        >"$tmp/idup_probe.out" 2>&1 || _status=$?
    [ "$_status" -eq 124 ] || [ "$_status" -eq 137 ] || return 1
    idup_threads_hang="$_version: waitstates_idup_threads.c (MPI_Comm_idup from several threads, ${1:-150} rounds) did not finish in 10 s without the profiler"
    printf '%s\n%s\n' "$_version" "$idup_threads_hang" >"$_seen" 2>/dev/null || :
    return 0
}

# What a dynamic protocol and the analyzed trace of its run give differently
# by design, by mpiprof-compare's names (mpiprof-analyze(1); each one's
# reason in tests/mpi/trace/test_analyze_trace.sh, which shows each needed),
# and those names as --ignore options.
analyze_by_design="productive_cpu productive_sys overlap predicted predicted_time machine placement
    hardware_counters program threads_level mpi_library mpi_standard collection_mode wait_states trace"
ignore_options() {
    for _name in $1; do
        printf ' --ignore %s' "$_name"
    done
}

# need_uts_namespaces: skips unless ranks can get host names of their own
# (unshare --uts, util-linux), as the tests of two hosts on one machine need.
need_uts_namespaces() {
    command -v unshare >/dev/null 2>&1 ||
        skip "unshare (util-linux) is not installed: no UTS namespaces to give ranks their own host names"
    if ! _why=$(unshare --uts sh -c 'hostname mpiprof-probe && hostname' 2>&1) || [ "$_why" != mpiprof-probe ]; then
        skip "this machine does not let the tests create UTS namespaces (unshare --uts: $_why); two host names on one machine are impossible here"
    fi
}

# need_analyzer: $analyze and $compare, the trace analyzer and the
# comparison of this build; skips when there is no analyzer (no libotf2).
need_analyzer() {
    analyze="${top_builddir:?}/tools/mpiprof-analyze"
    compare="$top_builddir/tools/mpiprof-compare"
    [ -x "$analyze" ] || skip "mpiprof-analyze is not built (configure found no libotf2: install libotf2-trace-dev)"
    [ -x "$compare" ] || fail "tools/mpiprof-compare is not built"
}
