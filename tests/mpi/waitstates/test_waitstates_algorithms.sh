#!/bin/sh
# shellcheck disable=SC2034,SC2154  # the lists of values are read, and set, through eval
# waitstates_algorithms: the profiler's own communication (the wait-state
# analyses') must not depend on MPICH's collective algorithms.  An intercommunicator
# program (waitstates_algorithms.c: MPI_Intercomm_create, messages,
# MPI_Barrier/MPI_Bcast/MPI_Allgather on it, MPI_Intercomm_merge,
# MPI_Allreduce on the merged communicator and MPI_COMM_WORLD, frees) runs with MPICH's
# reduce, ireduce and allreduce algorithms, intra and inter, forced by their
# MPIR_CVAR_*_ALGORITHM variables to every value MPICH 4.0.2 accepts
# (`mpivars` lists them; each listed here must appear there), without and
# with the profiler (wait-state analyses on): both must exit 0 and print the
# same results, and every protocol must hold its invariants and count the
# program's calls on the intercommunicator.
#
# Configurations (few operations per run, many runs): in 11 of them the
# blocking algorithms are "nb" (they run the nonblocking ones) and each
# nonblocking variable takes its values in turn; in 5 the nonblocking ones
# are "auto" and each blocking variable takes its values in turn.  So every
# value of every variable runs, and every nonblocking value runs under the
# blocking calls too (MPICH 4.0.2 asserted in ireduce_tsp_tree.c inside the
# profiler's MPI_Allreduce on a new intercommunicator with
# REDUCE_INTRA=nb IREDUCE_INTRA=tsp_tree).  One kind of combination is left
# out: a blocking variable at "nb" with its nonblocking one at "sched_auto"
# fails in MPICH 4.0.2 itself on any communicator (mpir_coll.c:4826, the
# program without the profiler); a nonblocking "sched_auto" runs with its
# blocking variable at "auto", which programs that call no nonblocking
# reduction survive (the profiler must not make one).
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPICC_PROF
need_var MPICC

if ! command -v mpivars >/dev/null 2>&1 || ! mpivars 2>/dev/null | grep -q MPIR_CVAR_IREDUCE_INTRA_ALGORITHM; then
    skip "not MPICH (no mpivars listing MPIR_CVAR_IREDUCE_INTRA_ALGORITHM): its algorithm variables do not apply"
fi

# The values MPICH 4.0.2 accepts ("auto" first).
REDUCE_INTRA="auto binomial nb smp reduce_scatter_gather"
REDUCE_INTER="auto local_reduce_remote_send nb"
ALLREDUCE_INTRA="auto nb smp recursive_doubling reduce_scatter_allgather"
ALLREDUCE_INTER="auto nb reduce_exchange_bcast"
IREDUCE_INTRA="auto sched_auto sched_smp sched_binomial sched_reduce_scatter_gather tsp_tree tsp_ring"
IREDUCE_INTER="auto sched_auto sched_local_reduce_remote_send"
IALLREDUCE_INTRA="auto sched_auto sched_naive sched_smp sched_recursive_doubling sched_reduce_scatter_allgather
    tsp_recexch_single_buffer tsp_recexch_multiple_buffer tsp_tree tsp_ring
    tsp_recexch_reduce_scatter_recexch_allgatherv"
IALLREDUCE_INTER="auto sched_auto sched_remote_reduce_local_bcast"
VARIABLES="REDUCE_INTRA REDUCE_INTER ALLREDUCE_INTRA ALLREDUCE_INTER IREDUCE_INTRA IREDUCE_INTER
    IALLREDUCE_INTRA IALLREDUCE_INTER"

mpivars >"$tmp/mpivars" 2>&1 || true
for var in $VARIABLES; do
    line=$(grep "MPIR_CVAR_${var}_ALGORITHM[ =]" "$tmp/mpivars" | head -n 1)
    [ -n "$line" ] || fail "mpivars does not list MPIR_CVAR_${var}_ALGORITHM"
    eval "values=\$$var"
    for value in $values; do
        case "$line" in
            *"$value "*) ;;
            *) fail "mpivars does not list the value $value of MPIR_CVAR_${var}_ALGORITHM: $line" ;;
        esac
    done
done

