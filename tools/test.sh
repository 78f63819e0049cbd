#!/bin/sh
# Build mpiprof and run the whole test suite (unit tests, coverage and export
# checks, MPI integration tests, benchmark smoke test).  .ci/run runs this.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/build.sh"
cd "$top"
status=0
make -j"$(nproc)" check || status=$?
if [ "$status" -ne 0 ]; then
    # Show what failed: the log of every test whose result is FAIL or ERROR.
    grep -lE '^:test-result: (FAIL|ERROR)' $(find . -name '*.trs') 2>/dev/null | while read -r trs; do
        echo "==== ${trs%.trs}.log"
        tail -n 80 "${trs%.trs}.log"
    done
fi
exit "$status"
