/* The hang watchdog (MPIPROF_HANG_TIMEOUT; mpiprof(7), HANGS).  A thread of
 * the profiler wakes a few times per timeout and looks at every thread's
 * two call counters (thread_state.h): a thread inside the same MPI call for
 * longer than the timeout gets its state written to <protocol>.hang.<rank>
 * (format: mpiprof-hang(1)), once per stuck call.  The stuck thread is never
 * interrupted: what the dump shows was recorded when the call was entered
 * (with the watchdog on only), into the thread's mpp_watch_t, which the
 * watchdog reads while the thread is blocked.  No MPI here: the comm facts
 * were computed by the wrapper (src/intercept/watch_support.c). */
#ifndef MPP_WATCHDOG_H
#define MPP_WATCHDOG_H

#include <stdatomic.h>
#include <stdint.h>

#include "records/watch.h"

typedef struct {
    int timeout; /* seconds, > 0 */
    int rank, world_size, quiet;
    const char *protocol_path; /* the dump goes to <protocol_path>.hang.<rank> */
    const char *run;           /* the same in every process of the run */
    const char *host, *program;
} mpp_watchdog_setup_t;

/* Start the watchdog thread.  0, or -1 (warned). */
int mpp_watchdog_start(const mpp_watchdog_setup_t *setup);
/* Stop it (MPI_Finalize's entry): a last look marks returned calls. */
void mpp_watchdog_stop(void);
/* Free p (what a record may point to) once no dump is being taken. */
void mpp_watchdog_retire(void *p);

#endif
