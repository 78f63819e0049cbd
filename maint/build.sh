#!/bin/sh
# Install what is missing, then bootstrap, configure and build mpiprof in
# place.  Used by maint/demo.sh and maint/test.sh; safe to rerun.
set -eu
cd "$(dirname "$0")/.."
sh maint/install-deps.sh
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure ${MPIPROF_CONFIGURE_FLAGS:-}
make -j"$(nproc)"