# The n-th value (from 0, cycling) of a list.
nth() {
    # shellcheck disable=SC2086  # a list of words
    set -- $1 "$2"
    eval "_k=\${$#}"
    _n=$(($# - 1))
    _i=$((_k % _n + 1))
    eval "echo \${$_i}"
}

cd "$tmp"
"$MPICC" -o plain "$srcdir/waitstates_algorithms.c" || fail "compiling waitstates_algorithms.c with mpicc"
"$MPICC_PROF" -o profiled "$srcdir/waitstates_algorithms.c" || fail "compiling waitstates_algorithms.c with mpicc-prof"

configs=
for i in 0 1 2 3 4 5 6 7 8 9 10; do
    c="REDUCE_INTRA=nb REDUCE_INTER=nb ALLREDUCE_INTRA=nb ALLREDUCE_INTER=nb"
    for var in IREDUCE_INTRA IREDUCE_INTER IALLREDUCE_INTRA IALLREDUCE_INTER; do
        eval "values=\$$var"
        c="$c $var=$(nth "$values" "$i")"
    done
    # MPICH 4.0.2 asserts when "nb" forwards to a forced "sched_auto"
    for var in REDUCE_INTRA REDUCE_INTER ALLREDUCE_INTRA ALLREDUCE_INTER; do
        case " $c " in
            *" I$var=sched_auto "*) c=$(echo " $c" | sed "s/ $var=nb/ $var=auto/; s/^ //") ;;
        esac
    done
    configs="$configs${configs:+;}$c"
done
for i in 0 1 2 3 4; do
    c=
    for var in REDUCE_INTRA REDUCE_INTER ALLREDUCE_INTRA ALLREDUCE_INTER; do
        eval "values=\$$var"
        c="$c${c:+ }$var=$(nth "$values" "$i")"
    done
    configs="$configs;$c IREDUCE_INTRA=auto IREDUCE_INTER=auto IALLREDUCE_INTRA=auto IALLREDUCE_INTER=auto"
done

# Run one configuration: run NAME PROGRAM CONFIG [ENV...]; stdout in
# NAME.out, sorted; returns 1 (saying why) when it does not exit 0 within
# 60 s.
run() {
    _name=$1 _prog=$2 _config=$3
    shift 3
    for _kv in $_config; do
        set -- "$@" "MPIR_CVAR_${_kv%%=*}_ALGORITHM=${_kv#*=}"
    done
    _status=0
    timeout -k 5 60 env "$@" "$MPIEXEC" -n 2 "./$_prog" >"$_name.raw" 2>"$_name.err" || _status=$?
    sort "$_name.raw" >"$_name.out"
    if [ "$_status" -ne 0 ]; then
        echo "---- $_prog with $_config: exit status $_status (124: did not finish within 60 s)" >&2
        grep -m 3 -iE 'assert|error' "$_name.err" >&2 || tail -n 3 "$_name.err" >&2
        return 1
    fi
}

# Every configuration runs; the failures are listed at the end.
n=0
failed=
protocols=
old_ifs=$IFS
IFS=';'
set -f
for config in $configs; do
    IFS=$old_ifs
    n=$((n + 1))
    why=
    if ! run "plain$n" plain "$config"; then
        why="fails without the profiler"
    elif [ "$(grep -c '^rank=' "plain$n.out")" -ne 2 ]; then
        why="2 result lines expected without the profiler"
    elif ! run "prof$n" profiled "$config" MPIPROF_OUTPUT="$tmp/prot$n.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1; then
        why="fails with the profiler"
    elif ! cmp -s "plain$n.out" "prof$n.out"; then
        why="different results with the profiler: $(cat "plain$n.out" "prof$n.out")"
    elif [ -s "prof$n.err" ]; then
        why="output on stderr with MPIPROF_QUIET=1: $(cat "prof$n.err")"
    else
        check_text_protocol "prot$n.txt"
        protocols="$protocols $tmp/prot$n.txt"
    fi
    if [ -n "$why" ]; then
        echo "FAILED $n: $config: $why"
        failed="$failed $n"
    else
        echo "ok $n: $config"
    fi
    IFS=';'
done
IFS=$old_ifs
set +f
[ -z "$failed" ] || fail "configurations$failed of $n failed (see above)"

# shellcheck disable=SC2086  # a list of paths
"$PYTHON3" "$srcdir/check_waitstates_algorithms.py" "${schema:--}" $protocols \
    || fail "protocol check failed (see above)"
echo "PASS: waitstates_algorithms ($n configurations, with and without the profiler)"
