#ifndef MPP_WS_DEFERRED_H
#define MPP_WS_DEFERRED_H

#include <stddef.h>
#include <stdint.h>

#include "accumulate/waitstates/waitstates.h"
#include "attribute/requests.h"
#include "attribute/thread_state.h"

/* The wait-state analysis's ticks go to the cell of the call they belong
 * to.  Tables are per thread and only their thread may write them while
 * the program runs, so ticks for another thread's call (MPI_THREAD_MULTIPLE: whichever
 * thread receives a batch pairs it) wait here until that thread makes its
 * next MPI call, or MPI_Finalize.  Every function here runs under the
 * wait-state hooks' lock (waitstates/hooks.c). */

/* Ticks deferred for their threads: nonzero means some thread has some. */
extern size_t mpp_ws_ndeferred;
/* `ticks` of wait state `which` (MPP_WAIT_*, + MPP_WAIT_FINE_PART for the
 * fine part) for the call at o: added now if it is this thread's call. */
void mpp_ws_add_wait(const mpp_request_origin_t *o, int which, int64_t ticks);
/* ... taken back: a window that began earlier took them over (owners.h). */
void mpp_ws_take_wait(const mpp_request_origin_t *o, int which, int64_t ticks);
/* The deferred ticks of thread `self` (NULL: of every thread, at the end). */
void mpp_ws_apply_deferred(mpp_thread_t *self);
void mpp_ws_deferred_free(void);

#endif
