/* Clock alignment for the wait-state analysis (characteristics.md,
 * "Clocks"): the offset between this process's clock and rank 0's, by
 * ping-pong along a binomial tree of the profiler's communicator (log P
 * rounds; in round j the processes whose highest rank bit is j measure
 * against the process 2^j below them, whose own offset to rank 0 is known
 * by then).  Collective; part of the reduce stage, which issues the
 * profiler's own MPI calls.  Measured at MPI_Init and again at
 * MPI_Finalize.  A process and its parent on one host that read one clock
 * (mpp_clock_shared: the TSC the kernel trusts, or CLOCK_MONOTONIC) have
 * offset 0 and uncertainty 0: the first ping tells, and is the only one;
 * so a job on one host is aligned exactly whatever the load. */
#ifndef MPP_CLOCKSYNC_H
#define MPP_CLOCKSYNC_H

#include <mpi.h>
#include <stdint.h>

typedef struct {
    int64_t offset;      /* ticks to add to this process's clock to read rank 0's */
    int64_t uncertainty; /* ticks: half the best round trip, summed along the tree path */
    uint64_t at;         /* this process's clock when it was measured */
    /* The measurement against the tree parent (rank 0: none). */
    int64_t edge_offset, edge_uncertainty;
    int same_host;    /* the parent runs on this process's host: one clock, no drift */
    int shared_clock; /* ... and both read its clock (mpp_clock_shared): edge offset 0, exact */
    int shared_cpu;   /* this process and its parent shared a CPU neither could leave */
    /* Set by the measurement at MPI_Finalize: how far the offset measured
     * at MPI_Init can be from the truth, as both measurements bound it
     * (mpp_clock_init_error), summed along the tree path. */
    int64_t init_error;
} mpp_clock_alignment_t;

/* Round trips per pair (the best one counts): at least ROUNDS, and while
 * none has been quiet (under 20 us: on a loaded machine a process may be
 * descheduled during each), up to MAX_ROUNDS or 0.2 s.  Two processes of
 * one host whose round trips take time slices are asked whether they share
 * a CPU, and then move apart for the measurement (apart.h). */
#define MPP_CLOCKSYNC_ROUNDS 24
#define MPP_CLOCKSYNC_MAX_ROUNDS 4096

/* `host`: this process's host name.  `earlier`: NULL at MPI_Init; at
 * MPI_Finalize the alignment of MPI_Init, whose error this one bounds
 * (out->init_error). */
int mpp_clock_align(MPI_Comm comm, const char *host, const mpp_clock_alignment_t *earlier,
                    mpp_clock_alignment_t *out);

#endif
