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

#include "reduce/exchange.h"

typedef struct message {
    int source, dest, tag;
    void *buf;
    size_t len;
    struct message *next;
} message_t;

/* Messages wait in their destination's queue, in the order sent, and wake
 * only that destination: thousands of positions (bench/scaling) do not
 * all wake for every message. */
typedef struct {
    pthread_mutex_t lock;
    pthread_barrier_t barrier;
    message_t **queue;       /* [n]: per destination */
    message_t ***queue_tail; /* [n] */
    pthread_cond_t *arrived; /* [n]: per destination */
    int n;
    int lost;           /* a message could not be queued (no memory): receivers stop waiting */
    const void **slots; /* per position: its buffer in the current collective */
    int gate;           /* 0 until every thread runs, then 1; -1: not all could start */
    pthread_cond_t opened;
} shared_t;

static shared_t *shared_of(mpp_exchange_t *x) { return x->ctx; }

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
    if (m && dest >= 0 && dest < sh->n) {
        *sh->queue_tail[dest] = m;
        sh->queue_tail[dest] = &m->next;
        pthread_cond_broadcast(&sh->arrived[dest]);
    } else {
        free(m ? m->buf : NULL);
        free(m);
        sh->lost = 1;
        for (int p = 0; p < sh->n; p++)
            pthread_cond_broadcast(&sh->arrived[p]);
    }
    pthread_mutex_unlock(&sh->lock);
}

static void *mem_recv(mpp_exchange_t *x, int source, int tag, size_t *len)
{
    shared_t *sh = shared_of(x);
    pthread_mutex_lock(&sh->lock);
    for (;;) {
        for (message_t **at = &sh->queue[x->position]; *at; at = &(*at)->next) {
            message_t *m = *at;
            if (m->source != source || m->tag != tag)
                continue;
            *at = m->next;
            if (!*at)
                sh->queue_tail[x->position] = at;
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
        pthread_cond_wait(&sh->arrived[x->position], &sh->lock);
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
    void (*fn)(mpp_exchange_t *x, void *arg);
    void *arg;
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
        w->fn(&w->x, w->arg);
    return NULL;
}

int mpp_exchange_in_memory(int n, int nprocs, const int *ranks, void (*fn)(mpp_exchange_t *x, void *arg),
                           void *const *args)
{
    if (n < 1)
        return -1;
    shared_t sh = {.n = n};
    worker_t *w = calloc((size_t)n, sizeof *w);
    pthread_t *threads = calloc((size_t)n, sizeof *threads);
    sh.slots = calloc((size_t)n, sizeof *sh.slots);
    sh.queue = calloc((size_t)n, sizeof *sh.queue);
    sh.queue_tail = calloc((size_t)n, sizeof *sh.queue_tail);
    sh.arrived = calloc((size_t)n, sizeof *sh.arrived);
    if (!w || !threads || !sh.slots || !sh.queue || !sh.queue_tail || !sh.arrived) {
        free(w), free(threads), free(sh.slots), free(sh.queue), free(sh.queue_tail), free(sh.arrived);
        return -1;
    }
    pthread_mutex_init(&sh.lock, NULL);
    for (int p = 0; p < n; p++) {
        pthread_cond_init(&sh.arrived[p], NULL);
        sh.queue_tail[p] = &sh.queue[p];
    }
    pthread_cond_init(&sh.opened, NULL);
    pthread_barrier_init(&sh.barrier, NULL, (unsigned)n);
    for (int p = 0; p < n; p++)
        w[p] = (worker_t){{p, n, nprocs, ranks, &sh, mem_send, mem_recv, mem_bcast, mem_reduce}, fn, args[p]};
    int rc = 0;
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
        rc = started == n ? 0 : -1;
    }
    for (int p = 0; p < n; p++) {
        for (message_t *m = sh.queue[p], *next; m; m = next) {
            next = m->next;
            free(m->buf);
            free(m);
        }
        pthread_cond_destroy(&sh.arrived[p]);
    }
    pthread_barrier_destroy(&sh.barrier);
    pthread_cond_destroy(&sh.opened);
    pthread_mutex_destroy(&sh.lock);
    free(w), free(threads), free(sh.slots), free(sh.queue), free(sh.queue_tail), free(sh.arrived);
    return rc;
}

typedef struct {
    const mpp_local_profile_t *profile;
    const char *hostname, *ranks_spec;
    mpp_reduced_t *result;
} reduction_t;

static void reduce_one(mpp_exchange_t *x, void *arg)
{
    reduction_t *r = arg;
    r->result = mpp_reduce_exchange(r->profile, x, r->ranks_spec, r->hostname);
}

mpp_reduced_t *mpp_reduce_in_memory(const mpp_local_profile_t *const *profiles, const int *ranks,
                                    const char *const *hostnames, int n, int nprocs, const char *ranks_spec)
{
    if (n < 1)
        return NULL;
    reduction_t *r = calloc((size_t)n, sizeof *r);
    void **args = calloc((size_t)n, sizeof *args);
    mpp_reduced_t *result = NULL;
    if (r && args) {
        for (int p = 0; p < n; p++) {
            r[p] = (reduction_t){profiles[p], hostnames[p], ranks_spec, NULL};
            args[p] = &r[p];
        }
        if (mpp_exchange_in_memory(n, nprocs, ranks, reduce_one, args) == 0)
            result = r[0].result;
        else
            for (int p = 0; p < n; p++)
                mpp_reduced_free(r[p].result);
    }
    free(r);
    free(args);
    return result;
}
