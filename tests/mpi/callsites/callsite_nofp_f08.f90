! callsite_nofp_f08: the mpi_f08 calls of a Fortran program built with
! plain mpifort -O2 (no frame pointers), profiled by LD_PRELOAD, for
! tests/mpi/callsites/test_callsite_nofp.sh.  Its main program is C
! (callsite_nofp_f08_main.c), which leaves garbage in the frame-pointer
! register when it calls callsite_f08_run, as optimized code may: the
! MPI_Init of the mpi_f08 bindings is entered with it.  The call sites
! (marked with MARK comments the test finds): MPI_Init; N x exchange ->
! MPI_Allreduce; N x MPI_Send on rank 0, MPI_Recv on rank 1.
! Run with exactly 2 processes.
module callsite_f08_work
  use mpi_f08
  implicit none
contains
  subroutine exchange(x, y)
    double precision, intent(in) :: x
    double precision, intent(out) :: y
    call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD) ! MARK:f08_allreduce
  end subroutine exchange
end module callsite_f08_work

subroutine callsite_f08_run() bind(C, name="callsite_f08_run")
  use mpi_f08
  use callsite_f08_work
  implicit none
  integer, parameter :: n = 5
  integer :: rank, size, i
  double precision :: x, y, total
  integer :: buf(8)
  call MPI_Init() ! MARK:f08_init
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  total = 0
  do i = 1, n
    x = rank + i
    call exchange(x, y) ! MARK:f08_exchange
    total = total + y
    if (rank == 0) then
      buf = i
      call MPI_Send(buf, 8, MPI_INTEGER, 1, i, MPI_COMM_WORLD) ! MARK:f08_send
    else
      call MPI_Recv(buf, 8, MPI_INTEGER, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ! MARK:f08_recv
    end if
  end do
  if (rank == 0) print '(a,f6.1)', 'callsite_nofp_f08: ok ', total
  call MPI_Finalize()
end subroutine callsite_f08_run
