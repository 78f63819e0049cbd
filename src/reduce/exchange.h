/* How the reduction (reduce.c) reaches the other processes: the few
 * operations it needs, so that the same algorithm runs
 *   - over MPI at MPI_Finalize (mpp_reduce, reduce.h),
 *   - over one process and no MPI at all, for a partial protocol written
 *     when a process ends without MPI_Finalize (the MPI library may be
 *     unusable then),
 *   - over the partial protocols of several processes in one address space
 *     (mpiprof-merge: one thread per process).
 * No MPI here: an operation the reduction needs must be added to this table
 * and to both implementations (reduce.c for MPI, exchange_memory.c). */
#ifndef MPP_EXCHANGE_H
#define MPP_EXCHANGE_H

#include <stddef.h>

#include "accumulate/profile.h"
#include "records/reduced.h"

typedef enum { MPP_XOP_SUM, MPP_XOP_MAX, MPP_XOP_MINLOC, MPP_XOP_MAXLOC } mpp_xop_t;

/* Element of MINLOC/MAXLOC reductions (the layout of MPI_DOUBLE_INT);
 * ties go to the lower rank. */
typedef struct {
    double value;
    int rank;
} mpp_double_int_t;

typedef struct mpp_exchange mpp_exchange_t;
struct mpp_exchange {
    int position, size; /* this process among those reduced; position 0 gets the result */
    int nprocs;         /* processes of the run: ranks are below it */
    const int *ranks;   /* the run's rank of each position, ascending; NULL: rank = position */
    void *ctx;
    /* Messages between positions; recv returns a malloc'd copy (NULL when
     * it failed) and its length. */
    void (*send)(mpp_exchange_t *x, const void *buf, size_t len, int dest, int tag);
    void *(*recv)(mpp_exchange_t *x, int source, int tag, size_t *len);
    /* From position 0 to all. */
    void (*bcast)(mpp_exchange_t *x, void *buf, size_t len);
    /* Element-wise over all positions: doubles (SUM, MAX) or
     * mpp_double_int_t (MINLOC, MAXLOC), n elements; `out` is written on
     * position 0, or everywhere when `all`. */
    void (*reduce)(mpp_exchange_t *x, const void *in, void *out, size_t n, mpp_xop_t op, int all);
};

/* The run's rank of position p. */
static inline int mpp_exchange_rank(const mpp_exchange_t *x, int p) { return x->ranks ? x->ranks[p] : p; }

/* The reduction (reduce.c) over an exchange: the reduced data on position
 * 0, NULL elsewhere.  `ranks_spec` is position 0's MPIPROF_RANKS value. */
mpp_reduced_t *mpp_reduce_exchange(const mpp_local_profile_t *profile, mpp_exchange_t *x, const char *ranks_spec,
                                   const char *hostname);

/* Run fn(x, args[p]) once for each position p of n in this address space,
 * one thread each when n > 1 (exchange_memory.c: messages in a queue per
 * destination, collectives over a barrier); `ranks` as mpp_exchange_t's.
 * 0, or -1 when memory or threads ran out (fn ran nowhere then). */
int mpp_exchange_in_memory(int n, int nprocs, const int *ranks, void (*fn)(mpp_exchange_t *x, void *arg),
                           void *const *args);

/* The reduction of processes in this address space, without MPI
 * (exchange_memory.c): profiles[p] of the run's rank ranks[p] (ascending)
 * on host hostnames[p], n of them (one thread each when n > 1). */
mpp_reduced_t *mpp_reduce_in_memory(const mpp_local_profile_t *const *profiles, const int *ranks,
                                    const char *const *hostnames, int n, int nprocs, const char *ranks_spec);

#endif
