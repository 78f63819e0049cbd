#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "comms.h"
#include "handlemap.h"
#include "mt_lock.h"
#include "waitstate_hooks.h"
#include "waitstates.h"
#include "warnings.h"

int mpp_ws_on;

enum { TAG_STREAM = 7201 };

static MPI_Comm ws_comm = MPI_COMM_NULL;
static int64_t clock_offset, threshold, fine_threshold;
static int batch = 256, world_size;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;
static mpp_p2p_t matcher;
static mpp_ws_stats_t stats;
static unsigned since_progress;

static void apply_deferred(mpp_thread_t *self);
static size_t ndeferred;

/* Every hook runs between take() and give(); a thread entering one takes
 * the wait-state ticks other threads paired for its calls. */
static inline void take(void)
{
    mpp_mt_take(&lock);
    if (MPP_UNLIKELY(ndeferred) && mpp_tls_thread)
        apply_deferred(mpp_tls_thread);
}

static inline void give(void) { mpp_mt_give(&lock); }

static inline int64_t aligned(uint64_t ticks) { return (int64_t)ticks + clock_offset; }

/* Wait-state ticks go to the cell of the call they belong to.  Tables are
 * per thread and only their thread may write them while the program runs,
 * so ticks for another thread's call (MPI_THREAD_MULTIPLE: whichever
 * thread receives a batch pairs it) wait here until that thread makes its
 * next MPI call, or MPI_Finalize. */
typedef struct {
    mpp_request_origin_t origin;
    int which;
    int64_t ticks;
} deferred_wait_t;

static deferred_wait_t *deferred;
static size_t deferred_capacity;

static void add_to_cell(mpp_thread_t *owner, const mpp_request_origin_t *o, int which, int64_t ticks)
{
    mpp_cell_t *cell = mpp_origin_cell(owner, o);
    if (cell && which >= MPP_WAIT_FINE_PART)
        cell->stats.fine[which - MPP_WAIT_FINE_PART] += (uint64_t)ticks;
    else if (cell)
        cell->stats.wait[which] += (uint64_t)ticks;
}

static void add_wait(const mpp_request_origin_t *o, int which, int64_t ticks)
{
    mpp_thread_t *self = mpp_tls_thread;
    if (ticks <= 0 || !o->thread)
        return;
    if (o->thread == self) {
        add_to_cell(self, o, which, ticks);
        return;
    }
    if (ndeferred == deferred_capacity) {
        size_t cap = deferred_capacity ? 2 * deferred_capacity : 64;
        deferred_wait_t *grown = realloc(deferred, cap * sizeof *grown);
        if (!grown)
            return;
        deferred = grown;
        deferred_capacity = cap;
    }
    deferred[ndeferred++] = (deferred_wait_t){*o, which, ticks};
}

/* The deferred ticks of thread `self` (NULL: of every thread, at the end). */
static void apply_deferred(mpp_thread_t *self)
{
    size_t kept = 0;
    for (size_t i = 0; i < ndeferred; i++) {
        deferred_wait_t *d = &deferred[i];
        if (self && d->origin.thread != self)
            deferred[kept++] = *d;
        else
            add_to_cell(d->origin.thread, &d->origin, d->which, d->ticks);
    }
    ndeferred = kept;
}

static void deliver_real_sync(void *ctx, const mpp_request_origin_t *o, int64_t wait, int fine)
{
    (void)ctx;
    add_wait(o, MPP_WAIT_REALSYNC + (fine ? MPP_WAIT_FINE_PART : 0), wait);
}

/* ------------------------------------------------------------------ */
/* Send records: per destination, a batch being filled; full batches in
 * flight until their MPI_Issend completes, then reused. */

typedef struct out_batch {
    mpp_send_record_t *records;
    int n;
    MPI_Request request;
    struct out_batch *next;
} out_batch_t;

static out_batch_t **filling; /* [world_size] */
static out_batch_t *in_flight, *spare;
static mpp_send_record_t *incoming;
static MPI_Request incoming_request = MPI_REQUEST_NULL;

static void reclaim(void)
{
    out_batch_t **link = &in_flight;
    while (*link) {
        out_batch_t *b = *link;
        int done = 0;
        PMPI_Test(&b->request, &done, MPI_STATUS_IGNORE);
        if (done) {
            *link = b->next;
            b->next = spare;
            spare = b;
        } else {
            link = &b->next;
        }
    }
}

