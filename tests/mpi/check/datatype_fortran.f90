! A Fortran INTEGER sent and a REAL received (test_check_p2p.sh): through
! the `use mpi` bindings (scenario fortran-datatype) the message checks see
! both calls, a wrong-datatype at the receive with the send as the other
! side; through mpi_f08, datatype_fortran_f08.f90.
program datatype_fortran
  use mpi
  implicit none
  integer :: ierr, rank, ibuf(4), st(MPI_STATUS_SIZE)
  real :: rbuf(4)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) then
    ibuf = 7
    call MPI_Send(ibuf, 4, MPI_INTEGER, 1, 0, MPI_COMM_WORLD, ierr) ! /* label int-send */
  else
    call MPI_Recv(rbuf, 4, MPI_REAL, 0, 0, MPI_COMM_WORLD, st, ierr) ! /* expect fortran-datatype: wrong-datatype ranks=1 other=int-send */
  end if
  print '(a,i0)', 'rank done: ', rank
  call MPI_Finalize(ierr)
end program
