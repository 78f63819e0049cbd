/* The profile of one process at MPI_Finalize: what accumulate hands to
 * reduce.  Plain data in seconds, keyed by strings that mean the same on
 * every process (interval path, SRC key); no MPI. */
#ifndef MPP_PROFILE_H
#define MPP_PROFILE_H

#include <stdint.h>

#include "intervals.h"
#include "mpp_common.h"
#include "table.h"

typedef struct {
    char *key;   /* "0" for the whole program; parent key RS name US file US line */
    const mpp_interval_t *info;
    int parent;  /* local index, -1 for interval 0 */
    double first_entry; /* seconds after interval 0 began */
    double exec, cpu, sys, seq;
    double cat[MPP_NCAT]; /* time in MPI by category, nested intervals included */
} mpp_local_interval_t;

typedef struct {
    int interval; /* local index */
    char *src;    /* SRC key (srckey.h) */
    uint64_t calls, bytes_sent, bytes_recv;
    double time;
} mpp_local_cell_t;

typedef struct {
    mpp_local_interval_t *intervals;
    int nintervals;
    mpp_local_cell_t *cells;
    int ncells;
} mpp_local_profile_t;

/* Frame record of a return address (symbolize.h's mpp_symbolize). */
typedef const char *(*mpp_resolve_fn)(void *ctx, uintptr_t return_address);
/* Name of an MPI function id. */
typedef const char *(*mpp_function_name_fn)(uint32_t fid);

/* Merge the tables of all threads, resolve their call stacks and attribute
 * times to intervals (inclusive of nested ones). */
mpp_local_profile_t *mpp_profile_build(const mpp_table_t *const *tables, int ntables,
                                       const mpp_interval_t *intervals, int nintervals,
                                       double (*to_seconds)(uint64_t), mpp_resolve_fn resolve,
                                       void *resolve_ctx, mpp_function_name_fn function_name);
void mpp_profile_free(mpp_local_profile_t *p);

#endif
