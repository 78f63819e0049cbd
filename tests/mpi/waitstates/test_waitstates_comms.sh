#!/bin/sh
# waitstates_comms: wait states (Real sync, Potential sync, Time variation) on
# communicators other than MPI_COMM_WORLD: one from MPI_Comm_split with the
# ranks reversed, 50 duplicates made and freed in a loop (a freed
# communicator's handle is reused), an intercommunicator of two one-process
# groups, and MPI_COMM_SELF with messages to oneself.  Potential sync of the
# skewed collectives and Real sync of the late messages within 15% of what the
# definitions give from the instants the program recorded, on world rank 0;
# nothing at all on MPI_COMM_SELF.  Run twice, with MPIPROF_SYNC_BATCH=8 (the
# wait-state data flushed many times) and with the default: each right, and
# the two with the same SRC points, calls and bytes and about the same wait
# states.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o waitstates_comms "$srcdir/waitstates_comms.c" \
    || fail "compiling waitstates_comms.c with mpicc-prof"
for run in default batch; do
    mkdir "$run"
    if [ "$run" = batch ]; then
        set -- MPIPROF_SYNC_BATCH=8
    else
        set --
    fi
    mpirun_2 "$run/out" "$run/err" env MPIPROF_OUTPUT="$tmp/$run/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 "$@" \
        ./waitstates_comms "$tmp/$run/events"
    [ "$(grep -c '^rank=[01] errors=0$' "$run/out")" -eq 2 ] || fail "$run: the program reports errors: $(cat "$run/out" "$run/err")"
    check_text_protocol "$run/prot.txt"
    grep -qE '^ *Wait states[^:]*:' "$run/prot.txt" || fail "$run: the text protocol's Parameters lack the line 'Wait states ... : ...'"
done

"$PYTHON3" "$srcdir/check_waitstates_comms.py" "$srcdir/waitstates_comms.c" "${schema:--}" \
    "default:$tmp/default/prot.txt:$tmp/default/events:$tmp/default/out" \
    "batch:$tmp/batch/prot.txt:$tmp/batch/events:$tmp/batch/out" \
    || fail "protocol check failed (see above)"
echo "PASS: waitstates_comms"
