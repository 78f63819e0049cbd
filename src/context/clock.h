/* The clock every MPI call is timed with.  No system call: the invariant
 * TSC (rdtsc) where the processor declares one, else CLOCK_MONOTONIC through
 * the vDSO.  Ticks are converted to seconds only at MPI_Finalize, from the
 * TSC rate measured against CLOCK_MONOTONIC over the whole run. */
#ifndef MPP_CLOCK_H
#define MPP_CLOCK_H

#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

#include "util/common.h"

extern int mpp_clock_uses_tsc;

static inline uint64_t mpp_now(void)
{
    if (MPP_LIKELY(mpp_clock_uses_tsc))
        return __rdtsc();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Both clocks at one instant: the TSC read between two CLOCK_MONOTONIC
 * reads, from the try whose two reads are closest (up to
 * MPP_CLOCK_PAIR_TRIES tries, until one is within
 * MPP_CLOCK_PAIR_TIGHT_NS), the monotonic time the middle of that try.
 * The TSC rate is measured between two such pairs: a process descheduled
 * between the reads of a pair (a loaded node) would otherwise shift the
 * rate by the time it lost over the length of the run (0.3 s lost at the
 * end of a 1 s run: every time 23% short).  The readers are parameters
 * for the unit tests. */
typedef uint64_t (*mpp_clock_reader_t)(void);
#define MPP_CLOCK_PAIR_TRIES 32
#define MPP_CLOCK_PAIR_TIGHT_NS 2000u
void mpp_clock_pair(mpp_clock_reader_t mono, mpp_clock_reader_t tsc, uint64_t *mono_ns, uint64_t *tsc_ticks);

/* Choose the clock (MPP_CLOCK_AUTO/TSC/MONOTONIC) and take the first
 * reference point.  A TSC asked for but not invariant gets a warning. */
void mpp_clock_start(int choice);
/* Take the last reference point; from then on ticks convert to seconds. */
void mpp_clock_stop(void);
double mpp_ticks_to_seconds(uint64_t ticks);
/* Ticks per second as measured since mpp_clock_start (waits until 1 ms
 * has passed): good to ~1e-4, for turning model times into ticks while the
 * program runs (Overlap); seconds are still converted at the end. */
double mpp_clock_rate_estimate(void);
/* "TSC (invariant, 2.994 GHz)" or "CLOCK_MONOTONIC"; resolution in seconds. */
const char *mpp_clock_name(void);
double mpp_clock_resolution(void);

#endif