static out_batch_t *new_batch(void)
{
    if (!spare)
        reclaim();
    out_batch_t *b = spare;
    if (b) {
        spare = b->next;
    } else {
        b = calloc(1, sizeof *b);
        if (b && !(b->records = malloc((size_t)batch * sizeof *b->records))) {
            free(b);
            b = NULL;
        }
    }
    if (b) {
        b->n = 0;
        b->next = NULL;
    }
    return b;
}

static void flush_to(int dest)
{
    out_batch_t *b = filling[dest];
    if (!b || !b->n)
        return;
    filling[dest] = NULL;
    /* synchronous: its completion says the receiver has it (the end of the
     * exchange at MPI_Finalize relies on that) */
    PMPI_Issend(b->records, b->n * (int)sizeof *b->records, MPI_BYTE, dest, TAG_STREAM, ws_comm, &b->request);
    b->next = in_flight;
    in_flight = b;
    stats.batches++;
    stats.batch_bytes += (uint64_t)b->n * sizeof *b->records;
}

static void record_send(int dest, uint32_t comm, int tag, uint64_t entry)
{
    if (dest < 0 || dest >= world_size)
        return;
    out_batch_t *b = filling[dest];
    if (!b && !(b = filling[dest] = new_batch()))
        return;
    b->records[b->n++] = (mpp_send_record_t){comm, tag, aligned(entry)};
    stats.messages++;
    if (b->n == batch)
        flush_to(dest);
}

static void post_incoming(void)
{
    PMPI_Irecv(incoming, batch * (int)sizeof *incoming, MPI_BYTE, MPI_ANY_SOURCE, TAG_STREAM, ws_comm,
               &incoming_request);
}

/* Replay the batches that arrived. */
static void progress_incoming(void)
{
    for (;;) {
        int done = 0, bytes = 0;
        MPI_Status status;
        if (incoming_request == MPI_REQUEST_NULL)
            return;
        PMPI_Test(&incoming_request, &done, &status);
        if (!done)
            return;
        PMPI_Get_count(&status, MPI_BYTE, &bytes);
        for (int i = 0; i < bytes / (int)sizeof *incoming; i++)
            mpp_p2p_sent(&matcher, status.MPI_SOURCE, &incoming[i]);
        post_incoming();
    }
}

/* Receivers look at what arrived every few receives while some of theirs
 * wait for their send records. */
static void maybe_progress(void)
{
    if ((++since_progress & 15) == 0)
        progress_incoming();
}

/* ------------------------------------------------------------------ */
/* Requests the analysis follows, by handle. */

enum { REQ_RECV = 1, REQ_PRECV, REQ_PSEND, REQ_COLL, REQ_PCOLL };

typedef struct {
    int kind;
    int dest, tag;           /* REQ_PSEND */
    mpp_comm_t *comm;        /* held */
    uint64_t instance;       /* REQ_COLL, REQ_PCOLL: the instance in progress */
    int active;              /* REQ_PCOLL: started, not completed */
} ws_request_t;

static mpp_handlemap_t requests;

/* Requests are keyed as in mpp_reqset_t: handle | serial << 32 (MPI gives a
 * new request the handle of one just completed, maybe in another thread
 * before the completing thread has looked it up). */
static void track(const mpp_call_t *c, MPI_Request request, int kind, mpp_comm_t *comm, int dest, int tag,
                  uint64_t instance)
{
    int inserted;
    if (request == MPI_REQUEST_NULL || !c->new_request)
        return;
    uint64_t key = mpp_request_key(request) | (uint64_t)c->new_serial << 32;
    ws_request_t *r = mpp_handlemap_put(&requests, key, &inserted);
    if (!r)
        return;
    if (!inserted)
        mpp_comm_release(r->comm); /* a handle MPI reused unseen */
    mpp_comm_hold(comm);
    *r = (ws_request_t){kind, dest, tag, comm, instance, kind == REQ_COLL};
}

static void untrack(uint64_t key)
{
    ws_request_t r;
    if (mpp_handlemap_remove(&requests, key, &r))
        mpp_comm_release(r.comm);
}

