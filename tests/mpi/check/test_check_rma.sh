#!/bin/sh
# check_rma: one-sided communication (rma.c).  rma-epoch at
# MPIPROF_CHECK=basic: an operation with no access epoch open to its target
# (none yet, after a fence with MPI_MODE_NOSUCCEED, after MPI_Win_complete,
# a lock of another target), an epoch closed that was never opened (unlock,
# unlock_all, complete, wait), a flush outside a passive-target epoch, a
# window freed with a lock held (the lock named), MPI_Finalize with
# lock_all's epoch open; legal-rma, every kind of epoch used correctly
# (fence, PSCW with wait and test, lock, lock_all, flushes, request forms,
# dynamic, shared and allocated windows), none at full.  Exactly the
# findings rma.c marks, the same output and status as without the profiler.
# rma-conflict at full: below.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF

cd "$tmp"
"$MPICC_PROF" -g -o rma "$srcdir/rma.c" 2>cc.err || fail "compiling rma.c: $(cat cc.err)"
for s in put-no-epoch get-after-nosucceed acc-after-complete put-other-lock unlock-no-lock unlock-all-no-lock-all \
    complete-no-start wait-no-post flush-no-lock free-locked finalize-locked; do
    run_scenario rma "$srcdir/rma.c" "$s" basic
done
# rma-conflict at full: a receive into a pending Put's origin buffer, a Get
# into it, a Fetch_and_op's result into a pending Rput's; none for a buffer
# used again after its flush, fence, request's wait or epoch
for s in recv-into-put-origin get-into-put-origin rput-origin-reused; do
    run_scenario rma "$srcdir/rma.c" "$s" full
done
# rma-conflict between origins at full: both processes put to the same
# bytes of rank 0's window in one fence epoch, or one gets what the other
# puts, or both put strided datatypes that share one int, or both put in
# one exposure epoch of rank 0 (MPI_Win_post)
# (legal-rma: gets together, accumulates together, strided puts between
# each other's bytes, other fence or exposure epochs, a lock: none)
for s in put-put-origins get-put-origins strided-origins pscw-origins; do
    run_scenario rma "$srcdir/rma.c" "$s" full
done
run_scenario rma "$srcdir/rma.c" legal-rma basic
run_scenario rma "$srcdir/rma.c" legal-rma full
echo "PASS: check_rma"
