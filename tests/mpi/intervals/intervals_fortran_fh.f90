! intervals_fortran_fh: intervals_fortran.f90 with the interfaces of
! mpiprof's Fortran entry points from include 'mpiprof.fh', for
! tests/mpi/intervals/test_intervals_fortran.sh.
!
!   'phase'            once: busy T_PHASE, then
!     'inner'          N_INNER x (the name passed in a blank-padded
!                      variable): replicated code (busy T_SEQ between
!                      mpiprof_seq_begin/end), then MPI_Allreduce
!
! Each rank measures its time in each interval and in its replicated code
! and prints
!   rank=R phase=S inner=S seq=S
! The test finds the lines of the marks and calls by their MARK: comments
! (keep each on one line).  Computation is a busy loop on
! clock_gettime(CLOCK_MONOTONIC), not sleep.  Run with 2 processes.
module intervals_clock
  use, intrinsic :: iso_c_binding, only: c_int, c_long, c_double
  implicit none
  private
  public :: now, busy
  type, bind(C) :: timespec
     integer(c_long) :: tv_sec, tv_nsec
  end type timespec
  integer(c_int), parameter :: CLOCK_MONOTONIC = 1
  interface
     function clock_gettime(clk, ts) bind(C, name='clock_gettime')
       import :: c_int, timespec
       integer(c_int), value :: clk
       type(timespec), intent(out) :: ts
       integer(c_int) :: clock_gettime
     end function clock_gettime
  end interface
contains
  function now() result(t)
    real(c_double) :: t
    type(timespec) :: ts
    integer(c_int) :: rc
    rc = clock_gettime(CLOCK_MONOTONIC, ts)
    t = real(ts%tv_sec, c_double) + 1.0d-9 * real(ts%tv_nsec, c_double)
  end function now
  subroutine busy(seconds)
    real(c_double), intent(in) :: seconds
    real(c_double) :: finish
    finish = now() + seconds
    do while (now() < finish)
    end do
  end subroutine busy
end module intervals_clock

program intervals_fortran_fh
  use mpi
  use intervals_clock
  implicit none
  include 'mpiprof.fh'
  integer, parameter :: n_inner = 10
  double precision, parameter :: t_phase = 0.030d0, t_seq = 0.004d0
  character(len=16) :: inner_name
  integer :: ierr, rank, nprocs, i, sbuf, rbuf, errors
  double precision :: t0, t1, t2, phase, inner, seq

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (nprocs /= 2) then
     if (rank == 0) write (*, '(a,i0)') 'intervals_fortran: run with 2 processes, not ', nprocs
     call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if
  errors = 0
  inner = 0
  seq = 0
  inner_name = 'inner'

  t0 = now()
  call mpiprof_interval_begin('phase') ! MARK:phase
  call busy(t_phase)
  do i = 1, n_inner
     t1 = now()
     call mpiprof_interval_begin(inner_name) ! MARK:inner
     t2 = now()
     call mpiprof_seq_begin()
     call busy(t_seq)
     call mpiprof_seq_end()
     seq = seq + (now() - t2)
     sbuf = rank + i
     call MPI_Allreduce(sbuf, rbuf, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr) ! MARK:allreduce
     if (rbuf /= 2 * i + 1) errors = errors + 1
     call mpiprof_interval_end()
     inner = inner + (now() - t1)
  end do
  call mpiprof_interval_end()
  phase = now() - t0

  if (errors /= 0) write (*, '(a,i0,a,i0,a)') 'intervals_fortran: rank ', rank, ': ', errors, ' wrong results'
  write (*, '(a,i0,3(a,f0.6))') 'rank=', rank, ' phase=', phase, ' inner=', inner, ' seq=', seq
  call MPI_Finalize(ierr)
  if (errors /= 0) stop 1
end program intervals_fortran_fh