/* ------------------------------------------------------------------ */
/* Collective instances of a communicator (mpp_instances_t: which batch
 * goes when) and their reductions in flight. */

typedef struct coll_batch {
    MPI_Request request;
    int n;
    int64_t *sent, *max;      /* [3n]: entries, exits, -exits (mpp_instances_take) */
    mpp_request_origin_t *origins;
    MPI_Comm merged;          /* to free once done (intercommunicators), else MPI_COMM_NULL */
    struct coll_batch *next;
} coll_batch_t;

struct mpp_coll_ring {
    mpp_instances_t instances;
    MPI_Comm reduce_comm;     /* the communicator, or its merged intracommunicator */
    int merged;
    coll_batch_t *in_flight;
};

static coll_batch_t *detached; /* batches of freed communicators, still in flight */
static int64_t *terms;         /* [3 * batch]: scratch of apply_batch, the last part its fine_terms */
/* This process's time covered by Potential sync and by Time variation so
 * far, over all its communicators: instances share it (cover.h). */
static mpp_cover_t entries_covered, exits_covered;

static void apply_batch(coll_batch_t *b)
{
    int64_t *potsync = terms, *variation = terms + b->n;
    unsigned char *fine_terms = (unsigned char *)(terms + 2 * (size_t)batch);
    mpp_instances_terms(b->n, b->sent, b->max, threshold, fine_threshold, &entries_covered, &exits_covered, potsync,
                        variation, fine_terms);
    for (int j = 0; j < b->n; j++) {
        /* a difference below `threshold`: the fine part */
        add_wait(&b->origins[j], MPP_WAIT_POTSYNC + (fine_terms[j] & MPP_FINE_POTSYNC ? MPP_WAIT_FINE_PART : 0),
                 potsync[j]);
        if (variation[j] >= 0) /* every member knew its exit */
            add_wait(&b->origins[j],
                     MPP_WAIT_VARIATION + (fine_terms[j] & MPP_FINE_VARIATION ? MPP_WAIT_FINE_PART : 0), variation[j]);
    }
}

static void free_batch(coll_batch_t *b)
{
    if (b->merged != MPI_COMM_NULL)
        PMPI_Comm_free(&b->merged);
    free(b->sent);
    free(b->origins);
    free(b);
}

/* Apply the batches whose reductions are done (wait: all of them). */
static void settle(coll_batch_t **list, int wait)
{
    coll_batch_t **link = list;
    while (*link) {
        coll_batch_t *b = *link;
        int done = 0;
        if (wait)
            done = PMPI_Wait(&b->request, MPI_STATUS_IGNORE) == MPI_SUCCESS;
        else
            PMPI_Test(&b->request, &done, MPI_STATUS_IGNORE);
        if (!done) {
            link = &b->next;
            continue;
        }
        apply_batch(b);
        *link = b->next;
        free_batch(b);
    }
}

/* Every member must make each reduction, so without memory for a batch its
 * instants are reduced from a buffer set aside at MPI_Init and dropped
 * (waiting for the previous such reduction first, if it is still going). */
static MPI_Request fallback_request = MPI_REQUEST_NULL;
static int64_t *fallback_buffer; /* [6 * batch] */

static void issue_without_memory(struct mpp_coll_ring *ring, int n)
{
    if (fallback_request != MPI_REQUEST_NULL)
        PMPI_Wait(&fallback_request, MPI_STATUS_IGNORE);
    mpp_instances_take(&ring->instances, n, fallback_buffer, NULL);
    PMPI_Iallreduce(fallback_buffer, fallback_buffer + 3 * n, 3 * n, MPI_INT64_T, MPI_MAX, ring->reduce_comm,
                    &fallback_request);
}

