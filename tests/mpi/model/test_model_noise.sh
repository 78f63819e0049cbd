#!/bin/sh
# model_noise: the same program run twice, the second time with rank 1
# delayed at random (0-3 ms, seeded) before each of its 150 iterations'
# communication.  The real parallelization efficiency must drop by at least
# 0.05, and the predicted one (the model calibrated at MPI_Init in each run,
# the computation replaced by the mean over processes) must move by less
# than a fifth of that.  The log states both spreads.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o model_noise "$srcdir/model_noise.c" || fail "compiling model_noise.c with mpicc-prof"
# Two tries: a run whose calibration found another machine (the host
# places the VM's processors elsewhere for seconds: 3x the latency), or a
# quiet run slowed by other jobs, is not the program's noise, and
# check_model.py says so with exit status 3.
for try in 1 2; do
    for run in quiet noisy; do
        rm -f "$run.txt" "$run.txt.json" # an existing protocol is never overwritten: the try would check the last one's
        mpirun_2 "out.$run" "err.$run" env MPIPROF_OUTPUT="$tmp/$run.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
            ./model_noise "$run"
        check_text_protocol "$run.txt"
        cp "$run.txt" prot.txt # shown on failure
    done
    status=0
    "$PYTHON3" "$srcdir/check_model.py" noise quiet.txt.json noisy.txt.json || status=$?
    [ "$status" -eq 0 ] && break
    [ "$status" -eq 3 ] && [ "$try" -eq 1 ] || fail "protocol check failed (see above)"
    echo "the machine made the difference (above): both runs again"
done
echo "PASS: model_noise"
