#!/bin/sh
# model_load: the calibration of the communication model and the clock
# alignment on a loaded node stay right, or say in Warnings why not.  tests/mpi/model/model_load.c
# runs 3 times beside two busy processes (started here and killed after
# each run: with the job's 2 processes, every CPU of a 2-core machine has
# two to run, and the scheduler may put both of the job's on one CPU, where
# a ping-pong times its time slices), then with the job bound to one CPU
# (taskset: no other CPU to go to), and quietly before, between and after.
# In each loaded run (check_model_load.py) the calibrated intra-node
# latency stays within 2x of the quiet runs' or the protocol says the model
# could not be calibrated, with the figure, and the predicted
# characteristics and Overlap are then n/a with that reason; the clock
# offset uncertainty at MPI_Init stays within 10x the quiet runs' (at least
# 20 us) or a warning says why waits below the threshold count as 0.  A
# run beside busy processes whose latency alone fails is made once more
# between new quiet runs (the host changes between runs: see
# check_model_load.py); the bound run is checked once.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

spinners=""
spin_start() {
    for _i in 1 2; do
        sh -c 'while :; do :; done' &
        spinners="$spinners $!"
    done
}
spin_stop() {
    # shellcheck disable=SC2086  # a list of pids
    [ -z "$spinners" ] || kill $spinners 2>/dev/null || true
    # shellcheck disable=SC2086
    [ -z "$spinners" ] || wait $spinners 2>/dev/null || true
    spinners=""
}
trap 'spin_stop; _cleanup $?' EXIT

cd "$tmp"
"$MPICC_PROF" -o model_load "$srcdir/model_load.c" || fail "compiling model_load.c with mpicc-prof"

run() { # run NAME [PREFIX...]: PREFIX mpiexec -n 2 model_load, its protocol in NAME.txt(.json)
    _name=$1
    shift
    if ! "$@" "$MPIEXEC" -n 2 env MPIPROF_OUTPUT="$tmp/$_name.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
        ./model_load >"out.$_name" 2>"err.$_name"; then
        cat "out.$_name" "err.$_name" >&2
        fail "run $_name: '$* $MPIEXEC -n 2 ./model_load' did not exit 0"
    fi
    check_text_protocol "$_name.txt"
    cp "$_name.txt" prot.txt # shown on failure
}

# Quiet runs between the others: the host changes speed for seconds at a
# time, and the largest of their figures is the reference.
quiet=""
loaded=""
for i in 1 2 3; do
    run "quiet$i"
    quiet="$quiet quiet$i.txt.json"
    spin_start
    sleep 0.1
    run "loaded$i"
    spin_stop
    loaded="$loaded loaded$i.txt.json"
done
if command -v taskset >/dev/null 2>&1; then
    # the first CPU this shell may run on
    cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
    run bound taskset -c "$cpu"
    loaded="$loaded bound.txt.json"
else
    echo "no taskset: the run bound to one CPU is left out"
fi
run quiet4
quiet="$quiet quiet4.txt.json"
status=0
# shellcheck disable=SC2086  # lists of files
"$PYTHON3" "$srcdir/check_model_load.py" --again "$schema" $quiet -- $loaded >check.out || status=$?
cat check.out
[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "protocol check failed (see above)"
if [ "$status" -eq 3 ]; then
    # A run beside busy processes whose latency alone failed: the host may
    # have changed between it and the quiet runs (check_model_load.py,
    # --again).  Each such run again, between two new quiet runs that are
    # then the reference, and no third chance.
    n=$(grep -c '^AGAIN: ' check.out)
    quiet="quiet_again0.txt.json"
    loaded=""
    run quiet_again0
    i=1
    while [ "$i" -le "$n" ]; do
        spin_start
        sleep 0.1
        run "loaded_again$i"
        spin_stop
        run "quiet_again$i"
        loaded="$loaded loaded_again$i.txt.json"
        quiet="$quiet quiet_again$i.txt.json"
        i=$((i + 1))
    done
    # shellcheck disable=SC2086  # lists of files
    "$PYTHON3" "$srcdir/check_model_load.py" "$schema" $quiet -- $loaded \
        || fail "protocol check failed again on runs made again (see above)"
fi
echo "PASS: model_load"
