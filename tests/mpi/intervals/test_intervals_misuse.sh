#!/bin/sh
# intervals_misuse: every misuse of the marks gives its warning (in the
# protocol's Warnings, naming the file:line of the mark where the library
# says where) and its defined outcome, with a valid protocol (every
# invariant, text = JSON, schema) and exit status 0:
#   marks:   begin before MPI_Init (ignored, warning) and end/begin after
#            MPI_Finalize (ignored, no crash, warning on stderr); end without
#            an open interval; replicated-code end without a begin;
#            MPI_Pcontrol(-1, "nosuch") (ignored: the open interval stays
#            open); MPI_Pcontrol(-1, "outer") with "inner" open in it (both
#            closed); begin in one thread and end in another (closed anyway):
#            both threads alive, end in the main thread, end in a thread
#            created after the first was joined; an interval and replicated
#            code left open at MPI_Finalize (closed there, counted until then)
#   caps:    MPIPROF_MAX_INTERVALS=2 and 5 distinct intervals: 2 kept, one
#            warning, the calls of the folded ones in their parent
#   nesting: MPIPROF_MAX_NESTING=1 and nesting depth 3: the outermost kept,
#            one warning, the calls of the folded ones in it
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -pthread -o intervals_misuse "$srcdir/intervals_misuse.c" || fail "compiling intervals_misuse.c with mpicc-prof"

# marks last: on failure, the protocol printed is the one that failed.
for run in caps:MPIPROF_MAX_INTERVALS=2 nesting:MPIPROF_MAX_NESTING=1 marks:; do
    mode=${run%%:*}
    setting=${run#*:}
    rm -f prot.txt prot.txt.json
    # Not quiet in marks mode: the marks after MPI_Finalize warn on stderr.
    quiet=1
    [ "$mode" = marks ] && quiet=0
    # shellcheck disable=SC2086  # $setting is empty or one NAME=VALUE
    mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=$quiet $setting \
        ./intervals_misuse "$mode"
    grep -q "^intervals_misuse $mode: ok\$" out || fail "intervals_misuse $mode did not print its result: $(cat out err)"
    [ -s prot.txt.json ] || fail "$mode: no JSON protocol prot.txt.json (MPIPROF_FORMAT=both)"
    check_text_protocol prot.txt
    echo "---- $mode${setting:+ ($setting)}"
    # shellcheck disable=SC2086  # $schema: no word or one (common.sh)
    "$PYTHON3" "$srcdir/check_intervals_misuse.py" "$mode" prot.txt.json prot.txt "$srcdir/intervals_misuse.c" out err $schema || fail "$mode${setting:+ ($setting)}: protocol check failed (see above)"
done
echo "PASS: intervals_misuse"
