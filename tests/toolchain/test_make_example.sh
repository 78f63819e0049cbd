#!/bin/sh
# pkg-config and the Makefile example: mpiprof.pc's Cflags carry -g and
# frame pointers, its Libs --no-as-needed before -lmpiprof; examples/make,
# built with them against mpiprof as installed (make install DESTDIR=, the
# .pc's directories redefined to the staged ones), at -O2 with no -g of its
# own, writes a protocol whose halo exchanges are named jacobi.c:LINE (not
# jacobi+0x...).
set -eu
# shellcheck source=../mpi/lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=common_toolchain.sh
. "$srcdir/common_toolchain.sh"
need_var MPICC
stage_install
cd "$tmp"

pkgconfig="pkg-config --define-variable=libdir=$root$libdir --define-variable=includedir=$root$includedir"
export PKG_CONFIG_PATH="$root$libdir/pkgconfig"
cflags=$($pkgconfig --cflags mpiprof) || fail "pkg-config does not find the staged mpiprof.pc"
libs=$($pkgconfig --libs mpiprof)
echo "cflags: $cflags"
echo "libs: $libs"
for want in "-I$root$includedir" -g -fno-omit-frame-pointer; do
    echo " $cflags " | grep -q -- " $want " || fail "pkg-config --cflags mpiprof lacks $want: $cflags"
done
echo " $libs " | grep -q -- " -Wl,--no-as-needed -lmpiprof " || fail "pkg-config --libs mpiprof does not keep -lmpiprof under --as-needed: $libs"

make -f "$top_srcdir/examples/make/Makefile" CC="$MPICC" PKG_CONFIG="$pkgconfig" >make.log 2>&1 ||
    fail "examples/make does not build: $(cat make.log)"
cat make.log
grep -q -- ' -g ' make.log || fail "the example's compile line has no -g from pkg-config"
! grep -q -- '^CFLAGS.*-g' "$top_srcdir/examples/make/Makefile" || fail "the example's Makefile adds -g of its own"
case "$(needed_order jacobi)" in
    *libmpiprof*libmpi[!p]*) ;;
    *) fail "the Makefile build does not load libmpiprof before the MPI library: $(needed_order jacobi)" ;;
esac

mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" ./jacobi 64 20
! grep -q 'resolves to' err || fail "the Makefile build got the link-order line: $(cat err)"
check_text_protocol prot.txt
lines=$(grep -n '^ *MPI_Sendrecv(' "$top_srcdir/examples/jacobi.c" | cut -d: -f1)
[ "$(echo "$lines" | wc -w)" = 2 ] || fail "examples/jacobi.c has not its two MPI_Sendrecv calls: $lines"
for line in $lines; do
    grep -q "^   stack  *jacobi\.c:$line " prot.txt || fail "no SRC point of the Makefile build is named jacobi.c:$line"
done
! grep -q '^   stack .*jacobi+0x' prot.txt || fail "a frame of the program is not named: $(grep '^   stack' prot.txt)"
echo "PASS: make example"
