/* The cross-process reduction at MPI_Finalize, on the profiler's own
 * communicator (src/reduce/exchange_mpi.c, the algorithm in reduce.c over
 * exchange.h): the only module that issues mpiprof's own MPI calls.
 * Cost grows with log P: a binary-tree union of the keys, one broadcast,
 * four reductions; per-process values travel only from selected processes. */
#ifndef MPP_REDUCE_H
#define MPP_REDUCE_H

#include <mpi.h>

#include "accumulate/profile.h"
#include "records/reduced.h"

/* Collective over comm.  Returns the reduced data on rank 0 of comm, NULL
 * elsewhere (and on rank 0 when memory ran out). `ranks_spec` is rank 0's
 * MPIPROF_RANKS value (broadcast so every process selects the same). */
mpp_reduced_t *mpp_reduce(const mpp_local_profile_t *profile, MPI_Comm comm, const char *ranks_spec,
                          const char *hostname);

#endif
