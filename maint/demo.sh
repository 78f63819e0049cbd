#!/bin/sh
# The demo: build mpiprof, compile the bundled Jacobi example with
# mpicc-prof, run it on 2 processes, and show where the protocol is and its
# headline numbers (rank 0 prints them on stderr when MPI_Finalize returns).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/maint/build.sh"
demo=$top/demo
mkdir -p "$demo"
cd "$demo"
export MPIPROF_WRAPPER_LIBDIR="$top/.libs" MPIPROF_WRAPPER_INCDIR="$top/include"
"$top/wrappers/mpicc-prof" -O2 -o jacobi "$top/examples/jacobi.c" -lm
echo "== mpiexec -n 2 ./jacobi   (profiled by mpiprof)"
MPIPROF_FORMAT=all mpiexec -n 2 ./jacobi
echo "== the protocol files are in $demo (the .html page opens in any browser, mpiprof-view(1)):"
ls -1t "$demo"/*.prof "$demo"/*.prof.json "$demo"/*.prof.html 2>/dev/null | head -n 3
