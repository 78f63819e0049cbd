! barrier_f08.f90: one MPI_Barrier through the mpi_f08 bindings, marked.
program barrier_f08
  use mpi_f08
  implicit none
  integer :: rank
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Barrier(MPI_COMM_WORLD) ! MARK barrier_f08
  call MPI_Finalize()
  if (rank == 0) print '(a)', 'barrier_f08: ok'
end program barrier_f08
