/* The clock every MPI call is timed with.  No system call: the invariant
 * TSC (rdtsc) where the processor declares one, else CLOCK_MONOTONIC through
 * the vDSO.  Ticks are converted to seconds only at MPI_Finalize, from the
 * TSC rate measured against CLOCK_MONOTONIC over the whole run. */
#ifndef MPP_CLOCK_H
#define MPP_CLOCK_H

#include <stdint.h>
#include <time.h>
#include <x86intrin.h>

#include "autoconf.h"
#include "util/common.h"

extern int mpp_clock_uses_tsc;
#ifdef MPP_TEST_HOOKS
/* Ticks added to every reading: MPIPROF_TEST_CLOCK_SKEW, in a library
 * configured with --enable-test-hooks only (never in the hot path of a
 * release build). */
extern int64_t mpp_clock_skew;
#define MPP_CLOCK_SKEW ((uint64_t)mpp_clock_skew)
#else
#define MPP_CLOCK_SKEW 0u
#endif

static inline uint64_t mpp_now(void)
{
    if (MPP_LIKELY(mpp_clock_uses_tsc))
        return __rdtsc() + MPP_CLOCK_SKEW;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec + MPP_CLOCK_SKEW;
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
 * reference point.  A TSC asked for but not invariant gets a warning.
 * `skew`: MPIPROF_TEST_CLOCK_SKEW's text ("" or "0": none). */
void mpp_clock_start(int choice, const char *skew);
/* Take the last reference point; from then on ticks convert to seconds. */
void mpp_clock_stop(void);
double mpp_ticks_to_seconds(uint64_t ticks);
/* Ticks per second as measured since mpp_clock_start (waits until 1 ms
 * has passed): good to ~1e-4, for turning model times into ticks while the
 * program runs (Overlap); seconds are still converted at the end. */
double mpp_clock_rate_estimate(void);
/* "TSC (invariant, 2.994 GHz)" or "CLOCK_MONOTONIC"; resolution in seconds. */
const char *mpp_clock_name(void);
/* Whether every process of this host that reads this clock reads the same
 * one, so that their offset is 0 exactly (clocksync.c): CLOCK_MONOTONIC is
 * one clock per host; the TSC is when the kernel keeps it as its
 * clocksource (it checks the CPUs' TSCs are synchronized, and drops it
 * otherwise).  Known at mpp_clock_start.  0: not shared (a skewed clock),
 * MPP_CLOCK_SHARED_TSC or MPP_CLOCK_SHARED_MONOTONIC; why, in words. */
enum { MPP_CLOCK_SHARED_TSC = 1, MPP_CLOCK_SHARED_MONOTONIC = 2 };
int mpp_clock_shared(void);
const char *mpp_clock_shared_why(void);
double mpp_clock_resolution(void);

#endif
