#!/bin/sh
# threads_tsan: ThreadSanitizer on the profiler.  The library's sources are
# compiled again with -fsanitize=thread into a temporary libmpiprof.so (the
# sources and flags of libmpiprof.la, from make), tests/mpi/threads.c is
# built against it and run under MPI_THREAD_MULTIPLE (four threads in MPI at
# once: wrappers, per-thread tables, the request table; and warnings, as
# MPIPROF_MAX_SRC=16 makes every thread's table overflow at about the same
# time), then tests/mpi/waitstates_idup_threads.c (threads duplicating
# intercommunicators with MPI_Comm_idup amid nonblocking collectives: the
# wait-state hooks, their communicator registry and their messages at
# once; left out where the program hangs without the profiler, as on Open
# MPI 4.1.4: common.sh, idup_threads_hang_plain).  No ThreadSanitizer report may have a frame in mpiprof's code (the
# library's sources or libmpiprof.so); reports entirely inside MPICH, UCX or
# the test program are counted and shown, not failed (MPICH is not
# instrumented, so TSan cannot see its own synchronization).  On Open MPI,
# a race whose two accesses are both in Open MPI's code (mpiprof only a
# caller), or one in Open MPI and one by mpiprof on its own thread's stack
# (Open MPI's request wait object lives on the waiter's stack and is
# signalled after the wait returns), is Open MPI's too.  Skipped when
# the compiler has no ThreadSanitizer, or the library is built with
# --enable-sanitizers (ASan and TSan do not mix).  UCX_MEM_EVENTS=no: UCX's
# memory hooks call into TSan's interceptors from exiting threads and crash
# them.
set -eu
# shellcheck source=common.sh
. "${top_srcdir:?run through tests/mpi/run-mpi-test}/tests/mpi/common.sh"
need_var MPICC_PROF
need_var MPIPROF_TEST_LIB_SOURCES
need_var MPIPROF_TEST_LIB_GENERATED
builddir=${top_builddir:?run through tests/mpi/run-mpi-test}

[ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ] && skip "the library is built with AddressSanitizer (--enable-sanitizers); ThreadSanitizer runs in the plain build"
cc=${MPIPROF_TEST_CC:-cc}
cd "$tmp"
echo 'int main(void) { return 0; }' >probe.c
if ! "$cc" -fsanitize=thread -o probe probe.c 2>/dev/null || ! ./probe; then
    skip "$cc cannot build and run -fsanitize=thread programs"
fi

