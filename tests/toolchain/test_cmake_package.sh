#!/bin/sh
# CMake package: examples/cmake, which links MPI::MPI_C before
# mpiprof::mpiprof, built against mpiprof as installed (make install
# DESTDIR=, find_package(mpiprof 0.2) through CMAKE_PREFIX_PATH) at CMake's
# default build type (no -g of its own): the program loads libmpiprof
# before the MPI library, writes a protocol whose halo exchanges are named
# jacobi.c:LINE, and says nothing about its link order; so does a use
# mpi_f08 program linked with MPI::MPI_Fortran.  Through
# pkg-config's target after MPI::MPI_C instead, the program is linked MPI
# first and says so.  The version file accepts 0.2 and refuses other minor
# and major versions.
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_toolchain.sh
. "$srcdir/common_toolchain.sh"
need_var MPICC
command -v cmake >/dev/null 2>&1 || skip "cmake is not installed (maint/install-deps.sh installs it)"
stage_install
cd "$tmp"

example="$top_srcdir/examples/cmake"
grep -q 'target_link_libraries(jacobi PRIVATE MPI::MPI_C mpiprof::mpiprof)' "$example/CMakeLists.txt" ||
    fail "examples/cmake/CMakeLists.txt no longer links MPI::MPI_C first: the order this test is about"
cmake -S "$example" -B build -DCMAKE_PREFIX_PATH="$root$prefix" -DMPI_C_COMPILER="$MPICC" >cmake.log 2>&1 ||
    fail "cmake could not configure examples/cmake: $(tail -n 30 cmake.log)"
cmake --build build --verbose >build.log 2>&1 || fail "examples/cmake does not build: $(tail -n 30 build.log)"
grep -q -- '-fno-omit-frame-pointer' build.log || fail "mpiprof::mpiprof added no frame pointers: $(cat build.log)"
order=$(needed_order build/jacobi)
echo "jacobi: NEEDED $order"
case "$order" in
    *libmpi[!p]*libmpiprof*) fail "the CMake build loads the MPI library before libmpiprof: $order" ;;
    *libmpiprof*) ;;
    *) fail "the CMake build does not load libmpiprof: $order" ;;
esac

mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" ./build/jacobi 64 20
cat err
! grep -q 'resolves to' err || fail "the CMake build got the link-order line"
check_text_protocol prot.txt
lines=$(grep -n '^ *MPI_Sendrecv(' "$top_srcdir/examples/jacobi.c" | cut -d: -f1)
[ "$(echo "$lines" | wc -w)" = 2 ] || fail "examples/jacobi.c has not its two MPI_Sendrecv calls: $lines"
for line in $lines; do
    grep -q "^   stack  *jacobi\.c:$line " prot.txt || fail "no SRC point of the CMake build is named jacobi.c:$line"
done

# A use mpi_f08 program: MPI's Fortran library kept (its calls bind to
# libmpiprof first, whose wrappers call on into it).
if [ "${MPIFORT:-no}" != no ] && command -v "$MPIFORT" >/dev/null 2>&1; then
    cmake -S "$srcdir/fortran_target" -B fbuild -DCMAKE_PREFIX_PATH="$root$prefix" -DMPI_Fortran_COMPILER="$MPIFORT" \
        >cmake.log 2>&1 || fail "cmake could not configure fortran_target: $(tail -n 30 cmake.log)"
    cmake --build fbuild >build.log 2>&1 || fail "fortran_target does not build: $(tail -n 30 build.log)"
    echo "barrier_f08: NEEDED $(needed_order fbuild/barrier_f08)"
    mpirun_2 out err env MPIPROF_OUTPUT="$tmp/f08.prof" ./fbuild/barrier_f08
    grep -q '^barrier_f08: ok$' out || fail "the mpi_f08 program did not run to its end: $(cat out err)"
    f08_line=$(grep -n 'MARK barrier_f08' "$srcdir/fortran_target/barrier_f08.f90" | cut -d: -f1)
    grep -q "^   stack  *barrier_f08\.f90:$f08_line " f08.prof || fail "the mpi_f08 program's protocol has no SRC point at barrier_f08.f90:$f08_line"
fi

# The issue's order through pkg-config: CMake cannot put PkgConfig::MPIPROF
# ahead of MPI::MPI_C, so the program is not profiled, and says so.
mkdir pc
sed -e "s|^libdir=.*|libdir=$root$libdir|" -e "s|^includedir=.*|includedir=$root$includedir|" \
    "$root$libdir/pkgconfig/mpiprof.pc" >pc/mpiprof.pc
PKG_CONFIG_PATH="$tmp/pc" cmake -S "$srcdir/pkgconfig_target" -B pcbuild -DBARRIER_C="$srcdir/barrier.c" \
    -DMPI_C_COMPILER="$MPICC" >cmake.log 2>&1 || fail "cmake could not configure pkgconfig_target: $(tail -n 30 cmake.log)"
cmake --build pcbuild >build.log 2>&1 || fail "pkgconfig_target does not build: $(tail -n 30 build.log)"
case "$(needed_order pcbuild/barrier)" in
    *libmpi[!p]*libmpiprof*) ;;
    *) fail "PkgConfig::MPIPROF after MPI::MPI_C no longer links MPI first: $(needed_order pcbuild/barrier)" ;;
esac
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/pc.prof" ./pcbuild/barrier
grep -q '^mpiprof: MPI_Init resolves to libmpi.*this run is not profiled' err ||
    fail "PkgConfig::MPIPROF after MPI::MPI_C: no link-order line: $(cat err)"

# The version file, as find_package(mpiprof VERSION) reads it.
version=$(pkg-config --modversion "$top_builddir/mpiprof.pc")
for asked in "$version:TRUE" "0.2:TRUE" "0.1:FALSE" "0.3:FALSE" "1.0:FALSE" "99:FALSE"; do
    v=${asked%:*}
    got=$(cmake -DPACKAGE_FIND_VERSION="$v" -DPACKAGE_FIND_VERSION_MAJOR="${v%%.*}" \
        -DPACKAGE_FIND_VERSION_MINOR="$(echo "$v.0" | cut -d. -f2)" \
        -DF="$(dirname "$(find "$root" -name mpiprofConfigVersion.cmake)")/mpiprofConfigVersion.cmake" \
        -P "$srcdir/version_check.cmake" 2>&1)
    [ "$got" = "${asked#*:}" ] || fail "mpiprof $version asked as $v: compatible $got, expected ${asked#*:}"
done
echo "PASS: CMake package"
