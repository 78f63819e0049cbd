#!/bin/sh
# sessions: a program of the MPI-4 Sessions Model (sessions.c: MPI_Session_init,
# a communicator of mpi://WORLD from MPI_Comm_create_from_group, collectives,
# messages with a late sender in the interval "exchange", MPI_Session_finalize)
# that never calls MPI_Init used to run unprofiled, with no protocol.  It
# must get one: interval 0 from its first MPI_Session_init (its file:line) to
# the MPI_Session_finalize of its last session, the exact calls, Real sync
# of the late sender and every message paired (the profiler's world and the
# ranks it translates come from the session), the invariants, text and
# schema (check_sessions.py).  Also: two sessions, the second finalized last
# (with the hang watchdog on, which watches through the same world); and
# MPI_Init around the sessions, profiled from MPI_Init to MPI_Finalize as
# before; and a program of sessions in mpi_f08 (sessions_f08.f90).  And
# sessions_self.c at 1 and 2 processes: communicators of mpi://self and
# mpi://world, a message each process sends to itself on each: at one
# process the profiler crashed MPICH 4.0.2 in MPI_Session_finalize (its
# wait-state exchange tested a send to itself, and a receive no one could
# send to), and its records for itself must be paired without a message.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
printf '#include <mpi.h>\nint main(void) { MPI_Session s = MPI_SESSION_NULL; return s != MPI_SESSION_NULL; }\n' >probe.c
"$MPICC" -o probe probe.c 2>/dev/null || skip "this MPI has no sessions (MPI-4; Open MPI 4.1 has none)"
"$MPICC_PROF" -o sessions "$srcdir/sessions.c" || fail "compiling sessions.c with mpicc-prof"
for mode in sessions two world; do
    arg=$mode
    [ "$mode" = sessions ] && arg=
    extra=
    [ "$mode" = two ] && extra=MPIPROF_HANG_TIMEOUT=30
    # shellcheck disable=SC2086 # $extra: a VAR=value word or none
    prot=prot_$mode
    mpirun_2 "$mode.out" "$mode.err" env $extra MPIPROF_OUTPUT="$tmp/$prot" MPIPROF_FORMAT=both ./sessions $arg
    grep -q '^sessions: ok$' "$mode.out" || fail "$mode: sessions did not print its result: $(cat "$mode.out" "$mode.err")"
    [ -s "$prot.json" ] || fail "$mode: no protocol: $(cat "$mode.err")"
    check_text_protocol "$prot"
    "$PYTHON3" "$srcdir/check_sessions.py" "$arg" "$prot.json" "$prot" "$srcdir/sessions.c" "$schema" ||
        { head -n 60 "$prot" >&2; fail "$mode: the protocol is not as expected"; }
done

$MPICC_PROF -o sessions_self "$srcdir/sessions_self.c" || fail "compiling sessions_self.c with mpicc-prof"
for np in 1 2; do
    prot=prot_self$np
    "$MPIEXEC" -n $np env MPIPROF_OUTPUT="$tmp/$prot" MPIPROF_FORMAT=both ./sessions_self >self$np.out 2>self$np.err ||
        fail "sessions_self on $np process(es) did not exit 0: $(cat self$np.out self$np.err)"
    grep -q '^sessions_self: ok$' self$np.out ||
        fail "sessions_self on $np process(es) did not print its result: $(cat self$np.out self$np.err)"
    check_text_protocol "$prot"
    "$PYTHON3" - "$prot.json" "$prot" "$schema" $np <<'PY' || fail "sessions_self on $np process(es): the protocol is not as expected"
import sys
import protocol_check as pc
json_path, text_path, schema, nproc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
doc = pc.load_checked(json_path, text_path, schema, say=False)
# each process sent one message to itself on each of the two communicators
messages = 2 * nproc
want = "%d messages paired of %d sent" % (messages, messages)
assert want in doc["parameters"]["wait_states"], (want, doc["parameters"]["wait_states"])
print("self, %d process(es): %s" % (nproc, want))
PY
done

need_var MPIFORT_PROF
"$MPIFORT_PROF" -o sessions_f08 "$srcdir/sessions_f08.f90" || fail "compiling sessions_f08.f90 with mpifort-prof"
mpirun_2 f08.out f08.err env MPIPROF_OUTPUT="$tmp/prot_f08" MPIPROF_FORMAT=both ./sessions_f08
grep -q '^sessions_f08: ok$' f08.out || fail "f08: sessions_f08 did not print its result: $(cat f08.out f08.err)"
"$PYTHON3" - prot_f08.json prot_f08 "$srcdir/sessions_f08.f90" "$schema" <<'PY' || fail "f08: the protocol is not as expected"
import sys
import protocol_check as pc
json_path, text_path, source, schema = sys.argv[1:5]
doc = pc.load_checked(json_path, text_path, schema, say=False)
pc.check_interval(doc, 0, file=source, marker="session_init")
pc.check_call_sites(doc, source, [{"function": "MPI_Allreduce", "marker": "allreduce", "calls": {0: 50, 1: 50}}],
                    ("MPI_Group_from_session_pset", "MPI_Comm_create_from_group", "MPI_Group_free",
                     "MPI_Comm_rank", "MPI_Comm_size", "MPI_Comm_free"))
print("f08: interval 0 at the MPI_Session_init line, 100 MPI_Allreduce")
PY
echo "PASS: sessions"