/* The n oldest pending instances go to their reduction. */
static void issue(struct mpp_coll_ring *ring, int n)
{
    coll_batch_t *b = calloc(1, sizeof *b);
    if (b) {
        b->sent = malloc(6 * (size_t)n * sizeof *b->sent);
        b->origins = malloc((size_t)n * sizeof *b->origins);
    }
    if (!b || !b->sent || !b->origins) {
        if (b) {
            free(b->sent);
            free(b->origins);
            free(b);
        }
        issue_without_memory(ring, n);
        return;
    }
    b->n = n;
    b->max = b->sent + 3 * n;
    b->merged = MPI_COMM_NULL;
    stats.exits_unknown += (uint64_t)mpp_instances_take(&ring->instances, n, b->sent, b->origins);
    PMPI_Iallreduce(b->sent, b->max, 3 * n, MPI_INT64_T, MPI_MAX, ring->reduce_comm, &b->request);
    b->next = ring->in_flight;
    ring->in_flight = b;
    stats.reductions++;
}

static struct mpp_coll_ring *ring_of(mpp_comm_t *c)
{
    if (c->coll || c->members < 2)
        return c->coll;
    struct mpp_coll_ring *ring = calloc(1, sizeof *ring);
    if (!ring)
        return NULL;
    ring->reduce_comm = c->handle;
    if (c->inter) {
        /* the first collective on it: every member of both groups is here */
        if (PMPI_Intercomm_merge(c->handle, 0, &ring->reduce_comm) != MPI_SUCCESS) {
            free(ring);
            return NULL;
        }
        ring->merged = 1;
    }
    c->coll = ring;
    return ring;
}

/* A new instance; returns its number (UINT64_MAX: not recorded). */
static uint64_t begin_instance(mpp_comm_t *c, int64_t entry, const mpp_request_origin_t *origin)
{
    struct mpp_coll_ring *ring = c ? ring_of(c) : NULL;
    if (!ring)
        return UINT64_MAX;
    mpp_instances_t *in = &ring->instances;
    int due = mpp_instances_due(in, batch);
    if (due)
        issue(ring, due);
    if (mpp_instances_room(in) != 0) /* no memory: make room the only way left */
        while (in->count > in->issued)
            issue(ring, in->count - in->issued > (uint64_t)batch ? batch : (int)(in->count - in->issued));
    if (mpp_instances_room(in) != 0)
        return UINT64_MAX;
    uint64_t i = mpp_instances_begin(in, entry, origin);
    stats.instances++;
    settle(&ring->in_flight, 0);
    return i;
}

static void end_instance(mpp_comm_t *c, uint64_t i, int64_t exit)
{
    if (c && c->coll && i != UINT64_MAX)
        mpp_instances_end(&c->coll->instances, i, exit); /* ignored once reduced without it */
}

/* Everything not yet reduced goes out, in batches of at most `batch`. */
static void issue_all(struct mpp_coll_ring *ring)
{
    mpp_instances_t *in = &ring->instances;
    while (in->count > in->issued) {
        uint64_t left = in->count - in->issued;
        issue(ring, left > (uint64_t)batch ? batch : (int)left);
    }
}

static void detach_ring(mpp_comm_t *c)
{
    struct mpp_coll_ring *ring = c->coll;
    if (!ring)
        return;
    issue_all(ring);
    if (ring->merged) {
        /* the merged communicator is freed with the last of its batches */
        if (ring->in_flight)
            ring->in_flight->merged = ring->reduce_comm;
        else
            PMPI_Comm_free(&ring->reduce_comm);
    }
    while (ring->in_flight) {
        coll_batch_t *b = ring->in_flight;
        ring->in_flight = b->next;
        b->next = detached;
        detached = b;
    }
    mpp_instances_free(&ring->instances);
    free(ring);
    c->coll = NULL;
}

/* ------------------------------------------------------------------ */
/* Hooks. */

static __thread MPI_Status *scratch_statuses __attribute__((tls_model("initial-exec")));
static __thread int scratch_count __attribute__((tls_model("initial-exec")));

MPI_Status *mpp_ws_statuses(int n)
{
    if (n <= 0)
        return MPI_STATUSES_IGNORE;
    if (n > scratch_count) {
        MPI_Status *grown = realloc(scratch_statuses, (size_t)n * sizeof *grown);
        if (!grown)
            return MPI_STATUSES_IGNORE;
        scratch_statuses = grown;
        scratch_count = n;
    }
    return scratch_statuses;
}

/* The last probe of this thread: the receive of the message it found
 * waited there, so that probe is the receiving call. */
static __thread struct {
    int valid;
    MPI_Comm comm;
    MPI_Message message;
    int source, tag;
    uint64_t t0, t1;
    mpp_request_origin_t origin;
} last_probe __attribute__((tls_model("initial-exec")));

