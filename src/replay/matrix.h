/* The communication matrix of a trace (mpiprof(7), COMMUNICATION MATRIX;
 * mpiprof-analyze(1)): each traced process's pairs made from its calls
 * and their messages by the rules the wrappers follow while the program
 * runs (intercept/matrix_hook.h, by each function's MPP_FMATRIX_* role):
 *  - a send: its message, bytes and time to its receiver;
 *  - a blocking receive: its time to the sender of the message it took;
 *  - MPI_Sendrecv: its message to its receiver, half its time to each peer
 *    (all of it to the one there is, when the other is MPI_PROC_NULL);
 *  - a nonblocking receive's posting: its time to the sender of the
 *    message that completed it, or for one never completed to the source
 *    it named when the trace records it (with the checks on).  The run
 *    gives it to the source the call named, nothing for MPI_ANY_SOURCE:
 *    the trace does not say which, so those differ (a posting takes well
 *    under a microsecond).
 * The pairs are put together by reduce/matrix_build.h. */
#ifndef MPP_REPLAY_MATRIX_H
#define MPP_REPLAY_MATRIX_H

#include "records/matrix.h"
#include "replay/replay.h"

/* The pairs of the processes first..end-1 (from: their world ranks;
 * times in seconds): allocated, *n of them (NULL with 0 when none); -1
 * when memory ran out. */
int rp_matrix_pairs(const rp_trace_t *t, int first, int end, mpp_pair_t **out, int *n);

#endif
