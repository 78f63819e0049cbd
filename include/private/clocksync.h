/* Clock alignment for the wait-state analysis (characteristics.md,
 * "Clocks"): the offset between this process's clock and rank 0's, by
 * ping-pong along a binomial tree of the profiler's communicator (log P
 * rounds; in round j the processes whose highest rank bit is j measure
 * against the process 2^j below them, whose own offset to rank 0 is known
 * by then).  Collective; part of the reduce stage, which issues the
 * profiler's own MPI calls.  Measured at MPI_Init and again at
 * MPI_Finalize. */
#ifndef MPP_CLOCKSYNC_H
#define MPP_CLOCKSYNC_H

#include <mpi.h>
#include <stdint.h>

typedef struct {
    int64_t offset;      /* ticks to add to this process's clock to read rank 0's */
    int64_t uncertainty; /* ticks: half the best round trip, summed along the tree path */
    uint64_t at;         /* this process's clock when it was measured */
} mpp_clock_alignment_t;

/* Round trips per pair (the best one counts): at least ROUNDS, and while
 * none has been quiet (under 20 us: on a loaded machine a process may be
 * descheduled during each), up to MAX_ROUNDS or 0.2 s. */
#define MPP_CLOCKSYNC_ROUNDS 24
#define MPP_CLOCKSYNC_MAX_ROUNDS 4096

int mpp_clock_align(MPI_Comm comm, mpp_clock_alignment_t *out);

#endif
