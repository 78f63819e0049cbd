! mpi-error through the mpi_f08 binding (test_check_errors.sh), whose
! entry points call MPI's own (in MPICH, PMPI_ directly, not the C
! wrappers): the handlers a get returns are those the program set, or
! MPI_ERRORS_ARE_FATAL (communicator, window); an error returned with
! MPI_ERRORS_RETURN is a finding at its call.  Each check prints T.
! With the argument f08-fatal: MPI_ERRORS_ARE_FATAL set again on
! MPI_COMM_WORLD, rank 0's send to an invalid rank ends the job (a finding
! in its partial protocol), rank 1 waits in MPI_Recv.
program errors_f08
  use mpi_f08
  use, intrinsic :: iso_c_binding
  implicit none
  type(MPI_Errhandler) :: eh
  type(MPI_Win) :: win
  type(c_ptr) :: base
  integer :: buf(4), ierr, rank
  character(len=32) :: scenario
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call get_command_argument(1, scenario)
  if (scenario == 'f08-fatal') then
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
    call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)
    if (rank == 0) then
      call MPI_Send(buf, 1, MPI_INTEGER, 7, 0, MPI_COMM_WORLD) ! /* expect f08-fatal: mpi-error ranks=0 */
    else
      call MPI_Recv(buf, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)
    end if
  end if
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, eh)
  print '(a,i0,a,l1)', 'rank ', rank, ': world default fatal ', eh == MPI_ERRORS_ARE_FATAL
  call MPI_Errhandler_free(eh)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, eh)
  print '(a,i0,a,l1)', 'rank ', rank, ': world errors return ', eh == MPI_ERRORS_RETURN
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL)
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, eh)
  print '(a,i0,a,l1)', 'rank ', rank, ': world fatal again ', eh == MPI_ERRORS_ARE_FATAL
  call MPI_Errhandler_free(eh)
  call MPI_Win_allocate(16_MPI_ADDRESS_KIND, 4, MPI_INFO_NULL, MPI_COMM_WORLD, base, win)
  call MPI_Win_get_errhandler(win, eh)
  print '(a,i0,a,l1)', 'rank ', rank, ': window default fatal ', eh == MPI_ERRORS_ARE_FATAL
  call MPI_Win_free(win)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Send(buf, 1, MPI_INTEGER, 7, 0, MPI_COMM_WORLD, ierr) ! /* expect f08: mpi-error ranks=0-1 */
  print '(a,i0,a,l1)', 'rank ', rank, ': send returned an error ', ierr /= MPI_SUCCESS
  call MPI_Finalize()
end program errors_f08
