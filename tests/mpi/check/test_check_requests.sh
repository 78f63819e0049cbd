#!/bin/sh
# check_requests: nonblocking and persistent point-to-point requests never
# completed (unfinished-send, unfinished-recv: MPICH's completed sends share
# one handle, each counts), a persistent request never freed
# (nonfreed-request, a collective one too), MPI_Request_free of an active
# request (active-request-free: a warning, an error for a persistent one;
# not after MPI_Request_get_status found it complete, though never freed
# then it is a nonfreed-request, nor after an MPI_Wait that failed: a
# truncated persistent receive) and MPI_Cancel (request-cancel), at MPIPROF_CHECK=basic: exactly the
# findings local.c marks, the same output and status as without the profiler.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o local "$srcdir/local.c" -lpthread 2>cc.err || fail "compiling local.c: $(cat cc.err)"
for scenario in pending-send pending-recv persistent-not-freed persistent-pending persistent-coll free-active \
    free-active-persistent peeked cancel failed-wait; do
    run_scenario local "$srcdir/local.c" "$scenario" basic
done
# the severity of active-request-free: its request's
"$PYTHON3" - free-active.prof.json free-active-persistent.prof.json <<'PY' || fail "active-request-free's severity"
import json, sys
for path, severity in zip(sys.argv[1:], ("warning", "error")):
    found = json.load(open(path))["correctness"]["findings"]
    assert [f["severity"] for f in found] == [severity], (path, found)
PY
echo "PASS: check_requests"
