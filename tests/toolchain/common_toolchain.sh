# shellcheck shell=sh
# shellcheck disable=SC2034,SC2154  # sets variables for the tests; uses common.sh's
# Shared by the toolchain tests (tests/toolchain/test_*.sh), sourced after
# tests/mpi/lib/common.sh.  They build and run programs against mpiprof as
# installed: stage_install installs the build tree with make install
# DESTDIR=$tmp/root (the directories configure chose, below a staging
# root: the CMake package and mpiprof-run find themselves there), and sets
#   $root            the staging root
#   $prefix $libdir $includedir   the configured directories (mpiprof.pc)
#   $staged_bin      the staged bindir (where mpiprof-run is)
#   $staged_lib      $root$libdir
# mpi_libs: the -l options of the MPI library that $MPICC links.
# barrier_line: the line of barrier.c's MPI_Barrier.

stage_install() {
    root="$tmp/root"
    # (make check's MAKEFLAGS, TESTS=... included, are not this make's.)
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" install DESTDIR="$root" \
        >"$tmp/install.log" 2>&1 || fail "make install DESTDIR=$root failed: $(tail -n 20 "$tmp/install.log")"
    _pc="$top_builddir/mpiprof.pc"
    prefix=$(pkg-config --variable=prefix "$_pc") || fail "pkg-config cannot read $_pc"
    libdir=$(pkg-config --variable=libdir "$_pc")
    includedir=$(pkg-config --variable=includedir "$_pc")
    staged_lib="$root$libdir"
    [ -f "$staged_lib/libmpiprof.so" ] || fail "make install put no libmpiprof.so into $staged_lib"
    _run=$(find "$root" -type f -name mpiprof-run | head -n 1)
    [ -n "$_run" ] || fail "make install put no mpiprof-run below $root"
    staged_bin=$(dirname "$_run")
}

mpi_libs() {
    "$MPICC" -show | tr ' ' '\n' | grep '^-l' | tr '\n' ' '
}

barrier_line() {
    grep -n 'MARK barrier' "$srcdir/barrier.c" | cut -d: -f1
}

# needed_order FILE: the program's DT_NEEDED libraries, in order, one line.
needed_order() {
    readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '
}
