#!/bin/sh
# valgrind: examples/jacobi.c built with mpicc-prof, run on 2 processes
# under valgrind's memcheck (a small grid: valgrind is slow).  No memcheck
# error may have a frame in mpiprof's code (libmpiprof.so): no invalid read
# or write, no use of uninitialised values, no bad free.  Errors entirely
# inside MPICH, UCX or the C library are listed and not failed (none at the
# time of writing, so no suppression file is needed).  The run must also
# write a protocol whose invariants hold.  Skipped without valgrind, and
# when the library is built with --enable-sanitizers (ASan and memcheck do
# not mix).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

[ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ] && skip "the library is built with AddressSanitizer (--enable-sanitizers); memcheck runs in the plain build"
command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed"

cd "$tmp"
"$MPICC_PROF" -O2 -o jacobi "$top_srcdir/examples/jacobi.c" || fail "compiling examples/jacobi.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    valgrind --tool=memcheck --error-limit=no --num-callers=30 --fullpath-after= --log-file="$tmp/memcheck.%p" \
    ./jacobi 96 60
grep -q 'residual' out || fail "jacobi did not print its result: $(cat out err)"
"$PYTHON3" "$testlib/protocol_check.py" --text prot.txt prot.txt.json || fail "protocol of the valgrind run (see above)"
set -- memcheck.*
if [ "$#" -ne 2 ] || [ ! -f "$1" ]; then
    fail "expected one memcheck log per process, found: $*"
fi
"$PYTHON3" - "$top_srcdir" "${top_builddir:?run through tests/mpi/lib/run-mpi-test}" "$@" <<'PY' || fail "memcheck errors in mpiprof's code (see above)"
import os, re, sys
roots = [os.path.join(os.path.realpath(r), "src") + "/" for r in sys.argv[1:3]]
mine, others = [], []
for path in sys.argv[3:]:
    text = open(path, errors="replace").read()
    summary = re.search(r"ERROR SUMMARY: (\d+) errors", text)
    if not summary:
        print("%s: no ERROR SUMMARY: valgrind did not finish" % path, file=sys.stderr)
        sys.exit(1)
    # records: a headline, then its indented lines (frames, "Address ...")
    records = []
    for line in text.splitlines():
        line = re.sub(r"^==\d+== ?", "", line)
        if not line.strip():
            continue
        if line[0].isspace() and records:
            records[-1].append(line)
        else:
            records.append([line])
    found = 0
    for rec in records:
        frames = [ln for ln in rec if re.match(r"\s+(at|by) 0x", ln)]
        if not frames or rec[0].startswith("WARNING:"):
            continue
        found += 1
        ours = any("libmpiprof" in f or any(r in f for r in roots) for f in frames)
        (mine if ours else others).append((path, rec))
    if int(summary.group(1)) and not found:
        print("%s: %s errors counted but none parsed" % (path, summary.group(1)), file=sys.stderr)
        sys.exit(1)
print("memcheck: %d errors with a frame in mpiprof, %d elsewhere (ignored)" % (len(mine), len(others)))
for path, rec in others:
    print("  ignored (%s): %s" % (path, rec[0]))
for path, rec in mine:
    print("==== %s:\n%s" % (path, "\n".join(rec)), file=sys.stderr)
sys.exit(1 if mine else 0)
PY
echo "PASS: valgrind"
