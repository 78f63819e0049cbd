/* Start and end of profiling, shared by the C and Fortran entry points of
 * MPI_Init, MPI_Init_thread and MPI_Finalize, and the state the public API
 * asks about. */
#ifndef MPP_LIFECYCLE_H
#define MPP_LIFECYCLE_H

#include <stddef.h>
#include <stdint.h>

#include "write/partial.h"

enum { MPP_LIFE_BEFORE = 0, MPP_LIFE_ACTIVE, MPP_LIFE_AFTER, MPP_LIFE_DISABLED };

/* After the MPI library initialized in `fid` (MPI_Init, MPI_Init_thread,
 * MPI_Session_init: trace mode records it): `provided` thread level, and
 * the wrapper's return/frame addresses (MPI_Init's call site). */
void mpp_lifecycle_start(uint32_t fid, int provided, void *return_address, void *frame_address);
/* Before the MPI library finalizes: reduce, analyze, write.  `fid`: the
 * call that ends the profile (MPI_Finalize, or the last
 * MPI_Session_finalize: world.h); the wrapper's return and frame
 * addresses: its call site, which a hang dump of a process stuck in it, or
 * a partial protocol of a process ending in it, names. */
void mpp_lifecycle_finish(uint32_t fid, void *return_address, void *frame_address);
/* After the MPI library's call that ended the profile returned. */
void mpp_lifecycle_finalized(void);
/* MPI_Finalize (any entry point) is entered: 1 when the profile ends in it,
 * then finished (mpp_lifecycle_finish) and the world released; the caller
 * calls mpp_lifecycle_finalized once MPI has finalized. */
int mpp_lifecycle_finalize_begins(void *return_address, void *frame_address);
/* Whether c is that call, from its entry on (intervals end at its entry). */
struct mpp_call;
int mpp_lifecycle_ending_call(const struct mpp_call *c);
int mpp_lifecycle_state(void);
int mpp_lifecycle_quiet(void);

/* A process ending without MPI_Finalize (faults.c) writes its partial
 * protocol with these, without any MPI call: */
int mpp_lifecycle_partial_possible(void); /* profiling, and no protocol written yet */
/* End collection at `end` (ticks): intervals close, the clock's rate is
 * measured.  `read_counters` 0 in a child forked to write the partial
 * protocol: PAPI's state there is the parent's, so the counters are
 * neither read nor stopped, and the protocol says they are n/a. */
void mpp_lifecycle_stop(uint64_t end, int read_counters);
/* Build this process's profile, reduce it alone and write its partial
 * protocol; `end` is completed with the rank, the SRC point and the stack
 * of the call it ended in (`fid` of the MPI function, `frames` its call
 * stack; fid >= MPP_NFUNCTIONS: not in an MPI call, frames then where it
 * ended, zero-padded).  0 and the path in `written`, or -1. */
int mpp_lifecycle_partial(mpp_process_end_t *end, uint32_t fid, const uintptr_t *frames, int counters_read,
                          char *written, size_t size);
int mpp_lifecycle_rank(void);
int mpp_lifecycle_nprocs(void);

/* Whether the wait-state analysis runs (MPI_Pcontrol(0) then keeps the
 * calls counted: api.c). */
int mpp_lifecycle_waitstates(void);

#endif
