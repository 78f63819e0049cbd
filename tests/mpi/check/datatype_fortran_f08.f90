! The same misuse as datatype_fortran.f90 through mpi_f08 (scenario
! f08-datatype): the message checks do not follow these bindings; no
! finding, and Warnings say that they stopped (test_check_p2p.sh).
program datatype_fortran_f08
  use mpi_f08
  implicit none
  integer :: rank, ibuf(4)
  real :: rbuf(4)
  type(MPI_Status) :: st
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  if (rank == 0) then
    ibuf = 7
    call MPI_Send(ibuf, 4, MPI_INTEGER, 1, 0, MPI_COMM_WORLD)
  else
    call MPI_Recv(rbuf, 4, MPI_REAL, 0, 0, MPI_COMM_WORLD, st)
  end if
  print '(a,i0)', 'rank done: ', rank
  call MPI_Finalize()
end program
