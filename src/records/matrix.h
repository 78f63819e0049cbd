/* The communication matrix of a run as rank 0 holds it after the
 * reduction (reduce/matrix_mpi.c) and the writers print it
 * (write/matrix_out.c): per pair of nodes always, per pair of processes
 * for all of them when the run has at most MPIPROF_MATRIX_RANKS processes,
 * else for the processes MPIPROF_RANKS selects and the heaviest pairs.  A
 * pair (from, to): the messages and bytes `from` sent to `to`, and the
 * time of `from`'s point-to-point calls that named `to`. */
#ifndef MPP_RECORDS_MATRIX_H
#define MPP_RECORDS_MATRIX_H

#include <stdint.h>

/* One entry of the matrix. */
typedef struct {
    int32_t from, to; /* ranks (or node indexes) */
    double messages, bytes, time;
} mpp_pair_t;

typedef struct mpp_matrix {
    int nprocs, nnodes;
    char **node_names; /* [nnodes], node i holds the i-th lowest leading rank */
    int *node_of;      /* [nprocs] node index of each rank */
    mpp_pair_t *node_pairs;
    int nnode_pairs;
    mpp_pair_t *pairs; /* process pairs, sorted by (from, to) */
    int npairs;
    int limit;            /* MPIPROF_MATRIX_RANKS */
    int complete;         /* every process pair is given (nprocs <= limit) */
    int heaviest;         /* pairs kept as heaviest when not complete */
    double intra[3];      /* messages, bytes, time within nodes */
    double inter[3];      /* ... between nodes */
    double dropped_calls; /* calls not counted: memory ran out for a new peer (all processes) */
} mpp_matrix_t;

void mpp_matrix_free(mpp_matrix_t *m);

#endif
