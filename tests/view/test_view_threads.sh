#!/bin/sh
# view_threads: the page gives an SRC point's time by thread.
# tests/mpi/threads/thread_times.c (MPI_THREAD_MULTIPLE, two threads per
# process at one MPI_Sendrecv, rank 0's about 300 ms and 100 ms late): on
# the page of its protocol, that SRC point's details have a By-thread table
# with the JSON's times per thread index, summed and per process; the SRC
# points one thread called have none (check_threads_view.py).  A copy of
# the protocol with threads past the indexed ones shows their summed row.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_view.sh
. "$top_srcdir/tests/view/common_view.sh"
need_var MPICC_PROF
need_browser

cd "$tmp"
"$MPICC_PROF" -o thread_times "$mpitests/threads/thread_times.c" -lpthread || fail "compiling thread_times.c"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=json,html MPIPROF_QUIET=1 ./thread_times 300
grep -q "^thread_times: ok" out || fail "the program's output is wrong: $(cat out err)"
[ -s prot.txt.html ] || fail "no prot.txt.html: $(ls)"
"$view_python" "$view_src/check_threads_view.py" prot.txt.html prot.txt.json || fail "the page in Chromium (see above)"
# threads past the 8 with an index of their own (their time summed): a row of their own
"$PYTHON3" - prot.txt.json beyond.json <<'PY' || fail "making the protocol with threads past the indexed ones"
import json, sys
d = json.load(open(sys.argv[1]))
s = [s for s in d["intervals"][0]["src"] if s.get("threads") and s["threads"]["shown_in_text"]][0]["threads"]
s["beyond"] = {"first_index": 8, "time": 0.75, "threads": 5}
s["by_process"][0]["beyond"] = {"first_index": 8, "time": 0.75, "threads": 5}
json.dump(d, open(sys.argv[2], "w"))
PY
"${top_builddir:?}/tools/mpiprof-view" beyond.json -o beyond.html >/dev/null 2>view.err || fail "mpiprof-view beyond.json: $(cat view.err)"
"$view_python" "$view_src/check_threads_view.py" beyond.html beyond.json || fail "the page with threads past the indexed ones (above)"
echo "PASS: view_threads"
