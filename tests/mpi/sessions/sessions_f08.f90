! sessions_f08: a program of the MPI-4 Sessions Model in mpi_f08, for
! tests/mpi/sessions/test_sessions.sh: MPI_Session_init (SESSION_INIT line), a
! communicator of mpi://WORLD, N_ALLREDUCE MPI_Allreduce on it (ALLREDUCE
! line), MPI_Session_finalize.  Prints "sessions_f08: ok" on rank 0.
program sessions_f08
  use mpi_f08
  implicit none
  integer, parameter :: n_allreduce = 50
  type(MPI_Session) :: session
  type(MPI_Group) :: group
  type(MPI_Comm) :: comm
  integer :: rank, size, total, i, ierr
  call MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, session, ierr) ! MARK:session_init
  if (ierr /= MPI_SUCCESS) stop 1
  call MPI_Group_from_session_pset(session, "mpi://WORLD", group)
  call MPI_Comm_create_from_group(group, "org.mpiprof.test.sessions_f08", MPI_INFO_NULL, MPI_ERRORS_RETURN, comm)
  call MPI_Group_free(group)
  call MPI_Comm_rank(comm, rank)
  call MPI_Comm_size(comm, size)
  do i = 1, n_allreduce
     call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, comm) ! MARK:allreduce
  end do
  call MPI_Comm_free(comm)
  call MPI_Session_finalize(session, ierr) ! MARK:session_finalize
  if (ierr /= MPI_SUCCESS) stop 1
  if (rank == 0 .and. total == size * (size - 1) / 2) print '(a)', 'sessions_f08: ok'
end program sessions_f08
