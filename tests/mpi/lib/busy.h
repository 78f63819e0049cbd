/* Test programs: wall-clock time, and computing (a busy loop) for a given
 * time, as a program's work between MPI calls. */
#ifndef MPIPROF_TEST_BUSY_H
#define MPIPROF_TEST_BUSY_H

#include <time.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void busy(double seconds)
{
    double end = now() + seconds;
    while (now() < end)
        ;
}

#endif
