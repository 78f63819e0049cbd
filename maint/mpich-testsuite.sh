#!/bin/bash
# Runs MPICH's own test suite (test/mpi) once without and once with
# libmpiprof.so preloaded, compares the runs test by test and checks every
# protocol written.  A developer's tool, not part of CI: see maint/README.md.
#
#   maint/mpich-testsuite.sh --mpich GITDIR|TREE [--tag v4.0.2] [options]
#
# Exit status: 0 when no test regressed, every protocol holds its invariants
# and the profiler printed nothing under MPIPROF_QUIET=1; 1 otherwise; 2 on a
# usage or setup error.
set -eu

self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
here=$(dirname "$self")
top=$(dirname "$here")

die() { echo "mpich-testsuite: $*" >&2; exit 2; }
say() { echo "== $(date +%H:%M:%S) $*" >&2; }

# --------------------------------------------------------------------------
# Wrapper mode: runtests calls "$self --mpiexec-wrapper -n NP ./prog args"
# for each test (its -mpiexec=), in the test's build directory.  It times the
# run, keeps the output, enforces a hard timeout behind hydra's own
# (MPIEXEC_TIMEOUT, which runtests sets per test) and, in the profiled run,
# hands the profiler's settings to the MPI processes alone (-genv: mpiexec and
# its proxies are not profiled).
if [ "${1:-}" = "--mpiexec-wrapper" ]; then
    shift
    rundir=$MPIPROF_SUITE_RUNDIR
    seq=$(( $(cat "$rundir/seq" 2>/dev/null || echo 0) + 1 ))
    echo "$seq" > "$rundir/seq"
    np='?'; prog='?'
    prev=
    for a in "$@"; do
        [ "$prev" = -n ] && np=$a
        case $a in ./*) prog=${a#./}; break ;; esac
        prev=$a
    done
    case $PWD in
        "$MPIPROF_SUITE_BUILD") rel=. ;;
        *) rel=./${PWD#"$MPIPROF_SUITE_BUILD"/} ;;
    esac
    flat=$(printf '%s' "${rel#./}" | tr '/' '_')
    id=$(printf '%05d-%s-%s-np%s' "$seq" "$flat" "$prog" "$np")
    genv=()
    if [ "$MPIPROF_SUITE_MODE" = profiled ]; then
        genv=(-genv LD_PRELOAD "$MPIPROF_SUITE_LIB" -genv MPIPROF_QUIET 1
              -genv MPIPROF_FORMAT both
              -genv MPIPROF_OUTPUT "$rundir/prot/$id.prof")
        # --env VAR=VALUE settings, one a line
        while IFS= read -r kv; do
            [ -n "$kv" ] && genv+=(-genv "${kv%%=*}" "${kv#*=}")
        done < "$rundir/extra-env"
    fi
    limit=${MPIEXEC_TIMEOUT:-180}
    limit=${limit%.*}
    # A test that timed out without the profiler cannot regress with it:
    # it gets the unprofiled run's limit, not a longer one.  The two runs
    # go through the same lists, so run N of one is run N of the other.
    if [ "$MPIPROF_SUITE_MODE" = profiled ]; then
        b=$(awk -F'\t' -v n="$seq" -v r="$rel" -v p="$prog" -v c="$np" \
            '$1 == n && $2 == r && $3 == p && $4 == c && $8 == 1 { print $7 }' \
            "$rundir/../run-baseline/runs.tsv" 2>/dev/null || true)
        if [ -n "$b" ]; then
            limit=$b
            export MPIEXEC_TIMEOUT=$b
        fi
    fi
    out=$rundir/out/$id.out
    t0=$(date +%s.%N)
    rc=0
    # hydra ends a job at MPIEXEC_TIMEOUT; timeout(1) catches a hydra that
    # does not (a process stuck in a signal handler, a hung proxy)
    timeout -k 15 $((limit + 60)) "$MPIPROF_SUITE_MPIEXEC" \
        ${genv[@]+"${genv[@]}"} "$@" > "$out" 2>&1 < /dev/null || rc=$?
    t1=$(date +%s.%N)
    timed_out=0
    if [ "$rc" = 124 ] || [ "$rc" = 137 ] ||
       grep -q 'APPLICATION TIMED OUT' "$out"; then
        timed_out=1
    fi
    # one line per run: the report script joins it with runtests' verdict
    secs=$(awk "BEGIN { printf \"%.2f\", $t1 - $t0 }")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$seq" "$rel" "$prog" \
        "$np" "$rc" "$secs" "$limit" "$timed_out" "$id" >> "$rundir/runs.tsv"
    cat "$out"
    exit "$rc"
fi

# --------------------------------------------------------------------------
usage() {
    sed -n '2,11p' "$self" | sed 's/^# \{0,1\}//'
    cat <<'EOF'
Options:
  --mpich PATH       MPICH's sources: a git dir (bare or not; with --tag), an
                     unpacked MPICH source tree, or its test/mpi directory
  --tag TAG          the tag or commit to take from a git dir (v4.0.2)
  --workdir DIR      where everything is built and run
                     (${TMPDIR:-/tmp}/mpiprof-mpich-suite)
  --lib PATH         the profiler to test ($top/.libs/libmpiprof.so)
  --only REGEX       only tests whose dir/name matches (e.g. init/, coll/op)
  --skip-build       reuse the work dir's configured and built suite
  --baseline-only    run without the profiler only
  --profiled-only    run with the profiler only (compares with the work
                     dir's last baseline run, if any)
  --env VAR=VALUE    an extra setting for the profiled run (repeatable)
  --timeout SEC      MPICH's default per-test limit (180), scaled by each
                     test's timeLimit=
  --profiled-factor N  limits of the profiled run are N times longer (3)
  --maxnp N          largest process count run (2); a test listed for more
                     runs with N, as with runtests -maxnp
  --no-cap           leave such tests out instead
  --configure-args S extra options for test/mpi's configure
  --report FILE      also copy the text report there
  --recheck N        run each regression N times more without the profiler
                     (5; 0: none): one that fails then is listed apart,
                     not counted
EOF
}

mpich=""; tag=v4.0.2; workdir=${TMPDIR:-/tmp}/mpiprof-mpich-suite
lib=$top/.libs/libmpiprof.so; only=""; skip_build=0; runs="baseline profiled"
timeout_s=180; factor=3; maxnp=2; no_cap=; configure_args=""; report_copy=""
recheck=5
extra_env=()
while [ $# -gt 0 ]; do
    case $1 in
        --mpich) mpich=${2:?}; shift ;;
        --tag) tag=${2:?}; shift ;;
        --workdir) workdir=${2:?}; shift ;;
        --lib) lib=${2:?}; shift ;;
        --only) only=${2:?}; shift ;;
        --skip-build) skip_build=1 ;;
        --baseline-only) runs=baseline ;;
        --profiled-only) runs=profiled ;;
        --env) case ${2:?} in *=*) extra_env+=("$2") ;;
                   *) die "--env wants VAR=VALUE, not '$2'" ;; esac; shift ;;
        --timeout) timeout_s=${2:?}; shift ;;
        --profiled-factor) factor=${2:?}; shift ;;
        --maxnp) maxnp=${2:?}; shift ;;
        --no-cap) no_cap=--no-cap ;;
        --configure-args) configure_args=${2:?}; shift ;;
        --report) report_copy=${2:?}; shift ;;
        --recheck) recheck=${2:?}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option '$1'" ;;
    esac
    shift
done

command -v mpiexec > /dev/null || die "no mpiexec on PATH"
for t in perl timeout python3 git autoreconf make; do
    command -v "$t" > /dev/null || die "$t is needed"
done
mkdir -p "$workdir"
workdir=$(cd "$workdir" && pwd)
case $workdir/ in
    "$top"/*) die "the work dir must be outside the mpiprof tree ($top)" ;;
esac
case " $runs " in
    *" profiled "*)
        [ -r "$lib" ] || die "no profiler library at '$lib' (--lib)"
        lib=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib") ;;
esac
src=$workdir/src/test/mpi
build=$workdir/build
# the settings of the profiled run are ours alone: none leak in from outside
for v in $(env | sed -n 's/^\(MPIPROF_[A-Za-z0-9_]*\)=.*/\1/p'); do
    unset "$v"
