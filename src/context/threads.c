#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "context/threads.h"
#include "records/facts.h"
#include "util/common.h"
#include "util/srckey.h"
#include "util/warnings.h"

/* Threads: of /proc/self/status; -1 when it cannot be read. */
static int threads_now(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    int n = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "Threads:", 8)) {
            n = atoi(line + 8);
            break;
        }
    fclose(f);
    return n;
}

static int before_init = -1;    /* threads before MPI's initialization */
static int library_threads;     /* those it started */
static _Atomic int own_threads; /* the profiler's */
static _Atomic int alive_max, mpi_threads, team_max, read_ok;
static int (*omp_max_threads)(void); /* the OpenMP runtime's, when the program has one */
static int (*omp_num_threads)(void);

void mpp_threads_before_init(void) { before_init = threads_now(); }

static void atomic_max(_Atomic int *at, int value)
{
    int seen = atomic_load(at);
    while (value > seen && !atomic_compare_exchange_weak(at, &seen, value))
        ;
}

static void sample_alive(void)
{
    int n = threads_now();
    if (n > 0) {
        atomic_max(&alive_max, n - library_threads - atomic_load(&own_threads));
        atomic_store(&read_ok, 1);
    }
}

void mpp_threads_start(void)
{
    int now = threads_now();
    library_threads = before_init > 0 && now > before_init ? now - before_init : 0;
    atomic_store(&alive_max, 0);
    atomic_store(&mpi_threads, 0);
    atomic_store(&team_max, 0);
    atomic_store(&read_ok, 0);
    /* found, not linked: a program without OpenMP has no runtime */
    omp_max_threads = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_max_threads");
    omp_num_threads = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_num_threads");
    if (omp_max_threads)
        atomic_max(&team_max, omp_max_threads());
    sample_alive();
}

/* A new thread reads /proc (about 15 us) while the program has made few,
 * then at most every SAMPLE_EVERY_NS: a program that starts thousands of
 * short threads pays that once in a while, not per thread (bench/run's
 * short-lived threads).  CLOCK_MONOTONIC_COARSE: no system call. */
enum { SAMPLE_FIRST = 64 };
#define SAMPLE_EVERY_NS 10000000LL
static _Atomic long long last_sample_ns;

static int sample_due(int ordinal)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    long long now = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec, last = atomic_load(&last_sample_ns);
    if (ordinal > SAMPLE_FIRST && now - last < SAMPLE_EVERY_NS)
        return 0;
    atomic_store(&last_sample_ns, now);
    return 1;
}

void mpp_threads_sample(int new_mpi_thread)
{
    int ordinal = new_mpi_thread ? atomic_fetch_add(&mpi_threads, 1) + 1 : 0;
    if (!new_mpi_thread || sample_due(ordinal))
        sample_alive();
    if (omp_num_threads) /* the team this thread is in, inside a parallel region */
        atomic_max(&team_max, omp_num_threads());
    if (!new_mpi_thread && omp_max_threads)
        atomic_max(&team_max, omp_max_threads());
}

void mpp_threads_own(int delta) { atomic_fetch_add(&own_threads, delta); }

void mpp_threads_counts(mpp_thread_counts_t *out)
{
    *out = (mpp_thread_counts_t){atomic_load(&alive_max), atomic_load(&mpi_threads), 0, MPP_OMP_NONE};
    if (!atomic_load(&read_ok))
        out->alive = -1;     /* n/a: never read */
    else if (out->alive < 1) /* a thread that called MPI was alive, whatever the samples missed */
        out->alive = out->mpi > 0 ? 1 : 0;
    if (omp_max_threads) {
        out->omp = atomic_load(&team_max);
        out->source = MPP_OMP_RUNTIME;
    } else {
        /* no OpenMP runtime in the process: the variable says what one would use */
        const char *env = getenv("OMP_NUM_THREADS");
        int n = env ? atoi(env) : 0;
        if (n > 0) {
            out->omp = n;
            out->source = MPP_OMP_ENV;
        }
    }
}

char *mpp_threads_fact(const char *first, const mpp_thread_counts_t *c)
{
    char *f = NULL;
    if (asprintf(&f, "%s%c%s%c%d%c%d%c%d%c%d", MPP_FACT_THREADS, MPP_US, first, MPP_US, c->alive, MPP_US, c->mpi,
                 MPP_US, c->omp, MPP_US, c->source) < 0)
        return NULL;
    return f;
}

int mpp_threads_add_fact(char ***facts, int *nfacts, const char *host)
{
    static char **combined;
    static char *own;
    mpp_thread_counts_t c;
    mpp_threads_counts(&c);
    if (c.alive < 0)
        mpp_warn("Threads: /proc/self/status could not be read: the threads alive at once are n/a");
    char *fact = mpp_threads_fact(host, &c);
    char **grown = fact ? malloc(((size_t)*nfacts + 1) * sizeof *grown) : NULL;
    if (!grown) {
        free(fact);
        return -1;
    }
    if (*nfacts)
        memcpy(grown, *facts, (size_t)*nfacts * sizeof *grown);
    grown[(*nfacts)++] = fact;
    free(combined), free(own);
    combined = grown, own = fact;
    *facts = grown;
    return 0;
}

int mpp_threads_fact_parse(const char *value, char *first, size_t size, mpp_thread_counts_t *c)
{
    int fields[4];
    /* the four numbers are the last fields: the first (a host name) is free text */
    const char *end = value + strlen(value);
    for (int n = 0; n < 4; n++) {
        const char *us = NULL;
        for (const char *p = end - 1; p >= value; p--)
            if (*p == MPP_US) {
                us = p;
                break;
            }
        if (!us)
            return -1;
        fields[3 - n] = atoi(us + 1);
        end = us;
    }
    snprintf(first, size, "%.*s", (int)(end - value), value);
    *c = (mpp_thread_counts_t){fields[0], fields[1], fields[2], fields[3]};
    return 0;
}

const char *mpp_threads_source_name(int source)
{
    return source == MPP_OMP_RUNTIME ? "omp_get_max_threads" : source == MPP_OMP_ENV ? "OMP_NUM_THREADS" : "";
}
