/* The checks of collective operations (correctness.md: collective-mismatch,
 * different-roots, different-reductions, collective-size,
 * collective-datatype, incomplete-collective, unfinished-collective),
 * carried by the wait-state
 * analysis's collective instances (waitstates/hooks.h): each instance gets
 * rows of values the members must agree on (check/collcheck.h), reduced
 * with its instants; the batch's result says where they disagree, and
 * every member that gave a value that disagrees reports it at its own
 * call.  The generated wrapper of a collective gives its arguments just
 * before the wait-state hook makes its instance.  With the checks off
 * nothing of this runs, and the batches are as without it. */
#ifndef MPP_CHECK_COLLECTIVES_H
#define MPP_CHECK_COLLECTIVES_H

#include <mpi.h>
#include <stdint.h>

#include "attribute/thread_state.h"
#include "context/config.h" /* MPP_CHECK_*, for MPP_CHECKS_ON in the wrappers */
#include "intercept/wrapper_support.h"
#include "records/origin.h"

/* A collective call's arguments (what it has of them; 0 elsewhere). */
typedef struct {
    uint32_t operation; /* MPP_FN_ of its blocking form: MPI_Bcast for MPI_Ibcast, MPI_Bcast_init, MPI_Bcast_c */
    int nonblocking;    /* it made a request (the call's new_request) */
    int has_root, root;
    MPI_Op op;
    const void *sendbuf, *recvbuf;
    int64_t count; /* count and datatype (MPI_Bcast, MPI_Reduce, ...; recvcount of MPI_Reduce_scatter_block) */
    MPI_Datatype type;
    int64_t sendcount, recvcount;
    MPI_Datatype sendtype, recvtype;
    const int *recvcounts; /* or: */
    const MPI_Count *recvcounts_c;
} mpp_chk_coll_t;

/* MPI_Init: the rows per instance at the checks' level (0: none).  The
 * end (MPI_Finalize, the wait states' exchange over): a nonblocking or
 * persistent collective still running is unfinished-collective. */
int mpp_chk_coll_start(int level);
void mpp_chk_coll_end(void);

/* A collective call that succeeded: its values, for the instance the
 * wait-state hook makes of it next. */
void mpp_chk_collective(const mpp_call_t *c, MPI_Comm comm, const mpp_chk_coll_t *a);
/* A persistent collective's creating call: its values, for each start. */
void mpp_chk_collective_init(const mpp_call_t *c, MPI_Comm comm, MPI_Request request, const mpp_chk_coll_t *a);

/* Requests completed (as mpp_ws_completed gets them), freed: a
 * nonblocking or started persistent collective's is no longer running. */
void mpp_chk_coll_completed(const mpp_reqset_t *set, int n, const int *which);
void mpp_chk_coll_freed_set(const mpp_reqset_t *set);

/* --- for the wait-state hooks (their lock held) --- */
/* The rows of call c's instance (values that change no maximum when the
 * call gave none). */
void mpp_chk_coll_rows_of(const mpp_call_t *c, int64_t *rows);
/* A persistent request (its key) started by call c: its values for the
 * instance begun next; freed: forgotten. */
void mpp_chk_coll_started(const mpp_call_t *c, uint64_t key);
void mpp_chk_coll_freed(uint64_t key);
/* --- for trace mode (mpiprof-trace(5)): the 2 * MPP_CC_NVALUES rows
 * (check/collcheck.h) of call c's instance, whether the wait-state hooks
 * took them already or not; of a persistent request by its key.  0 when
 * there are none (INT64_MIN in all rows then). --- */
int mpp_chk_coll_rows_traced(const mpp_call_t *c, int64_t *rows);
int mpp_chk_coll_rows_of_request(uint64_t key, int64_t *rows);
/* A batch of n instances reduced: own[rows * n] this member's rows, max
 * the maxima (row k of instance j at [k * n + j]), origins their calls. */
void mpp_chk_coll_results(int n, int rows, const int64_t *own, const int64_t *max,
                          const mpp_request_origin_t *origins);
/* A communicator's collective calls counted over its members at its end
 * (its free or MPI_Finalize): from `least` to `most`, this member's `own`;
 * `at` the call of number `index` (from 0) on this member, the first
 * beyond `least` when it was still kept (NULL: none kept), `members` how
 * many there are. */
void mpp_chk_coll_counts(uint64_t least, uint64_t most, uint64_t own, int members, const mpp_request_origin_t *at,
                         uint64_t index);

#endif
