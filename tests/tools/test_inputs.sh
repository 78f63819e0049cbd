#!/bin/sh
# inputs: the commands that take a protocol take it as JSON, as text (its
# JSON sibling read) or as a directory that holds one: mpiprof-view draws
# the same page from each (byte for byte), next to the JSON protocol when no
# -o is given, and mpiprof-compare finds them equal; a directory of two
# protocols, one without any and a text protocol without its sibling are
# refused with one line that says what was found.  mpiprof-analyze (when
# built) takes the archive directory trace mode writes as its anchor file.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
view=${top_builddir:?}/tools/mpiprof-view
compare=$top_builddir/tools/mpiprof-compare
analyze=$top_builddir/tools/mpiprof-analyze
cd "$tmp"
"$MPICC_PROF" -o tools_hello "$srcdir/tools_hello.c" || fail "compiling tools_hello.c with mpicc-prof"
trace=off
[ -x "$analyze" ] && trace=on
mkdir run
mpirun_2 out err env MPIPROF_FORMAT=both MPIPROF_TRACE=$trace MPIPROF_OUTPUT="$tmp/run/a.prof" ./tools_hello
[ -s run/a.prof ] && [ -s run/a.prof.json ] || fail "the run wrote no protocol: $(ls run) $(cat err)"

# mpiprof-view: a text protocol, a JSON one, the directory
"$view" run/a.prof -o text.html >out 2>err || fail "mpiprof-view run/a.prof (text): exit $?: $(cat err)"
"$view" run/a.prof.json -o json.html >out 2>err || fail "mpiprof-view run/a.prof.json: exit $?: $(cat err)"
"$view" run -o dir.html >out 2>err || fail "mpiprof-view run (a directory): exit $?: $(cat err)"
cmp text.html json.html || fail "the pages of the text protocol and of its JSON sibling differ"
cmp json.html dir.html || fail "the pages of the JSON protocol and of its directory differ"
"$view" run/a.prof >out 2>err || fail "mpiprof-view run/a.prof: exit $?: $(cat err)"
cmp json.html run/a.prof.html || fail "mpiprof-view run/a.prof did not write its page at run/a.prof.html: $(ls run)"

# mpiprof-compare: each form against another
"$compare" run/a.prof run/a.prof.json >out 2>err || fail "mpiprof-compare text JSON: exit $?: $(cat out err)"
"$compare" run/a.prof.json run >out 2>err || fail "mpiprof-compare JSON directory: exit $?: $(cat out err)"
grep -q "equal within the tolerance" out || fail "mpiprof-compare JSON directory: $(cat out)"

# refused: a directory of two protocols, one of none, a text protocol alone
mkdir two none alone
cp run/a.prof.json two/b.json
cp run/a.prof two/c.prof
cp run/a.prof alone/c.prof
cp run/a.prof.html none/
refused() { # COMMAND STATUS ARGUMENT WORDS: one line naming ARGUMENT and WORDS
    rc=0
    "$1" "$3" "$3" >out 2>err || rc=$?
    [ "$rc" -eq "$2" ] && [ "$(wc -l <err)" -eq 1 ] && grep -qF -- "$(basename "$1"): $3" err &&
        grep -qF -- "$4" err || fail "$(basename "$1") $3: exit $rc (expected $2), stderr: $(cat err)
(expected one line that says '$4')"
}
for cmd in "$view:1" "$compare:2"; do
    refused "${cmd%:*}" "${cmd##*:}" two "a directory of 2 protocols (b.json, c.prof)"
    refused "${cmd%:*}" "${cmd##*:}" none "a directory without a protocol"
    refused "${cmd%:*}" "${cmd##*:}" alone/c.prof "its JSON sibling alone/c.prof.json cannot be read"
    refused "${cmd%:*}" "${cmd##*:}" alone "its JSON sibling alone/c.prof.json cannot be read"
done

# mpiprof-analyze: the archive directory, as its anchor file
if [ "$trace" = on ]; then
    "$analyze" -f json -o dir.prof run/a.prof.otf2 >out 2>err ||
        fail "mpiprof-analyze run/a.prof.otf2 (the directory): exit $?: $(cat err)"
    "$analyze" -f json -o anchor.prof run/a.prof.otf2/traces.otf2 >out 2>err ||
        fail "mpiprof-analyze run/a.prof.otf2/traces.otf2: exit $?: $(cat err)"
    "$compare" dir.prof.json anchor.prof.json >out 2>err ||
        fail "the protocols of the archive's directory and of its anchor file differ: $(cat out err)"
    "$analyze" -f json run/a.prof.otf2/ >out 2>err || fail "mpiprof-analyze run/a.prof.otf2/: exit $?: $(cat err)"
    [ -s run/a.prof.otf2.prof.json ] || fail "mpiprof-analyze run/a.prof.otf2/ did not write run/a.prof.otf2.prof.json"
else
    echo "mpiprof-analyze is not built (configured without libotf2): the archive directory not checked"
fi
echo "PASS: inputs"
