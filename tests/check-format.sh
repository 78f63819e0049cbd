#!/bin/sh
# The C sources are as .clang-format formats them (maint/format.sh applies
# it).  Skipped without clang-format or outside a git checkout (a release
# tarball is formatted already).
set -eu
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
command -v clang-format >/dev/null || { echo "SKIP: clang-format is not installed"; exit 77; }
git -C "$top" rev-parse --git-dir >/dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }
if ! out=$(sh "$top/maint/format.sh" --check); then
    echo "FAIL: these files are not formatted as .clang-format says (run maint/format.sh):"
    echo "$out"
    exit 1
fi
echo "PASS: every C source formatted"