done

# --------------------------------------------------------------------------
# Sources: a copy of test/mpi in the work dir, bootstrapped the way MPICH's
# top-level autogen.sh does it for test/mpi (it is written nowhere else).
extract_sources() {
    [ -n "$mpich" ] || die "--mpich PATH is needed (no prepared work dir)"
    rm -rf "$workdir/src"
    mkdir -p "$workdir/src"
    if git --git-dir="$mpich" rev-parse -q --verify "$tag^{commit}" \
            > /dev/null 2>&1 ||
       git --git-dir="$mpich/.git" rev-parse -q --verify "$tag^{commit}" \
            > /dev/null 2>&1; then
        gd=$mpich; [ -d "$mpich/.git" ] && gd=$mpich/.git
        say "extracting test/mpi of $tag from $mpich"
        git --git-dir="$gd" archive "$tag" test/mpi confdb maint/version.m4 \
            src/binding/mpix.txt | tar -x -C "$workdir/src"
    elif [ -f "$mpich/test/mpi/runtests.in" ]; then
        say "copying test/mpi of the MPICH tree $mpich"
        mkdir -p "$workdir/src/test" "$workdir/src/maint" \
            "$workdir/src/src/binding"
        cp -R "$mpich/test/mpi" "$workdir/src/test/mpi"
        cp -R "$mpich/confdb" "$workdir/src/confdb"
        cp "$mpich/maint/version.m4" "$workdir/src/maint/"
        cp "$mpich/src/binding/mpix.txt" "$workdir/src/src/binding/"
    elif [ -f "$mpich/runtests.in" ]; then
        say "copying the test/mpi directory $mpich"
        mkdir -p "$workdir/src/test"
        cp -R "$mpich" "$src"
        # a test/mpi inside an MPICH tree finds what it lacks two levels up
        up=$mpich/../..
        for f in confdb maint/version.m4 src/binding/mpix.txt; do
            [ -e "$up/$f" ] || continue
            mkdir -p "$workdir/src/$(dirname "$f")"
            cp -R "$up/$f" "$workdir/src/$f"
        done
    else
        die "'$mpich' is no git dir with $tag, MPICH tree or test/mpi dir"
    fi
}

