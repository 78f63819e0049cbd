#!/bin/sh
# waitstates_f08: the wait states of a 'use mpi_f08' program, whose calls
# MPICH does not make through the C MPI_* functions.  Its point-to-point calls
# are analysed like C's: a late sender by 10 ms per message through MPI_Recv,
# MPI_Isend/MPI_Irecv + MPI_Wait, MPI_Waitall, MPI_Waitany, MPI_Waitsome
# (MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE among them), MPI_Testany and
# MPI_Improbe loops, persistent requests, MPI_Sendrecv, MPI_Probe + MPI_Recv,
# MPI_Mprobe + MPI_Mrecv; Real sync of each receiving SRC point within 15% of
# what the definition gives from the instants the program recorded, every
# message paired with its send, no warning that mpi_f08 calls are not
# analysed; a persistent collective's Potential sync at its MPI_Start.
# Skipped without a Fortran MPI compiler with mpi_f08.
set -eu
# shellcheck source=../lib/common.sh
. "${top_srcdir:?run through tests/mpi/lib/run-mpi-test}/tests/mpi/lib/common.sh"
need_var MPIFORT_PROF

if [ "${MPIFORT:-no}" = no ] || ! command -v "$MPIFORT" >/dev/null 2>&1; then
    skip "no Fortran MPI compiler (MPIFORT=${MPIFORT:-})"
fi

cd "$tmp"
cat >probe.f90 <<'EOP'
program probe
  use mpi_f08
  implicit none
  call MPI_Init()
  call MPI_Finalize()
end program probe
EOP
if ! "$MPIFORT" -o probe probe.f90 >probe.log 2>&1; then
    cat probe.log
    skip "$MPIFORT cannot compile a 'use mpi_f08' program"
fi

# Persistent collectives (MPI-4) are not in every MPI (Open MPI 4.1): the
# program leaves them out and the check does not look for them.
cat >probe_pcoll.f90 <<'EOP'
program probe_pcoll
  use mpi_f08
  implicit none
  integer :: a(1), b(1)
  type(MPI_Request) :: r
  call MPI_Allreduce_init(a, b, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, r)
end program probe_pcoll
EOP
pcoll=""
if ! "$MPIFORT" -o probe_pcoll probe_pcoll.f90 >probe_pcoll.log 2>&1; then
    pcoll=-DMPP_NO_PERSISTENT_COLLECTIVES
    MPIPROF_TEST_NO_PCOLL=1
    export MPIPROF_TEST_NO_PCOLL
    echo "NOTE: $MPIFORT has no MPI_Allreduce_init: the persistent collective is left out"
fi
# -O0 after the MPI wrapper's flags: each call keeps its own line; -cpp for
# the section above.
# shellcheck disable=SC2086  # $pcoll: none or one flag
"$MPIFORT_PROF" -O0 -cpp $pcoll -o waitstates_f08 "$srcdir/waitstates_f08.f90" \
    || fail "compiling waitstates_f08.f90 with mpifort-prof"
mpirun_2 out err env MPIPROF_OUTPUT="$tmp/prot.txt" MPIPROF_FORMAT=both MPIPROF_QUIET=1 ./waitstates_f08 "$tmp/events"
[ "$(grep -c '^rank=[01] waitsome_calls=' out)" -eq 2 ] || fail "the program did not print its measurements: $(cat out err)"
check_text_protocol prot.txt

# shellcheck disable=SC2086  # no schema: no argument
"$PYTHON3" "$srcdir/check_waitstates_f08.py" prot.txt.json prot.txt \
    "$srcdir/waitstates_f08.f90" out "$tmp/events" $schema \
    || fail "protocol check failed (see above)"
echo "PASS: waitstates_f08"
