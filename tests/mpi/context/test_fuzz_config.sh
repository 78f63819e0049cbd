#!/bin/sh
# fuzz_config: every MPIPROF_* variable of src/context/config_vars.def
# (read from the table when the test runs) with malformed values, and output
# paths that cannot be used; see check_fuzz_config.py for the runs and what
# each asserts.  In short: the program always exits 0 with its normal
# output; a protocol is always written, where MPIPROF_OUTPUT says or where
# the one warning about it says; each malformed value gets exactly one
# warning naming the variable and the value, and its default is used (the
# JSON configuration block says default: true); an existing protocol is
# never overwritten unless MPIPROF_OVERWRITE=1.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o fuzz_config "$srcdir/fuzz_config.c" || fail "compiling fuzz_config.c with mpicc-prof"
"$PYTHON3" "$srcdir/check_fuzz_config.py" "$top_srcdir/src/context/config_vars.def" ./fuzz_config "$tmp" \
    || fail "hostile settings (see above)"
echo "PASS: fuzz_config"