void mpp_ws_probe(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, MPI_Message message)
{
    if (!status || status == MPI_STATUS_IGNORE)
        return;
    last_probe.valid = 1;
    last_probe.comm = comm;
    last_probe.message = message;
    last_probe.source = status->MPI_SOURCE;
    last_probe.tag = status->MPI_TAG;
    last_probe.t0 = c->t0;
    last_probe.t1 = c->t1;
    mpp_call_origin(c, &last_probe.origin);
}

/* A receiving call's event: its entry, the time it spent in SendRecv, its
 * cell. */
static int open_event(mpp_call_t *c, uint64_t sendrecv_ticks)
{
    mpp_request_origin_t o;
    mpp_call_origin(c, &o);
    return mpp_p2p_event_open(&matcher, aligned(c->t0), (int64_t)sendrecv_ticks, &o);
}

static int is_message(const MPI_Status *st)
{
    int cancelled = 0;
    if (!st || st == MPI_STATUS_IGNORE || st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE < 0)
        return 0;
    PMPI_Test_cancelled(st, &cancelled);
    return !cancelled;
}

static void receive(int event, const mpp_comm_t *cm, const MPI_Status *st)
{
    int source = cm ? mpp_comm_world_rank(cm, st->MPI_SOURCE) : -1;
    if (event >= 0 && cm->id && source >= 0)
        mpp_p2p_received(&matcher, event, cm->id, source, st->MPI_TAG);
}

/* A blocking receive; when it takes the message a probe just found, the
 * probe is the call that waited for it, and gets its Real sync. */
static void blocking_receive(mpp_call_t *c, mpp_comm_t *cm, const MPI_Status *st, int probed)
{
    if (!cm || !cm->id || !is_message(st))
        return;
    int e = probed ? mpp_p2p_event_open(&matcher, aligned(last_probe.t0), (int64_t)(last_probe.t1 - last_probe.t0),
                                        &last_probe.origin)
                   : open_event(c, c->t1 - c->t0);
    receive(e, cm, st);
    mpp_p2p_event_close(&matcher, e);
    maybe_progress();
}

void mpp_ws_recv(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status)
{
    take();
    int probed = last_probe.valid && last_probe.comm == comm && is_message(status) &&
                 last_probe.source == status->MPI_SOURCE && last_probe.tag == status->MPI_TAG;
    if (probed)
        last_probe.valid = 0;
    blocking_receive(c, mpp_comm_get(comm), status, probed);
    give();
}

void mpp_ws_mrecv(mpp_call_t *c, MPI_Message message, const MPI_Status *status)
{
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return;
    take();
    if (last_probe.valid && last_probe.message == message) {
        /* MPI_Mrecv names no communicator: the probe that matched it did */
        last_probe.valid = 0;
        blocking_receive(c, mpp_comm_get(last_probe.comm), status, 1);
    }
    give();
}

void mpp_ws_send(mpp_call_t *c, MPI_Comm comm, int dest, int tag)
{
    if (dest == MPI_PROC_NULL)
        return;
    take();
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (cm && cm->id)
        record_send(mpp_comm_world_rank(cm, dest), cm->id, tag, c->t0);
    give();
}

void mpp_ws_irecv(mpp_call_t *c, MPI_Comm comm, MPI_Request request, int persistent)
{
    take();
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (cm && cm->id)
        track(c, request, persistent ? REQ_PRECV : REQ_RECV, cm, 0, 0, 0);
    give();
}

void mpp_ws_imrecv(mpp_call_t *c, MPI_Message message, MPI_Request request)
{
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return;
    take();
    if (last_probe.valid && last_probe.message == message) {
        last_probe.valid = 0;
        mpp_comm_t *cm = mpp_comm_get(last_probe.comm);
        if (cm && cm->id)
            track(c, request, REQ_RECV, cm, 0, 0, 0);
    }
    give();
}

void mpp_ws_send_init(mpp_call_t *c, MPI_Comm comm, int dest, int tag, MPI_Request request)
{
    if (dest == MPI_PROC_NULL)
        return;
    take();
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (cm && cm->id)
        track(c, request, REQ_PSEND, cm, dest, tag, 0);
    give();
}