bootstrap_sources() {
    local s=$workdir/src
    # confdb (autoconf macros shared by MPICH's packages) and version.m4
    for d in "$src/confdb" "$src/dtpools/confdb"; do
        if [ ! -f "$d/aclocal_cc.m4" ]; then
            [ -d "$s/confdb" ] || die "MPICH's confdb is missing"
            rm -rf "$d"; cp -R "$s/confdb" "$d"
        fi
    done
    [ -f "$src/version.m4" ] || cp "$s/maint/version.m4" "$src/version.m4" ||
        die "MPICH's maint/version.m4 is missing"
    # include/mtest_mpix.h: MPICH's binding generator (maint/gen_binding_c.py)
    # writes it, mapping the MPI_ names of src/binding/mpix.txt to MPIX_
    if [ ! -f "$src/include/mtest_mpix.h" ]; then
        [ -f "$s/src/binding/mpix.txt" ] || die "src/binding/mpix.txt missing"
        awk 'BEGIN { print "#ifndef MTEST_MPIX_H_INCLUDED"
                     print "#define MTEST_MPIX_H_INCLUDED" }
             /^MPI_[A-Za-z0-9_]+/ { n = $1; sub(/[^A-Za-z0-9_].*/, "", n)
                 x = n; sub(/^MPI_/, "MPIX_", x); print "#define " n " " x }
             END { print "#endif" }' "$s/src/binding/mpix.txt" \
            > "$src/include/mtest_mpix.h"
    fi
    # The Fortran 2008 tests are configured only inside an MPICH build
    # (FROM_MPICH=yes, a FIXME in configure.ac); the installed MPICH has
    # mpi_f08, so the test that its compiler passes is enough here.
    # shellcheck disable=SC2016  # configure.ac's text, not ours to expand
    sed -i 's/\(if test "$enable_f08" = "yes"\) -a "$FROM_MPICH" = "yes"/\1/' \
        "$src/configure.ac"
    say "bootstrapping test/mpi (f77 -> f90 tests, autoreconf)"
    (cd "$src" && ./autogen.sh && autoreconf -if) \
        > "$workdir/autogen.log" 2>&1 ||
        die "bootstrap failed, see $workdir/autogen.log"
}

