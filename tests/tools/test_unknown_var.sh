#!/bin/sh
# unknown_var: at MPI_Init an MPIPROF_* variable the library does not know
# is said once, by rank 0 on stderr, with the nearest known name
# ("MPIPROF_DEPHT is not an mpiprof variable; did you mean MPIPROF_DEPTH?"),
# and in the protocol's Warnings; one near no name is said without a
# suggestion; those mpiprof itself reads outside its table (the test
# driver's MPIPROF_WRAPPER_LIBDIR, MPIPROF_LIBDIR, MPIPROF_TEST_*, set here)
# are not; with MPIPROF_QUIET=1 nothing is printed, the Warnings keep it.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_var MPIPROF_WRAPPER_LIBDIR
cd "$tmp"
"$MPICC_PROF" -o tools_hello "$srcdir/tools_hello.c" || fail "compiling tools_hello.c with mpicc-prof"
suggested="MPIPROF_DEPHT is not an mpiprof variable; did you mean MPIPROF_DEPTH? (it is ignored)"
far="MPIPROF_XYZZY_PLUGH is not an mpiprof variable (it is ignored;"

mpirun_2 out err env MPIPROF_DEPHT=2 MPIPROF_XYZZY_PLUGH=1 MPIPROF_TEST_UNKNOWN_VAR=1 \
    MPIPROF_OUTPUT="$tmp/prot.txt" ./tools_hello
[ "$(grep -c 'is not an mpiprof variable' err)" -eq 2 ] ||
    fail "stderr does not say exactly the 2 unknown variables, once each:
$(cat err)"
[ "$(grep -cxF "mpiprof: warning: $suggested" err)" -eq 1 ] ||
    fail "stderr lacks the line 'mpiprof: warning: $suggested':
$(cat err)"
[ "$(grep -cF "mpiprof: warning: $far" err)" -eq 1 ] || fail "stderr lacks the line about MPIPROF_XYZZY_PLUGH:
$(cat err)"
check_text_protocol prot.txt
sed -n '/^ *Warnings/,/^====/p' prot.txt >warnings.txt
grep -qF "$suggested" warnings.txt || fail "the protocol's Warnings lack '$suggested':
$(cat warnings.txt)"

mpirun_2 out2 err2 env MPIPROF_DEPHT=2 MPIPROF_QUIET=1 MPIPROF_OUTPUT="$tmp/quiet.txt" ./tools_hello
[ ! -s err2 ] || fail "MPIPROF_QUIET=1, yet stderr says: $(cat err2)"
grep -qF "$suggested" quiet.txt || fail "with MPIPROF_QUIET=1 the protocol's Warnings lack '$suggested'"
echo "PASS: unknown_var"
