#!/bin/sh
# build-tsan-lib.sh OUTDIR: the library's sources compiled again with
# -fsanitize=thread into OUTDIR/libmpiprof.so, for test_threads_tsan.sh
# (which builds it itself unless `make tsan-lib` left an up-to-date one in
# tests/mpi/threads/tsan-lib/: maint/test.sh does so for the Open MPI stage, beside
# the MPICH suite, where the machine has room).  The sources and flags are
# libmpiprof.la's, from make: MPIPROF_TEST_LIB_SOURCES,
# MPIPROF_TEST_LIB_GENERATED, MPIPROF_TEST_LIB_CFLAGS, MPIPROF_TEST_LIB_LIBS,
# MPIPROF_TEST_CC, top_srcdir, top_builddir.  Exit status 77 when the
# compiler cannot build and run ThreadSanitizer programs.
#
# -O1, as the library's own -O2 may load early what another thread writes
# (ThreadSanitizer found such a race at -O1); -g1, line tables only, enough
# for the reports' frames: the generated wrappers in 15 s against 27 with -g.
# One source per compiler, as many at once as there are processors.
set -eu
out=${1:?usage: build-tsan-lib.sh OUTDIR}
: "${top_srcdir:?}" "${top_builddir:?}" "${MPIPROF_TEST_LIB_SOURCES:?}" "${MPIPROF_TEST_LIB_GENERATED:?}"
cc=${MPIPROF_TEST_CC:-cc}
rm -rf "$out"
mkdir -p "$out/obj"
cd "$out"
echo 'int main(void) { return 0; }' >probe.c
if ! "$cc" -fsanitize=thread -o probe probe.c 2>/dev/null || ! ./probe; then
    echo "$cc cannot build and run -fsanitize=thread programs"
    exit 77
fi
start=$(date +%s)
flags="-std=gnu11 -fvisibility=hidden -fno-omit-frame-pointer -g1 -O1 -fPIC -fsanitize=thread -D_GNU_SOURCE
 -I$top_srcdir/include -I$top_srcdir/src -I$top_builddir/src ${MPIPROF_TEST_LIB_CFLAGS:-}"
{
    for s in $MPIPROF_TEST_LIB_SOURCES; do echo "$top_srcdir/$s"; done
    for s in $MPIPROF_TEST_LIB_GENERATED; do echo "$top_builddir/$s"; done
} >sources
# one source per call: compile.sh SOURCE
cat >compile.sh <<EOF
exec $cc $(echo "$flags" | tr '\n' ' ') -c "\$1" -o "obj/\$(echo "\$1" | tr / _).o"
EOF
xargs -n 1 -P "$(nproc 2>/dev/null || echo 2)" sh compile.sh <sources || {
    echo "compiling the library with -fsanitize=thread failed"
    exit 1
}
# shellcheck disable=SC2086  # the libraries are several words
"$cc" -shared -fsanitize=thread -o libmpiprof.so.tmp obj/*.o ${MPIPROF_TEST_LIB_LIBS:-} -lpthread -lm || {
    echo "linking the ThreadSanitizer libmpiprof.so failed"
    exit 1
}
rm -rf obj probe probe.c compile.sh
# last, so that a library present is a whole one
mv libmpiprof.so.tmp libmpiprof.so
echo "ThreadSanitizer library: $(wc -l <sources) sources in $(($(date +%s) - start)) s"