void mpp_ws_collective(mpp_call_t *c, MPI_Comm comm)
{
    take();
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (cm && cm->members > 1) {
        mpp_request_origin_t o;
        mpp_call_origin(c, &o);
        uint64_t i = begin_instance(cm, aligned(c->t0), &o);
        end_instance(cm, i, aligned(c->t1));
    }
    maybe_progress();
    give();
}

void mpp_ws_icollective(mpp_call_t *c, MPI_Comm comm, MPI_Request request, int persistent)
{
    take();
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (cm && cm->members > 1) {
        if (persistent) {
            track(c, request, REQ_PCOLL, cm, 0, 0, UINT64_MAX);
        } else {
            mpp_request_origin_t o;
            mpp_call_origin(c, &o);
            track(c, request, REQ_COLL, cm, 0, 0, begin_instance(cm, aligned(c->t0), &o));
        }
    }
    give();
}


void mpp_ws_started(mpp_call_t *c, const mpp_reqset_t *set)
{
    take();
    for (int i = 0; i < set->n; i++) {
        ws_request_t *r = set->keys[i] ? mpp_handlemap_get(&requests, set->keys[i]) : NULL;
        if (!r)
            continue;
        if (r->kind == REQ_PSEND) {
            record_send(mpp_comm_world_rank(r->comm, r->dest), r->comm->id, r->tag, c->t0);
        } else if (r->kind == REQ_PCOLL) {
            mpp_request_origin_t o;
            mpp_call_origin(c, &o);
            r->instance = begin_instance(r->comm, aligned(c->t0), &o);
            r->active = 1;
        }
    }
    give();
}

void mpp_ws_completed(mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which, const MPI_Status *statuses)
{
    int event = -1;
    take();
    for (int j = 0; j < n; j++) {
        int i = which ? which[j] : j;
        if (i < 0 || i >= set->n || !set->keys[i])
            continue;
        uint64_t key = set->keys[i];
        ws_request_t *r = mpp_handlemap_get(&requests, key);
        if (!r)
            continue;
        const MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? NULL : &statuses[j];
        if ((r->kind == REQ_RECV || r->kind == REQ_PRECV) && st && is_message(st)) {
            if (event < 0)
                /* one event: the latest sender counts; its time is the
                 * call's SendRecv part (it may complete collectives too) */
                event = open_event(c, mpp_call_ticks_of(c, MPP_CAT_SENDRECV, MPP_CAT_SENDRECV));
            receive(event, r->comm, st);
        } else if (r->kind == REQ_COLL || (r->kind == REQ_PCOLL && r->active)) {
            end_instance(r->comm, r->instance, aligned(c->t1));
            r->active = 0;
        }
        if (r->kind == REQ_RECV || r->kind == REQ_COLL)
            untrack(key);
    }
    if (event >= 0) {
        mpp_p2p_event_close(&matcher, event);
        maybe_progress();
    }
    give();
}

void mpp_ws_freed(const mpp_reqset_t *set)
{
    take();
    for (int i = 0; i < set->n; i++)
        if (set->keys[i])
            untrack(set->keys[i]);
    give();
}

void mpp_ws_comm_created(MPI_Comm comm)
{
    mpp_comm_created(comm); /* collective: outside our lock */
}

void mpp_ws_comm_freeing(MPI_Comm comm)
{
    mpp_comm_t *cm = mpp_comm_unregister(comm);
    if (!cm)
        return;
    take();
    detach_ring(cm); /* what remains is reduced on the communicator before MPI frees it */
    settle(&detached, 0);
    give();
    mpp_comm_release(cm);
}

/* ------------------------------------------------------------------ */

void mpp_ws_fine_threshold(int64_t fine)
{
    fine_threshold = matcher.fine = fine < threshold ? fine : threshold;
}

