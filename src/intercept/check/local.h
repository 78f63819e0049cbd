/* The correctness checks within one process that need no exchange between
 * processes (correctness.md), and the hooks the generated wrappers call for
 * them (the roles of mpi_functions.txt's @check lines):
 *   requests.c  unfinished-send, unfinished-recv, nonfreed-request,
 *               active-request-free, request-cancel: from the request table
 *               (attribute/requests.h), which keeps each request's creating
 *               call and whether a persistent one is active;
 *   handles.c   resource-leak: communicators, groups, datatypes, operations,
 *               windows, info objects and files created and not freed;
 *   threads.c   thread-level: calls from another thread than MPI_Init's
 *               under MPI_THREAD_SINGLE or FUNNELED, or from two at once
 *               under MPI_THREAD_SERIALIZED;
 *   outside.c   call-outside-mpi: calls before MPI_Init, after MPI_Finalize;
 *   rma.c       rma-epoch: one-sided operations outside an access epoch,
 *               epochs closed never opened or left open (the rma-* roles).
 * Every hook is behind MPP_CHECKS_ON (or mpp_check_outside_on) in the
 * wrapper: with MPIPROF_CHECK=off each costs one predicted branch. */
#ifndef MPP_CHECK_LOCAL_H
#define MPP_CHECK_LOCAL_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#include "attribute/thread_state.h"
#include "check/rma_conflicts.h" /* MPP_RMA_READ, ... for the wrappers */
#include "intercept/handle_keys.h"
#include "intercept/wrapper_support.h"

/* --- requests.c --- */
/* A request the call created (call.new_request, its serial set by
 * mpp_call_end): its SRC point, kept for the end of the run. */
void mpp_check_request_created(const mpp_call_t *c);
/* MPI_Start, MPI_Startall succeeded: their persistent requests are active. */
void mpp_check_requests_started(const mpp_reqset_t *set);
/* A wait or test completed n of the requests it handled (`which`: their
 * indexes, NULL: the first n): persistent ones are inactive again. */
void mpp_check_completed(const mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which,
                         const MPI_Status *statuses);
/* MPI_Wait failed with `ret` (nonzero) for a reason other than its
 * arguments: its request completed, with that error (MPI sets a
 * persistent one inactive; MPICH's part/pingping frees it next). */
int mpp_check_wait_failed(int ret);
/* MPI_Request_get_status found its request complete: not active any more. */
void mpp_check_request_peeked(const mpp_reqset_t *set);
/* Before MPI_Request_free or MPI_Cancel: the state of its request, 0 when
 * the call is not to be reported (MPP_CHECK_REQ_* bits) ... */
enum { MPP_CHECK_REQ_ACTIVE = 1, MPP_CHECK_REQ_PERSISTENT = 2, MPP_CHECK_REQ_P2P = 4 };
int mpp_check_request_state(const mpp_reqset_t *set);
/* ... and, once it succeeded: active-request-free, request-cancel. */
void mpp_check_request_freed(const mpp_call_t *c, int state);
void mpp_check_request_cancelled(const mpp_call_t *c, int state);
/* The end of the run (mpp_check_run_end): the requests left; `finalize` 0
 * at a partial protocol (unfinished ones only). */
void mpp_check_requests_end(int finalize);

/* --- handles.c --- */
enum {
    MPP_HANDLE_COMM = 0,
    MPP_HANDLE_GROUP,
    MPP_HANDLE_TYPE,
    MPP_HANDLE_OP,
    MPP_HANDLE_WIN,
    MPP_HANDLE_INFO,
    MPP_HANDLE_FILE,
    MPP_NHANDLE_KINDS
};
/* MPI_Init: an empty table (locked under MPI_THREAD_MULTIPLE). */
void mpp_check_handles_start(int locking);
/* A handle of `kind` (its MPP_HANDLE_KEY) the call created (predefined
 * and null handles are not tracked) ... */
void mpp_check_handle_created(const mpp_call_t *c, int kind, uint64_t key);
/* ... freed: called before the destructor, from any call (MPI's own too). */
void mpp_check_handle_freed(int kind, uint64_t key);
/* An attribute set on comm (MPI_COMM_SELF, MPI_COMM_WORLD: see @check setattr). */
void mpp_check_attr_set(MPI_Comm comm);
/* MPI_Finalize: one resource-leak per creating SRC point and kind. */
void mpp_check_handles_end(void);

/* --- threads.c --- */
/* MPI_Init (collective): the thread level provided, the calling thread is
 * MPI's main one. */
void mpp_check_threads_start(int provided);
void mpp_check_threads_end(void);

