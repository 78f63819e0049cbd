! Invalid arguments through mpi_f08 (test_check_arguments.sh): the checks
! that need no buffer's address, read through the Fortran entry points'
! arguments, one scenario per run, named by the first argument, every
! process under MPI_ERRORS_RETURN so that the run goes on:
!   f08-bad-rank        a send to rank = size, a receive from -7
!   f08-negative-count  a send of -1 elements
!   f08-bad-tag         a send with tag -3
!   f08-null-handles    MPI_COMM_NULL, MPI_OP_NULL, MPI_DATATYPE_NULL
!   f08-uncommitted     a send of a datatype never committed
!   f08-legal           the values MPI allows that look alike
!                       (MPI_PROC_NULL, MPI_ANY_SOURCE, MPI_ANY_TAG,
!                       MPI_IN_PLACE, counts a non-root's receive ignores):
!                       no finding
program args_f08
  use mpi_f08
  implicit none
  integer :: rank, size, peer, ierr, buf(8), isum
  type(MPI_Status) :: st
  type(MPI_Datatype) :: t
  type(MPI_Request) :: rq
  character(len=24) :: scenario
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, size)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call get_command_argument(1, scenario)
  peer = 1 - rank
  buf = 0
  select case (trim(scenario))
  case ('f08-bad-rank')
    call MPI_Send(buf, 1, MPI_INTEGER, size, 0, MPI_COMM_WORLD, ierr) ! /* expect f08-bad-rank: invalid-argument ranks=0-1 */
    call MPI_Recv(buf, 1, MPI_INTEGER, -7, 0, MPI_COMM_WORLD, st, ierr) ! /* expect f08-bad-rank: invalid-argument ranks=0-1 */
  case ('f08-negative-count')
    call MPI_Send(buf, -1, MPI_INTEGER, peer, 0, MPI_COMM_WORLD, ierr) ! /* expect f08-negative-count: invalid-argument ranks=0-1 */
  case ('f08-bad-tag')
    call MPI_Send(buf, 1, MPI_INTEGER, peer, -3, MPI_COMM_WORLD, ierr) ! /* expect f08-bad-tag: invalid-argument ranks=0-1 */
  case ('f08-null-handles')
    call MPI_Send(buf, 1, MPI_INTEGER, 0, 0, MPI_COMM_NULL, ierr) ! /* expect f08-null-handles: invalid-argument ranks=0-1 */
    call MPI_Allreduce(buf(1), buf(5), 1, MPI_INTEGER, MPI_OP_NULL, MPI_COMM_WORLD, ierr) ! /* expect f08-null-handles: invalid-argument ranks=0-1 */
    call MPI_Send(buf, 1, MPI_DATATYPE_NULL, peer, 0, MPI_COMM_WORLD, ierr) ! /* expect f08-null-handles: invalid-argument ranks=0-1 */
  case ('f08-uncommitted')
    call MPI_Type_vector(2, 1, 2, MPI_INTEGER, t)
    call MPI_Send(buf, 1, t, peer, 0, MPI_COMM_WORLD, ierr) ! /* expect f08-uncommitted: invalid-argument ranks=0-1 */
    call MPI_Type_free(t)
  case ('f08-legal')
    call MPI_Send(buf, 1, MPI_INTEGER, MPI_PROC_NULL, 0, MPI_COMM_WORLD)
    call MPI_Recv(buf, 1, MPI_INTEGER, MPI_PROC_NULL, MPI_ANY_TAG, MPI_COMM_WORLD, st)
    call MPI_Irecv(buf(2), 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, rq)
    call MPI_Send(buf(1), 1, MPI_INTEGER, peer, 2, MPI_COMM_WORLD)
    call MPI_Wait(rq, st)
    call MPI_Send(buf, 0, MPI_INTEGER, peer, 3, MPI_COMM_WORLD)
    call MPI_Recv(buf, 0, MPI_INTEGER, peer, 3, MPI_COMM_WORLD, st)
    isum = rank
    call MPI_Allreduce(MPI_IN_PLACE, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (rank == 0) then
      call MPI_Reduce(MPI_IN_PLACE, isum, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
      call MPI_Gather(isum, 1, MPI_INTEGER, buf, 1, MPI_INTEGER, 0, MPI_COMM_WORLD)
    else
      call MPI_Reduce(isum, buf, 1, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD)
      call MPI_Gather(isum, 1, MPI_INTEGER, buf, -1, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD)
    end if
  end select
  print '(a,i0)', 'rank done: ', rank
  call MPI_Finalize()
end program