# Configure options: the C, C++, Fortran 77/90/2008, thread, RMA, I/O and
# error tests; not spawn: MPI_Comm_spawn fails in Debian's MPICH 4.0.2
# (ch4:ucx, hydra) with "Error in spawn call" even without the profiler.
configure_suite() {
    rm -rf "$build"; mkdir -p "$build"
    say "configuring in $build"
    # shellcheck disable=SC2086  # configure_args is a list of options
    (cd "$build" && "$src/configure" --enable-threads=multiple \
        --enable-fortran=all --disable-spawn $configure_args) \
        > "$workdir/configure.log" 2>&1 ||
        die "configure failed, see $workdir/configure.log"
}

build_suite() {
    if [ -n "$only" ]; then # the chosen tests' programs are built when chosen (--make below)
        say "building the suite's libraries (util, dtpools) for the tests of --only"
        for d in util dtpools; do
            [ ! -d "$build/$d" ] || (cd "$build/$d" && make -k -j2) >> "$workdir/make.log" 2>&1 || true
        done
        return
    fi
    say "building (make -k; a test that does not build is left out)"
    (cd "$build" && make -k -j2) > "$workdir/make.log" 2>&1 || true
    # f08 is in no SUBDIRS (runtests builds it on demand): build it too
    if grep -q '^f08' "$build/testlist"; then
        (cd "$build/f08" && make -k -j2) >> "$workdir/make.log" 2>&1 || true
    fi
}

if [ "$skip_build" = 0 ]; then
    extract_sources
    bootstrap_sources
    configure_suite
    build_suite
else
    [ -x "$build/runtests" ] ||
        die "no built suite in $workdir: drop --skip-build"
fi

say "choosing the tests"
python3 "$here/mpich_testsuite_select.py" --build "$build" --srcdir "$src" \
    --out "$workdir/tests.json" --maxnp "$maxnp" ${no_cap:+"$no_cap"} \
    --only "$only" --make ||
    die "no test chosen"

# --------------------------------------------------------------------------
run_suite() {
    local mode=$1 mult=1 rundir=$workdir/run-$1
    [ "$mode" = profiled ] && mult=$factor
    rm -rf "$rundir"
    mkdir -p "$rundir/out" "$rundir/prot"
    : > "$rundir/runs.tsv"
    printf '%s\n' ${extra_env[@]+"${extra_env[@]}"} > "$rundir/extra-env"
    [ "$mode" = profiled ] || : > "$rundir/extra-env"
    say "running the suite $mode (log: $rundir/runtests.log)"
    local t0 t1
    t0=$(date +%s)
    (cd "$build" &&
     MPIPROF_SUITE_RUNDIR=$rundir MPIPROF_SUITE_BUILD=$build \
     MPIPROF_SUITE_MODE=$mode MPIPROF_SUITE_LIB=$lib \
     MPIPROF_SUITE_MPIEXEC=$(command -v mpiexec) \
     MPITEST_TIMEOUT=$timeout_s MPITEST_TIMEOUT_MULTIPLIER=$mult \
     MPITEST_STOPTEST=$rundir/stoptest \
     ./runtests -srcdir="$src" -tests=testlist.mpiprof \
        -mpiexec="$self --mpiexec-wrapper" \
        -junitfile="$rundir/junit.xml" -xmlfile="$rundir/summary.xml") \
        > "$rundir/runtests.log" 2>&1 || true
    t1=$(date +%s)
    echo $((t1 - t0)) > "$rundir/walltime"
    say "$mode run: $((t1 - t0)) s, $(wc -l < "$rundir/runs.tsv") test runs"
}

for mode in $runs; do
    run_suite "$mode"
done

say "comparing and checking protocols"
rc=0
PYTHONPATH="$top/tests/mpi/lib${PYTHONPATH:+:$PYTHONPATH}" \
    python3 "$here/mpich_testsuite_report.py" --workdir "$workdir" \
    --schema "$top/schema/mpiprof-protocol.schema.json" --lib "$lib" \
    --out "$workdir/report.txt" --recheck "$recheck" || rc=$?
[ -n "$report_copy" ] && cp "$workdir/report.txt" "$report_copy"
say "report: $workdir/report.txt (and report.json)"
exit "$rc"
