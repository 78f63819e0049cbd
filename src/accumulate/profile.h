/* The profile of one process at MPI_Finalize (its record: records/
 * profile.h), built from the threads' tables. */
#ifndef MPP_PROFILE_H
#define MPP_PROFILE_H

#include <stdint.h>

#include "accumulate/table.h"
#include "analyze/model.h"
#include "records/profile.h"

/* Merge the tables of all threads, resolve their call stacks and attribute
 * times to intervals (inclusive of nested ones). */
mpp_local_profile_t *mpp_profile_build(const mpp_table_t *const *tables, int ntables, const mpp_interval_t *intervals,
                                       int nintervals, double (*to_seconds)(uint64_t), mpp_resolve_fn resolve,
                                       void *resolve_ctx, mpp_function_name_fn function_name);
void mpp_profile_free(mpp_local_profile_t *p);

/* The SRC key (srckey.h) of a call of `fid` from the call stack `frames`
 * (depth return addresses, zero-padded), allocated: the one its cell gets. */
char *mpp_profile_src_key(uint32_t fid, const uintptr_t *frames, int depth, mpp_resolve_fn resolve, void *ctx,
                          mpp_function_name_fn function_name);

/* The predicted time of every cell and the predicted MPI time and Overlap
 * of every interval (inclusive).  A cell's model time is its price at the
 * parameters of `model` (the final ones); its predicted time is that less
 * the Overlap of the requests it started (the hidden part of a transfer
 * costs nothing; Overlap, measured against transfers priced at MPI_Init's
 * parameters, is at most the model time), split over SendRecv, Collective
 * and System as its measured time is; the measured time where `op(fid)` is
 * MPP_OP_MEASURED; I/O time is never modelled: predicted = measured. */
void mpp_profile_predict(mpp_local_profile_t *p, int (*op)(uint32_t fid), const mpp_model_t *model);

/* Attach the counter values of every interval: values[i][e][v] for local
 * interval i, event e of context.nevents, v < MPP_HW_NV (copied). */
int mpp_profile_set_counters(mpp_local_profile_t *p, const double *values);

#endif
