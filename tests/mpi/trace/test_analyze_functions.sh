#!/bin/sh
# analyze_functions: mpiprof-analyze replays every function the dynamic mode
# profiles (issue 27).  Each program calls_CLASS.c calls every function of
# its class (point-to-point, collectives, one-sided, handles and topology)
# a few times on 2 processes, traced; then
#   1. mpiprof-compare finds the dynamic protocol and the analyzed one the
#      same but for the names that differ by design (common.sh), so every
#      SRC point has the same calls and bytes in both;
#   2. every function the program's source calls is an SRC point of both
#      text protocols (but those of the classes untimed and handwritten:
#      MPI_Init, MPI_Finalize, MPI_Abort have no SRC point in either);
#   3. every function of src/intercept/mpi_functions.txt is called by one
#      of these programs or io_calls.c (test_analyze_io.sh), or excused
#      below with its reason: a function added to the file without a call
#      here fails, so the analyzer cannot drop one unseen again (it once
#      dropped 38, found by a binary search over a table out of order).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_analyzer
# mpi_functions.txt is MPICH's mpi.h (tests/check-mpi-coverage.sh); Open MPI
# lacks many of its MPI-4 functions (large-count, partitioned ...)
[ "${MPI_FAMILY:-mpich}" = mpich ] || skip "the programs call MPICH's functions of mpi_functions.txt; MPI_FAMILY=$MPI_FAMILY"

programs="calls_p2p calls_coll calls_rma calls_handles calls_file"
functions_txt="$top_srcdir/src/intercept/mpi_functions.txt"
ignore=$(ignore_options "$analyze_by_design")

# The functions no program here calls, a group a line: REASON: NAME...
excused=$(cat <<'LIST'
dynamic processes, need a spawned or connected job: MPI_Comm_spawn MPI_Comm_spawn_multiple MPI_Comm_accept MPI_Comm_connect MPI_Comm_join MPI_Open_port MPI_Close_port MPI_Publish_name MPI_Unpublish_name MPI_Lookup_name
a process starts MPI once, with MPI_Init here (test_threads runs MPI_Init_thread): MPI_Init_thread
mpiprof's own interval control, not a profiled call (api.c): MPI_Pcontrol
the sessions model, tested by tests/mpi/sessions: MPI_Session_init MPI_Session_finalize MPI_Session_call_errhandler MPI_Session_create_errhandler MPI_Session_get_errhandler MPI_Session_set_errhandler MPI_Session_get_info MPI_Session_get_nth_pset MPI_Session_get_num_psets MPI_Session_get_pset_info MPI_Group_from_session_pset MPI_Comm_create_from_group MPI_Intercomm_create_from_groups
Fortran status conversions and types, in MPICH's Fortran library: MPI_Status_c2f MPI_Status_f2c MPI_Status_c2f08 MPI_Status_f082c MPI_Status_f082f MPI_Status_f2f08 MPI_Type_create_f90_complex MPI_Type_create_f90_integer MPI_Type_create_f90_real
MPICH extensions: fault tolerance needs a failed process, GPU queries, generalized request classes: MPIX_Comm_agree MPIX_Comm_failure_ack MPIX_Comm_failure_get_acked MPIX_Comm_revoke MPIX_Comm_shrink MPIX_Delete_error_class MPIX_Delete_error_code MPIX_Delete_error_string MPIX_GPU_query_support MPIX_Grequest_class_allocate MPIX_Grequest_class_create MPIX_Grequest_start MPIX_Query_cuda_support MPIX_Query_hip_support MPIX_Query_ze_support
LIST
)

# NAME CLASS of every function of mpi_functions.txt
awk '!/^[#@]/ && NF { print $1, $2 }' "$functions_txt" >"$tmp/functions"
[ "$(wc -l <"$tmp/functions")" -ge 600 ] || fail "$functions_txt lists fewer functions than expected"
# the functions without an SRC point in either mode
awk '$2 == "untimed" || $2 == "handwritten" { print $1 }' "$tmp/functions" >"$tmp/unprofiled"
words() { printf '%s\n' "$1" | tr -s '\n' ' '; }

