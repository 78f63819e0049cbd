/* The reduction of the communication matrix at MPI_Finalize (records/
 * matrix.h; its cost: mpiprof(7), COMMUNICATION MATRIX).  Collective over
 * comm (the profiler's world); one thread. */
#ifndef MPP_MATRIX_MPI_H
#define MPP_MATRIX_MPI_H

#include <mpi.h>

#include "accumulate/matrix.h"
#include "context/config.h"
#include "records/matrix.h"

/* This process's peer table `t` (and `lost` calls it could not count)
 * into the run's matrix: on rank 0 the matrix (NULL when memory ran out
 * anywhere on its way, warned), NULL elsewhere.  t NULL: this process
 * could not count (no memory at MPI_Init), so there is no matrix.  `limit`: most processes
 * for the per-process pairs (MPIPROF_MATRIX_RANKS); past it the pairs of
 * the processes cfg's MPIPROF_RANKS selects and the `limit` heaviest. */
mpp_matrix_t *mpp_matrix_reduce(MPI_Comm comm, const char *hostname, const mpp_peer_table_t *t, uint64_t lost,
                                double (*to_seconds)(uint64_t), int limit, const mpp_config_t *cfg);

#endif
