#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/clock.h"
#include "context/config.h"
#include "util/warnings.h"

int mpp_clock_uses_tsc;
static uint64_t tsc_start, tsc_stop;
static uint64_t mono_start, mono_stop;
static double seconds_per_tick = 1e-9;
static char name[96] = "CLOCK_MONOTONIC";
static int shared;
#ifdef MPP_TEST_HOOKS
int64_t mpp_clock_skew;
#endif

static uint64_t monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPUID.80000007H:EDX[8] says the TSC runs at a constant rate in every state. */
static int tsc_is_invariant(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0x80000000u, &a, &b, &c, &d) || a < 0x80000007u)
        return 0;
    __get_cpuid(0x80000007u, &a, &b, &c, &d);
    return (d >> 8) & 1;
}

static uint64_t read_tsc(void) { return __rdtsc(); }

void mpp_clock_pair(mpp_clock_reader_t mono, mpp_clock_reader_t tsc, uint64_t *mono_ns, uint64_t *tsc_ticks)
{
    uint64_t best = UINT64_MAX;
    for (int i = 0; i < MPP_CLOCK_PAIR_TRIES && best > MPP_CLOCK_PAIR_TIGHT_NS; i++) {
        uint64_t before = mono(), t = tsc(), after = mono();
        if (after < before || after - before >= best)
            continue;
        best = after - before;
        *mono_ns = before + best / 2;
        *tsc_ticks = t;
    }
    if (best == UINT64_MAX) { /* a clock going back every time: cannot happen, but stay defined */
        *mono_ns = mono();
        *tsc_ticks = tsc();
    }
}

/* The kernel's clocksource is the TSC: it found the CPUs' TSCs synchronized
 * (and would have dropped it otherwise). */
static int kernel_trusts_tsc(void)
{
    char buf[32] = "";
    FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
    if (!f)
        return 0;
    int ok = fgets(buf, sizeof buf, f) && strcmp(buf, "tsc\n") == 0;
    fclose(f);
    return ok;
}

/* MPIPROF_TEST_CLOCK_SKEW: seconds added to this process's clock. */
static void set_skew(const char *text)
{
    double s = text && *text ? strtod(text, NULL) : 0;
    if (s == 0)
        return;
#ifdef MPP_TEST_HOOKS
    mpp_clock_skew = (int64_t)(s * mpp_clock_rate_estimate());
    shared = 0; /* no other process reads this clock */
#else
    mpp_warn("MPIPROF_TEST_CLOCK_SKEW has no effect: the library was not configured with --enable-test-hooks");
#endif
}

void mpp_clock_start(int choice, const char *skew)
{
    int invariant = tsc_is_invariant();
    if (choice == MPP_CLOCK_TSC && !invariant)
        mpp_warn("MPIPROF_CLOCK=tsc but this processor does not declare an invariant TSC; "
                 "using CLOCK_MONOTONIC instead");
    mpp_clock_uses_tsc = invariant && choice != MPP_CLOCK_MONOTONIC;
    mpp_clock_pair(monotonic_ns, read_tsc, &mono_start, &tsc_start);
    seconds_per_tick = 1e-9;
    shared = !mpp_clock_uses_tsc ? MPP_CLOCK_SHARED_MONOTONIC : kernel_trusts_tsc() ? MPP_CLOCK_SHARED_TSC : 0;
    set_skew(skew);
}

int mpp_clock_shared(void) { return shared; }

const char *mpp_clock_shared_why(void)
{
    return shared == MPP_CLOCK_SHARED_TSC ? "the invariant TSC, the kernel's clocksource (synchronized across CPUs)"
           : shared == MPP_CLOCK_SHARED_MONOTONIC ? "CLOCK_MONOTONIC, one clock per host"
                                                  : "not shared";
}

/* Measure the TSC rate against CLOCK_MONOTONIC over the whole run; a run
 * shorter than 10 ms waits the rest so the rate is good to ~1e-4. */
void mpp_clock_stop(void)
{
    if (!mpp_clock_uses_tsc) {
        snprintf(name, sizeof name, "CLOCK_MONOTONIC (vDSO)");
        return;
    }
    while (monotonic_ns() - mono_start < 10000000u)
        ;
    mpp_clock_pair(monotonic_ns, read_tsc, &mono_stop, &tsc_stop);
    seconds_per_tick = (double)(mono_stop - mono_start) * 1e-9 / (double)(tsc_stop - tsc_start);
    snprintf(name, sizeof name, "TSC (invariant, %.3f GHz, calibrated against CLOCK_MONOTONIC)",
             1e-9 / seconds_per_tick);
}

double mpp_ticks_to_seconds(uint64_t ticks) { return (double)ticks * seconds_per_tick; }

double mpp_clock_rate_estimate(void)
{
    if (!mpp_clock_uses_tsc)
        return 1e9;
    uint64_t mono, tsc;
    while (monotonic_ns() - mono_start < 1000000u)
        ;
    mpp_clock_pair(monotonic_ns, read_tsc, &mono, &tsc);
    return (double)(tsc - tsc_start) / ((double)(mono - mono_start) * 1e-9);
}

const char *mpp_clock_name(void) { return name; }

double mpp_clock_resolution(void)
{
    if (mpp_clock_uses_tsc)
        return seconds_per_tick;
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    return (double)res.tv_sec + res.tv_nsec * 1e-9;
}
