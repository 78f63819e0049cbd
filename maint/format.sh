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
    bad=0
    for f in $files; do
        clang-format --style=file "$f" | cmp -s - "$f" || { echo "$f"; bad=1; }
    done
    exit $bad
fi
# shellcheck disable=SC2086  # one word per file
clang-format --style=file -i $files
