#!/bin/sh
# cli: every command follows the command-line conventions (mpiprof(7),
# COMMANDS): --help prints its usage naming the command, --version
# "NAME (mpiprof) VERSION", both with exit 0 and nothing on stderr; an
# unknown option (or one without its argument) gives exit 2 and one line on
# stderr that names it and points at --help.  The compiler wrappers answer
# --help and --version alone and an unknown -mpiprof-* option; among other
# arguments --help and --version go to the compiler.  mpiprof-analyze under
# mpiexec says it once.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
cd "$tmp"
version=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"$/\1/p' "${top_builddir:?}/src/autoconf.h")
[ -n "$version" ] || fail "no PACKAGE_VERSION in $top_builddir/src/autoconf.h"

# run NAME ARG...: $rc, out, err of the command NAME (its path in $cmd)
run() {
    rc=0
    "$cmd" "$@" >out 2>err || rc=$?
}

# expect_usage_error NAME OPTION ARG...: exit 2, one line on stderr naming
# OPTION and --help, nothing on stdout
expect_usage_error() {
    _name=$1 _option=$2
    shift 2
    run "$@"
    [ "$rc" -eq 2 ] || fail "$_name $*: exit $rc, expected 2: $(cat err)"
    [ "$(wc -l <err)" -eq 1 ] || fail "$_name $*: stderr is not one line: $(cat err)"
    grep -qF -- "'$_option" err || fail "$_name $*: the message does not name '$_option': $(cat err)"
    grep -qF -- "$_name --help" err || fail "$_name $*: the message does not point at $_name --help: $(cat err)"
    [ ! -s out ] || fail "$_name $*: wrote on stdout: $(cat out)"
}

checked=""
for name in mpiprof-view mpiprof-compare mpiprof-merge mpiprof-analyze mpiprof-hang mpiprof-run \
    mpicc-prof mpicxx-prof mpifort-prof; do
    case "$name" in
        mpicc-prof) cmd=$MPICC_PROF ;;
        mpicxx-prof) cmd=${MPICXX_PROF:?} ;;
        mpifort-prof) cmd=${MPIFORT_PROF:?} ;;
        *) cmd=$top_builddir/tools/$name ;;
    esac
    if [ "$name" = mpiprof-analyze ] && [ ! -x "$cmd" ]; then
        echo "mpiprof-analyze is not built (configured without libotf2): not checked"
        continue
    fi
    [ -x "$cmd" ] || fail "$cmd is not built"
    run --help
    [ "$rc" -eq 0 ] && [ ! -s err ] || fail "$name --help: exit $rc, stderr $(cat err)"
    grep -q "usage.*$name\|^$name" out || fail "$name --help: the usage does not name $name: $(cat out)"
    run --version
    [ "$rc" -eq 0 ] && [ ! -s err ] || fail "$name --version: exit $rc, stderr $(cat err)"
    [ "$(head -n 1 out)" = "$name (mpiprof) $version" ] ||
        fail "$name --version: first line '$(head -n 1 out)', expected '$name (mpiprof) $version'"
    case "$name" in
        mpic*-prof | mpifort-prof)
            expect_usage_error "$name" -mpiprof-no-such-option -mpiprof-no-such-option -c x.c
            # anywhere on the line: -mpiprof-help, -mpiprof-version
            run -O2 -mpiprof-version -c x.c
            [ "$rc" -eq 0 ] && [ "$(head -n 1 out)" = "$name (mpiprof) $version" ] ||
                fail "$name -O2 -mpiprof-version -c x.c: exit $rc, $(cat out err)"
            run -c x.c -mpiprof-help
            [ "$rc" -eq 0 ] && grep -q "usage: $name" out || fail "$name -c x.c -mpiprof-help: exit $rc, $(cat out err)"
            # with other arguments --help and --version are the compiler's
            run -show --version x.c
            [ "$rc" -eq 0 ] && grep -q -- ' --version x.c' out && ! grep -q '(mpiprof)' out ||
                fail "$name -show --version x.c: the compiler's --version is not passed on: exit $rc, $(cat out err)"
            ;;
        *)
            expect_usage_error "$name" --no-such-option --no-such-option x
            expect_usage_error "$name" --no-such-option --no-such-option=3 x
            expect_usage_error "$name" -Z -Z x
            ;;
    esac
    checked="$checked $name"
done
# an option without its argument, an option that takes none
cmd=$top_builddir/tools/mpiprof-view
expect_usage_error mpiprof-view -o x.json -o
cmd=$top_builddir/tools/mpiprof-compare
expect_usage_error mpiprof-compare --brief --brief=yes a b
cmd=$top_builddir/tools/mpiprof-merge
expect_usage_error mpiprof-merge -o -o

# mpiprof-analyze under mpiexec: said once, by rank 0
if [ -x "$top_builddir/tools/mpiprof-analyze" ]; then
    rc=0
    "$MPIEXEC" -n 2 "$top_builddir/tools/mpiprof-analyze" --no-such-option x >out 2>err || rc=$?
    [ "$rc" -ne 0 ] || fail "mpiexec -n 2 mpiprof-analyze --no-such-option: exit 0"
    [ "$(grep -c "unknown option '--no-such-option'" err)" -eq 1 ] ||
        fail "mpiexec -n 2 mpiprof-analyze --no-such-option: not said exactly once: $(cat err)"
    "$MPIEXEC" -n 2 "$top_builddir/tools/mpiprof-analyze" --version >out 2>err ||
        fail "mpiexec -n 2 mpiprof-analyze --version: exit $?: $(cat err)"
    [ "$(cat out)" = "mpiprof-analyze (mpiprof) $version" ] ||
        fail "mpiexec -n 2 mpiprof-analyze --version: not said exactly once: $(cat out)"
fi
echo "PASS: cli:$checked"
