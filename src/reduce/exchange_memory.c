/* The exchange of the reduction in one address space, without MPI
 * (exchange.h): one process alone for its partial protocol (every
 * collective is a copy, no message is ever sent), or the processes of
 * several partial protocols in mpiprof-merge, one thread each, the
 * messages in a shared queue and the collectives over a barrier.  The
 * reduction is the same code as under MPI, so a merged protocol says what
 * MPI_Finalize would have said of the processes present. */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "exchange.h"

typedef struct message {
    int source, dest, tag;
    void *buf;
    size_t len;
    struct message *next;
} message_t;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t arrived;
    pthread_barrier_t barrier;
    message_t *queue;
    int lost;           /* a message could not be queued (no memory): receivers stop waiting */
    const void **slots; /* per position: its buffer in the current collective */
    int gate;           /* 0 until every thread runs, then 1; -1: not all could start */
    pthread_cond_t opened;
} shared_t;

static shared_t *shared_of(mpp_exchange_t *x)
{
    return x->ctx;
}

static void mem_send(mpp_exchange_t *x, const void *buf, size_t len, int dest, int tag)
{
    shared_t *sh = shared_of(x);
    message_t *m = calloc(1, sizeof *m);
    void *copy = malloc(len ? len : 1);
    if (m && copy) {
        memcpy(copy, buf, len);
        *m = (message_t){x->position, dest, tag, copy, len, NULL};
    } else {
        free(m), free(copy);
        m = NULL;
    }
    pthread_mutex_lock(&sh->lock);
    message_t **end = &sh->queue;
    while (*end)
        end = &(*end)->next;
    if (m)
        *end = m;
    else
        sh->lost = 1;
    pthread_cond_broadcast(&sh->arrived);
    pthread_mutex_unlock(&sh->lock);
}

static void *mem_recv(mpp_exchange_t *x, int source, int tag, size_t *len)
{
    shared_t *sh = shared_of(x);
    pthread_mutex_lock(&sh->lock);
    for (;;) {
        for (message_t **at = &sh->queue; *at; at = &(*at)->next) {
            message_t *m = *at;
            if (m->dest != x->position || m->source != source || m->tag != tag)
                continue;
            *at = m->next;
            pthread_mutex_unlock(&sh->lock);
            void *buf = m->buf;
            *len = m->len;
            free(m);
            return buf;
        }
        if (sh->lost) { /* the reduction warns and goes on without it */
            pthread_mutex_unlock(&sh->lock);
            *len = 0;
            return NULL;
        }
        pthread_cond_wait(&sh->arrived, &sh->lock);
    }
}

static void mem_bcast(mpp_exchange_t *x, void *buf, size_t len)
{
    shared_t *sh = shared_of(x);
    if (x->size == 1)
        return;
    if (x->position == 0)
        sh->slots[0] = buf;
    pthread_barrier_wait(&sh->barrier);
    if (x->position != 0)
        memcpy(buf, sh->slots[0], len);
    pthread_barrier_wait(&sh->barrier); /* position 0's buffer stays until all copied it */
}

/* out = op over the positions' inputs, in the order of the positions. */
static void combine(const void *const *in, int size, void *out, size_t n, mpp_xop_t op)
{
    if (op == MPP_XOP_SUM || op == MPP_XOP_MAX) {
        double *o = out;
        memcpy(o, in[0], n * sizeof *o);
        for (int p = 1; p < size; p++) {
            const double *v = in[p];
            for (size_t k = 0; k < n; k++)
                o[k] = op == MPP_XOP_SUM ? o[k] + v[k] : fmax(o[k], v[k]);
        }
        return;
    }
    mpp_double_int_t *o = out;
    memcpy(o, in[0], n * sizeof *o);
    for (int p = 1; p < size; p++) {
        const mpp_double_int_t *v = in[p];
        for (size_t k = 0; k < n; k++) {
            int better = op == MPP_XOP_MINLOC ? v[k].value < o[k].value : v[k].value > o[k].value;
            if (better || (v[k].value == o[k].value && v[k].rank < o[k].rank))
                o[k] = v[k];
        }
    }
}

