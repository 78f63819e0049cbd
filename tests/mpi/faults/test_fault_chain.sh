#!/bin/sh
# fault_chain: faults.c with its own SIGSEGV and SIGTERM handlers, installed
# before MPI_Init (each appends "handler SIGNAL RANK" to a file, then dies
# of the signal).  mpiprof's handler comes first, writes the partial
# protocol and calls the program's (the MPI library's, UCX's for SIGSEGV,
# sits between them and calls the program's too): the program's handler must
# still run, with and without the profiler, and the exit status be the same.
#   chain_segv  rank 1 dereferences a null pointer
#   chain_term  both ranks get SIGTERM while waiting in MPI_Recv
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=faults.sh
. "$srcdir/faults.sh"
[ "${MPIPROF_TEST_SANITIZERS:-no}" = yes ] && skip "AddressSanitizer installs its own fatal-signal handlers over the program's; handler chaining runs in the plain build"

cd "$tmp"
build_faults
mkdir -p run
run_both chain_segv chain_segv
check_partials chain_segv chain_segv 1
# one line from the profiled run, one from the plain one
[ "$(grep -c '^handler 11 1$' run/handled)" -eq 2 ] || fail "chain_segv: the program's SIGSEGV handler did not run in both runs: $(cat run/handled)"
rm -f run/handled

# chain_term: like mode wait (faults.sh, killed_run), with the handlers
for variant in profiled plain; do
    rm -rf run && mkdir run
    if [ "$variant" = profiled ]; then
        set -- env "MPIPROF_OUTPUT=$tmp/chain_term" MPIPROF_FORMAT=both ./faults
    else
        set -- ./faults-plain
    fi
    "$MPIEXEC" -n 2 "$@" chain_term "$tmp/run" >"chain_term.$variant.out" 2>&1 &
    launcher=$!
    n=0
    until [ -s run/pid.0 ] && [ -s run/pid.1 ]; do
        n=$((n + 1))
        [ "$n" -lt 300 ] || { kill -KILL "$launcher"; fail "chain_term: the ranks did not start"; }
        sleep 0.1
    done
    sleep 0.3
    kill -TERM "$(cat run/pid.0)" "$(cat run/pid.1)"
    st=0
    wait "$launcher" || st=$?
    eval "status_$variant=$st"
    for r in 0 1; do
        grep -q "^handler 15 $r\$" run/handled || fail "chain_term ($variant): the program's SIGTERM handler did not run on rank $r: $(cat run/handled)"
    done
done
# shellcheck disable=SC2154 # set by eval
[ "$status_profiled" = "$status_plain" ] ||
    fail "chain_term: exit status $status_profiled profiled, $status_plain without; the profiled run's output: $(cat chain_term.profiled.out); without: $(cat chain_term.plain.out)"
cp chain_term.profiled.out chain_term.out
check_partials chain_term chain_term 0 1
echo "PASS: fault_chain"
