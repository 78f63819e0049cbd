/* What a generated wrapper records for the hang watchdog (watchdog.h) when
 * MPIPROF_HANG_TIMEOUT is set: one line before the PMPI call,
 *
 *     MPP_WATCH_ENTER(mpp_mode, &call, keys, nkeys, comm, dest, source, root, tag, sendtag, count);
 *
 * (roles the function lacks are MPP_WATCH_NONE, count -1; keys: the
 * requests a wait or test handles).  With the watchdog on every call is in
 * MPP_COLLECT_GENERAL mode (thread_state.h): on the fast path it is one
 * predicted branch on the call's mode, already in a register.  The MPI-aware half: ranks are translated to
 * world ranks (world.h) with facts cached on each communicator. */
#ifndef MPP_WATCH_SUPPORT_H
#define MPP_WATCH_SUPPORT_H

#include <mpi.h>
#include <stdatomic.h>
#include <stdint.h>

#include "attribute/thread_state.h"
#include "attribute/watchdog.h"
#include "util/common.h"

typedef struct {
    MPI_Comm comm;          /* MPI_COMM_NULL: none */
    int dest, source, root; /* MPP_WATCH_NONE: not an argument of the call */
    int tag, sendtag;       /* tag, or recvtag and sendtag (Sendrecv) */
    int64_t count;          /* elements of the (first) buffer; -1: none */
} mpp_watch_args_t;

/* Record the arguments and the call stack (return and frame address of the
 * wrapper, as for mpp_call_end) of the call in its thread's mpp_watch_t. */
void mpp_watch_enter(mpp_call_t *c, const mpp_watch_args_t *a, const uint64_t *keys, int nkeys, void *return_address,
                     void *frame_address);

#define MPP_WATCH_ENTER(mode, call, keys, nkeys, ...)                                                               \
    do {                                                                                                            \
        if (MPP_UNLIKELY((mode) != MPP_COLLECT_FAST) && atomic_load_explicit(&mpp_watch_on, memory_order_relaxed))  \
            mpp_watch_enter(call, &(const mpp_watch_args_t){__VA_ARGS__}, keys, nkeys, __builtin_return_address(0), \
                            __builtin_frame_address(0));                                                            \
    } while (0)

/* The call that ends the profile (MPI_Finalize or the last
 * MPI_Session_finalize), collective over the world, with the profiler's
 * own reduction inside, is watched like a wrapped call from its entry
 * (before collection stops) to the return of the MPI library's: c is the
 * call the thread entered for it (lifecycle.c). */
void mpp_watch_finalize_enter(mpp_call_t *c, void *return_address, void *frame_address);

/* Set up (the world's facts, the attribute that caches the others') at the
 * profile's start, before the watchdog starts; release at its end. */
int mpp_watch_comms_start(void);
void mpp_watch_comms_stop(void);

#endif
