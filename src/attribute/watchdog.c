/* The hang watchdog thread (watchdog.h).  It never interrupts the program:
 * a stuck thread is blocked inside MPI, and what its dump shows (the call,
 * its arguments, its SRC stack as return addresses) was recorded by the
 * wrapper at the call's entry, so the watchdog only reads that record and
 * does the slow part itself: symbolization (libdw), the request table, the
 * file.  No signal means no system call of the MPI library interrupted
 * (poll and epoll_wait fail with EINTR even under SA_RESTART) and nothing to
 * keep async-signal-safe. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attribute/requests.h"
#include "attribute/symbolize.h"
#include "attribute/thread_state.h"
#include "attribute/watchdog.h"
#include "context/clock.h"
#include "context/threads.h"
#include "gen/function_table.h"
#include "util/srckey.h"
#include "util/warnings.h"
#include "write/hang_dump.h"

/* Requests listed per dump, at most (the count of all is given). */
#define MAX_LISTED 256

static struct {
    int timeout, rank, world_size, quiet;
    char path[PATH_MAX + 32];
    char run[160], host[256], program[512];
    double ticks_per_second;
    pthread_t thread;
    int running, stopping;
    pthread_mutex_t lock;
    pthread_cond_t wake;
} dog = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Freed communicator facts a record may still point to (see retire). */
static pthread_mutex_t retired_lock = PTHREAD_MUTEX_INITIALIZER;
static void **retired;
static size_t nretired, retired_capacity;

static double epoch_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void mpp_watchdog_retire(void *p)
{
    pthread_mutex_lock(&retired_lock);
    if (dog.running) {
        if (nretired == retired_capacity) {
            size_t capacity = retired_capacity * 2 + 16;
            void **grown = realloc(retired, capacity * sizeof *grown);
            if (grown) {
                retired = grown;
                retired_capacity = capacity;
            }
        }
        if (nretired < retired_capacity)
            retired[nretired++] = p;
        p = NULL; /* kept, or (out of memory) leaked: a record may point to it */
    }
    pthread_mutex_unlock(&retired_lock);
    free(p); /* the watchdog is stopped: nothing reads the records */
}

/* Between two looks: no record is being read. */
static void free_retired(void)
{
    pthread_mutex_lock(&retired_lock);
    for (size_t i = 0; i < nretired; i++)
        free(retired[i]);
    nretired = 0;
    pthread_mutex_unlock(&retired_lock);
}

/* A consistent copy of thread t's record of the call numbered `serial`
 * (seqlock read), with the communicator's facts copied too; 0 when the
 * record is of another call or being written. */
static int snapshot(mpp_thread_t *t, uint64_t serial, mpp_watch_call_t *out, mpp_watch_comm_t *comm)
{
    const mpp_watch_call_t *w = &t->watch.call;
    if (atomic_load_explicit(&w->serial, memory_order_acquire) != serial)
        return 0;
    out->fid = w->fid;
    out->t0 = w->t0;
    out->dest = w->dest;
    out->source = w->source;
    out->root = w->root;
    out->tag = w->tag;
    out->sendtag = w->sendtag;
    out->count = w->count;
    out->depth = w->depth < 0 ? 0 : w->depth > MPP_MAX_DEPTH ? MPP_MAX_DEPTH : w->depth;
    for (int i = 0; i < out->depth; i++)
        out->frames[i] = w->frames[i];
    out->nrequests = w->nrequests;
    for (int i = 0; i < w->nrequests && i < MPP_WATCH_REQUESTS; i++)
        out->requests[i] = w->requests[i];
    const mpp_watch_comm_t *c = w->comm;
    if (c)
        *comm = *c;
    out->comm = c ? comm : NULL;
    atomic_thread_fence(memory_order_acquire);
    return atomic_load_explicit(&w->serial, memory_order_relaxed) == serial &&
           atomic_load_explicit(&t->entered, memory_order_relaxed) == serial;
}

static const char *category_name(int kind)
{
    static const char *names[MPP_NCAT] = {"SendRecv", "Collective", "System", "I/O"};
    return kind >= 0 && kind < MPP_NCAT ? names[kind] : "?";
}

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }

/* "file:line (function)", the text of a frame record (srckey.h); the
 * functions inlined there first, "a <- b".  NULL where the stack ends
 * before it (below main or a thread's start routine, as in the protocol). */
static const char *frame_text(mpp_symbolizer_t *sym, uintptr_t pc, int first, int *last, char *out, size_t size)
{
    const char *record = sym ? mpp_symbolize(sym, pc) : "??";
    int end = mpp_srckey_stack_end(record);
    if (end == MPP_STACK_RUNTIME && !first)
        return NULL;
    *last = end == MPP_STACK_ENTRY;
    mpp_srckey_record_text(record, out, size);
    return out;
}

