# shellcheck shell=sh
# Shared by the tests of partial protocols (tests/mpi/faults/test_fault_*.sh):
# sourced after common.sh, in $tmp.
#
#   build_faults          compile faults.c twice: ./faults with mpicc-prof,
#                         ./faults-plain with mpicc (the program as it is
#                         without the profiler)
#   run_both NAME MODE    run "faults MODE" on 2 processes, profiled (protocol
#                         path $tmp/NAME, both formats) and not; fail unless
#                         both end with the same exit status, which is left
#                         in $status
#   run_both_killed NAME SIG [ranks|mpiexec] [MODE]
#                         the same for MODE (wait unless given; a mode in
#                         which each rank writes DIR/pid.RANK once it waits),
#                         ended by signal SIG sent to both ranks once they
#                         wait; or to mpiexec, which forwards it, and then
#                         the exit status is not compared (see below).
#                         mpiexec must exit within 20 s of the signal: the
#                         profiled job fails otherwise; the job without the
#                         profiler runs again once (Open MPI 4.1.4's mpiexec
#                         was seen never exiting), and the test skips if it
#                         hangs again (no reference exit status)
#   check_partials CASE NAME RANK...
#                         check_faults.py on the partial protocols
#
# What MPICH's mpiexec (hydra, 4.0) does, as observed when writing these
# tests: when a process dies by a signal or calls MPI_Abort, it kills every
# other process of the job with SIGKILL (each rank is its own process group,
# so a child a rank forked dies too) and exits with the signal's number (or
# MPI_Abort's errorcode; a process's exit status when it exits); SIGTERM,
# SIGINT and SIGUSR1 sent to mpiexec are forwarded to every rank, and after
# SIGTERM it exits with 0 or 15 depending on how soon the ranks die (both
# seen without the profiler, with a handler that waits 0.01 to 0.3 s before
# dying); SIGXCPU is not forwarded (it kills mpiexec alone).  MPICH installs
# its own SIGUSR1 handler, which returns: a process survives SIGUSR1.

SOURCE="$srcdir/faults.c"

build_faults() {
    need_var MPICC_PROF
    "$MPICC_PROF" -o faults "$SOURCE" || fail "compiling faults.c with mpicc-prof"
    "$MPICC" -g -o faults-plain "$SOURCE" || fail "compiling faults.c with mpicc"
}

# run_one OUT BINARY MODE: status of the run in $status, output in OUT.
run_one() {
    _out=$1
    shift
    status=0
    "$MPIEXEC" -n 2 "$@" "$tmp/run" >"$_out" 2>&1 || status=$?
}

# hydra's own status when a rank dies: observed to vary from run to run
# WITHOUT the profiler too (abort(): 6 or 15; SIGFPE: 8 or 9; SIGILL: 4 or
# 13), because it reports whichever death it sees first: the faulting
# rank's signal, or the signal it kills the others with.  Two statuses
# that differ are accepted only when both are such outcomes of a death by a
# signal (the profiler never turns one into an ordinary exit).
hydra_signal_status() {
    case $1 in 4|6|7|8|9|11|13|15) return 0 ;; *) return 1 ;; esac
}

# compare_status PROFILED PLAIN NAME [crash|exit]: "crash" (a rank died by
# a signal) allows the variation above; "exit" (ranks exit without
# MPI_Finalize) allows hydra's 9 for one of the two runs: it kills a rank
# still exiting once another has (seen without the profiler too), and its
# 1 ("Hangup (signal 1)", seen without the profiler after two ranks exited
# at once from MPI_Abort on MPI_COMM_SELF).
compare_status() {
    if [ "$1" != "$2" ]; then
        if { [ "${4:-}" = crash ] && hydra_signal_status "$1" && hydra_signal_status "$2"; } ||
            { [ "${4:-}" = exit ] && { [ "$1" -eq 9 ] || [ "$2" -eq 9 ] || [ "$1" -eq 1 ] || [ "$2" -eq 1 ]; }; }; then
            echo "NOTE: $3: exit status $1 profiled, $2 without the profiler: both a death by a signal as hydra reports it"
        else
            echo "---- profiled run ($3) ----" >&2
            cat "$3.out" >&2
            fail "$3: exit status $1 profiled, $2 without the profiler"
        fi
    fi
    status=$1
}

# The profiled program, writing its protocols at $tmp/NAME, with the
# settings in $profiled_env (VAR=value words) too.
profiled_env=
profiled() {
    # shellcheck disable=SC2086 # VAR=value words
    echo env $profiled_env "MPIPROF_OUTPUT=$tmp/$1" MPIPROF_FORMAT=both ./faults
}

run_both() {
    mkdir -p "$tmp/run"
    # shellcheck disable=SC2046 # words of the command
    run_one "$1.out" $(profiled "$1") "$2"
    _profiled=$status
    run_one "$1.plain.out" ./faults-plain "$2"
    # MPI_Abort on a communicator of one process: MPICH exits with the
    # errorcode (its other processes are killed as after an exit)
    case $2 in
        segv|bus|fpe|ill|abrt|segv_in_mpi) _kind=crash ;;
        exit|return|abort_self|abort_split|abort_both) _kind=exit ;;
        *) _kind= ;;
    esac
    compare_status "$_profiled" "$status" "$1" "$_kind"
    echo "$1: exit status $status with and without the profiler"
}

