! waitstates_f08: Real sync (late sender) and Potential sync through the
! Fortran 2008 bindings ('use mpi_f08'), for tests/mpi/waitstates/test_waitstates_f08.sh.
!
! One phase per kind of call, each in its own interval (named below); before
! each phase the ranks meet in MPI_Barrier.  In every phase rank 1 is late:
! it computes T_LATE (busy loop) before its sends (or its MPI_Start of the
! collective) while rank 0 is already receiving, N_MSG times.  Nominal Real
! sync of each phase, all rank 0's:
!
!   recv          MPI_Send / MPI_Recv with MPI_STATUS_IGNORE: N x T
!   irecv_wait    MPI_Isend + MPI_Wait / MPI_Irecv + MPI_Wait(MPI_STATUS_IGNORE): N x T
!   waitall       2 x MPI_Irecv + MPI_Waitall(MPI_STATUSES_IGNORE); the
!                 second message 1.5 T late: N x 1.5 T (the latest, once)
!   waitany       2 x MPI_Irecv + 2 x MPI_Waitany, tag 2 sent first, tag 1 T
!                 later: N x 2 T on the MPI_Waitany
!   waitsome      the same with MPI_Waitsome(MPI_STATUSES_IGNORE) until both
!                 completed: N x 2 T
!   test_loop     MPI_Irecv, then MPI_Testany (a LOGICAL flag, an index) on it
!                 and MPI_REQUEST_NULL until the flag is set: ~0 (the
!                 completing MPI_Testany is entered after the send)
!   persistent    MPI_Recv_init + MPI_Start + MPI_Wait against MPI_Send_init +
!                 MPI_Start: N x T on rank 0's MPI_Wait
!   sendrecv      MPI_Sendrecv on both ranks, rank 1 late: N x T, rank 0's
!   probe_recv    MPI_Probe + MPI_Recv: N x T
!   mprobe_mrecv  MPI_Mprobe + MPI_Mrecv: N x T
!   improbe       MPI_Improbe until it finds the message, then MPI_Imrecv +
!                 MPI_Wait: ~0 (the wait is spread over the probes)
!   pcoll         MPI_Allreduce_init once, then MPI_Start + MPI_Wait on both
!                 ranks, rank 1's MPI_Start T late: Potential sync N x T,
!                 rank 0's, on the MPI_Start
!
! The MPI_Waitany and MPI_Waitsome rounds find which request completed by
! the message's tag and by the requests that became MPI_REQUEST_NULL, not by
! the index MPI returns (MPICH 4.0's mpi_f08 binding returns C's index,
! from 0; Fortran's counts from 1).
!
! Each rank prints one line
!   rank=R waitsome_calls=N test_calls=N improbe_calls=N errors=N
! and writes the entry and exit instants of the calls that matter to
! PREFIX.RANK (the first argument; the format of waitstates_events.c), so
! the check computes each phase's Real sync by the definition from what
! happened.  The test finds the calls by their MARK: comments (keep each on
! one line).  Run with 2 processes.
module ws_events
  use, intrinsic :: iso_c_binding, only: c_int, c_long, c_double, c_char, c_size_t, c_null_char
  implicit none
  private
  public :: ws_now, ws_busy, ws_record, ws_write_events
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
     function gethostname(name, length) bind(C, name='gethostname')
       import :: c_int, c_char, c_size_t
       character(kind=c_char), intent(out) :: name(*)
       integer(c_size_t), value :: length
       integer(c_int) :: gethostname
     end function gethostname
  end interface
  integer, parameter :: max_events = 2048
  character(len=16) :: keys(max_events)
  integer :: numbers(max_events), nevents = 0
  real(c_double) :: starts(max_events), ends(max_events)
contains
  function ws_now() result(t)
    real(c_double) :: t
    type(timespec) :: ts
    integer(c_int) :: rc
    rc = clock_gettime(CLOCK_MONOTONIC, ts)
    t = real(ts%tv_sec, c_double) + 1.0d-9 * real(ts%tv_nsec, c_double)
  end function ws_now

  subroutine ws_busy(seconds)
    real(c_double), intent(in) :: seconds
    real(c_double) :: finish
    finish = ws_now() + seconds
    do while (ws_now() < finish)
    end do
  end subroutine ws_busy

  subroutine ws_record(key, i, start, end)
    character(len=*), intent(in) :: key
    integer, intent(in) :: i
    real(c_double), intent(in) :: start, end
    if (nevents == max_events) stop 'waitstates_f08: too many events'
    nevents = nevents + 1
    keys(nevents) = key
    numbers(nevents) = i
    starts(nevents) = start
    ends(nevents) = end
  end subroutine ws_record

  subroutine ws_write_events(prefix, rank)
    character(len=*), intent(in) :: prefix
    integer, intent(in) :: rank
    character(kind=c_char) :: host(256)
    character(len=256) :: name
    character(len=512) :: path
    integer :: u, k, n
    host = c_null_char
    if (gethostname(host, 255_c_size_t) /= 0) host(1:7) = ['u', 'n', 'k', 'n', 'o', 'w', 'n']
    name = ''
    n = 0
    do while (n < 255 .and. host(n + 1) /= c_null_char)
       n = n + 1
       name(n:n) = host(n)
    end do
    write (path, '(a,a,i0)') trim(prefix), '.', rank
    open (newunit=u, file=trim(path), status='replace', action='write')
    write (u, '(a,1x,a)') 'host', trim(name)
    do k = 1, nevents
       write (u, '(a,1x,a,1x,i0,2(1x,f0.9))') 'ev', trim(keys(k)), numbers(k), starts(k), ends(k)
    end do
    close (u)
  end subroutine ws_write_events
end module ws_events

program waitstates_f08
  use mpi_f08
  use ws_events
  implicit none
  integer, parameter :: n_msg = 8, cnt = 4
  double precision, parameter :: t_late = 0.010d0
  integer :: rank, nprocs, i, k, errors, outcount, done, idx, waitsome_calls, test_calls, improbe_calls
  integer :: buf(cnt), buf2(cnt), total(cnt), indices(2), peer
  logical :: flag, was_null(2)
  type(MPI_Request) :: req(2), preq
  type(MPI_Status) :: st
  type(MPI_Message) :: msg
  type(MPI_Comm) :: world
  character(len=256) :: prefix
  character(len=16) :: key
  double precision :: t

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs)
  if (nprocs /= 2) then
     if (rank == 0) write (*, '(a,i0)') 'waitstates_f08: run with 2 processes, not ', nprocs
     call MPI_Abort(MPI_COMM_WORLD, 2)
  end if
  world = MPI_COMM_WORLD
  peer = 1 - rank
  prefix = 'events'
  if (command_argument_count() >= 1) call get_command_argument(1, prefix)
  errors = 0
  waitsome_calls = 0
  test_calls = 0
  improbe_calls = 0
  buf = rank
  buf2 = rank

  ! ---- MPI_Send / MPI_Recv ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_recv
  call mpiprof_interval_begin('recv')
  do i = 1, n_msg
     if (rank == 0) then
        t = ws_now()
        call MPI_Recv(buf, cnt, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE) ! MARK:a_recv
        call ws_record('a_recv', i, t, ws_now())
        if (buf(1) /= 100 + i) errors = errors + 1
     else
        call ws_busy(t_late)
        buf = 100 + i
        t = ws_now()
        call MPI_Send(buf, cnt, MPI_INTEGER, 0, 1, MPI_COMM_WORLD) ! MARK:a_send
        call ws_record('a_send', i, t, ws_now())
     end if
  end do
  call mpiprof_interval_end()

  ! ---- MPI_Isend / MPI_Irecv + MPI_Wait ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_irecv_wait
  call mpiprof_interval_begin('irecv_wait')
  do i = 1, n_msg
     if (rank == 0) then
        call MPI_Irecv(buf, cnt, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, req(1)) ! MARK:b_irecv
        t = ws_now()
        call MPI_Wait(req(1), MPI_STATUS_IGNORE) ! MARK:b_wait
        call ws_record('b_wait', i, t, ws_now())
     else
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Isend(buf, cnt, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, req(1)) ! MARK:b_isend
        call ws_record('b_isend', i, t, ws_now())
        call MPI_Wait(req(1), MPI_STATUS_IGNORE) ! MARK:b_wait_send
     end if
  end do
  call mpiprof_interval_end()

  ! ---- 2 x MPI_Irecv + MPI_Waitall, the latest message 1.5 T late ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_waitall
  call mpiprof_interval_begin('waitall')
  do i = 1, n_msg
     if (rank == 0) then
        call MPI_Irecv(buf, cnt, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, req(1)) ! MARK:c_irecv1
        call MPI_Irecv(buf2, cnt, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, req(2)) ! MARK:c_irecv2
        t = ws_now()
        call MPI_Waitall(2, req, MPI_STATUSES_IGNORE) ! MARK:c_waitall
        call ws_record('c_waitall', i, t, ws_now())
     else
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Send(buf, cnt, MPI_INTEGER, 0, 1, MPI_COMM_WORLD) ! MARK:c_send1
        call ws_record('c_send1', i, t, ws_now())
        call ws_busy(t_late / 2)
        t = ws_now()
        call MPI_Send(buf2, cnt, MPI_INTEGER, 0, 2, MPI_COMM_WORLD) ! MARK:c_send2
        call ws_record('c_send2', i, t, ws_now())
     end if
  end do
  call mpiprof_interval_end()

  ! ---- MPI_Waitany, completion out of order ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_waitany
  call mpiprof_interval_begin('waitany')
  do i = 1, n_msg
     if (rank == 0) then
        call MPI_Irecv(buf, cnt, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, req(1)) ! MARK:d_irecv1
        call MPI_Irecv(buf2, cnt, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, req(2)) ! MARK:d_irecv2
        do k = 1, 2
           t = ws_now()
           call MPI_Waitany(2, req, idx, st) ! MARK:d_waitany
           ! keyed by the message it completed: d_any1 (tag 1), d_any2
           if (st%MPI_TAG == 1) then
              call ws_record('d_any1', i, t, ws_now())
           else
              call ws_record('d_any2', i, t, ws_now())
           end if
           if (st%MPI_TAG /= 1 .and. st%MPI_TAG /= 2) errors = errors + 1
        end do
     else
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Send(buf2, cnt, MPI_INTEGER, 0, 2, MPI_COMM_WORLD) ! MARK:d_send2
        call ws_record('d_send2', i, t, ws_now())
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Send(buf, cnt, MPI_INTEGER, 0, 1, MPI_COMM_WORLD) ! MARK:d_send1
        call ws_record('d_send1', i, t, ws_now())
     end if
  end do
  call mpiprof_interval_end()

  ! ---- MPI_Waitsome without statuses, completion out of order ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_waitsome
  call mpiprof_interval_begin('waitsome')
  do i = 1, n_msg
     if (rank == 0) then
        call MPI_Irecv(buf, cnt, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, req(1)) ! MARK:e_irecv1
        call MPI_Irecv(buf2, cnt, MPI_INTEGER, 1, 2, MPI_COMM_WORLD, req(2)) ! MARK:e_irecv2
        done = 0
        do while (done < 2)
           was_null = [req(1) == MPI_REQUEST_NULL, req(2) == MPI_REQUEST_NULL]
           t = ws_now()
           call MPI_Waitsome(2, req, outcount, indices, MPI_STATUSES_IGNORE) ! MARK:e_waitsome
           waitsome_calls = waitsome_calls + 1
           ! keyed by the requests it completed: e_some1, e_some2, e_some12
           if (req(1) == MPI_REQUEST_NULL .and. .not. was_null(1)) then
              key = 'e_some1'
              if (req(2) == MPI_REQUEST_NULL .and. .not. was_null(2)) key = 'e_some12'
           else
              key = 'e_some2'
           end if
           call ws_record(trim(key), i, t, ws_now())
           if (outcount < 1 .or. outcount > 2) errors = errors + 1
           done = done + outcount
        end do
     else
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Send(buf2, cnt, MPI_INTEGER, 0, 2, MPI_COMM_WORLD) ! MARK:e_send2
        call ws_record('e_send2', i, t, ws_now())
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Send(buf, cnt, MPI_INTEGER, 0, 1, MPI_COMM_WORLD) ! MARK:e_send1
        call ws_record('e_send1', i, t, ws_now())
     end if
  end do
  call mpiprof_interval_end()

  ! ---- MPI_Testany loop ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_test_loop
  call mpiprof_interval_begin('test_loop')
  do i = 1, n_msg
     if (rank == 0) then
        call MPI_Irecv(buf, cnt, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, req(2)) ! MARK:f_irecv
        req(1) = MPI_REQUEST_NULL
        flag = .false.
        do while (.not. flag)
           call MPI_Testany(2, req, idx, flag, MPI_STATUS_IGNORE) ! MARK:f_testany
           test_calls = test_calls + 1
        end do
     else
        call ws_busy(t_late)
        call MPI_Send(buf, cnt, MPI_INTEGER, 0, 1, MPI_COMM_WORLD) ! MARK:f_send
     end if
  end do
  call mpiprof_interval_end()

  ! ---- persistent requests ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_persistent
  call mpiprof_interval_begin('persistent')
  if (rank == 0) then
     call MPI_Recv_init(buf, cnt, MPI_INTEGER, 1, 1, MPI_COMM_WORLD, preq) ! MARK:g_recv_init
     do i = 1, n_msg
        call MPI_Start(preq) ! MARK:g_start_recv
        t = ws_now()
        call MPI_Wait(preq, MPI_STATUS_IGNORE) ! MARK:g_wait_recv
        call ws_record('g_wait_recv', i, t, ws_now())
     end do
  else
     call MPI_Send_init(buf, cnt, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, preq) ! MARK:g_send_init
     do i = 1, n_msg
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Start(preq) ! MARK:g_start_send
        call ws_record('g_start_send', i, t, ws_now())
        call MPI_Wait(preq, MPI_STATUS_IGNORE) ! MARK:g_wait_send
     end do
  end if
  call MPI_Request_free(preq) ! MARK:g_request_free
  call mpiprof_interval_end()

  ! ---- MPI_Sendrecv on both ranks, rank 1 late ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_sendrecv
  call mpiprof_interval_begin('sendrecv')
  do i = 1, n_msg
     buf = rank
     buf2 = -1
     if (rank == 1) call ws_busy(t_late)
     t = ws_now()
     call MPI_Sendrecv(buf, cnt, MPI_INTEGER, peer, 7, buf2, cnt, MPI_INTEGER, peer, 7, world, MPI_STATUS_IGNORE) ! MARK:h_sendrecv
     call ws_record('h_sendrecv', i, t, ws_now())
     if (buf2(1) /= 1 - rank) errors = errors + 1
  end do
  call mpiprof_interval_end()

  ! ---- MPI_Probe, then MPI_Recv ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_probe_recv
  call mpiprof_interval_begin('probe_recv')
  do i = 1, n_msg
     if (rank == 0) then
        t = ws_now()
        call MPI_Probe(1, 3, MPI_COMM_WORLD, st) ! MARK:i_probe
        call MPI_Recv(buf, cnt, MPI_INTEGER, st%MPI_SOURCE, st%MPI_TAG, world, MPI_STATUS_IGNORE) ! MARK:i_recv
        call ws_record('i_probe_recv', i, t, ws_now())
     else
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Send(buf, cnt, MPI_INTEGER, 0, 3, MPI_COMM_WORLD) ! MARK:i_send
        call ws_record('i_send', i, t, ws_now())
     end if
  end do
  call mpiprof_interval_end()

  ! ---- MPI_Mprobe, then MPI_Mrecv ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_mprobe_mrecv
  call mpiprof_interval_begin('mprobe_mrecv')
  do i = 1, n_msg
     if (rank == 0) then
        t = ws_now()
        call MPI_Mprobe(1, 4, MPI_COMM_WORLD, msg, st) ! MARK:j_mprobe
        call MPI_Mrecv(buf, cnt, MPI_INTEGER, msg, MPI_STATUS_IGNORE) ! MARK:j_mrecv
        call ws_record('j_mprobe_mrecv', i, t, ws_now())
     else
        call ws_busy(t_late)
        t = ws_now()
        call MPI_Send(buf, cnt, MPI_INTEGER, 0, 4, MPI_COMM_WORLD) ! MARK:j_send
        call ws_record('j_send', i, t, ws_now())
     end if
  end do
  call mpiprof_interval_end()

  ! ---- MPI_Improbe loop, then MPI_Imrecv + MPI_Wait ----
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_improbe
  call mpiprof_interval_begin('improbe')
  do i = 1, n_msg
     if (rank == 0) then
        flag = .false.
        do while (.not. flag)
           call MPI_Improbe(1, 5, MPI_COMM_WORLD, flag, msg, st) ! MARK:k_improbe
           improbe_calls = improbe_calls + 1
        end do
        call MPI_Imrecv(buf, cnt, MPI_INTEGER, msg, req(1)) ! MARK:k_imrecv
        call MPI_Wait(req(1), MPI_STATUS_IGNORE) ! MARK:k_wait
     else
        call ws_busy(t_late)
        call MPI_Send(buf, cnt, MPI_INTEGER, 0, 5, MPI_COMM_WORLD) ! MARK:k_send
     end if
  end do
  call mpiprof_interval_end()

  ! ---- a persistent collective, rank 1's MPI_Start late (MPI-4: not in
  ! Open MPI 4.1, whose test builds define MPP_NO_PERSISTENT_COLLECTIVES) ----
