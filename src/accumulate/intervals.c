#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "accumulate/intervals.h"
#include "context/counters.h"
#include "util/warnings.h"

mpp_interval_t *mpp_intervals;
uint32_t mpp_nintervals;
_Atomic uint32_t mpp_current_interval; /* written by marks, read by every MPI call */

static uint32_t capacity;    /* MPIPROF_MAX_INTERVALS */
static uint32_t max_nesting; /* MPIPROF_MAX_NESTING */
static uint64_t origin;
static uint32_t *open_stack; /* open intervals, innermost last */
static uint32_t open_depth;
static uint32_t folded_depth; /* begin marks past a cap, ended without effect */
static uint32_t seq_depth;
static uint64_t seq_start;
static int warned_cap;

void (*mpp_describe_site)(uintptr_t site, char *out, unsigned size);

/* The boundary log (intervals.h): entry k of the ring is boundary number
 * k mod capacity; `logged` counts them, published after the entry is
 * written. */
typedef struct {
    uint64_t tick;
    uint32_t level;
    uint32_t ends; /* 1: an end, 0: a begin */
} boundary_t;
static boundary_t *boundaries;
static size_t log_capacity;
static _Atomic uint64_t logged;

int mpp_interval_log_init(size_t n)
{
    free(boundaries);
    boundaries = n ? malloc(n * sizeof *boundaries) : NULL;
    log_capacity = boundaries ? n : 0;
    atomic_store(&logged, 0);
    return n && !boundaries ? -1 : 0;
}

static void log_boundary(uint64_t tick, uint32_t level, int ends)
{
    if (!log_capacity)
        return;
    uint64_t k = atomic_load_explicit(&logged, memory_order_relaxed);
    boundaries[k % log_capacity] = (boundary_t){tick, level, (uint32_t)ends};
    atomic_store_explicit(&logged, k + 1, memory_order_release);
}

mpp_interval_place_t mpp_interval_place(void)
{
    uint32_t id = atomic_load_explicit(&mpp_current_interval, memory_order_relaxed);
    return (mpp_interval_place_t){atomic_load_explicit(&logged, memory_order_acquire),
                                  (uint32_t)mpp_intervals[id].level};
}

