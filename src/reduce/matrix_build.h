/* The communication matrix put together from process pairs (records/
 * matrix.h), no MPI: the rows rank 0 keeps past MPIPROF_MATRIX_RANKS and
 * the totals within and between nodes, for MPI_Finalize's reduction
 * (matrix_mpi.c, which gathers the pairs across processes first); and the
 * whole matrix at once from every process's pairs, for mpiprof-analyze,
 * which holds them all. */
#ifndef MPP_MATRIX_BUILD_H
#define MPP_MATRIX_BUILD_H

#include "context/config.h"
#include "records/matrix.h"

/* The rows kept of (merged) process rows when not all are: the selected
 * processes' (chosen[from]) first, then the `limit` heaviest of the
 * others; their count. */
int mpp_matrix_kept_rows(mpp_pair_t *rows, int n, int limit, const unsigned char *chosen);

/* Past the limit (m->nprocs > m->limit): of m's process pairs the
 * selected processes' (cfg's MPIPROF_RANKS) and the `limit` heaviest of
 * the others, m->heaviest set; -1 when memory ran out. */
int mpp_matrix_keep_pairs(mpp_matrix_t *m, const mpp_config_t *cfg);

/* m's totals within and between nodes, from its node pairs. */
void mpp_matrix_totals(mpp_matrix_t *m);

/* The run's matrix from the pairs of every process (`pairs`, taken over
 * and freed; from and to world ranks) and each rank's host (hosts[r]):
 * node i is the host of the i-th lowest rank that is the lowest of its
 * host, as MPI_Finalize numbers them.  NULL when memory ran out. */
mpp_matrix_t *mpp_matrix_build(mpp_pair_t *pairs, int npairs, int nprocs, const char *const *hosts, int limit,
                               const mpp_config_t *cfg);

#endif