static void mem_reduce(mpp_exchange_t *x, const void *in, void *out, size_t n, mpp_xop_t op, int all)
{
    shared_t *sh = shared_of(x);
    if (x->size == 1) {
        if (out)
            combine(&in, 1, out, n, op);
        return;
    }
    sh->slots[x->position] = in;
    pthread_barrier_wait(&sh->barrier);
    if (out && (all || x->position == 0))
        combine(sh->slots, x->size, out, n, op);
    pthread_barrier_wait(&sh->barrier); /* the inputs stay until every result is made */
}

typedef struct {
    mpp_exchange_t x;
    const mpp_local_profile_t *profile;
    const char *hostname, *ranks_spec;
    mpp_reduced_t *result;
} worker_t;

static void *work(void *arg)
{
    worker_t *w = arg;
    shared_t *sh = w->x.ctx;
    /* the barriers need every position: start only once all threads run */
    pthread_mutex_lock(&sh->lock);
    while (sh->gate == 0)
        pthread_cond_wait(&sh->opened, &sh->lock);
    int go = sh->gate > 0;
    pthread_mutex_unlock(&sh->lock);
    if (go)
        w->result = mpp_reduce_exchange(w->profile, &w->x, w->ranks_spec, w->hostname);
    return NULL;
}

mpp_reduced_t *mpp_reduce_in_memory(const mpp_local_profile_t *const *profiles, const int *ranks,
                                    const char *const *hostnames, int n, int nprocs, const char *ranks_spec)
{
    if (n < 1)
        return NULL;
    shared_t sh = {.queue = NULL};
    worker_t *w = calloc((size_t)n, sizeof *w);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    sh.slots = calloc((size_t)n, sizeof *sh.slots);
    if (!w || !threads || !sh.slots) {
        free(w), free(threads), free(sh.slots);
        return NULL;
    }
    pthread_mutex_init(&sh.lock, NULL);
    pthread_cond_init(&sh.arrived, NULL);
    pthread_cond_init(&sh.opened, NULL);
    pthread_barrier_init(&sh.barrier, NULL, (unsigned)n);
    for (int p = 0; p < n; p++)
        w[p] = (worker_t){{p, n, nprocs, ranks, &sh, mem_send, mem_recv, mem_bcast, mem_reduce},
                          profiles[p], hostnames[p], ranks_spec, NULL};
    mpp_reduced_t *result;
    if (n == 1) { /* alone: no thread (a partial protocol is written in a forked child) */
        sh.gate = 1;
        work(&w[0]);
    } else {
        /* The reduction keeps little on the stack: small stacks let
         * thousands of processes be merged. */
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setstacksize(&attr, 1 << 20);
        int started = 0;
        for (; started < n; started++)
            if (pthread_create(&threads[started], &attr, work, &w[started]) != 0)
                break;
        pthread_attr_destroy(&attr);
        pthread_mutex_lock(&sh.lock);
        sh.gate = started == n ? 1 : -1; /* -1: not enough threads, nothing is reduced */
        pthread_cond_broadcast(&sh.opened);
        pthread_mutex_unlock(&sh.lock);
        for (int p = 0; p < started; p++)
            pthread_join(threads[p], NULL);
    }
    result = w[0].result;
    for (message_t *m = sh.queue, *next; m; m = next) {
        next = m->next;
        free(m->buf);
        free(m);
    }
    pthread_barrier_destroy(&sh.barrier);
    pthread_cond_destroy(&sh.arrived);
    pthread_cond_destroy(&sh.opened);
    pthread_mutex_destroy(&sh.lock);
    free(w), free(threads), free(sh.slots);
    return result;
}