cd "$tmp"
for prog in $programs; do
    "$MPICC_PROF" -g -o "$prog" "$srcdir/$prog.c" || fail "compiling $prog.c with mpicc-prof"
    mpirun_2 "$prog.out" "$prog.err" env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_FORMAT=both \
        MPIPROF_OUTPUT="$tmp/$prog.prof" ./"$prog" "$tmp/$prog.dat"
    grep -q "$prog done" "$prog.out" || fail "$prog did not finish: $(cat "$prog.out" "$prog.err")"
    [ -f "$prog.prof.otf2/traces.otf2" ] || fail "$prog wrote no trace: $(ls)"
    env MPIPROF_TRACE=on MPIPROF_QUIET=1 MPIPROF_FORMAT=both "$analyze" -q -f both -o "$prog.trace.prof" "$prog.prof.otf2/traces.otf2" 2>"$prog.analyze.err" ||
        fail "mpiprof-analyze failed on $prog's trace: $(cat "$prog.analyze.err")"
    cp "$prog.trace.prof" prot.txt # shown on failure

    # 1. the same SRC points, calls and bytes
    # shellcheck disable=SC2086  # a list of words
    "$compare" --brief $ignore "$prog.prof.json" "$prog.trace.prof.json" >"$prog.compare" 2>&1 || {
        cat "$prog.compare" >&2
        fail "mpiprof-compare finds $prog's dynamic protocol and its trace's different (above)"
    }
    # 2. each function called is an SRC point of both
    called=$(grep -o 'MPI_[A-Z][A-Za-z0-9_]*(' "$srcdir/$prog.c" | tr -d '(' | sort -u)
    for f in $called; do
        ! grep -qx "$f" unprofiled || continue
        grep -q "^$f " functions || fail "$prog.c calls $f, which $functions_txt does not list"
        for p in "$prog.prof" "$prog.trace.prof"; do
            grep -q "^SRC [0-9]*  $f  calls=" "$p" || fail "$p has no SRC point of $f"
        done
    done
    echo "$prog: $(echo "$called" | wc -l) functions, $(tail -n 1 "$prog.compare")"
done

# The bytes of partitioned communication: all partitions (partitions x count
# x type size) at each start, in both modes (once only one partition's)
for p in calls_p2p.prof calls_p2p.trace.prof; do
    "$PYTHON3" - "$p.json" "$srcdir/calls_p2p.c" <<'PY' || fail "$p: the bytes of partitioned communication (above)"
import json, os, sys
doc, source = json.load(open(sys.argv[1])), sys.argv[2]
line = next(n for n, text in enumerate(open(source), 1) if "MARK:pstart" in text)
src = [s for s in doc["intervals"][0]["src"] if s["function"] == "MPI_Start" and s["stack"]
       and s["stack"][0].get("line") == line]
if len(src) != 1:
    sys.exit("%s: %d SRC points of MPI_Start at %s:%d" % (sys.argv[1], len(src), os.path.basename(source), line))
bp = src[0]["by_process"]
calls = dict(zip(bp["ranks"], bp["calls"]))
sent, recv = dict(zip(bp["ranks"], bp["bytes_sent"])), dict(zip(bp["ranks"], bp["bytes_recv"]))
if sent.get(0) != 32 * calls.get(0, 0) or recv.get(1) != 32 * calls.get(1, 0) or not calls.get(0):
    sys.exit("%s: MPI_Start of 2 partitions of 4 ints: calls %r, bytes sent %r, received %r; expected 32 bytes "
             "a start" % (sys.argv[1], calls, sent, recv))
print("%s: partitioned starts %r, 32 bytes each" % (sys.argv[1], calls))
PY
done

# 3. the coverage guard
cat "$srcdir"/calls_*.c "$srcdir/io_calls.c" | grep -o 'MPIX*_[A-Za-z0-9_]*(' | tr -d '(' | sort -u >covered
echo "$excused" | sed 's/^.*://' | tr -s ' ' '\n' | sed '/^$/d' | sort >excused
dup=$(sort excused | uniq -d)
[ -z "$dup" ] || fail "excused twice: $dup"
stale=$(awk '{ print $1 }' functions | sort | comm -13 - excused)
[ -z "$stale" ] || fail "excused but not in $functions_txt: $(words "$stale")"
both=$(comm -12 covered excused)
[ -z "$both" ] || fail "both called and excused (remove the excuse): $(words "$both")"
# the class untimed (clocks, handle conversions, MPI_T) has no SRC point
# in either mode: nothing to compare
awk '$2 == "untimed" { print $1 }' functions | sort >untimed
missing=$(awk '{ print $1 }' functions | sort | comm -23 - covered | comm -23 - excused | comm -23 - untimed)
[ -z "$missing" ] || fail "functions of $functions_txt that no program of test_analyze_functions.sh calls and no excuse names (call each in a calls_*.c, or excuse it with a reason): $(words "$missing")"
echo "mpi_functions.txt: $(awk '{ print $1 }' functions | sort | comm -12 - covered | wc -l) functions called, $(wc -l <excused) excused"
echo "PASS: analyze_functions"
