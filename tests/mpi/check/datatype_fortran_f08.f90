! The checks between processes through mpi_f08 (test_check_p2p.sh), one
! scenario per run, named by the first argument:
!   f08-datatype   a Fortran INTEGER sent and a REAL received (blocking)
!   f08-nonblock   the same through MPI_Isend, MPI_Irecv and MPI_Waitall
!   f08-roots      an MPI_Bcast whose members name different roots
!   f08-ok         the same calls done right, with array sections, in
!                  place and persistent: no finding at full,checksum (no
!                  checksum either: mpi_f08's buffers are descriptors in
!                  the compiler's own layout, whose elements are not read)
program datatype_fortran_f08
  use mpi_f08
  implicit none
  integer :: rank, ibuf(8), jbuf(8), isum, i
  real :: rbuf(4)
  type(MPI_Status) :: st
  type(MPI_Request) :: reqs(2)
  character(len=16) :: scenario
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call get_command_argument(1, scenario)
  ibuf = [(i, i = 1, 8)]
  jbuf = 0
  select case (trim(scenario))
  case ('f08-datatype')
    if (rank == 0) then
      call MPI_Send(ibuf, 4, MPI_INTEGER, 1, 0, MPI_COMM_WORLD) ! /* label f08-int-send */
    else
      call MPI_Recv(rbuf, 4, MPI_REAL, 0, 0, MPI_COMM_WORLD, st) ! /* expect f08-datatype: wrong-datatype ranks=1 other=f08-int-send */
    end if
  case ('f08-nonblock')
    if (rank == 0) then
      call MPI_Isend(ibuf, 4, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, reqs(1)) ! /* label f08-int-isend */
    else
      call MPI_Irecv(rbuf, 4, MPI_REAL, 0, 1, MPI_COMM_WORLD, reqs(1)) ! /* expect f08-nonblock: wrong-datatype ranks=1 other=f08-int-isend */
    end if
    call MPI_Waitall(1, reqs, MPI_STATUSES_IGNORE)
  case ('f08-roots')
    call MPI_Bcast(ibuf, 1, MPI_INTEGER, rank, MPI_COMM_WORLD) ! /* expect f08-roots: different-roots ranks=0-1 */
  case ('f08-ok')
    if (rank == 0) then
      call MPI_Send(ibuf, 4, MPI_INTEGER, 1, 3, MPI_COMM_WORLD)
      call MPI_Send(ibuf(1:8:2), 4, MPI_INTEGER, 1, 4, MPI_COMM_WORLD)
      call MPI_Isend(ibuf, 8, MPI_INTEGER, 1, 5, MPI_COMM_WORLD, reqs(1))
      call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
    else
      call MPI_Recv(jbuf, 4, MPI_INTEGER, 0, 3, MPI_COMM_WORLD, st)
      jbuf = -1
      call MPI_Recv(jbuf(2:8:2), 4, MPI_INTEGER, 0, 4, MPI_COMM_WORLD, st)
      call MPI_Irecv(jbuf, 8, MPI_INTEGER, 0, 5, MPI_COMM_WORLD, reqs(1))
      call MPI_Wait(reqs(1), st)
    end if
    call MPI_Sendrecv(ibuf, 2, MPI_INTEGER, 1 - rank, 6, jbuf, 2, MPI_INTEGER, 1 - rank, 6, MPI_COMM_WORLD, st)
    call MPI_Bcast(ibuf, 8, MPI_INTEGER, 0, MPI_COMM_WORLD)
    isum = rank
    call MPI_Allreduce(MPI_IN_PLACE, isum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call MPI_Ibcast(jbuf, 8, MPI_INTEGER, 1, MPI_COMM_WORLD, reqs(2))
    call MPI_Wait(reqs(2), MPI_STATUS_IGNORE)
    ! persistent (MPI-3: Open MPI 4.1 has no persistent collectives)
    if (rank == 0) then
      call MPI_Send_init(ibuf, 8, MPI_INTEGER, 1, 7, MPI_COMM_WORLD, reqs(2))
    else
      call MPI_Recv_init(jbuf, 8, MPI_INTEGER, 0, 7, MPI_COMM_WORLD, reqs(2))
    end if
    do i = 1, 2
      call MPI_Start(reqs(2))
      call MPI_Wait(reqs(2), MPI_STATUS_IGNORE)
    end do
    call MPI_Request_free(reqs(2))
  end select
  print '(a,i0)', 'rank done: ', rank
  call MPI_Finalize()
end program
