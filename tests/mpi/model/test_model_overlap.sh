#!/bin/sh
# model_overlap: MPI_Irecv + MPI_Isend of 200000 bytes (10 us + 2 ms in the
# model MPIPROF_MODEL=lat_intra=10us,bw_intra=100MB/s), then 1 ms (interval
# "short") or 5 ms (interval "long") of computation, then MPI_Waitall.
# Each request's Overlap window is min(computation, transfer) long; the
# windows of the two requests of an iteration cover the same stretch of the
# process's time, which counts once: Overlap per process 20 iterations x
# min(computation, transfer), about 20 ms in "short" (from the computation
# the program measured), 40.2 ms in "long" (plus the microseconds between
# the two starts).  It is attributed to the SRC points of MPI_Irecv (first
# in the MPI_Waitall: all of its windows) and MPI_Isend (what sticks out),
# whose predicted time is the model's less their Overlap, and the same in
# the real and the predicted sections; text = JSON; schema.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o model_overlap "$srcdir/model_overlap.c" || fail "compiling model_overlap.c with mpicc-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
    MPIPROF_MODEL=lat_intra=10us,bw_intra=100MB/s ./model_overlap
check_text_protocol prot.txt
cat model_overlap.0 model_overlap.1 >computed
"$PYTHON3" "$srcdir/check_model.py" overlap prot.txt.json prot.txt "$srcdir/model_overlap.c" computed \
    "$schema" || fail "protocol check failed (see above)"
echo "PASS: model_overlap"
