#!/bin/sh
# config_warnings: invalid settings (MPIPROF_DEPTH=abc, MPIPROF_FORMAT=bogus)
# must not break the program: it exits 0 and the protocol is still written
# (in the default text format), its Warnings name each bad variable and value,
# and rank 0 (only) prints exactly one warning line per bad variable on
# stderr.  With MPIPROF_QUIET=1 the run's stdout and stderr must be byte for
# byte those of a run with MPIPROF_DISABLE=1 (which writes no protocol).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o config_warnings "$srcdir/config_warnings.c" || fail "compiling config_warnings.c with mpicc-prof"

# 1. Bad settings, not quiet.
mpirun_2 out1 err1 env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_DEPTH=abc MPIPROF_FORMAT=bogus ./config_warnings
grep -q '^config_warnings: 2 processes, rank sum 1$' out1 || fail "the program's output is wrong: $(cat out1)"
[ -s prot.txt ] || fail "no protocol prot.txt (an invalid MPIPROF_FORMAT must fall back to the default)"
for pair in MPIPROF_DEPTH:abc MPIPROF_FORMAT:bogus; do
    var=${pair%%:*}
    val=${pair#*:}
    # stderr: exactly one line naming the variable, and it shows the value.
    n=$(grep -c -- "$var" err1 || true)
    [ "$n" -eq 1 ] || fail "stderr has $n lines mentioning $var, expected exactly 1 (rank 0 only):
$(cat err1)"
    grep -- "$var" err1 | grep -qF -- "$val" || fail "the stderr warning about $var does not show the value '$val': $(grep -- "$var" err1)"
    # protocol: the Warnings (last of the Parameters, up to the first
    # interval) name the variable and the value.
    sed -n '/^ *Warnings/,/^====/p' prot.txt >warnings.txt
    grep -- "$var" warnings.txt | grep -qF -- "$val" \
        || fail "the protocol's Warnings do not mention $var and '$val':
$(cat warnings.txt)"
done
if [ "$(grep -- MPIPROF_DEPTH err1)" = "$(grep -- MPIPROF_FORMAT err1)" ]; then
    fail "the warnings about MPIPROF_DEPTH and MPIPROF_FORMAT must be separate lines: $(cat err1)"
fi
grep -qF 'config_warnings: a line on stderr' err1 || fail "the program's own stderr line is missing: $(cat err1)"

# 2. The same quietly, and 3. the profiler disabled: identical output.
rm -f prot.txt
mpirun_2 out2 err2 env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_DEPTH=abc MPIPROF_FORMAT=bogus MPIPROF_QUIET=1 ./config_warnings
[ -s prot.txt ] || fail "no protocol prot.txt with MPIPROF_QUIET=1"
grep -q 'MPIPROF_DEPTH' prot.txt || fail "with MPIPROF_QUIET=1 the protocol no longer mentions MPIPROF_DEPTH"
mkdir disabled
mpirun_2 out3 err3 env MPIPROF_OUTPUT="$tmp/disabled/prot.txt" MPIPROF_DISABLE=1 ./config_warnings
[ -z "$(ls disabled)" ] || fail "MPIPROF_DISABLE=1 wrote files: $(ls disabled)"
cmp out2 out3 || fail "stdout with MPIPROF_QUIET=1 differs from stdout with MPIPROF_DISABLE=1:
--- quiet:
$(cat out2)
--- disabled:
$(cat out3)"
cmp err2 err3 || fail "stderr with MPIPROF_QUIET=1 differs from stderr with MPIPROF_DISABLE=1:
--- quiet:
$(cat err2)
--- disabled:
$(cat err3)"
echo "PASS: config_warnings"