void mpp_ws_start(MPI_Comm comm, int64_t offset, int64_t thresh, int batch_size, int thread_multiple)
{
    ws_comm = comm;
    clock_offset = offset;
    threshold = fine_threshold = thresh;
    batch = batch_size > 0 ? batch_size : 256;
    lock.on = thread_multiple;
    memset(&stats, 0, sizeof stats);
    mpp_cover_reset(&entries_covered);
    mpp_cover_reset(&exits_covered);
    PMPI_Comm_size(mpp_world(), &world_size);
    filling = calloc((size_t)world_size, sizeof *filling);
    incoming = malloc((size_t)batch * sizeof *incoming);
    terms = malloc(3 * (size_t)batch * sizeof *terms);
    fallback_buffer = malloc(6 * (size_t)batch * sizeof *fallback_buffer);
    if (!filling || !incoming || !terms || !fallback_buffer) {
        free(filling), free(incoming), free(terms), free(fallback_buffer);
        filling = NULL, incoming = NULL, terms = NULL, fallback_buffer = NULL;
        mpp_warn("out of memory at MPI_Init: the wait-state analysis is off for this run");
        return;
    }
    mpp_p2p_init(&matcher, threshold, 1 << 20, deliver_real_sync, NULL);
    mpp_handlemap_init(&requests, sizeof(ws_request_t));
    mpp_comms_start(thread_multiple);
    post_incoming();
    mpp_ws_on = 1;
}

void mpp_ws_cancel(void)
{
    if (incoming_request != MPI_REQUEST_NULL) {
        PMPI_Cancel(&incoming_request);
        PMPI_Wait(&incoming_request, MPI_STATUS_IGNORE);
    }
    if (mpp_ws_on) {
        mpp_handlemap_free(&requests);
        mpp_comms_stop();
        mpp_p2p_free(&matcher);
    }
    mpp_ws_on = 0;
    free(filling), free(incoming), free(terms), free(fallback_buffer);
    filling = NULL, incoming = NULL, terms = NULL, fallback_buffer = NULL;
}

static void finish_comm(mpp_comm_t *c, void *arg)
{
    (void)arg;
    struct mpp_coll_ring *ring = c->coll;
    if (ring)
        issue_all(ring);
}

static void release_request(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    mpp_comm_release(((ws_request_t *)value)->comm);
}

static void free_ring(mpp_comm_t *c, void *arg)
{
    (void)arg;
    if (c->coll) {
        detach_ring(c);
    }
}

void mpp_ws_finish(void)
{
    if (!mpp_ws_on)
        return;
    mpp_ws_on = 0;
    /* Collectives: what every communicator still has, reduced on it (every
     * member is here, with the same count). */
    mpp_comms_each(finish_comm, NULL);
    /* Point-to-point: the last batches, then the end of the exchange: once
     * every batch of this process is matched it enters a nonblocking
     * barrier, and keeps receiving until everyone has. */
    for (int d = 0; d < world_size; d++)
        flush_to(d);
    MPI_Request barrier = MPI_REQUEST_NULL;
    for (;;) {
        progress_incoming();
        if (barrier == MPI_REQUEST_NULL) {
            reclaim();
            if (!in_flight)
                PMPI_Ibarrier(ws_comm, &barrier);
        } else {
            int done = 0;
            PMPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
            if (done)
                break;
        }
    }
    if (incoming_request != MPI_REQUEST_NULL) {
        PMPI_Cancel(&incoming_request);
        PMPI_Wait(&incoming_request, MPI_STATUS_IGNORE);
    }
    mpp_p2p_finish(&matcher);
    mpp_comms_each(free_ring, NULL);
    settle(&detached, 1);
    if (fallback_request != MPI_REQUEST_NULL)
        PMPI_Wait(&fallback_request, MPI_STATUS_IGNORE);
    apply_deferred(NULL); /* every other thread is done: their tables stay put */
    free(deferred);
    deferred = NULL;
    deferred_capacity = 0;
    stats.paired = matcher.paired;
    stats.unpaired = matcher.unpaired_receives + matcher.dropped;

    mpp_handlemap_each(&requests, release_request, NULL);
    mpp_handlemap_free(&requests);
    mpp_comms_stop();
    mpp_p2p_free(&matcher);
    while (spare) {
        out_batch_t *b = spare;
        spare = b->next;
        free(b->records);
        free(b);
    }
    free(filling);
    filling = NULL;
    free(incoming);
    incoming = NULL;
    free(terms);
    terms = NULL;
    free(fallback_buffer);
    fallback_buffer = NULL;
}

void mpp_ws_get_stats(mpp_ws_stats_t *out) { *out = stats; }
