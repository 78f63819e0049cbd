#!/bin/sh
# Build mpiprof and run the whole test suite (unit tests, coverage and export
# checks, MPI integration tests, benchmark smoke test); then, unless
# MPIPROF_CI_SANITIZERS=0, the same suite on a second build with
# AddressSanitizer and UndefinedBehaviorSanitizer (configure
# --enable-sanitizers), made out of tree in build-sanitizers/ from a copy of
# the sources (make distdir: what a release tarball holds).  .ci/run runs
# this.  MPIPROF_CONFIGURE_FLAGS is passed to both configures.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
sh "$top/tools/build.sh"
cd "$top"
jobs=$(nproc)

# show_failures DIR: the log of every test under DIR (build-sanitizers/ apart)
# whose result is FAIL, ERROR or XPASS.
show_failures() {
    find "$1" -path "$1/build-sanitizers" -prune -o -name '*.trs' \
        -exec grep -lE '^:test-result: (FAIL|ERROR|XPASS)' {} + 2>/dev/null | while read -r trs; do
        echo "==== ${trs%.trs}.log"
        tail -n 80 "${trs%.trs}.log"
    done
}

status=0
make -j"$jobs" check || status=$?
[ "$status" -eq 0 ] || show_failures .

if [ "${MPIPROF_CI_SANITIZERS:-1}" != 0 ]; then
    echo "==== sanitizer build (MPIPROF_CI_SANITIZERS=0 skips it): build-sanitizers/"
    start=$(date +%s)
    san="$top/build-sanitizers"
    rm -rf "$san"
    mkdir -p "$san/build"
    sanitized=0
    # shellcheck disable=SC2086  # MPIPROF_CONFIGURE_FLAGS: several words
    make distdir distdir="$san/src" >"$san/distdir.log" 2>&1 &&
        (cd "$san/build" && ../src/configure --enable-sanitizers ${MPIPROF_CONFIGURE_FLAGS:-} >configure.log 2>&1 &&
            make -j"$jobs" >make.log 2>&1) || sanitized=$?
    if [ "$sanitized" -ne 0 ]; then
        echo "FAIL: the sanitizer build failed; the end of its logs:"
        for log in "$san/distdir.log" "$san/build/configure.log" "$san/build/make.log"; do
            [ -f "$log" ] && { echo "==== $log"; tail -n 40 "$log"; }
        done
    else
        (cd "$san/build" && make -j"$jobs" check) || sanitized=$?
        [ "$sanitized" -eq 0 ] || show_failures "$san/build"
    fi
    echo "==== sanitizer build and suite: $(($(date +%s) - start)) s"
    [ "$sanitized" -eq 0 ] || status=1
fi
exit "$status"
