#!/bin/sh
# Preloading by name: the README's preload line, taken from README.md as it
# is written (only the 64 processes made 2, and mpiexec the configured
# launcher), profiles a program built with plain mpicc, with mpiprof as
# installed (make install DESTDIR=; mpiprof-run on PATH); so does every
# line of the man pages that runs mpiprof-run (mpiprof-run wrapping
# mpiexec, LD_PRELOAD=$(mpiprof-run --library) ...).  mpiprof-run
# answers --help, --version and --library, and refuses an unknown option
# and an empty command with exit 2.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_toolchain.sh
. "$srcdir/common_toolchain.sh"
need_var MPICC
stage_install
cd "$tmp"
PATH="$staged_bin:$PATH"
export PATH
[ "$(command -v mpiprof-run)" = "$staged_bin/mpiprof-run" ] || fail "mpiprof-run on PATH is not the staged one"

# The README's line: in its "Using it" block, the one that runs mpiprof-run.
line=$(sed -n '/^## Using it/,/^```$/p' "$top_srcdir/README.md" | grep 'mpiprof-run' | sed 's/  *#.*//')
echo "README: $line"
[ "$(echo "$line" | grep -c .)" = 1 ] || fail "README.md's Using it has not one preload line with mpiprof-run: '$line'"
case "$line" in
    "mpiexec -n 64 mpiprof-run ./unmodified_app") ;;
    *) fail "README.md's preload line changed shape: '$line' (this test runs it with 2 processes)" ;;
esac
"$MPICC" -g -o unmodified_app "$srcdir/barrier.c" || fail "compiling barrier.c with plain $MPICC"
cmd=$(echo "$line" | sed "s/^mpiexec -n 64 /\"\$MPIEXEC\" -n 2 /")
MPIPROF_OUTPUT="$tmp/prot.txt"
export MPIPROF_OUTPUT
eval "$cmd" >out 2>err || fail "'$cmd' did not exit 0: $(cat out err)"
unset MPIPROF_OUTPUT
grep -q '^barrier: ok$' out || fail "the README's line did not run the program: $(cat out err)"
check_text_protocol prot.txt
grep -q "^   stack  *barrier\.c:$(barrier_line) (main)" prot.txt ||
    fail "the README's line wrote no SRC point at barrier.c:$(barrier_line)"

# The man pages' lines with mpiprof-run (their examples: each form), the
# same way: 2 processes, the configured launcher, ./prog the program.
sed -n '/^\.EX/,/^\.EE/p' "$top_srcdir"/man/*.in | grep 'mpiprof\\-run' | sed 's/\\-/-/g' |
    grep -E '^(mpiexec|mpiprof-run|LD_PRELOAD=)' | sort -u >man_lines
[ "$(grep -c . man_lines)" -ge 3 ] || fail "the man pages give fewer than the 3 forms of mpiprof-run: $(cat man_lines)"
while read -r line; do
    echo "man: $line"
    # shellcheck disable=SC2016  # $MPIEXEC: expanded by the eval
    cmd=$(echo "$line" | sed -e 's/-n [0-9][0-9]* /-n 2 /' -e 's|\./prog$|./unmodified_app|' \
        -e 's/^mpiexec /"$MPIEXEC" /' -e 's/ mpiexec / "$MPIEXEC" /')
    rm -f prot.txt
    MPIPROF_OUTPUT="$tmp/prot.txt"
    export MPIPROF_OUTPUT
    eval "$cmd" >out 2>err </dev/null || fail "'$cmd' (man: $line) did not exit 0: $(cat out err)"
    unset MPIPROF_OUTPUT
    grep -q '^barrier: ok$' out || fail "'$line' did not run the program: $(cat out err)"
    check_text_protocol prot.txt
    grep -q "^Processes  *: 2$" prot.txt || fail "'$line': not one run of 2 processes: $(grep '^Processes' prot.txt)"
    grep -q "^   stack  *barrier\.c:$(barrier_line) (main)" prot.txt || fail "'$line' wrote no SRC point at barrier.c"
done <man_lines

# The command line conventions.
mpiprof-run --help >out 2>err || fail "mpiprof-run --help did not exit 0"
grep -q '^usage: mpiprof-run COMMAND' out || fail "mpiprof-run --help printed no usage: $(cat out)"
mpiprof-run --version >out || fail "mpiprof-run --version did not exit 0"
grep -qx "mpiprof-run (mpiprof) $(pkg-config --modversion "$top_builddir/mpiprof.pc")" out ||
    fail "mpiprof-run --version: $(cat out)"
[ "$(mpiprof-run --library)" = "$staged_lib/libmpiprof.so" ] || fail "mpiprof-run --library: $(mpiprof-run --library)"
status=0
mpiprof-run --bogus ./unmodified_app >out 2>err || status=$?
{ [ "$status" = 2 ] && grep -q "unknown option '--bogus'" err; } || fail "mpiprof-run --bogus: exit $status, $(cat err)"
status=0
mpiprof-run >out 2>err || status=$?
{ [ "$status" = 2 ] && grep -q "no command" err; } || fail "mpiprof-run without a command: exit $status, $(cat err)"
echo "PASS: preload by name"
