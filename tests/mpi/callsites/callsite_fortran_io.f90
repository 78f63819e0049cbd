! callsite_fortran_io: MPI-IO through the `use mpi` bindings (built with
! plain mpifort -O2), for tests/mpi/callsites/test_callsite_nofp.sh.  MPICH's
! Fortran bindings convert the file handle with MPI_File_f2c and
! MPI_File_c2f around the calls they make for the program: those are the
! MPI library's own calls, not the program's, and must not be SRC points.
! Run with exactly 2 processes, in a writable directory.
program callsite_fortran_io
  use mpi
  implicit none
  integer, parameter :: n = 8
  integer :: ierr, rank, fh, i
  integer :: buf(10)
  integer(kind=MPI_OFFSET_KIND) :: offset
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_File_open(MPI_COMM_WORLD, 'callsite_io.bin', MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr) ! MARK:open
  do i = 1, n
    buf = i
    offset = (rank * n + i - 1) * 40
    call MPI_File_write_at(fh, offset, buf, 10, MPI_INTEGER, MPI_STATUS_IGNORE, ierr) ! MARK:write
  end do
  call MPI_File_read_at(fh, offset, buf, 10, MPI_INTEGER, MPI_STATUS_IGNORE, ierr) ! MARK:read
  call MPI_File_close(fh, ierr) ! MARK:close
  if (rank == 0 .and. buf(1) == n) print '(a)', 'callsite_fortran_io: ok'
  call MPI_Finalize(ierr)
end program callsite_fortran_io
