#!/bin/sh
# output_name: without MPIPROF_OUTPUT the protocol gets a default name in the
# working directory that contains the program name and the process count
# ("2p"); rank 0 (only) prints its path on stderr; and two runs in a row never
# overwrite each other's protocol.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF

mkdir "$tmp/bin" "$tmp/run"
"$MPICC_PROF" -o "$tmp/bin/output_name" "$srcdir/output_name.c" || fail "compiling output_name.c with mpicc-prof"
cd "$tmp/run"

# list_dir FILE: the names in the working directory, sorted, into FILE.
list_dir() {
    find . -mindepth 1 -maxdepth 1 | sed 's|^\./||' | LC_ALL=C sort >"$1"
}

list_dir ../list0
for run in 1 2; do
    mpirun_2 "../out$run" "../err$run" "$tmp/bin/output_name"
    grep -q '^output_name: rank sum 1$' "../out$run" || fail "run $run: wrong program output: $(cat "../out$run")"
    list_dir "../list$run"
    # The files this run added.
    LC_ALL=C comm -13 "../list$((run - 1))" "../list$run" >"../new$run"
    if [ ! -s "../new$run" ]; then
        # shellcheck disable=SC2154  # name1 is set by eval below
        if [ "$run" = 2 ] && ! cmp -s "$name1" ../saved1; then
            fail "run 2 overwrote the protocol '$name1' of run 1"
        fi
        fail "run $run wrote no protocol in the working directory"
    fi
    # The text protocol (the default format) among them.
    grep -v -e '\.json$' -e '\.partial\.' -e '\.hang\.' "../new$run" >"../text$run" || true
    [ "$(wc -l <"../text$run")" -eq 1 ] || fail "run $run wrote not exactly one text protocol: $(cat "../new$run")"
    name=$(cat "../text$run")
    case "$name" in
        *output_name*) ;;
        *) fail "run $run: protocol name '$name' does not contain the program name 'output_name'" ;;
    esac
    case "$name" in
        *[!0-9]2p[!0-9A-Za-z]*) ;;
        *) fail "run $run: protocol name '$name' does not contain the process count '2p'" ;;
    esac
    grep -q 'whole program' "$name" || fail "run $run: '$name' is not a protocol"
    # rank 0 prints the path once (rank 1 does not).
    n=$(grep -cF -- "$name" "../err$run" || true)
    [ "$n" -eq 1 ] || fail "run $run: stderr has $n lines with the protocol name '$name', expected 1:
$(cat "../err$run")"
    cp "$name" "../saved$run"
    eval "name$run=\$name"
done

# shellcheck disable=SC2154  # name2 is set by eval above
[ "$name1" != "$name2" ] || fail "both runs used the protocol name '$name1'"
[ -f "$name1" ] || fail "the protocol '$name1' of run 1 disappeared after run 2"
cmp -s "$name1" ../saved1 || fail "run 2 overwrote the protocol '$name1' of run 1"
echo "PASS: output_name (protocols '$name1' and '$name2')"
