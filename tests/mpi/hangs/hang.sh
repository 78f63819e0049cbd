# shellcheck shell=sh
# Helpers of the hang watchdog's tests (tests/mpi/hangs/test_hang_*.sh), sourced
# after common.sh.  A hanging MPI job runs in a session of its own (out of
# reach of the terminal's and the test driver's signals), and is ended by
# the test, also when the test fails or times out: every process it started
# is found and none may be left.
#
#   start_job OUT ERR CMD...   start "$MPIEXEC -n 2 CMD..." in the background
#   wait_for_files SECONDS FILE...
#                              wait until every FILE exists; fail after SECONDS
#   stop_job                   end the job (SIGTERM to mpiexec, then SIGKILL to
#                              whatever of it is left) and fail if that was needed
#   $MPIPROF_HANG              the mpiprof-hang of the build tree

MPIPROF_HANG="$top_builddir/tools/mpiprof-hang"
[ -x "$MPIPROF_HANG" ] || fail "$MPIPROF_HANG is not built"
command -v setsid >/dev/null 2>&1 || skip "setsid (util-linux) is needed to kill a hanging job"

_job=
# The job goes when the test does, whatever its end (common.sh turns HUP,
# INT and TERM into an exit).
trap '_status=$?; stop_job quietly; _cleanup $_status' EXIT

start_job() {
    _out=$1
    _err=$2
    shift 2
    # Not a process group leader (a background job of a shell without job
    # control), setsid makes a new session without forking: $! is mpiexec.
    setsid "$MPIEXEC" -n 2 "$@" >"$_out" 2>"$_err" &
    _job=$!
}

wait_for_files() {
    _limit=$(( $1 * 10 ))
    shift
    _n=0
    while :; do
        _missing=
        for _f in "$@"; do
            [ -e "$_f" ] || _missing="$_missing $_f"
        done
        [ -z "$_missing" ] && return 0
        [ "$_n" -ge "$_limit" ] && fail "after $(( _limit / 10 )) s, still missing:$_missing"
        [ -n "$(_alive "$_job")" ] || fail "the job ended before writing:$_missing"
        sleep 0.1
        _n=$(( _n + 1 ))
    done
}

# The job's processes: mpiexec and everything it started (Hydra gives its
# proxies and the ranks sessions of their own, so a process group does not
# hold them all).
# (ps without the sanitizer runtime run-mpi-test may preload: procps hangs
# under it.)
_tree() {
    env -u LD_PRELOAD ps -eo pid=,ppid= | awk -v root="$1" '
        { parent[$1] = $2 }
        END {
            keep[root] = 1
            do {
                grew = 0
                for (p in parent)
                    if (!(p in keep) && (parent[p] in keep)) { keep[p] = 1; grew = 1 }
            } while (grew)
            for (p in keep) if (p in parent) print p
        }'
}

# Which of the processes $1 are alive (not zombies: mpiexec is one until
# waited for).
_alive() {
    [ -n "$1" ] || return 0
    env -u LD_PRELOAD ps -o pid=,stat= -p "$(echo $1 | tr ' ' ,)" | awk '$2 !~ /^Z/ { printf "%s ", $1 }'
}

stop_job() {
    [ -n "$_job" ] || return 0
    _pids=$(_tree "$_job")
    _root=$_job
    _job=
    # mpiexec ends the ranks it started when it is asked to end
    kill -TERM "$_root" 2>/dev/null || true
    _n=0
    while [ -n "$(_alive "$_pids")" ] && [ "$_n" -lt 50 ]; do
        sleep 0.1
        _n=$(( _n + 1 ))
    done
    _left=$(_alive "$_pids")
    if [ -n "$_left" ]; then
        # shellcheck disable=SC2086 # a list of process ids
        kill -KILL $_left 2>/dev/null || true
    fi
    wait "$_root" 2>/dev/null || true
    if [ -n "$_left" ] && [ "${1:-}" != quietly ]; then
        fail "processes of the job did not end on SIGTERM to mpiexec (killed): $_left"
    fi
    return 0
}

# line_of FILE MARK: the line number of the source line holding MARK:MARK.
line_of() {
    grep -n "MARK:$2 " "$1" | cut -d: -f1
}
