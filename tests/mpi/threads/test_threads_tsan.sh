#!/bin/sh
# threads_tsan: ThreadSanitizer on the profiler.  The library's sources are
# compiled again with -fsanitize=thread into a libmpiprof.so of their own
# (build-tsan-lib.sh: here, or ahead by make tsan-lib), tests/mpi/threads/threads.c is
# built against it and run under MPI_THREAD_MULTIPLE (four threads in MPI at
# once: wrappers, per-thread tables, the request table; and warnings, as
# MPIPROF_MAX_SRC=16 makes every thread's table overflow at about the same
# time), then tests/mpi/waitstates/waitstates_idup_threads.c (threads duplicating
# intercommunicators with MPI_Comm_idup amid nonblocking collectives: the
# wait-state hooks, their communicator registry and their messages at
# once; left out where the program hangs without the profiler, as on Open
# MPI 4.1.4: common.sh, idup_threads_hang_plain).  No ThreadSanitizer
# report may have a frame in mpiprof's code (the library's sources or
# libmpiprof.so); reports entirely inside MPICH, UCX or the test program are
# counted and shown, not failed (MPICH is not instrumented, so TSan cannot
# see its own synchronization).  On Open MPI, whose request completion TSan
# cannot see, some races through mpiprof's frames are Open MPI's own
# (check_tsan_reports.py says which; its --selftest checks that rule on
# samples first).  Skipped when the compiler has no ThreadSanitizer, or the
# library is built with --enable-sanitizers (ASan and TSan do not mix).
# UCX_MEM_EVENTS=no: UCX's memory hooks call into TSan's interceptors from
# exiting threads and crash them.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_var MPIPROF_TEST_LIB_SOURCES
need_var MPIPROF_TEST_LIB_GENERATED
builddir=${top_builddir:?run through tests/mpi/lib/run-mpi-test}

[ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ] && skip "the library is built with AddressSanitizer (--enable-sanitizers); ThreadSanitizer runs in the plain build"
cd "$tmp"

# 1. The library with ThreadSanitizer: the one `make tsan-lib` built when no
# source (nor build-tsan-lib.sh) is newer (maint/test.sh builds it beside
# another stage's suite), else built here (most of this test's time).
lib=$builddir/tests/mpi/threads/tsan-lib
if [ ! -f "$lib/libmpiprof.so" ] || [ -n "$(find "$top_srcdir/src" "$top_srcdir/include" "$builddir/src/gen" \
    "$builddir/include" "$srcdir/build-tsan-lib.sh" -type f \( -name '*.[ch]' -o -name '*.inc' -o -name build-tsan-lib.sh \) \
    -newer "$lib/libmpiprof.so" 2>/dev/null | head -n 1)" ]; then
    lib=$tmp/lib
    built=0
    sh "$srcdir/build-tsan-lib.sh" "$lib" || built=$?
    [ "$built" -ne 77 ] || skip "${MPIPROF_TEST_CC:-cc} cannot build and run -fsanitize=thread programs"
    [ "$built" -eq 0 ] || fail "building the ThreadSanitizer library (see above)"
else
    echo "ThreadSanitizer library: $lib/libmpiprof.so (make tsan-lib), newer than every source"
fi

# 2. The program, against it (mpicc-prof links the library it is told to).
MPIPROF_WRAPPER_LIBDIR="$lib" "$MPICC_PROF" -fsanitize=thread -O1 -o threads "$srcdir/threads.c" -lpthread \
    || fail "compiling threads.c with -fsanitize=thread"
ldd ./threads | grep -q "$lib/libmpiprof.so" || fail "threads is not linked with the ThreadSanitizer library: $(ldd ./threads)"

# 3. The run: reports to files, never a changed exit status.
mpirun_2 out err env UCX_MEM_EVENTS=no TSAN_OPTIONS="log_path=$tmp/tsan exitcode=0 history_size=4" \
    MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_MAX_SRC=16 ./threads multiple 100 spread
grep -q '^threads: multiple ok ' out || fail "the program did not print its result: $(cat out err)"
[ -s prot.txt.json ] || fail "no protocol from the ThreadSanitizer run"
unwrapped prot.txt | grep -q 'more than MPIPROF_MAX_SRC=16 distinct call sites in one thread' \
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
    MPIPROF_WRAPPER_LIBDIR="$lib" "$MPICC_PROF" -fsanitize=thread -O1 -o idup_threads \
        "$mpitests/waitstates/waitstates_idup_threads.c" -lpthread || fail "compiling waitstates_idup_threads.c with -fsanitize=thread"
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
"$PYTHON3" "$srcdir/check_tsan_reports.py" --selftest || fail "check_tsan_reports.py sorts its samples wrongly (see above)"
"$PYTHON3" "$srcdir/check_tsan_reports.py" reports "$top_srcdir" "$builddir" "${MPI_FAMILY:-mpich}" \
    || fail "ThreadSanitizer reports in mpiprof's code (see above)"
echo "PASS: threads_tsan"
