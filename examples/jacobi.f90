! jacobi.f90: Jacobi iteration for the Laplace equation on a square grid,
! a model MPI program to try mpiprof on (the Fortran twin of jacobi.c).
!
!   mpifort-prof -O2 -o jacobi jacobi.f90
!   mpiexec -n 2 ./jacobi [N [ITERATIONS]]      (default 768 x 768, 1000)
!
! The N x N grid (boundary included) is split into blocks of whole columns,
! one block per process: Fortran stores arrays by columns, so a block of
! columns is contiguous, as a block of rows is in C.  The left boundary is
! held at 1, the other three at 0.  Each iteration
!   1. exchanges halo columns with the neighbours on the left and right
!      (MPI_Sendrecv; MPI_PROC_NULL at the edges of the grid),
!   2. replaces every interior point by the mean of its four neighbours,
!   3. sums the squared changes over all processes (MPI_Allreduce): the
!      residual, which falls as the iteration converges.
! Rank 0 prints one line with the final residual and the time taken.
program jacobi
  use mpi
  implicit none
  integer :: n = 768, iterations = 1000
  integer :: ierr, rank, nprocs, ncols, col0, left, right, first, last, it
  double precision, allocatable, target :: u(:,:), v(:,:)
  double precision, pointer :: a(:,:), b(:,:), t(:,:)
  double precision :: local, residual, start, elapsed
  character(len=32) :: arg, time_text

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  if (command_argument_count() >= 1) then
     call get_command_argument(1, arg)
     read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
     call get_command_argument(2, arg)
     read (arg, *) iterations
  end if
  if (n < 3 .or. iterations < 1 .or. n < nprocs) then
     if (rank == 0) write (*, '(a)') &
          'usage: jacobi [N [ITERATIONS]] with N >= 3 and N >= processes, ITERATIONS >= 1'
     call MPI_Finalize(ierr)
     stop 1
  end if

  ! My columns of the grid: global columns col0 .. col0 + ncols - 1
  ! (numbered from 0); local columns 1 .. ncols, halo columns 0 and ncols + 1.
  ncols = n / nprocs
  if (rank < mod(n, nprocs)) ncols = ncols + 1
  col0 = rank * (n / nprocs) + min(rank, mod(n, nprocs))
  left = MPI_PROC_NULL
  right = MPI_PROC_NULL
  if (rank > 0) left = rank - 1
  if (rank < nprocs - 1) right = rank + 1

  ! Interior columns among mine (global columns 0 and n - 1 are boundary).
  first = 1
  if (col0 == 0) first = 2
  last = ncols
  if (col0 + ncols == n) last = ncols - 1

  allocate (u(n, 0:ncols + 1), v(n, 0:ncols + 1))
  u = 0.0d0
  v = 0.0d0
  if (col0 == 0) then          ! the left boundary, kept in both arrays
     u(:, 1) = 1.0d0
     v(:, 1) = 1.0d0
  end if
  a => u
  b => v

  start = MPI_Wtime()
  residual = 0.0d0
  do it = 1, iterations
     call exchange_halo(a)
     call sweep(a, b, local)
     call MPI_Allreduce(local, residual, 1, MPI_DOUBLE_PRECISION, MPI_SUM, &
                        MPI_COMM_WORLD, ierr)
     t => a                    ! the new values become the old ones
     a => b
     b => t
  end do
  elapsed = MPI_Wtime() - start

  write (time_text, '(f12.3)') elapsed
  if (rank == 0) write (*, '(a,i0,a,i0,a,i0,a,i0,a,es12.6,a,a,a)') &
       'jacobi: ', n, ' x ', n, ' grid, ', nprocs, ' processes, ', iterations, &
       ' iterations, residual ', residual, ', ', trim(adjustl(time_text)), ' s'
  deallocate (u, v)
  call MPI_Finalize(ierr)

contains

  ! Exchange halo columns with the neighbours: send the first own column
  ! left and the last one right, receive the neighbours' columns into the
  ! halo columns.  (Explicit-shape dummies: each column is contiguous and
  ! goes to MPI without a temporary copy.)
  subroutine exchange_halo(x)
    double precision, intent(inout) :: x(n, 0:ncols + 1)
    integer :: ierr
    call MPI_Sendrecv(x(:, 1), n, MPI_DOUBLE_PRECISION, left, 0, &
                      x(:, ncols + 1), n, MPI_DOUBLE_PRECISION, right, 0, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(x(:, ncols), n, MPI_DOUBLE_PRECISION, right, 1, &
                      x(:, 0), n, MPI_DOUBLE_PRECISION, left, 1, &
                      MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  end subroutine exchange_halo

  ! One Jacobi sweep from x into y over my interior columns; s is the
  ! local sum of squared changes.
  subroutine sweep(x, y, s)
    double precision, intent(in) :: x(n, 0:ncols + 1)
    double precision, intent(inout) :: y(n, 0:ncols + 1)
    double precision, intent(out) :: s
    double precision :: w, d
    integer :: i, j
    s = 0.0d0
    do j = first, last
       do i = 2, n - 1
          w = 0.25d0 * (x(i - 1, j) + x(i + 1, j) + x(i, j - 1) + x(i, j + 1))
          d = w - x(i, j)
          y(i, j) = w
          s = s + d * d
       end do
    end do
  end subroutine sweep

end program jacobi
