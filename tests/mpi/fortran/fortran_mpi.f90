! fortran_mpi: known MPI calls through the Fortran 'use mpi' bindings, for
! tests/mpi/fortran/test_fortran_mpi.sh (fortran_f08.f90 is the same with mpi_f08).
!
!   100 x MPI_Allreduce of 4 integers, every process, from one line;
!    50 x MPI_Send of 8 integers from rank 0 to rank 1, from one line;
!    50 x MPI_Recv of 8 integers on rank 1, from one line.
!
! The test finds the lines by their MARK: comments (keep each marked call on
! one line).  Results are verified.  Run with exactly 2 processes.
program fortran_mpi
  use mpi
  implicit none
  integer, parameter :: n_allreduce = 100, n_sendrecv = 50
  integer :: ierr, rank, nprocs, i, errors
  integer :: sbuf(4), rbuf(4), msg(8)
  integer :: status(MPI_STATUS_SIZE)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs /= 2) then
     if (rank == 0) write (*, '(a,i0)') 'fortran_mpi: run with 2 processes, not ', nprocs
     call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  errors = 0

  do i = 1, n_allreduce
     sbuf = rank + i
     call MPI_Allreduce(sbuf, rbuf, 4, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr) ! MARK:allreduce
     if (any(rbuf /= 2 * i + 1)) errors = errors + 1
  end do

  do i = 1, n_sendrecv
     if (rank == 0) then
        msg = i
        call MPI_Send(msg, 8, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, ierr) ! MARK:send
     else
        call MPI_Recv(msg, 8, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, status, ierr) ! MARK:recv
        if (any(msg /= i)) errors = errors + 1
     end if
  end do

  if (errors /= 0) then
     write (*, '(a,i0,a,i0,a)') 'fortran_mpi: rank ', rank, ': ', errors, ' wrong results'
  else if (rank == 0) then
     write (*, '(a)') 'fortran_mpi: ok'
  end if
  call MPI_Finalize(ierr)
  if (errors /= 0) stop 1
end program fortran_mpi