mpp_interval_place_t mpp_interval_place_at(uint64_t tick)
{
    uint64_t n = atomic_load_explicit(&logged, memory_order_acquire), lo = 0, hi = n;
    if (!log_capacity)
        return (mpp_interval_place_t){0, 0};
    if (n > log_capacity) /* not every boundary kept: the earliest is not known */
        lo = n - log_capacity;
    while (lo < hi) { /* the first boundary at or after `tick` */
        uint64_t mid = lo + (hi - lo) / 2;
        if (boundaries[mid % log_capacity].tick < tick)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t level = 0;
    if (lo > 0) {
        const boundary_t *b = &boundaries[(lo - 1) % log_capacity];
        level = b->ends ? (b->level ? b->level - 1 : 0) : b->level;
    }
    return (mpp_interval_place_t){lo, level};
}

int mpp_interval_end_of(mpp_interval_place_t place, uint64_t *tick)
{
    uint64_t n = atomic_load_explicit(&logged, memory_order_acquire);
    if (!log_capacity)
        return -1;
    for (uint64_t k = place.position; k < n; k++) {
        if (n - k > log_capacity) /* overwritten, or no log */
            return -1;
        boundary_t b = boundaries[k % log_capacity];
        /* a writer may have lapped the ring meanwhile */
        if (atomic_load_explicit(&logged, memory_order_acquire) - k > log_capacity)
            return -1;
        if (b.ends && b.level <= place.level) {
            *tick = b.tick;
            return 1;
        }
    }
    return 0;
}

int mpp_union_tracking;
int mpp_union_measured;
/* a mutex, not a spinlock: with more threads than cores a spinning waiter
 * can burn the time slice of the holder it waits for */
static pthread_mutex_t union_lock = PTHREAD_MUTEX_INITIALIZER;
static int threads_inside;
static uint64_t union_start;

void mpp_union_enter(uint64_t now)
{
    pthread_mutex_lock(&union_lock);
    if (threads_inside++ == 0)
        union_start = now;
    pthread_mutex_unlock(&union_lock);
}

/* The stretch ends when the last thread leaves MPI: it counts in the
 * interval open then. */
void mpp_union_leave(uint64_t now)
{
    pthread_mutex_lock(&union_lock);
    if (threads_inside > 0 && --threads_inside == 0 && now > union_start)
        mpp_intervals[atomic_load_explicit(&mpp_current_interval, memory_order_relaxed)].mpi_union_ticks +=
            now - union_start;
    pthread_mutex_unlock(&union_lock);
}
/* Hardware counters are read here, at interval boundaries (counters.h). */
void (*mpp_interval_counters)(uint32_t id, int opening);

static const char *mark_position(const mpp_mark_t *m, char *out, unsigned size)
{
    if (m->file)
        snprintf(out, size, "%s:%d", m->file, m->line);
    else if (m->site && mpp_describe_site)
        mpp_describe_site(m->site, out, size);
    else
        snprintf(out, size, "address %p", (void *)m->site);
    return out;
}

/* Where collection ends, for the warnings about what is still open then;
 * and, in a child forked to write a partial protocol, the CPU times the
 * ending process had (the child's own are not the program's). */
static const char *end_label = "MPI_Finalize";
static int cpu_frozen;
static double frozen_user, frozen_sys;

void mpp_intervals_end_at(const char *label, const double *cpu)
{
    end_label = label;
    cpu_frozen = cpu != NULL;
    if (cpu)
        frozen_user = cpu[0], frozen_sys = cpu[1];
}

void mpp_process_cpu(double *user, double *sys)
{
    if (cpu_frozen) {
        *user = frozen_user, *sys = frozen_sys;
        return;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    *user = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
    *sys = (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static void open_interval(uint32_t id, uint64_t now, uintptr_t thread)
{
    mpp_interval_t *in = &mpp_intervals[id];
    if (in->executions++ == 0)
        in->first_entry = now - origin;
    in->open_tick = now;
    in->open_thread = thread;
    mpp_process_cpu(&in->open_cpu, &in->open_sys);
    if (mpp_interval_counters)
        mpp_interval_counters(id, 1);
    open_stack[open_depth++] = id;
    mpp_current_interval = id;
    log_boundary(now, (uint32_t)in->level, 0);
}

/* The part of the open replicated-code region that lies in this execution
 * of an interval: from the later of the two starts until now. */
static uint64_t seq_overlap(const mpp_interval_t *in, uint64_t now)
{
    uint64_t from = seq_start > in->open_tick ? seq_start : in->open_tick;
    return now > from ? now - from : 0;
}

static void close_innermost(uint64_t now)
{
    uint32_t id = open_stack[--open_depth];
    mpp_interval_t *in = &mpp_intervals[id];
    if (seq_depth)
        in->seq_ticks += seq_overlap(in, now);
    double cpu, sys;
    mpp_process_cpu(&cpu, &sys);
    if (mpp_interval_counters)
        mpp_interval_counters(id, 0);
    in->ticks += now - in->open_tick;
    in->cpu += cpu - in->open_cpu;
    in->sys += sys - in->open_sys;
    mpp_current_interval = open_depth ? open_stack[open_depth - 1] : 0;
    log_boundary(now, (uint32_t)in->level, 1);
}

int mpp_intervals_init(uint32_t max_intervals, uint32_t nesting, uint64_t now)
{
    free(mpp_intervals);
    free(open_stack);
    capacity = max_intervals ? max_intervals : 1;
    max_nesting = nesting ? nesting : 1;
    mpp_intervals = calloc(capacity, sizeof *mpp_intervals);
    open_stack = calloc(max_nesting + 1, sizeof *open_stack);
    if (!mpp_intervals || !open_stack)
        return -1;
    origin = now;
    atomic_store(&logged, 0);
    mpp_nintervals = 1;
    open_depth = folded_depth = seq_depth = 0;
    warned_cap = 0;
    mpp_interval_t *whole = &mpp_intervals[0];
    strcpy(whole->name, "whole program");
    whole->parent = -1;
    open_interval(0, now, 0);
    return 0;
}

static int same_position(const mpp_interval_t *in, const char *name, const char *file, int line, uintptr_t site)
{
    if (strncmp(in->name, name, MPP_NAME_MAX - 1) != 0)
        return 0;
    if (file)
        return in->line == line && strncmp(in->file, file, MPP_PATH_MAX - 1) == 0;
    return in->site == site;
}

int mpp_interval_begin(const char *name, const mpp_mark_t *mark, uint64_t now, uintptr_t thread)
{
    const char *file = mark->file;
    int line = mark->line;
    uintptr_t site = mark->site;
    char where[MPP_PATH_MAX + 32];
    uint32_t parent = mpp_current_interval;
    if (folded_depth) {
        folded_depth++;
        return -1;
    }
    int found = -1;
    if (open_depth <= max_nesting) {
        /* Linear over the intervals: begin marks are rare next to MPI calls,
         * and the number of distinct intervals is capped. */
        for (uint32_t id = 1; id < mpp_nintervals && found < 0; id++) {
            mpp_interval_t *in = &mpp_intervals[id];
            if (in->parent == (int)parent && same_position(in, name, file, line, site))
                found = (int)id;
        }
    }
    if (found >= 0) {
        open_interval((uint32_t)found, now, thread);
        return found;
    }
    if (mpp_nintervals == capacity || open_depth > max_nesting) {
        if (!warned_cap)
            mpp_warn("interval \"%s\" at %s: past MPIPROF_MAX_INTERVALS=%u distinct intervals or "
                     "MPIPROF_MAX_NESTING=%u levels; it and further ones are folded into the enclosing interval",
                     name, mark_position(mark, where, sizeof where), capacity - 1, max_nesting);
        warned_cap = 1;
        folded_depth++;
        return -1;
    }
    uint32_t id = mpp_nintervals++;
    mpp_interval_t *in = &mpp_intervals[id];
    memset(in, 0, sizeof *in);
    strncpy(in->name, name, MPP_NAME_MAX - 1);
    if (file)
        strncpy(in->file, file, MPP_PATH_MAX - 1);
    in->line = line;
    in->site = file ? 0 : site;
    in->parent = (int)parent;
    in->level = mpp_intervals[parent].level + 1;
    open_interval(id, now, thread);
    return (int)id;
}

void mpp_interval_end(const char *name, const mpp_mark_t *mark, uint64_t now, uintptr_t thread)
{
    char where[MPP_PATH_MAX + 32];
    if (folded_depth) {
        folded_depth--;
        return;
    }
    if (open_depth <= 1) {
        mpp_warn("interval end at %s without an open interval; ignored", mark_position(mark, where, sizeof where));
        return;
    }
    uint32_t target = open_depth - 1;
    if (name) {
        while (target >= 1 && strncmp(mpp_intervals[open_stack[target]].name, name, MPP_NAME_MAX - 1) != 0)
            target--;
        if (target == 0) {
            mpp_warn("interval end \"%s\" at %s: no open interval has that name (innermost: \"%s\"); ignored", name,
                     mark_position(mark, where, sizeof where), mpp_intervals[open_stack[open_depth - 1]].name);
            return;
        }
        if (target != open_depth - 1)
            mpp_warn("interval end \"%s\" at %s closes the intervals still open inside it (innermost: \"%s\")", name,
                     mark_position(mark, where, sizeof where), mpp_intervals[open_stack[open_depth - 1]].name);
    }
    if (mpp_intervals[open_stack[open_depth - 1]].open_thread != thread)
        mpp_warn("interval \"%s\" ended at %s by another thread than the one that began it; closed anyway",
                 mpp_intervals[open_stack[open_depth - 1]].name, mark_position(mark, where, sizeof where));
    while (open_depth - 1 >= target)
        close_innermost(now);
}

void mpp_seq_begin(const mpp_mark_t *mark, uint64_t now)
{
    (void)mark;
    if (seq_depth++ == 0)
        seq_start = now;
}

void mpp_seq_end(const mpp_mark_t *mark, uint64_t now)
{
    char where[MPP_PATH_MAX + 32];
    if (seq_depth == 0) {
        mpp_warn("replicated-code end at %s without a begin; ignored", mark_position(mark, where, sizeof where));
        return;
    }
    if (--seq_depth)
        return;
    /* every open interval gets the part of the region inside it (intervals
     * closed meanwhile got theirs when they closed) */
    for (uint32_t d = 0; d < open_depth; d++)
        mpp_intervals[open_stack[d]].seq_ticks += seq_overlap(&mpp_intervals[open_stack[d]], now);
}

void mpp_intervals_close_all(uint64_t now)
{
    if (seq_depth) {
        mpp_warn("replicated code still open at %s; counted until then", end_label);
        seq_depth = 1;
        mpp_seq_end(&(mpp_mark_t){end_label, 0, 0}, now);
    }
    for (uint32_t d = 1; d < open_depth; d++)
        mpp_warn("interval \"%s\" still open at %s; closed there", mpp_intervals[open_stack[d]].name, end_label);
    while (open_depth)
        close_innermost(now);
    folded_depth = 0;
    mpp_current_interval = 0;
}