/* The block of a stuck call, as text kept for every rewrite of the file. */
static char *describe(const mpp_thread_t *t, const mpp_watch_call_t *w, double inside, double now)
{
    mpp_request_info_t *listed = calloc(MAX_LISTED, sizeof *listed);
    mpp_watch_request_t *requests = calloc(MAX_LISTED, sizeof *requests);
    size_t outstanding = listed ? mpp_requests_list(listed, MAX_LISTED) : 0;
    int nlisted = listed && requests ? (int)(outstanding < MAX_LISTED ? outstanding : MAX_LISTED) : 0;
    for (int i = 0; i < nlisted; i++) {
        const mpp_request_info_t *r = &listed[i];
        mpp_watch_request_t *q = &requests[i];
        q->handle = r->handle;
        q->category = category_name(r->kind);
        q->op = r->described ? function_name(r->fid) : "";
        q->persistent = r->persistent;
        q->has_peer = r->described && r->peer_world != MPP_WATCH_NONE;
        q->peer_world = r->peer_world;
        q->tag = r->tag;
        uint64_t key = r->handle | (uint64_t)r->serial << 32;
        for (int k = 0; k < w->nrequests && k < MPP_WATCH_REQUESTS; k++)
            q->waited |= w->requests[k] == key;
    }
    mpp_symbolizer_t *sym = mpp_symbolizer_open();
    const char *frames[MPP_MAX_DEPTH] = {0};
    char texts[MPP_MAX_DEPTH][256];
    for (int i = 0, last = 0; i < w->depth && w->frames[i] && !last; i++)
        if (!(frames[i] = frame_text(sym, w->frames[i], i == 0, &last, texts[i], sizeof texts[i])))
            break;
    int category = w->fid < MPP_NFUNCTIONS ? mpp_functions[w->fid].category : -1;
    mpp_hang_call_t c = {.tid = t->tid,
                         .function = function_name(w->fid),
                         .category = category_name(category),
                         .entered = now - inside,
                         .stuck_for = inside,
                         .call = w,
                         .frames = frames,
                         .noutstanding = (int)outstanding,
                         .nlisted = nlisted,
                         .requests = requests};
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (f) {
        mpp_hang_write_call(f, &c);
        if (fclose(f) != 0) {
            free(text);
            text = NULL;
        }
    }
    if (text && !dog.quiet)
        fprintf(stderr, "mpiprof: rank %d has been inside %s for %.0f s (%s); its state is in %s\n", dog.rank,
                c.function, inside, frames[0] ? frames[0] : "?", dog.path);
    mpp_warn_protocol_only("rank %d stayed inside %s at %s for more than MPIPROF_HANG_TIMEOUT=%d s; "
                           "its state was written to %s",
                           dog.rank, c.function, frames[0] ? frames[0] : "?", dog.timeout, dog.path);
    mpp_symbolizer_close(sym);
    free(listed);
    free(requests);
    return text;
}

/* The whole file, rewritten under a temporary name and renamed into place
 * (a reader never sees half a dump). */
static void write_dump(void)
{
    char tmp[sizeof dog.path + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", dog.path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f) {
        mpp_warn("cannot create the hang dump '%s': %s", tmp, strerror(errno));
        return;
    }
    int threads = 0;
    for (mpp_thread_t *t = mpp_threads(); t; t = t->next)
        threads++;
    mpp_hang_header_t h = {.rank = dog.rank,
                           .world_size = dog.world_size,
                           .timeout = dog.timeout,
                           .threads = threads,
                           .pid = (long)getpid(),
                           .run = dog.run,
                           .host = dog.host,
                           .program = dog.program,
                           .written = epoch_now()};
    mpp_hang_write_header(f, &h);
    for (mpp_thread_t *t = mpp_threads(); t; t = t->next) {
        const mpp_watch_dog_t *d = &t->watch.dog;
        if (!d->block)
            continue;
        fputs(d->block, f);
        mpp_hang_write_end(f, d->resumed, d->resumed_at);
    }
    if (fclose(f) != 0 || rename(tmp, dog.path) != 0) {
        mpp_warn("writing the hang dump '%s' failed: %s", dog.path, strerror(errno));
        unlink(tmp);
    }
}

