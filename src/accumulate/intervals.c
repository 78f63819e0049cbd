#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "intervals.h"
#include "warnings.h"

mpp_interval_t *mpp_intervals;
uint32_t mpp_nintervals;
uint32_t mpp_current_interval;
static uint32_t capacity;
static uint64_t origin;

void mpp_process_cpu(double *user, double *sys)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
    *sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static void open_interval(mpp_interval_t *in, uint64_t now)
{
    if (in->executions++ == 0)
        in->first_entry = now - origin;
    in->open_tick = now;
    mpp_process_cpu(&in->open_cpu, &in->open_sys);
}

static void close_interval(mpp_interval_t *in, uint64_t now)
{
    double cpu, sys;
    mpp_process_cpu(&cpu, &sys);
    in->ticks += now - in->open_tick;
    in->cpu += cpu - in->open_cpu;
    in->sys += sys - in->open_sys;
}

int mpp_intervals_init(uint32_t max_intervals, const char *file, int line, uint64_t now)
{
    free(mpp_intervals);
    capacity = max_intervals ? max_intervals : 1;
    mpp_intervals = calloc(capacity, sizeof *mpp_intervals);
    if (!mpp_intervals)
        return -1;
    origin = now;
    mpp_nintervals = 1;
    mpp_current_interval = 0;
    mpp_interval_t *whole = &mpp_intervals[0];
    strcpy(whole->name, "whole program");
    strncpy(whole->file, file ? file : "", sizeof whole->file - 1);
    whole->line = line;
    whole->parent = -1;
    open_interval(whole, now);
    return 0;
}

void mpp_intervals_close_all(uint64_t now)
{
    for (int64_t id = mpp_current_interval; id >= 0; id = mpp_intervals[id].parent)
        close_interval(&mpp_intervals[id], now);
    mpp_current_interval = 0;
}
