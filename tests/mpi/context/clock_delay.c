/* clock_delay: preloaded, it stands for a loaded node that deschedules a
 * process at the worst moment for the profiler's clock.  Once the program
 * has read CLOCK_BOOTTIME (the arming mark, tests/mpi/context/clock_busy.c), the
 * first CLOCK_DELAY_CALLS (8) reads of CLOCK_MONOTONIC that libmpiprof
 * makes are counted, and those with an index of parity CLOCK_DELAY_PARITY
 * (0 or 1) sleep 300 ms after reading the clock: the caller's next
 * instruction (a TSC read) comes 300 ms after the time it was given. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static atomic_int armed;
static atomic_int counted;

static int from_libmpiprof(const void *caller)
{
    Dl_info info;
    return dladdr(caller, &info) && info.dli_fname && strstr(info.dli_fname, "libmpiprof");
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    static int (*real)(clockid_t, struct timespec *);
    if (!real)
        real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    int rc = real(id, ts);
    if (id == CLOCK_BOOTTIME) {
        atomic_store(&armed, 1);
    } else if (id == CLOCK_MONOTONIC && atomic_load(&armed) && from_libmpiprof(__builtin_return_address(0))) {
        const char *p = getenv("CLOCK_DELAY_PARITY"), *n = getenv("CLOCK_DELAY_CALLS");
        int index = atomic_fetch_add(&counted, 1);
        if (index < (n ? atoi(n) : 8) && index % 2 == (p ? atoi(p) : 0)) {
            struct timespec pause = {0, 300000000};
            nanosleep(&pause, NULL);
        }
    }
    return rc;
}
