#!/bin/sh
# Every header of src/ compiles on its own, included twice: it includes
# what it uses (its users' include order must not supply it) and has an
# include guard.  HEADER_CC and HEADER_CPPFLAGS come from make check
# (tests/unit/local.mk): the compiler and every include path of the build.
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cc=${HEADER_CC:?HEADER_CC not set: run through make check}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpiprof-headers.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0
bad=0
for h in $(cd "$top/src" && find . -name '*.h' ! -path './gen/*' ! -name autoconf.h | sed 's|^\./||' | sort); do
    n=$((n + 1))
    printf '#include "%s"\n#include "%s"\n' "$h" "$h" >"$tmp/alone.c"
    # shellcheck disable=SC2086  # HEADER_CPPFLAGS is a list of flags
    if ! $cc -std=gnu11 -fsyntax-only -Wall -Werror ${HEADER_CPPFLAGS:-} -c "$tmp/alone.c" >"$tmp/log" 2>&1; then
        echo "FAIL: src/$h does not compile on its own:"
        sed -n 1,8p "$tmp/log"
        bad=1
    fi
done
[ "$bad" -eq 0 ] || exit 1
echo "PASS: $n headers compile on their own"
