#!/bin/sh
# model_known: with the communication model given in MPIPROF_MODEL (no
# calibration), MPI calls of known operations and sizes (point-to-point,
# Allreduce, Bcast, Barrier, Sendrecv, Gather, a send to MPI_PROC_NULL,
# Irecv/Isend/Waitall) must get, per SRC point and per process, a predicted
# time equal to their number times the formula's value (mpiprof(7), MODEL),
# to the JSON's 10 digits; the predicted SendRecv time of each process is
# their sum; the parameters are stated as given; text = JSON; schema.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# the MPI_Sendrecv receives its 4000 bytes into 8000 on purpose: legal, a
# warning at MPIPROF_CHECK=full
export MPIPROF_TEST_EXPECT_FINDINGS=incorrect-send-size
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o model_known "$srcdir/model_known.c" || fail "compiling model_known.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    MPIPROF_MODEL=lat_intra=2us,bw_intra=1GB/s,lat_inter=20us,bw_inter=100MB/s ./model_known
grep -q '^model_known: ok$' out || fail "model_known did not print its result: $(cat out err)"
check_text_protocol prot.txt
grep -q '^   intra-node: lat_intra=2us bw_intra=1GB/s (given in MPIPROF_MODEL)$' prot.txt \
    || fail "the Prediction model lines do not state the given parameters: $(sed -n '/^Prediction model/,/^Warnings/p' prot.txt)"
"$PYTHON3" "$srcdir/check_model.py" known prot.txt.json prot.txt "$srcdir/model_known.c" \
    "$schema" || fail "protocol check failed (see above)"
echo "PASS: model_known"