# 1. The library with ThreadSanitizer (in parallel: this is most of the
# time).  -O1, as the library's own -O2 may load early what another thread
# writes (ThreadSanitizer found such a race at -O1); -g1, line tables only,
# enough for the reports' frames: the generated wrappers in 15 s against 27
# with -g.
mkdir lib obj
start=$(date +%s)
flags="-std=gnu11 -fvisibility=hidden -fno-omit-frame-pointer -g1 -O1 -fPIC -fsanitize=thread -D_GNU_SOURCE
 -I$top_srcdir/include -I$top_srcdir/include/private -I$builddir/include/private
 -I$builddir/src/gen -I$top_srcdir/src/intercept ${MPIPROF_TEST_LIB_CFLAGS:-}"
{
    for s in $MPIPROF_TEST_LIB_SOURCES; do echo "$top_srcdir/$s"; done
    for s in $MPIPROF_TEST_LIB_GENERATED; do echo "$builddir/$s"; done
} >sources
# one source per call: compile.sh SOURCE
cat >compile.sh <<EOF
exec $cc $(echo "$flags" | tr '\n' ' ') -c "\$1" -o "obj/\$(echo "\$1" | tr / _).o"
EOF
xargs -n 1 -P "$(nproc 2>/dev/null || echo 2)" sh compile.sh <sources || fail "compiling the library with -fsanitize=thread"
# shellcheck disable=SC2086  # the libraries are several words
"$cc" -shared -fsanitize=thread -o lib/libmpiprof.so obj/*.o ${MPIPROF_TEST_LIB_LIBS:-} -lpthread -lm \
    || fail "linking the ThreadSanitizer libmpiprof.so"
echo "ThreadSanitizer library: $(wc -l <sources) sources in $(($(date +%s) - start)) s"

# 2. The program, against it (mpicc-prof links the library it is told to).
MPIPROF_WRAPPER_LIBDIR="$tmp/lib" "$MPICC_PROF" -fsanitize=thread -O1 -o threads "$srcdir/threads.c" -lpthread \
    || fail "compiling threads.c with -fsanitize=thread"
ldd ./threads | grep -q "$tmp/lib/libmpiprof.so" || fail "threads is not linked with the ThreadSanitizer library: $(ldd ./threads)"

# 3. The run: reports to files, never a changed exit status.
mpirun_2 out err env UCX_MEM_EVENTS=no TSAN_OPTIONS="log_path=$tmp/tsan exitcode=0 history_size=4" \
    MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_MAX_SRC=16 ./threads multiple 100 spread
grep -q '^threads: multiple ok ' out || fail "the program did not print its result: $(cat out err)"
[ -s prot.txt.json ] || fail "no protocol from the ThreadSanitizer run"
grep -q 'more than MPIPROF_MAX_SRC=16 distinct call sites in one thread' prot.txt \
    || fail "the threads' tables did not overflow (no MPIPROF_MAX_SRC warning): the run did not test warnings"
"$PYTHON3" "$srcdir/check_threads.py" --no-invariants prot.txt.json prot.txt "$srcdir/threads.c" multiple 100 \
    || fail "protocol of the ThreadSanitizer run (see above)"
# 4. The wait-state hooks of several threads at once, with communicators
# duplicated by MPI_Comm_idup and their collectives' reductions in flight
# (waitstates_idup_threads.c, 20 rounds).  Left out on Open MPI when the
# program hangs there without the profiler (common.sh): parts 1-3 stand.
if idup_threads_hang_plain 20; then
    echo "part 4 left out: $idup_threads_hang"
else
    MPIPROF_WRAPPER_LIBDIR="$tmp/lib" "$MPICC_PROF" -fsanitize=thread -O1 -o idup_threads \
        "$srcdir/waitstates_idup_threads.c" -lpthread || fail "compiling waitstates_idup_threads.c with -fsanitize=thread"
    # Open MPI: the run is bounded, and a hang is the MPI's when the program
    # hangs without the profiler right after too.
    idup=0
    timeout -k 5 40 "$MPIEXEC" -n 2 env UCX_MEM_EVENTS=no TSAN_OPTIONS="log_path=$tmp/tsan exitcode=0 history_size=4" \
        MPIPROF_OUTPUT="$tmp/idup.txt" MPIPROF_QUIET=1 ./idup_threads "$tmp/events" 20 >idup.out 2>idup.err || idup=$?
    if { [ "$idup" -eq 124 ] || [ "$idup" -eq 137 ]; } && idup_threads_hang_plain 20; then
        echo "part 4 left out: the ThreadSanitizer run did not finish in 40 s, and $idup_threads_hang"
    else
        [ "$idup" -eq 0 ] || fail "waitstates_idup_threads under ThreadSanitizer exited $idup: $(cat idup.out idup.err)"
        grep -q '^waitstates_idup_threads: ok$' idup.out || fail "waitstates_idup_threads: wrong results: $(cat idup.out idup.err)"
        [ -s idup.txt ] || fail "no protocol from the ThreadSanitizer run of waitstates_idup_threads"
    fi
fi
cat tsan.* >reports 2>/dev/null || : >reports
"$PYTHON3" - reports "$top_srcdir" "$builddir" "${MPI_FAMILY:-mpich}" <<'PY' || fail "ThreadSanitizer reports in mpiprof's code (see above)"
import os, re, sys
text = open(sys.argv[1], errors="replace").read()
roots = [os.path.join(os.path.realpath(r), "src") + "/" for r in sys.argv[2:4]]
family = sys.argv[4]
blocks = re.findall(r"WARNING: ThreadSanitizer:.*?(?=\n==================|\Z)", text, re.S)
OMPI = re.compile(r"\((?:libmpi\.so|mca_|libopen-pal|libopen-rte)[^)]*\)\s*$")
def is_ours(line):
    return "libmpiprof.so" in line or any(r in line for r in roots)
def accesses(block):
    """[(thread, innermost frame outside TSan's interceptors)] of the two
    accesses of a data race"""
    out = []
    for m in re.finditer(r"^  (?:Previous )?(?:[Aa]tomic )?(?:read|write|Read|Write)[^\n]* by (thread T\d+|main thread)[^\n]*:\n((?:    #\d+[^\n]*\n)+)", block, re.M):
        frames = [f for f in m.group(2).splitlines() if "libtsan" not in f and "sanitizer_common" not in f]
        out.append((m.group(1), frames[0] if frames else ""))
    return out
def openmpi_own(block):
    """Open MPI (not instrumented) completes requests through a wait object
    on the waiting thread's stack, signalled and destroyed by whichever
    thread progresses: a race whose two accesses are both in Open MPI's
    code, or one in Open MPI and one by mpiprof on the stack of its own
    thread (that object's memory, reused after the wait returned), is Open
    MPI's.  (With MPICH every report with a frame in mpiprof counts.)"""
    acc = accesses(block)
    if family != "openmpi" or len(acc) != 2:
        return False
    ompi = [bool(OMPI.search(f)) for _, f in acc]
    if all(ompi):
        return True
    loc = re.search(r"Location is stack of (thread T\d+|main thread)", block)
    return any(ompi) and loc is not None and any(
        is_ours(f) and t == loc.group(1) for t, f in acc)
def ours(block):
    return any(is_ours(line) for line in block.splitlines()) and not openmpi_own(block)
mine = [b for b in blocks if ours(b)]
others = len(blocks) - len(mine)
print("ThreadSanitizer: %d reports, %d with a frame in mpiprof, %d only in "
      "the MPI library, UCX or the program, or Open MPI's own (ignored)" % (len(blocks), len(mine), others))
for b in blocks:
    if b not in mine:
        print("  ignored: " + b.splitlines()[0] + (" (Open MPI's own)" if openmpi_own(b) else ""))
for b in mine:
    print("==== report in mpiprof:\n" + b, file=sys.stderr)
sys.exit(1 if mine else 0)
PY
echo "PASS: threads_tsan"
