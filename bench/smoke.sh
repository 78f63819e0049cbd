#!/bin/sh
# smoke.sh: bench/run --smoke (tiny iteration counts, a few seconds) must run
# every workload in every variant and print the whole report.  No timing is
# checked.  Run by make check (bench/local.mk); by hand from the build tree:
#   sh bench/smoke.sh
# Environment: top_srcdir, top_builddir (default: the tree holding this
# script), PYTHON3 (python3), MPICC (mpicc), MPIEXEC (mpiexec).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/..}" && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir}" && pwd)
export top_srcdir top_builddir

if [ ! -e "$top_builddir/.libs/libmpiprof.so" ]; then
    echo "SKIP: $top_builddir/.libs/libmpiprof.so not built (shared library disabled?)"
    exit 77
fi

if [ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ]; then
    echo "SKIP: the library is built with --enable-sanitizers: timings would mean nothing"
    exit 77
fi

out=$(mktemp "${TMPDIR:-/tmp}/mpiprof-bench-smoke.XXXXXX")
trap 'rm -f "$out"' EXIT

status=0
"${PYTHON3:-python3}" "$top_srcdir/bench/run" --smoke >"$out" 2>&1 || status=$?
cat "$out"
if [ "$status" -ne 0 ]; then
    echo "FAIL: bench/run --smoke exited with $status" >&2
    exit 1
fi

# The report: every section, every workload, every variant, no failed run.
for label in 'mpiprof overhead benchmark' 'MPI_Iprobe with nothing pending' '8-byte ping-pong' \
    'MPI_Allreduce of 1 int' 'MPI_Irecv + MPI_Isend + MPI_Waitall(2)' 'MPI_Put of 8 bytes' 'FLOOR = the difference' \
    'Memory: resident set size' 'Finalize: time from MPI_Finalize' '1000 distinct' 'runs succeeded.' \
    'Wait-state analysis: ns per call it adds' 'messages paired of' \
    'Same process, slice by slice' 'Same processes, slice by slice: the two-process workloads' \
    'MPI_Init: from the last process' "Targets: the default configuration" 'MPI_Finalize, 1000 SRC x 10 intervals, added' \
    'Local queries in hot loops' 'MPI_Type_size, 3 stacks at one site' \
    'Short-lived threads, same process' 'a short-lived thread (2 local queries)' \
    'Correctness checks: ns per call they add'
do
    grep -qF -- "$label" "$out" || { echo "FAIL: the report lacks '$label'" >&2; exit 1; }
done
if grep -q 'FAILED' "$out"; then
    echo "FAIL: the report marks a failed run" >&2
    exit 1
fi
# expect_rows N WHAT REGEX: the report has N lines matching REGEX.
expect_rows() {
    found=$(grep -cE "$3" "$out" || true)
    if [ "$found" -ne "$1" ]; then
        echo "FAIL: expected $1 rows of $2, found $found" >&2
        exit 1
    fi
}
# 11 variants (--smoke runs one level of the correctness checks: "linked,
# CHECK=full"), 12 with trace mode (a build with libotf2: "linked, TRACE=on")
variants=11
if grep -q '^#define MPIPROF_HAVE_OTF2 1' "${top_builddir:-.}/src/autoconf.h" 2>/dev/null; then
    variants=12
    grep -qF 'Trace mode (MPIPROF_TRACE=on' "$out" || { echo "FAIL: the report lacks trace mode's sizes" >&2; exit 1; }
    grep -qE '^  the -n 1 workloads +archive +[0-9]+ bytes, event files +[0-9]+: [0-9.]+ bytes/event' "$out" ||
        { echo "FAIL: the report lacks trace mode's bytes per event" >&2; exit 1; }
fi
# 5 workloads x the variants, each with a number in the ns/call column.
expect_rows $((5 * variants)) "per-call numbers" \
    '(unprofiled|MPIPROF_DISABLE=1|linked \(mpicc-prof\)|LD_PRELOAD|no frame ptrs|WAITSTATES=off|CHECK=full|TRACE=on) +(-|1|default) +\| +[0-9]+\.[0-9]+ '
# The same-process comparison: one row per variant, each with its ratio ...
expect_rows $variants "the same-process comparison" \
    '^  (unprofiled|linked|LD_PRELOAD).* ns +[-+][0-9.]+ ns +[-+][0-9.]+ ns +-?[0-9.]+x +\[[-0-9.]+\.\.[-0-9.]+\]$'
# ... the local queries against MPI_Iprobe: one row per variant (a ratio
# may be negative where nothing is added: the unprofiled rows) ...
expect_rows $variants "the local queries" \
    '^  (unprofiled|linked|LD_PRELOAD).* [-+][0-9.]+ ns +[-+][0-9.]+ ns +[-+][0-9.]+ ns +-?[0-9.]+x \[-?[0-9.]+\.\.-?[0-9.]+\] +-?[0-9.]+x$'
# ... the short-lived threads against threads asking the PMPI_ versions ...
expect_rows $variants "the short-lived threads" \
    '^  (unprofiled|linked|LD_PRELOAD).* [0-9.]+ us +[-+][0-9.]+ us +[0-9.]+x \[[0-9.]+\.\.[0-9.]+\]$'
# ... the capture without frame pointers against with them, at two depths ...
expect_rows 2 "the capture cost without frame pointers" \
    '^    (depth 1|default depth) +[-+][0-9.]+ ns / +[-+][0-9.]+ ns = [-0-9.na]+x$'
# ... and of the two-process workloads: 4 rows per variant.
expect_rows $((4 * variants)) "the two-process same-process comparison" \
    '^    (unprofiled|linked|LD_PRELOAD).* ns +[-+][0-9.]+ ns +\[[-+][0-9.]+\.\.[-+][0-9.]+\] +[0-9.]+x$'
echo "PASS: bench/run --smoke"
