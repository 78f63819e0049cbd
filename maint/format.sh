#!/bin/sh
# Formats the C sources with clang-format and the tree's .clang-format:
# generated files excepted, and the MPI tests' programs (their checks expect
# calls at given source lines: they keep the layout they have).
# tests/check-format.sh checks that nothing would change.  With --check:
# lists the files that would, exit 1 if any.
set -eu
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format not found: maint/install-deps.sh installs it" >&2; exit 2; }
files=$(git ls-files 'src/*.c' 'src/*.h' 'tools/*.c' 'maint/*.c' 'bench/*.c' 'tests/unit/*.c' 'tests/unit/*.h' \
    'include/*.h' 'examples/*.c' 2>/dev/null | grep -v '^src/gen/' || :)
if [ "${1:-}" = --check ]; then
    # one clang-format for all: --dry-run names each change as file:line
    # shellcheck disable=SC2086  # one word per file
    out=$(clang-format --style=file --dry-run -Werror $files 2>&1) && exit 0
    printf '%s\n' "$out" | sed -n 's/^\([^: ]*\.[ch]\):[0-9]*:[0-9]*: error: .*/\1/p' | sort -u
    exit 1
fi
# shellcheck disable=SC2086  # one word per file
clang-format --style=file -i $files