# killed_run OUT SIG TARGET MODE BINARY: SIG to the ranks or mpiexec.
killed_run() {
    _out=$1 _sig=$2 _target=$3 _mode=$4
    shift 4
    rm -rf "$tmp/run" && mkdir -p "$tmp/run"
    "$MPIEXEC" -n 2 "$@" "$_mode" "$tmp/run" >"$_out" 2>&1 &
    _launcher=$!
    _n=0
    until [ -s "$tmp/run/pid.0" ] && [ -s "$tmp/run/pid.1" ]; do
        _n=$((_n + 1))
        [ "$_n" -lt 300 ] || { kill -KILL "$_launcher"; cat "$_out" >&2; fail "the ranks did not start"; }
        sleep 0.1
    done
    sleep 0.3 # into the call that never returns
    if [ "$_target" = mpiexec ]; then
        kill -s "$_sig" "$_launcher"
    else
        # a rank may be gone already (rank 0 of a plain job out of
        # MPI_Finalize on a loaded machine): the other gets the signal
        kill -s "$_sig" "$(cat "$tmp/run/pid.0")" "$(cat "$tmp/run/pid.1")" 2>/dev/null || :
    fi
    # mpiexec must end soon after its ranks: one still there after 20 s is
    # killed, and $status is "hung".
    _n=0
    while kill -0 "$_launcher" 2>/dev/null && [ "$_n" -lt 200 ]; do
        _n=$((_n + 1))
        sleep 0.1
    done
    if kill -0 "$_launcher" 2>/dev/null; then
        kill -KILL "$_launcher" 2>/dev/null || :
        wait "$_launcher" 2>/dev/null || :
        status=hung
        return
    fi
    status=0
    wait "$_launcher" || status=$?
}

run_both_killed() {
    # shellcheck disable=SC2046 # words of the command
    killed_run "$1.out" "$2" "${3:-ranks}" "${4:-wait}" $(profiled "$1")
    _profiled=$status
    [ "$_profiled" != hung ] ||
        fail "$1: $MPIEXEC did not exit within 20 s of SIG$2 to ${3:-the ranks} of the profiled job: $(cat "$1.out")"
    killed_run "$1.plain.out" "$2" "${3:-ranks}" "${4:-wait}" ./faults-plain
    if [ "$status" = hung ]; then
        # Open MPI 4.1.4's mpiexec was seen never exiting after SIGTERM to
        # both ranks of this job without the profiler (one rank a zombie):
        # the reference run once more.
        echo "NOTE: $1: $MPIEXEC did not exit within 20 s of SIG$2 to ${3:-the ranks} of the job without the profiler; the plain run again"
        killed_run "$1.plain.out" "$2" "${3:-ranks}" "${4:-wait}" ./faults-plain
        [ "$status" != hung ] || skip "$1: $MPIEXEC did not exit within 20 s of SIG$2 to ${3:-the ranks}, twice, without the profiler: no reference exit status ($("$MPIEXEC" --version 2>/dev/null | head -n 1))"
    fi
    if [ "${3:-ranks}" = mpiexec ]; then
        echo "$1: SIG$2 to mpiexec: exit status $_profiled profiled, $status without (not compared)"
        return
    fi
    _plain=$status
    if [ "$_profiled" = 1 ] && [ "$status" != 1 ]; then
        # hydra's 1 ("Hangup (signal 1)") instead of the signal, as for the
        # plain job below (seen in CI for SIGTERM to both ranks in
        # MPI_Finalize, once in three runs): the profiled run once more.
        echo "NOTE: $1: exit status 1 profiled, $status without the profiler; the profiled run again"
        rm -f "$tmp/$1.partial."*
        # shellcheck disable=SC2046 # words of the command
        killed_run "$1.out" "$2" "${3:-ranks}" "${4:-wait}" $(profiled "$1")
        _profiled=$status
        [ "$_profiled" != hung ] ||
            fail "$1: $MPIEXEC did not exit within 20 s of SIG$2 to ${3:-the ranks} of the profiled job: $(cat "$1.out")"
        status=$_plain
    fi
    if [ "$_profiled" != "$status" ]; then
        # The reference run, without the profiler, once more: hydra has
        # reported 1 instead of the signal for a plain job killed this way.
        echo "NOTE: $1: exit status $_profiled profiled, $status without the profiler; the plain run again"
        killed_run "$1.plain.out" "$2" "${3:-ranks}" "${4:-wait}" ./faults-plain
        [ "$status" != hung ] || fail "$1: $MPIEXEC did not exit within 20 s of SIG$2 to the ranks of the job without the profiler"
    fi
    compare_status "$_profiled" "$status" "$1"
    echo "$1: SIG$2 to ${3:-the ranks}: exit status $status with and without the profiler"
}

check_partials() {
    _case=$1 _name=$2
    shift 2
    # shellcheck disable=SC2154  # schema: common.sh
    "$PYTHON3" "$srcdir/check_faults.py" "$_case" "$tmp/$_name" "$SOURCE" "$schema" "$@" || {
        echo "---- profiled run ----" >&2
        cat "$tmp/$_name.out" >&2
        for _r in "$@"; do
            [ -f "$tmp/$_name.partial.$_r" ] && head -n 40 "$tmp/$_name.partial.$_r" >&2
        done
        fail "$_case: the partial protocols are not as expected"
    }
}
