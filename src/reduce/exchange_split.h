/* The reduction (exchange.h) over positions spread across MPI processes,
 * several in each (exchange_split.c): mpiprof-analyze under mpiexec, each
 * of its processes holding the profiles of a block of the traced
 * processes.  Every traced process keeps its own position, so the result
 * is the one the reduction gives them all in one address space (or at
 * MPI_Finalize): partial reductions of blocks could not be reduced again
 * (a process's quantities need the count of processes over all blocks,
 * the per-process values their own process). */
#ifndef MPP_EXCHANGE_SPLIT_H
#define MPP_EXCHANGE_SPLIT_H

#include <mpi.h>

#include "reduce/exchange.h"

/* Called by every process of `comm`, each with the n > 0 profiles of
 * positions first..first+n-1 (blocks ascending with comm's ranks, from 0;
 * nprocs in all; the rank of position p is p).  Needs MPI_THREAD_MULTIPLE
 * where n > 1 (one thread per position; the in-memory exchange among
 * them, MPI between processes: PMPI_* calls only).  The reduced data on
 * position 0's process, NULL elsewhere; *failed (on every process) when
 * memory or threads ran out anywhere. */
mpp_reduced_t *mpp_reduce_split(const mpp_local_profile_t *const *profiles, const char *const *hostnames, int n,
                                int first, int nprocs, MPI_Comm comm, const char *ranks_spec, int *failed);

#endif
