#!/bin/sh
# trace: MPIPROF_TRACE=on writes <protocol>.otf2 next to the protocol, which
# is written as without it.  tests/mpi/trace/trace.c makes MPI calls of known
# number, peers, tags and bytes, in two intervals and a replicated-code
# region; the archive must pass otf2-print (no error, no warning), carry
# both clock offsets per location, and check_trace.py (python3-otf2) must
# find every event, its SRC key and the protocol's Trace parameter.  A tiny
# MPIPROF_TRACE_BUFFER forces flushes (BufferFlush events) and the archive
# is still complete; MPIPROF_OVERWRITE=1 replaces an earlier run's archive.
# Without MPIPROF_TRACE no archive is written.
# In a build without libotf2 (configure --without-otf2), MPIPROF_TRACE=on
# must be refused with one warning, the run going on untraced.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o trace "$srcdir/trace.c" || fail "compiling trace.c with mpicc-prof"

if ! grep -q '^#define MPIPROF_HAVE_OTF2 1' "$top_builddir/src/autoconf.h"; then
    mpirun_2 out err env MPIPROF_TRACE=on MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both ./trace
    [ "$(grep -c '^rank=[01] ok' out)" -eq 2 ] || fail "trace did not run to its end: $(cat out err)"
    check_text_protocol prot.txt
    [ ! -e prot.txt.otf2 ] || fail "a build without libotf2 wrote an archive"
    unwrapped prot.txt | grep -q '^Trace *: off (MPIPROF_TRACE=on refused: mpiprof was built without libotf2)$' ||
        fail "the Trace parameter does not say trace mode was refused: $(grep '^Trace' prot.txt)"
    [ "$(unwrapped prot.txt | grep -c 'MPIPROF_TRACE=on: trace mode is not available, as this mpiprof was built without libotf2')" -eq 1 ] ||
        fail "no (or more than one) warning in the protocol says why trace mode was refused"
    grep -q 'MPIPROF_TRACE=on: trace mode is not available' err ||
        fail "the refusal was not printed on stderr: $(cat err)"
    echo "PASS: trace (a build without libotf2: refused)"
    exit 0
fi

command -v otf2-print >/dev/null || fail "otf2-print not found: install otf2-tools (maint/install-deps.sh)"
# python3-otf2 is Debian's: its python3, not one earlier on PATH
OTF2_PYTHON=/usr/bin/python3
"$OTF2_PYTHON" -c 'import otf2' 2>/dev/null || fail "$OTF2_PYTHON cannot import otf2: install python3-otf2"

# $1: name, $2: MPIPROF_TRACE_BUFFER ("" : default), $3: flood, $4: least flushes
traced_run() {
    mkdir -p "$1"
    mpirun_2 "$1/out" "$1/err" env MPIPROF_TRACE=on ${2:+MPIPROF_TRACE_BUFFER=$2} MPIPROF_QUIET=1 MPIPROF_OVERWRITE=1 \
        MPIPROF_OUTPUT="$tmp/$1/prot.txt" MPIPROF_FORMAT=both ./trace "$3"
    [ "$(grep -c '^rank=[01] ok' "$1/out")" -eq 2 ] || fail "$1: trace did not run to its end: $(cat "$1/out" "$1/err")"
    [ ! -s "$1/err" ] || fail "$1: output on stderr with MPIPROF_QUIET=1: $(cat "$1/err")"
    check_text_protocol "$1/prot.txt"
    anchor="$1/prot.txt.otf2/traces.otf2"
    [ -f "$anchor" ] || fail "$1: no archive at $anchor: $(ls -R "$1")"
    otf2-print -Werror -A -C "$anchor" > "$1/print" 2> "$1/print.err" ||
        fail "$1: otf2-print failed: $(head -20 "$1/print.err")"
    [ ! -s "$1/print.err" ] || fail "$1: otf2-print warned: $(head -20 "$1/print.err")"
    [ "$(grep -c '^CLOCK_OFFSET' "$1/print")" -eq 4 ] ||
        fail "$1: expected 2 clock offsets (MPI_Init, MPI_Finalize) per location: $(grep '^CLOCK_OFFSET' "$1/print")"
    "$OTF2_PYTHON" "$srcdir/check_trace.py" "$anchor" "$1/prot.txt.json" "$srcdir/trace.c" "$3" "$4" ||
        fail "$1: the archive's events are not the program's (see above)"
}

traced_run default "" 0 0
# 256 KiB for 3 x 30000 events per process (about 14 bytes each): flushes on both
traced_run flushed 262144 30000 2
# MPIPROF_OVERWRITE=1 replaces the protocol and the archive of the first run
traced_run default "" 0 0

mpirun_2 out err env MPIPROF_OUTPUT="$tmp/plain.txt" MPIPROF_QUIET=1 ./trace
[ ! -e plain.txt.otf2 ] || fail "an archive was written without MPIPROF_TRACE"
grep -q '^Trace *: off$' plain.txt || fail "Trace parameter without MPIPROF_TRACE: $(grep '^Trace' plain.txt)"
echo "PASS: trace"
