#!/bin/sh
# machine: the protocol's Machine and Placement against what hwloc's own
# tools report for the same run.  Each rank records its binding with
# hwloc-bind --get before it starts the program (same process, exec'd);
# lstopo describes the node.  Runs:
#   bound            mpiexec -bind-to core, one rank per core (up to 2)
#   unbound          no binding option
#   oversubscribed   one rank more than the node has cores, unbound: the
#                    Placement warning (skipped on nodes of more than 7 cores)
#   shared           both ranks bound to the same PU (-bind-to user:0,0):
#                    the warning that ranks share a core
# Machine must list one node type with lstopo's CPU model, packages, cores,
# hardware threads, NUMA nodes, memory and cache sizes; Placement the rank
# bindings, in compact form; text = JSON; schema.  Built without hwloc: both
# say n/a with the reason, in the text, the JSON and the Warnings.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=context.sh
. "$srcdir/context.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -o context "$srcdir/context.c" || fail "compiling context.c with mpicc-prof"

if ! built_with hwloc; then
    mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./context
    check_text_protocol prot.txt
    check_context na prot.txt.json prot.txt "$schema" hwloc
    echo "PASS: machine (built without hwloc: Machine and Placement n/a)"
    exit 0
fi
for tool in lstopo-no-graphics hwloc-bind hwloc-calc; do
    command -v "$tool" >/dev/null 2>&1 || skip "hwloc's command-line tools are not installed ($tool missing; Debian package hwloc)"
done
lstopo-no-graphics --of xml - >lstopo.xml || fail "lstopo-no-graphics --of xml failed"
cores=$(hwloc-calc --number-of core all) || fail "hwloc-calc --number-of core all failed"

# run NAME N [MPIEXEC OPTIONS...]: the program on N ranks, each writing its
# binding to NAME/bind.RANK first; protocol NAME/prot.txt(.json).
run() {
    _name=$1
    _n=$2
    shift 2
    mkdir -p "$_name"
    # shellcheck disable=SC2016  # expanded by the ranks' shell
    if ! "$MPIEXEC" "$@" -n "$_n" env MPIPROF_OUTPUT="$tmp/$_name/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 \
        sh -c 'r=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:?no rank variable from mpiexec}}}
               hwloc-bind --get >"$1/bind.$r" && exec ./context' sh "$tmp/$_name" >"$_name/out" 2>"$_name/err"
    then
        cat "$_name/out" "$_name/err" >&2
        fail "run '$_name': '$MPIEXEC $* -n $_n ./context' did not exit 0"
    fi
    grep -q "^context: $_n processes" "$_name/out" || fail "run '$_name': the program's output is wrong: $(cat "$_name/out")"
    check_text_protocol "$_name/prot.txt"
    cp "$_name/prot.txt" prot.txt # shown on failure
}

# A binding option of this mpiexec (hydra: -bind-to, Open MPI: --bind-to), or nothing.
bind_option() {
    for _opt in -bind-to --bind-to; do
        if "$MPIEXEC" "$_opt" "$1" -n 1 true >/dev/null 2>&1; then
            echo "$_opt"
            return
        fi
    done
}

n=2
[ "$cores" -ge 2 ] || n=1
opt=$(bind_option core)
if [ -n "$opt" ]; then
    run bound "$n" "$opt" core
    check_context machine bound/prot.txt.json bound/prot.txt "$schema" lstopo.xml bound bound
else
    echo "NOTE: $MPIEXEC has no -bind-to core: the bound run is SKIPPED"
fi

run unbound "$n"
check_context machine unbound/prot.txt.json unbound/prot.txt "$schema" lstopo.xml unbound unbound

if [ "$cores" -le 7 ]; then
    run oversubscribed $((cores + 1))
    check_context machine oversubscribed/prot.txt.json oversubscribed/prot.txt "$schema" lstopo.xml oversubscribed oversubscribed
else
    echo "NOTE: $cores cores: the oversubscribed run ($((cores + 1)) ranks) is SKIPPED"
fi

opt=$(bind_option user:0,0)
if [ -n "$opt" ]; then
    run shared 2 "$opt" user:0,0
    check_context machine shared/prot.txt.json shared/prot.txt "$schema" lstopo.xml shared shared
else
    echo "NOTE: $MPIEXEC cannot bind ranks to a list of PUs (-bind-to user:0,0): the shared-core run is SKIPPED"
fi
echo "PASS: machine"
