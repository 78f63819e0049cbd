#!/bin/sh
# check_p2p: messages whose receive disagrees with their send (between.c),
# each finding at the receive's call with the send's call as the other
# side: a truncation MPI returned (MPI_ERRORS_RETURN; one finding, not an
# mpi-error besides; also through MPI_Waitall), a shorter message
# (a warning, at MPIPROF_CHECK=full only), other types; a message no one
# received (at its send, reported by the process it was sent to), a
# receive pending at MPI_Finalize that no message could match, data that
# changed between the send and the receive (full,checksum).  A derived
# type of the receive's signature, and receives completed in the other
# order than posted, give nothing.  A Fortran INTEGER sent and a REAL
# received through `use mpi` is a wrong-datatype, and through mpi_f08 too
# (datatype_fortran_f08.f90: blocking and nonblocking, a collective's
# roots; the same calls done right give nothing), when there
# is a Fortran compiler.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
# shellcheck source=scenario.sh
. "$srcdir/scenario.sh"
need_var MPICC_PROF
# messages left unmatched on purpose: UCX would warn of them on stdout, at
# other addresses in each run
export UCX_LOG_LEVEL=error

cd "$tmp"
"$MPICC_PROF" -g -o between "$srcdir/between.c" || fail "compiling between.c with mpicc-prof"
for scenario in p2p-truncate p2p-truncate-waitall p2p-itruncate p2p-shorter p2p-datatype p2p-derived-ok p2p-persistent \
    unmatched-send pending-irecv; do
    run_scenario between "$srcdir/between.c" "$scenario"
done
run_scenario between "$srcdir/between.c" p2p-truncate-basic basic
# one finding for a truncation: MPI's MPI_ERR_TRUNCATE (MPI_ERR_IN_STATUS)
# is the wrong-send-size, not an mpi-error besides (test_check_errors.sh:
# an error the message checks do not report stays an mpi-error)
for f in p2p-truncate p2p-truncate-waitall p2p-itruncate p2p-truncate-basic; do
    ! grep -q '"mpi-error"' "$f.prof.json" || fail "$f: an mpi-error besides the wrong-send-size: $(grep -A3 mpi-error "$f.prof")"
done
# ... unless the send was not seen: then no record comes, and it is (at the end)
run_scenario between "$srcdir/between.c" p2p-truncate-unseen
run_scenario between "$srcdir/between.c" p2p-shorter-basic basic
run_scenario between "$srcdir/between.c" checksum full,checksum

if [ "${MPIFORT:-no}" != no ] && [ -n "${MPIFORT_PROF:-}" ] && command -v "$MPIFORT" >/dev/null 2>&1 &&
    "$MPIFORT_PROF" -g -O0 -o datatype_fortran "$srcdir/datatype_fortran.f90" >f90.log 2>&1; then
    run_scenario datatype_fortran "$srcdir/datatype_fortran.f90" fortran-datatype
    if "$MPIFORT_PROF" -g -O0 -o datatype_fortran_f08 "$srcdir/datatype_fortran_f08.f90" >f08.log 2>&1; then
        for scenario in f08-datatype f08-nonblock f08-roots; do
            run_scenario datatype_fortran_f08 "$srcdir/datatype_fortran_f08.f90" "$scenario"
        done
        run_scenario datatype_fortran_f08 "$srcdir/datatype_fortran_f08.f90" f08-ok full,checksum
        ! grep -q "stopped reporting" f08-ok.prof || fail "f08-ok: the message checks stopped: $(grep -A2 'stopped' f08-ok.prof)"
    else
        echo "NOTE: no mpi_f08 program: $(cat f08.log)"
    fi
else
    echo "NOTE: no Fortran program (MPIFORT=${MPIFORT:-}): $(cat f90.log 2>/dev/null)"
fi
echo "PASS: check_p2p"
