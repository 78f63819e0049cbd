#!/bin/sh
# model_calibration: the latency and bandwidth calibrated (at MPI_Init and
# again at MPI_Finalize, the better of each kept) agree within a factor 10
# with the 8-byte ping-pong bench/mpibench.c measures
# (loop time / 2 calls per round trip, of the fastest of 40 slices, here
# built with plain mpicc) and a
# 128 KiB one; the calibration takes well under 0.25 s.  Then the
# configuration around it:
#   MPIPROF_PREDICT=off   no calibration; every predicted value, Overlap and
#                         the Prediction model are n/a with the reason
#   MPIPROF_MODEL=lat_intra=fast   one warning (stderr and protocol) naming
#                         the variable and the value; the default is used
#                         (calibrate) and the Configuration says so
#   MPIPROF_MODEL=lat_intra=3us    that parameter given, the others calibrated
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"${MPICC:-mpicc}" -o pingpong_plain "$srcdir/model_pingpong.c" || fail "compiling model_pingpong.c with mpicc"
"$MPICC_PROF" -o pingpong "$srcdir/model_pingpong.c" || fail "compiling model_pingpong.c with mpicc-prof"

# 1. Calibration against the benchmark's ping-pong.
mpirun_2 bench.out bench.err ./pingpong_plain
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./pingpong
check_text_protocol prot.txt
at='MPI_\(Init\|Finalize\)' lat='[0-9.]*[mu]s' bw='[0-9.]*[KMG]B/s'
unwrapped prot.txt | grep -q "^   intra-node: lat_intra=$lat bw_intra=$bw (calibrated by a ping-pong of ranks 0 and 1, 8 B and 128 KiB messages: lat_intra at $at ($at: $lat), bw_intra at $at ($at: $bw))\$" \
    || fail "the Prediction model does not state the calibrated intra-node parameters and where each is from: $(sed -n '/^Prediction model/,/^Warnings/p' prot.txt)"
"$PYTHON3" "$srcdir/check_model.py" calibration prot.txt.json bench.out || fail "calibration check failed (see above)"

# 2. MPIPROF_PREDICT=off.
rm -f prot.txt prot.txt.json
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 MPIPROF_PREDICT=off ./pingpong
check_text_protocol prot.txt
grep -q '^--- Main characteristics (predicted) ---$' prot.txt || fail "no predicted section heading"
[ "$(grep -c '^n/a (see Warnings)$' prot.txt)" -ge 3 ] || fail "the predicted sections are not n/a with MPIPROF_PREDICT=off"
"$PYTHON3" "$srcdir/check_model.py" off prot.txt.json prot.txt || fail "MPIPROF_PREDICT=off check failed (see above)"

# 3. A malformed MPIPROF_MODEL: one warning, the default.
rm -f prot.txt prot.txt.json
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_MODEL=lat_intra=fast ./pingpong
n=$(grep -c 'MPIPROF_MODEL' err || true)
[ "$n" -eq 1 ] || fail "stderr has $n lines mentioning MPIPROF_MODEL, expected exactly 1: $(cat err)"
grep 'MPIPROF_MODEL' err | grep -qF "lat_intra=fast" || fail "the warning does not show the value: $(cat err)"
grep 'MPIPROF_MODEL' err | grep -qF "using the default 'calibrate'" || fail "the warning does not name the default: $(cat err)"
sed -n '/^ *Warnings/,/^====/p' prot.txt | grep -F 'MPIPROF_MODEL' | grep -qF 'lat_intra=fast' \
    || fail "the protocol's Warnings do not mention MPIPROF_MODEL='lat_intra=fast'"
grep -q 'MPIPROF_MODEL=calibrate (default)' prot.txt || fail "the Configuration does not show the default MPIPROF_MODEL in effect"
grep -q '^   intra-node: .*(calibrated by a ping-pong' prot.txt || fail "the model was not calibrated after the malformed value"

# 4. Some parameters given, the others calibrated.
rm -f prot.txt prot.txt.json
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_QUIET=1 MPIPROF_MODEL=lat_intra=3us ./pingpong
unwrapped prot.txt | grep -q "^   intra-node: lat_intra=3us (given in MPIPROF_MODEL), bw_intra=$bw (calibrated at $at ($at: $bw): ping-pong of ranks 0 and 1" \
    || fail "lat_intra given and bw_intra calibrated are not stated: $(sed -n '/^Prediction model/,/^Warnings/p' prot.txt)"
echo "PASS: model_calibration"
