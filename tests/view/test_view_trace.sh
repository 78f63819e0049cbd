#!/bin/sh
# view_trace: the trace links of mpiprof-view's page in a real headless
# Chromium.  view_trace_known runs on 2 processes with MPIPROF_TRACE=on
# (rank 1 sends N_SENDS messages late to rank 0 at one call site, then
# both call MPI_Barrier N_BARRIERS times at one call site, rank 1 late,
# the first in one interval and the others in another), and once without.
# mpiprof-view finds the trace beside the traced run's JSON, and takes it
# with --trace and --events N; check_trace_view.py selects the SRC points
# and finds the known calls per process (in each interval), the wait part
# on rank 0, and N calls in the table; the untraced run's page has no trace panel.  A
# trace of another run (the untraced run's protocol, a second traced
# run's archive) is refused with one message, as a bad --events is.  In a
# build without libotf2, --trace says it cannot read traces.  Screenshots
# in the build tree, tests/view/screenshots/view_trace/.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_view.sh
. "$top_srcdir/tests/view/common_view.sh"
need_var MPICC_PROF
view="${top_builddir:?}/tools/mpiprof-view"
# view_trace_known.c's constants
n_sends=12 n_barriers=3 t_late=0.010

cd "$tmp"
"$MPICC_PROF" -O1 -o view_trace_known "$view_src/view_trace_known.c" || fail "compiling view_trace_known.c with mpicc-prof"
mpirun_2 out_u err_u env MPIPROF_OUTPUT="$tmp/u.prof" MPIPROF_FORMAT=json MPIPROF_QUIET=1 ./view_trace_known

if ! grep -q '^#define MPIPROF_HAVE_OTF2 1' "$top_builddir/src/autoconf.h"; then
    if "$view" --trace u.prof.otf2 u.prof.json >out 2>err; then fail "--trace accepted without libotf2"; fi
    grep -q 'built without libotf2 (configure --with-otf2) and cannot read traces' err ||
        fail "--trace without libotf2 does not say why it is refused: $(cat err)"
    echo "PASS: view_trace (a build without libotf2: --trace refused)"
    exit 0
fi
need_browser
shots="$top_builddir/tests/view/screenshots/view_trace"
rm -rf "$shots"
mkdir -p "$shots"

for run in r r2; do
    mpirun_2 "out_$run" "err_$run" env MPIPROF_TRACE=on MPIPROF_OUTPUT="$tmp/$run.prof" MPIPROF_FORMAT=json \
        MPIPROF_QUIET=1 ./view_trace_known
    [ -f "$run.prof.otf2/traces.otf2" ] || fail "no trace after the traced run $run: $(ls)"
done

# the trace beside the protocol, found
"$view" r.prof.json -o linked.html >view.out 2>view.err || fail "mpiprof-view r.prof.json failed: $(cat view.err)"
grep -q "trace links from $tmp/r.prof.otf2/traces.otf2" view.out ||
    fail "mpiprof-view did not take the trace beside the protocol: $(cat view.out view.err)"
[ ! -s view.err ] || fail "mpiprof-view wrote on stderr: $(cat view.err)"
# given, with the first 5 calls
"$view" --trace r.prof.otf2 --events 5 r.prof.json -o first.html >/dev/null 2>view.err ||
    fail "mpiprof-view --trace r.prof.otf2 --events 5 failed: $(cat view.err)"
# no trace: no word of traces
"$view" u.prof.json -o plain.html >view.out 2>view.err || fail "mpiprof-view u.prof.json failed: $(cat view.err)"
if grep -qi trace view.out view.err; then fail "mpiprof-view spoke of a trace without one: $(cat view.out view.err)"; fi

# refused: one message, exit 1, no page
refused() { # $1: what, $2: expected message, then the command's arguments
    _what=$1 _msg=$2
    shift 2
    if "$view" "$@" -o refused.html >out 2>err; then fail "$_what: accepted"; fi
    [ "$(wc -l <err)" -eq 1 ] && grep -q -e "$_msg" err || fail "$_what: not one line saying '$_msg': $(cat err)"
    [ ! -e refused.html ] || fail "$_what: a page was written"
}
refused "the trace of a run for an untraced run's protocol" "not the trace of this protocol's run: .*the protocol's run wrote no trace" \
    --trace r.prof.otf2 u.prof.json
refused "another run's trace" "not the trace of this protocol's run: .*the protocol's run wrote its trace to $tmp/r.prof.otf2" \
    --trace r2.prof.otf2 r.prof.json
refused "--events 0" "--events 0: not a number of calls from 1 to" --events 0 r.prof.json
refused "a trace that is not one" "--trace u.prof.json: u.prof.json: not an OTF2 archive" --trace u.prof.json r.prof.json

"$view_python" "$view_src/check_trace_view.py" "$shots" "$n_sends" "$n_barriers" "$t_late" linked.html first.html 5 \
    plain.html r.prof.json || fail "the trace links in Chromium (see above; screenshots in $shots)"
cp linked.html first.html "$shots/"
echo "PASS: view_trace"
