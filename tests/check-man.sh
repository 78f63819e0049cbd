#!/bin/sh
# Every man page the build makes formats without a warning from groff
# (-ww: all of them): a malformed request (a doubled dot, a form feed where
# \f was meant) loses text silently, a word that cannot be broken runs
# past the margin.  MAN_PAGES comes from make check (man/local.mk): the
# pages built, relative to the build directory.
set -eu
pages=${MAN_PAGES:?MAN_PAGES not set: run through make check}
command -v groff >/dev/null 2>&1 || { echo "SKIP: groff is not installed"; exit 77; }
n=0
bad=0
for page in $pages; do
    n=$((n + 1))
    [ -s "$page" ] || { echo "FAIL: $page was not built"; bad=1; continue; }
    warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" 2>&1) || true
    if [ -n "$warnings" ]; then
        echo "FAIL: $page:"
        echo "$warnings" | sed -n 1,8p
        bad=1
    fi
done
[ "$bad" -eq 0 ] || exit 1
echo "PASS: $n man pages format without a warning"
