/* The profiler's own MPI calls for trace mode (part of the reduce stage):
 * OTF2's collective callbacks on the profiler's communicator, and the
 * exchange of each process's local definitions with rank 0 at
 * MPI_Finalize.  Point-to-point messages only (PMPI), never on the
 * program's communicators; rank 0 talks to every process in turn (OTF2
 * itself gathers its per-location tables there). */
#ifndef MPP_TRACE_COLLECTIVES_H
#define MPP_TRACE_COLLECTIVES_H

#include <mpi.h>
#include <otf2/otf2.h>
#include <stddef.h>

/* The callbacks for OTF2_Archive_SetCollectiveCallbacks, with
 * mpp_trace_collective_context(comm) as the global context. */
extern const OTF2_CollectiveCallbacks mpp_trace_collectives;
OTF2_CollectiveContext *mpp_trace_collective_context(MPI_Comm comm);
void mpp_trace_collective_context_free(OTF2_CollectiveContext *context);

/* Every process gives `mine` (len bytes); rank 0's `answer` is called for
 * each rank in order with that rank's bytes and returns the reply for it
 * (allocated, *reply_len bytes; NULL with 0 for none), which that process
 * gets in *reply (allocated; NULL when empty).  Collective.  -1 on every
 * process when something failed anywhere. */
typedef char *(*mpp_trace_answer_fn)(void *ctx, int rank, const char *bytes, size_t len, size_t *reply_len);
int mpp_trace_exchange(MPI_Comm comm, const char *mine, size_t len, mpp_trace_answer_fn answer, void *ctx,
                       char **reply, size_t *reply_len);

#endif
