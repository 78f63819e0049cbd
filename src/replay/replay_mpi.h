/* mpiprof-analyze under mpiexec (mpiprof-analyze(1), src/replay/share_mpi.c):
 * its processes each read the definitions and the events of a share of
 * the traced processes (rp_share), then move between them what one share
 * needs of another's: the entry of each send, to the share of its
 * receiver (Real sync), and the latest entry and exit of each collective
 * instance over all its members (Potential sync, Time variation); the
 * profiles are reduced by exchange_split.h.  PMPI_* calls only, and MPI
 * started only when a launcher started the analyzer (rp_mpi_launched): a
 * preloaded libmpiprof sees none of it, and alone it never touches MPI. */
#ifndef MPP_REPLAY_MPI_H
#define MPP_REPLAY_MPI_H

#include <mpi.h>

#include "records/matrix.h"
#include "replay/replay.h"

typedef struct {
    MPI_Comm comm; /* the analyzer's processes (a duplicate of MPI_COMM_WORLD) */
    int rank, size;
    int thread_multiple; /* the MPI library gave MPI_THREAD_MULTIPLE */
    int nprocesses;      /* traced processes (after reading) */
    uint32_t ncomms;     /* the trace's communicators */
} rp_mpi_t;

/* Started by an MPI launcher (mpiexec, srun): its environment says so. */
int rp_mpi_launched(void);
/* MPI_Init_thread (asking MPI_THREAD_MULTIPLE: one thread per traced
 * process of a share in the reduction) and the analyzer's communicator. */
void rp_mpi_init(rp_mpi_t *m, int *argc, char ***argv);
void rp_mpi_finalize(rp_mpi_t *m);

/* Whether any process has the flag. */
int rp_mpi_any(const rp_mpi_t *m, int flag);
/* The lowest rank with the flag, -1 when none. */
int rp_mpi_lowest(const rp_mpi_t *m, int flag);
/* Rank root's text to every process. */
void rp_mpi_share_text(const rp_mpi_t *m, char *text, size_t size, int root);

/* The sends of t (this share's) to the shares of their receivers, and
 * theirs to this one: t->sends holds the sends to this share's processes
 * from every share afterwards.  Collective; 0, or -1 when memory ran out
 * anywhere. */
int rp_mpi_gather_sends(const rp_mpi_t *m, rp_trace_t *t);
/* rp_gather_bounds_fn: ctx is the rp_mpi_t.  Each share's bounds (its
 * receivers') to every share, one MPI_Allgatherv, and each process's
 * uncertainty from its share, one MPI_Allreduce: every share then finds
 * the same shifts. */
int rp_mpi_gather_bounds(mpp_clock_bound_t **b, size_t *n, int64_t *uncertainty, int failed, void *ctx);
/* rp_combine_fn: ctx is the rp_mpi_t.  Each instance goes to a home
 * process (a hash of communicator and number), which combines what every
 * share says of it and answers. */
int rp_mpi_combine(rp_instance_t *in, size_t n, int failed, void *ctx);
/* The shares' totals into each process's (sums, the earliest first event,
 * the latest last, the first incomplete share's reason). */
void rp_mpi_totals(const rp_mpi_t *m, rp_totals_t *t);

/* The communication matrix's pairs of every share (rp_matrix_pairs) to
 * rank 0: *pairs and *n replaced there by all of them (the others' by
 * none); -1 everywhere when memory ran out anywhere. */
int rp_mpi_gather_pairs(const rp_mpi_t *m, mpp_pair_t **pairs, int *n);

#endif