/* One look at every thread; 1 when the file must be rewritten. */
static int look(void)
{
    int changed = 0;
    double now = epoch_now();
    uint64_t ticks = mpp_now();
    for (mpp_thread_t *t = mpp_threads(); t; t = t->next) {
        uint64_t in = atomic_load_explicit(&t->entered, memory_order_relaxed);
        uint64_t out = atomic_load_explicit(&t->left, memory_order_relaxed);
        mpp_watch_dog_t *d = &t->watch.dog;
        if (d->dumped && !d->resumed && (in == out || in != d->dumped)) {
            d->resumed = 1; /* the dumped call returned: the process runs again */
            d->resumed_at = now;
            changed = 1;
            if (!dog.quiet)
                fprintf(stderr, "mpiprof: rank %d left the call of its hang dump after %.1f s\n", dog.rank,
                        d->stuck_for + (now - d->dumped_at));
        }
        if (in == out || in == d->dumped)
            continue;
        mpp_watch_call_t w;
        mpp_watch_comm_t comm;
        if (!snapshot(t, in, &w, &comm))
            continue; /* not recorded yet, or just left */
        double inside = ticks > w.t0 ? (double)(ticks - w.t0) / dog.ticks_per_second : 0;
        if (inside < dog.timeout)
            continue;
        char *block = describe(t, &w, inside, now);
        if (!block)
            continue;
        free(d->block);
        d->block = block;
        d->dumped = in;
        d->dumped_at = now;
        d->stuck_for = inside;
        d->resumed = 0;
        changed = 1;
    }
    return changed;
}

static void *watch(void *arg)
{
    (void)arg;
    /* a few looks per timeout: a stuck call is found at most a quarter late */
    double period = dog.timeout / 4.0 < 0.05 ? 0.05 : dog.timeout / 4.0 > 1.0 ? 1.0 : dog.timeout / 4.0;
    pthread_mutex_lock(&dog.lock);
    while (!dog.stopping) {
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        double whole = floor(period);
        until.tv_sec += (time_t)whole;
        until.tv_nsec += (long)((period - whole) * 1e9);
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        while (!dog.stopping && pthread_cond_timedwait(&dog.wake, &dog.lock, &until) != ETIMEDOUT)
            ;
        pthread_mutex_unlock(&dog.lock);
        free_retired();
        if (look())
            write_dump();
        pthread_mutex_lock(&dog.lock);
    }
    pthread_mutex_unlock(&dog.lock);
    return NULL;
}

int mpp_watchdog_start(const mpp_watchdog_setup_t *setup)
{
    if (dog.running)
        return 0;
    dog.timeout = setup->timeout;
    dog.rank = setup->rank;
    dog.world_size = setup->world_size;
    dog.quiet = setup->quiet;
    snprintf(dog.path, sizeof dog.path, "%s.hang.%d", setup->protocol_path, setup->rank);
    snprintf(dog.run, sizeof dog.run, "%s", setup->run);
    snprintf(dog.host, sizeof dog.host, "%s", setup->host);
    snprintf(dog.program, sizeof dog.program, "%s", setup->program);
    dog.ticks_per_second = mpp_clock_rate_estimate();
    dog.stopping = 0;
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&dog.wake, &attr);
    pthread_condattr_destroy(&attr);
    /* The program's signals are not for this thread: it starts with all blocked. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    atomic_store(&mpp_watch_on, 1);
    dog.running = 1;
    int rc = pthread_create(&dog.thread, NULL, watch, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc == 0)
        mpp_threads_own(1); /* not the program's */
    if (rc != 0) {
        dog.running = 0;
        atomic_store(&mpp_watch_on, 0);
        pthread_cond_destroy(&dog.wake);
        mpp_warn("MPIPROF_HANG_TIMEOUT: the watchdog thread could not be started (%s); hangs are not detected",
                 strerror(rc));
        return -1;
    }
    return 0;
}

void mpp_watchdog_stop(void)
{
    if (!dog.running)
        return;
    pthread_mutex_lock(&dog.lock);
    dog.stopping = 1;
    pthread_cond_signal(&dog.wake);
    pthread_mutex_unlock(&dog.lock);
    pthread_join(dog.thread, NULL);
    mpp_threads_own(-1);
    atomic_store(&mpp_watch_on, 0);
    if (look()) /* calls dumped that have returned since the last look */
        write_dump();
    pthread_mutex_lock(&retired_lock);
    dog.running = 0;
    pthread_mutex_unlock(&retired_lock);
    free_retired();
    for (mpp_thread_t *t = mpp_threads(); t; t = t->next) {
        free(t->watch.dog.block);
        memset(&t->watch.dog, 0, sizeof t->watch.dog);
    }
    pthread_cond_destroy(&dog.wake);
}