#ifndef MPP_NO_PERSISTENT_COLLECTIVES
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_pcoll
  call mpiprof_interval_begin('pcoll')
  buf = rank + 1
  call MPI_Allreduce_init(buf, total, cnt, MPI_INTEGER, MPI_SUM, world, MPI_INFO_NULL, preq) ! MARK:l_allreduce_init
  do i = 1, n_msg
     if (rank == 1) call ws_busy(t_late)
     t = ws_now()
     call MPI_Start(preq) ! MARK:l_start
     call MPI_Wait(preq, MPI_STATUS_IGNORE) ! MARK:l_wait
     call ws_record('l_coll', i, t, ws_now())
     if (total(1) /= 3) errors = errors + 1
  end do
  call MPI_Request_free(preq) ! MARK:l_request_free
  call mpiprof_interval_end()
#endif

  call MPI_Barrier(MPI_COMM_WORLD) ! MARK:align_end
  call ws_write_events(trim(prefix), rank)
  if (errors /= 0) write (*, '(a,i0,a,i0,a)') 'waitstates_f08: rank ', rank, ': ', errors, ' wrong results'
  write (*, '(a,i0,4(a,i0))') 'rank=', rank, ' waitsome_calls=', waitsome_calls, ' test_calls=', test_calls, &
       ' improbe_calls=', improbe_calls, ' errors=', errors
  flush (6)
  call MPI_Finalize()
  if (errors /= 0) stop 1
end program waitstates_f08