/* --- outside.c --- */
/* Set before MPI_Init and after MPI_Finalize: the wrappers of functions
 * the standard does not allow then call mpp_check_outside on their
 * unprofiled path. */
extern _Atomic int mpp_check_outside_on;
void mpp_check_outside(uint32_t fid, void *return_address, void *frame_address);
/* MPI_Init (after the findings were started): the calls made before it,
 * kept, become findings. */
void mpp_check_outside_start(void);
/* MPI_Finalize: calls from here on, once MPI has finalized, are outside. */
void mpp_check_outside_end(void);

/* --- rma.c --- */
/* What a call of an rma-* role does to its window's epochs. */
enum {
    MPP_RMA_OP,       /* a one-sided operation to `rank` (its target) */
    MPP_RMA_FENCE,    /* arg: its assert */
    MPP_RMA_START,    /* access epoch (PSCW) ... */
    MPP_RMA_COMPLETE, /* ... closed */
    MPP_RMA_POST,     /* exposure epoch ... */
    MPP_RMA_WAIT,     /* ... closed */
    MPP_RMA_TEST,     /* ... closed when arg (its flag) */
    MPP_RMA_LOCK,     /* of `rank` */
    MPP_RMA_UNLOCK,   /* of `rank` */
    MPP_RMA_LOCK_ALL,
    MPP_RMA_UNLOCK_ALL,
    MPP_RMA_FLUSH, /* of `rank`, -1: all (flush_local too) */
    MPP_RMA_FREE,  /* MPI_Win_free */
};
/* MPI_Init: no window (locked under MPI_THREAD_MULTIPLE). */
void mpp_check_rma_start(int locking);
/* A window created over comm: followed from now (a window whose creation
 * was not seen never gives a finding). */
void mpp_check_rma_new(MPI_Win win, MPI_Comm comm);
/* Before the PMPI call: the epoch misuse the call would be (rma-epoch,
 * reported now: MPI may abort on it). */
void mpp_check_rma_before(mpp_call_t *c, int event, MPI_Win win, int rank);
/* After it succeeded (mpp_call_end ran): the epoch it opened or closed. */
void mpp_check_rma_after(const mpp_call_t *c, int event, MPI_Win win, int rank, int arg);
/* An epoch call on win went by unseen (not profiled): its epochs are not
 * known any more; `frees`: MPI_Win_free. */
void mpp_check_rma_unseen(MPI_Win win, int frees);
/* The end of the run: at MPI_Finalize (`finalize`), the epochs left open. */
void mpp_check_rma_end(int finalize);
/* A one-sided operation went to MPI (full): the bytes of its target it
 * accesses (kind: MPP_RMA_READ, _WRITE, _ACCUMULATE of
 * check/rma_conflicts.h), for rma-conflict between origins. */
void mpp_check_rma_access(const mpp_call_t *c, MPI_Win win, int rank, MPI_Aint disp, int64_t count, MPI_Datatype type,
                          int kind);
/* MPI_Win_start or MPI_Win_post succeeded (full, event MPP_RMA_START or
 * _POST): the group of its epoch. */
void mpp_check_rma_group(MPI_Win win, int event, MPI_Group group);

/* --- rma_between.c: rma-conflict between origins (rma.c's windows) --- */
void mpp_rma_between_start(int locking);
/* A window made over comm of `size` processes: its name on every member
 * (0: none), each member's MPI_COMM_WORLD rank in *world (NULL: the
 * identity; the caller's to free). */
uint64_t mpp_rma_between_new(MPI_Win win, MPI_Comm comm, uint32_t size, int32_t **world);
/* Records of an operation's accesses to its target (an MPI_COMM_WORLD
 * rank) in epoch `epoch` of the window named `window` (a fence epoch's
 * number, or MPP_RMA_EPOCH_PSCW and the number of the access epoch to
 * that target of `origin`, the caller's rank in the window's group). */
void mpp_rma_between_access(const mpp_call_t *c, uint64_t window, uint64_t epoch, int origin, int target,
                            MPI_Aint disp, int64_t count, MPI_Datatype type, int kind);
/* The target posted its exposure epoch number `exposure` of the window
 * named `window` to the processes of ranks[n] (in the window's group). */
void mpp_rma_between_posted(uint64_t window, const int *ranks, int n, uint64_t exposure);
/* A record from MPI_COMM_WORLD rank source (messages.c, channel
 * MPP_COMM_ID_RMA). */
void mpp_rma_between_record(int source, const void *record);
void mpp_rma_between_end(int finalize);

#endif
