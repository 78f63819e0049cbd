/* The MPI library the process runs on against the one the profiler was
 * built for (configure --with-mpi). */
#ifndef MPP_MPI_FAMILY_H
#define MPP_MPI_FAMILY_H

/* Called once MPI is initialized, before anything else asks it.  Returns
 * when the process's MPI library is of the family the profiler was built
 * for (Open MPI, or MPICH and the libraries sharing its ABI).  Otherwise
 * the profiler's every MPI_* entry point has the other family's handle
 * types (MPICH's int where Open MPI passes a pointer, and the reverse), so
 * the program cannot run with it at all, not even unprofiled: rank 0 (as
 * the launcher numbers the processes) says so in one line on stderr, and
 * every process finalizes MPI and exits with status 1.  Asks only
 * MPI_Get_library_version and MPI_Finalize, whose C interfaces both
 * families share. */
void mpp_mpi_family_check(void);

/* The rank the launcher gave the process, before MPI can be asked (Open
 * MPI's mpiexec, MPICH's Hydra, PMIx, Slurm); -1 when none says. */
long mpp_launcher_rank(void);

#endif
