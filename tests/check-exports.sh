#!/bin/sh
# The library lives inside other people's programs: it may export only the
# MPI entry points it wraps (MPI_*, MPIX_*, Fortran's mpi_*_: mpi_send_f08ts_, Open MPI's mpi_send_) and
# its own mpiprof_* API.  Anything else is a name clash waiting to happen.
set -eu
lib=${top_builddir:-.}/.libs/libmpiprof.so
[ -f "$lib" ] || { echo "FAIL: $lib not built"; exit 1; }
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVWi]$/ {print $3}' |
      grep -Ev '^(MPI_[A-Za-z0-9_]+|MPIX_[A-Za-z0-9_]+|mpix?_[a-z0-9_]+_|mpiprof_[a-z0-9_]+|_init|_fini|_edata|_end|__bss_start)$' || true)
count=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVWi]$/' | wc -l)
if [ -n "$bad" ]; then
    echo "FAIL: libmpiprof.so exports symbols outside the allowed prefixes:"
    echo "$bad"
    exit 1
fi
echo "PASS: $count exported symbols, all MPI_*, MPIX_*, mpi_*_ (Fortran) or mpiprof_*"
