#include <stdlib.h>
#include <string.h>

#include "comms.h"
#include "handlemap.h"
#include "mt_lock.h"
#include "waitstate_hooks.h"
#include "waitstates.h"
#include "ws_deferred.h"
#include "warnings.h"
#include "ws_exchange.h"

int mpp_ws_on;

static int64_t clock_offset, threshold, fine_threshold;
static int batch = 256;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;
static mpp_p2p_t matcher;
static mpp_ws_stats_t stats;

/* The hooks' bookkeeping runs between take() and give(), their MPI calls
 * outside (ws_exchange.h); a thread entering a hook takes the wait-state
 * ticks other threads paired for its calls. */
static inline void take(void)
{
    mpp_mt_take(&lock);
    if (MPP_UNLIKELY(mpp_ws_ndeferred) && mpp_tls_thread)
        mpp_ws_apply_deferred(mpp_tls_thread);
}

static inline void give(void) { mpp_mt_give(&lock); }

/* Give the lock, then send what this thread queued meanwhile. */
static inline void give_and_send(void)
{
    int queued = mpp_wsx_queued();
    give();
    if (queued)
        mpp_wsx_flush();
}

static inline int64_t aligned(uint64_t ticks) { return (int64_t)ticks + clock_offset; }

static void deliver_real_sync(void *ctx, const mpp_request_origin_t *o, int64_t wait, int fine)
{
    (void)ctx;
    mpp_ws_add_wait(o, MPP_WAIT_REALSYNC + (fine ? MPP_WAIT_FINE_PART : 0), wait);
}

static void replay(int source, const mpp_send_record_t *records, int n)
{
    mpp_p2p_sent_all(&matcher, source, records, n);
}

/* What is worth looking at after a call (lock held): the reductions'
 * messages each time some reduction of this process waits for them; the
 * stream only once a batch of send records must have come (waitstates.h,
 * mpp_p2p_stream_due), and then every few calls until it has: a test of the
 * profiler's receive costs as much as the rest of the hook, and a program
 * that only runs collectives never needs one. */
enum { DUE_REDUCTIONS = 1, DUE_STREAM = 2 };

static inline int due_locked(void)
{
    return (mpp_wsx_pending_locked() ? DUE_REDUCTIONS : 0) |
           (mpp_p2p_stream_due(&matcher, batch) ? DUE_STREAM : 0);
}

static __thread unsigned since_progress __attribute__((tls_model("initial-exec")));

/* Outside the lock. */
static void maybe_progress(int due)
{
    if (due & DUE_REDUCTIONS)
        mpp_wsx_progress_reductions();
    if ((due & DUE_STREAM) && (++since_progress & 3) == 0)
        mpp_wsx_progress_stream();
}

/* ------------------------------------------------------------------ */
/* Requests the analysis follows, by handle. */

enum { REQ_RECV = 1, REQ_PRECV, REQ_PSEND, REQ_COLL, REQ_PCOLL, REQ_IDUP };

typedef struct {
    int kind;
    int dest, tag;           /* REQ_PSEND */
    mpp_comm_t *comm;        /* held */
    uint64_t instance;       /* REQ_COLL, REQ_PCOLL: the instance in progress */
    int active;              /* REQ_PCOLL: started, not completed */
    mpp_comm_t *made;        /* REQ_IDUP: the duplicate's entry, registered once the request completes */
    void *newcomm;           /* REQ_IDUP: where MPI writes its handle (MPI_Comm *, or MPI_Fint * for Fortran) */
    int fortran;
} ws_request_t;

static mpp_handlemap_t requests;

/* Requests are keyed as in mpp_reqset_t: mpp_request_pack(handle, serial) (MPI gives a
 * new request the handle of one just completed, maybe in another thread
 * before the completing thread has looked it up). */
static ws_request_t *track(const mpp_call_t *c, MPI_Request request, int kind, mpp_comm_t *comm, int dest, int tag,
                           uint64_t instance)
{
    int inserted;
    if (request == MPI_REQUEST_NULL || !c->new_request)
        return NULL;
    uint64_t key = mpp_request_pack(mpp_request_key(request), c->new_serial);
    ws_request_t *r = mpp_handlemap_put(&requests, key, &inserted);
    if (!r)
        return NULL;
    if (!inserted) { /* a handle MPI reused unseen */
        mpp_comm_release(r->comm);
        mpp_comm_release(r->made);
    }
    mpp_comm_hold(comm);
    *r = (ws_request_t){kind, dest, tag, comm, instance, kind == REQ_COLL, NULL, NULL, 0};
    return r;
}

/* An entry just looked up (no second search), its communicators released. */
static void untrack_found(ws_request_t *r)
{
    mpp_comm_t *comm = r->comm, *made = r->made;
    mpp_handlemap_remove_value(&requests, r);
    mpp_comm_release(comm);
    mpp_comm_release(made);
}

static void untrack(uint64_t key)
{
    ws_request_t *r = mpp_handlemap_get(&requests, key);
    if (r)
        untrack_found(r);
}

/* ------------------------------------------------------------------ */
/* Collective instances of a communicator (mpp_instances_t: which batch
 * goes when) and their reductions (ws_exchange.h). */

struct mpp_coll_ring {
    mpp_instances_t instances;
    uint64_t batches;         /* batches issued: the next one's number */
};

static int64_t *terms; /* [3 * batch]: scratch of apply_batch, the last part its fine_terms */
/* Buffers of batches, shared by all communicators: a batch's goes back
 * once its reduction ended (maybe after its communicator was freed). */
static mpp_batch_pool_t pool;
/* This process's time covered by Potential sync and by Time variation so
 * far, over all its communicators: instances share it (cover.h). */
static mpp_cover_t entries_covered, exits_covered;

static void apply_batch(mpp_instance_batch_t *b)
{
    int64_t *potsync = terms, *variation = terms + b->n;
    unsigned char *fine_terms = (unsigned char *)(terms + 2 * (size_t)batch);
    mpp_instances_terms(b->n, b->values, b->max, threshold, fine_threshold, &entries_covered, &exits_covered,
                        potsync, variation, fine_terms);
    for (int j = 0; j < b->n; j++) {
        /* a difference below `threshold`: the fine part */
        if (potsync[j] > 0)
            mpp_ws_add_wait(&b->origins[j],
                            MPP_WAIT_POTSYNC + (fine_terms[j] & MPP_FINE_POTSYNC ? MPP_WAIT_FINE_PART : 0), potsync[j]);
        if (variation[j] > 0) /* -1: some member did not know its exit */
            mpp_ws_add_wait(&b->origins[j],
                            MPP_WAIT_VARIATION + (fine_terms[j] & MPP_FINE_VARIATION ? MPP_WAIT_FINE_PART : 0),
                            variation[j]);
    }
}

/* A reduction ended (lock held): its maxima, or NULL when it was dropped. */
static void reduction_ended(void *user, const int64_t *values, int n)
{
    mpp_instance_batch_t *b = user;
    if (!b)
        return;
    if (values && n == 3 * b->n) {
        b->max = values;
        apply_batch(b);
    }
    mpp_batch_put(&pool, b); /* for a later batch: none is allocated once they suffice */
}

/* Every member must take part in each reduction, so a batch whose
 * instants could not be kept (no memory) is reduced from a buffer set
 * aside at MPI_Init, with values that change no other member's result. */
static int64_t *fallback_buffer; /* [3 * batch] */

/* The batch of slot goes to its reduction. */
static void issue(mpp_comm_t *c, struct mpp_coll_ring *ring, mpp_batch_slot_t *slot)
{
    mpp_instance_batch_t *b;
    int n;
    stats.exits_unknown += (uint64_t)mpp_instances_take(&ring->instances, slot, fallback_buffer, &b, &n);
    mpp_wsx_reduce_locked(c->id, ring->batches++, 3 * n, b ? b->values : fallback_buffer, &c->tree, b);
    stats.reductions++;
}

/* Only communicators with an id are analysed: their members know them by it. */
static struct mpp_coll_ring *ring_of(mpp_comm_t *c)
{
    if (c->coll || c->members < 2 || c->id == MPP_COMM_ID_NONE || c->freed)
        return c->coll;
    if ((c->coll = calloc(1, sizeof *c->coll)) != NULL)
        mpp_instances_init(&c->coll->instances, &pool);
    return c->coll;
}

/* A new instance of call c, `exit` INT64_MIN while it runs; returns its
 * number (UINT64_MAX: not recorded). */
static uint64_t begin_instance(mpp_comm_t *comm, const mpp_call_t *c, int64_t entry, int64_t exit)
{
    struct mpp_coll_ring *ring = comm ? ring_of(comm) : NULL;
    if (!ring)
        return UINT64_MAX;
    mpp_batch_slot_t *due = mpp_instances_due(&ring->instances);
    if (due)
        issue(comm, ring, due);
    stats.instances++;
    mpp_request_origin_t *origin;
    uint64_t i = mpp_instances_begin(&ring->instances, entry, exit, &origin);
    if (origin) /* written where the reduction's result finds it */
        mpp_call_origin(c, origin);
    return i;
}

static void end_instance(mpp_comm_t *c, uint64_t i, int64_t exit)
{
    if (c && c->coll && i != UINT64_MAX)
        mpp_instances_end(&c->coll->instances, i, exit); /* ignored once reduced without it */
}

/* Everything not yet reduced goes out, oldest batch first. */
static void issue_all(mpp_comm_t *c)
{
    for (mpp_batch_slot_t *slot; (slot = mpp_instances_pending(&c->coll->instances)) != NULL;)
        issue(c, c->coll, slot);
}

/* The communicator goes: what remains of its instances is reduced (its
 * reductions need only the members' places, not the communicator). */
static void detach_ring(mpp_comm_t *c)
{
    if (!c->coll)
        return;
    issue_all(c);
    mpp_instances_free(&c->coll->instances);
    free(c->coll);
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

/* A status that received a message (outside the lock: MPI may be asked). */
static int is_message(const MPI_Status *st)
{
    if (!st || st == MPI_STATUS_IGNORE || st->MPI_SOURCE == MPI_PROC_NULL || st->MPI_SOURCE < 0)
        return 0;
#if defined(MPICH_VERSION)
    /* MPICH keeps the cancelled flag in the status itself
     * (MPIR_STATUS_GET_CANCEL_BIT): no call into the library on every receive */
    return !(st->count_hi_and_cancelled & 1);
#else
    int cancelled = 0;
    PMPI_Test_cancelled(st, &cancelled);
    return !cancelled;
#endif
}

/* A received message's envelope as the pairing names it (sender -1: not
 * followed). */
typedef struct {
    uint32_t channel;
    int32_t sender, tag;
} envelope_t;

static envelope_t envelope(const mpp_comm_t *cm, const MPI_Status *st)
{
    envelope_t m = {0, -1, 0};
    if (cm && cm->id) {
        m.channel = cm->channel;
        m.sender = mpp_comm_world_rank(cm, st->MPI_SOURCE);
        m.tag = st->MPI_TAG;
    }
    return m;
}

static void receive(int event, envelope_t m)
{
    if (event >= 0 && m.sender >= 0)
        mpp_p2p_received(&matcher, event, m.channel, m.sender, m.tag);
}

static __attribute__((noinline)) void receive_one_general(mpp_call_t *c, envelope_t m, uint64_t sendrecv_ticks)
{
    mpp_request_origin_t o;
    mpp_call_origin(c, &o);
    mpp_p2p_receive(&matcher, m.channel, m.sender, m.tag, aligned(c->t0), (int64_t)sendrecv_ticks, &o);
}

/* A call that received one message: no event (waitstates.h); mostly it
 * waits in its sender's log for its record (the other case apart, so that
 * this one needs no frame). */
static inline void receive_one(mpp_call_t *c, envelope_t m, uint64_t sendrecv_ticks)
{
    if (m.sender < 0)
        return;
    mpp_p2p_waiting_t *w = mpp_p2p_receive_waits(&matcher, m.channel, m.sender, m.tag);
    if (MPP_UNLIKELY(!w)) {
        receive_one_general(c, m, sendrecv_ticks);
        return;
    }
    w->entry = aligned(c->t0);
    w->duration = (int64_t)sendrecv_ticks;
    mpp_call_origin(c, &w->origin);
}

/* A blocking receive of a message; when it takes the message a probe just
 * found, the probe is the call that waited for it, and gets its Real
 * sync.  Lock held. */
static void blocking_receive(mpp_call_t *c, mpp_comm_t *cm, const MPI_Status *st, int probed)
{
    envelope_t m = envelope(cm, st);
    if (!probed)
        receive_one(c, m, c->t1 - c->t0);
    else if (m.sender >= 0)
        mpp_p2p_receive(&matcher, m.channel, m.sender, m.tag, aligned(last_probe.t0),
                        (int64_t)(last_probe.t1 - last_probe.t0), &last_probe.origin);
}

void mpp_ws_recv(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status)
{
    int message = is_message(status);
    int probed = last_probe.valid && last_probe.comm == comm && message && last_probe.source == status->MPI_SOURCE &&
                 last_probe.tag == status->MPI_TAG;
    if (probed)
        last_probe.valid = 0;
    mpp_comm_t *cm = message ? mpp_comm_get(comm) : NULL;
    if (!cm || !cm->id)
        return;
    take();
    blocking_receive(c, cm, status, probed);
    int due = due_locked();
    give();
    maybe_progress(due);
}

void mpp_ws_mrecv(mpp_call_t *c, MPI_Message message, const MPI_Status *status)
{
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return;
    if (!last_probe.valid || last_probe.message != message)
        return;
    /* MPI_Mrecv names no communicator: the probe that matched it did */
    last_probe.valid = 0;
    mpp_comm_t *cm = is_message(status) ? mpp_comm_get(last_probe.comm) : NULL;
    if (!cm || !cm->id)
        return;
    take();
    blocking_receive(c, cm, status, 1);
    int due = due_locked();
    give();
    maybe_progress(due);
}

/* A call on a communicator the analysis cannot follow (counted for Warnings). */
static int unfollowed(const mpp_comm_t *cm)
{
    if (!cm || cm->id != MPP_COMM_ID_NONE || cm->members < 2)
        return 0;
    take();
    stats.unfollowed++;
    give();
    return 1;
}

void mpp_ws_send(mpp_call_t *c, MPI_Comm comm, int dest, int tag)
{
    if (dest == MPI_PROC_NULL)
        return;
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || unfollowed(cm) || !cm->id)
        return;
    int world_dest = mpp_comm_world_rank(cm, dest);
    take();
    stats.messages += (uint64_t)mpp_wsx_record_send_locked(world_dest, cm->channel, tag, aligned(c->t0));
    give_and_send();
}

void mpp_ws_irecv(mpp_call_t *c, MPI_Comm comm, MPI_Request request, int persistent)
{
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || !cm->id)
        return;
    take();
    track(c, request, persistent ? REQ_PRECV : REQ_RECV, cm, 0, 0, 0);
    give();
}

void mpp_ws_imrecv(mpp_call_t *c, MPI_Message message, MPI_Request request)
{
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return;
    if (!last_probe.valid || last_probe.message != message)
        return;
    last_probe.valid = 0;
    mpp_comm_t *cm = mpp_comm_get(last_probe.comm);
    if (!cm || !cm->id)
        return;
    take();
    track(c, request, REQ_RECV, cm, 0, 0, 0);
    give();
}

void mpp_ws_send_init(mpp_call_t *c, MPI_Comm comm, int dest, int tag, MPI_Request request)
{
    if (dest == MPI_PROC_NULL)
        return;
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || !cm->id)
        return;
    take();
    track(c, request, REQ_PSEND, cm, dest, tag, 0);
    give();
}

void mpp_ws_collective(mpp_call_t *c, MPI_Comm comm)
{
    mpp_comm_t *cm = mpp_comm_get(comm);
    unfollowed(cm);
    take();
    if (cm && cm->members > 1)
        begin_instance(cm, c, aligned(c->t0), aligned(c->t1));
    int due = due_locked();
    give_and_send();
    maybe_progress(due);
}

void mpp_ws_icollective(mpp_call_t *c, MPI_Comm comm, MPI_Request request, int persistent)
{
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || cm->members < 2 || unfollowed(cm))
        return;
    take();
    if (persistent) {
        track(c, request, REQ_PCOLL, cm, 0, 0, UINT64_MAX);
    } else {
        track(c, request, REQ_COLL, cm, 0, 0, begin_instance(cm, c, aligned(c->t0), INT64_MIN));
    }
    int pending = mpp_wsx_pending_locked();
    give_and_send();
    if (pending)
        mpp_wsx_progress_reductions();
}

void mpp_ws_started(mpp_call_t *c, const mpp_reqset_t *set)
{
    take();
    for (int i = 0; i < set->n; i++) {
        ws_request_t *r = set->keys[i] ? mpp_handlemap_get(&requests, set->keys[i]) : NULL;
        if (!r)
            continue;
        if (r->kind == REQ_PSEND) {
            stats.messages += (uint64_t)mpp_wsx_record_send_locked(mpp_comm_world_rank(r->comm, r->dest),
                                                                   r->comm->channel, r->tag, aligned(c->t0));
        } else if (r->kind == REQ_PCOLL) {
            r->instance = begin_instance(r->comm, c, aligned(c->t0), INT64_MIN);
            r->active = 1;
        }
    }
    give_and_send();
}

/* Per thread: which statuses of a completion received a message (tested
 * before the lock is taken), and the duplicates whose MPI_Comm_idup
 * completed (registered after it is given). */
static __thread unsigned char *scratch_messages __attribute__((tls_model("initial-exec")));
static __thread int scratch_messages_count __attribute__((tls_model("initial-exec")));

typedef struct {
    mpp_comm_t *made;
    void *newcomm;
    int fortran;
} made_comm_t;

static __thread made_comm_t *made_list __attribute__((tls_model("initial-exec")));
static __thread int made_count __attribute__((tls_model("initial-exec")));
static __thread int made_capacity __attribute__((tls_model("initial-exec")));

/* Which statuses of a completion received a message: with MPICH read in
 * the loop, for its receives only (the status says it itself); elsewhere
 * tested before the lock is taken (it may ask MPI), into `messages`. */
static inline int received_message(const unsigned char *messages, const MPI_Status *statuses, int j)
{
#if defined(MPICH_VERSION)
    (void)messages;
    return statuses != MPI_STATUSES_IGNORE && is_message(&statuses[j]);
#else
    (void)statuses;
    return messages && messages[j];
#endif
}

static const unsigned char *messages_of(int n, const MPI_Status *statuses)
{
#if defined(MPICH_VERSION)
    n = 0; /* received_message reads the statuses */
#endif
    if (statuses == MPI_STATUSES_IGNORE || n <= 0)
        return NULL;
    if (n > scratch_messages_count) {
        unsigned char *grown = realloc(scratch_messages, (size_t)n);
        if (!grown)
            return NULL;
        scratch_messages = grown;
        scratch_messages_count = n;
    }
    for (int j = 0; j < n; j++)
        scratch_messages[j] = (unsigned char)is_message(&statuses[j]);
    return scratch_messages;
}

static void completed_idup(ws_request_t *r)
{
    if (!r->made)
        return;
    if (made_count == made_capacity) {
        int cap = made_capacity ? 2 * made_capacity : 8;
        made_comm_t *grown = realloc(made_list, (size_t)cap * sizeof *grown);
        if (!grown)
            return; /* the duplicate stays unanalysed (untrack releases it) */
        made_list = grown;
        made_capacity = cap;
    }
    made_list[made_count++] = (made_comm_t){r->made, r->newcomm, r->fortran};
    r->made = NULL;
}

/* The duplicates exist now: registered under the handles MPI wrote. */
static void register_made(void)
{
    for (int i = 0; i < made_count; i++) {
        made_comm_t *m = &made_list[i];
        MPI_Comm handle =
            m->fortran ? PMPI_Comm_f2c(*(const MPI_Fint *)m->newcomm) : *(const MPI_Comm *)m->newcomm;
        mpp_comm_register(m->made, handle);
    }
    made_count = 0;
}

void mpp_ws_completed(mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which, const MPI_Status *statuses)
{
    /* one message received: no event; a second one opens it (one event:
     * the latest sender counts; its time is the call's SendRecv part, as
     * it may complete collectives too) */
    int event = -1, received = 0;
    envelope_t first = {0, -1, 0};
    const unsigned char *messages = messages_of(n, statuses);
    take();
    for (int j = 0; j < n; j++) {
        int i = which ? which[j] : j;
        if (i < 0 || i >= set->n || !set->keys[i])
            continue;
        uint64_t key = set->keys[i];
        ws_request_t *r = mpp_handlemap_get(&requests, key);
        if (!r)
            continue;
        if ((r->kind == REQ_RECV || r->kind == REQ_PRECV) && received_message(messages, statuses, j)) {
            envelope_t m = envelope(r->comm, &statuses[j]);
            if (received++ == 0) {
                first = m;
            } else {
                if (event < 0) {
                    event = open_event(c, mpp_call_ticks_of(c, MPP_CAT_SENDRECV, MPP_CAT_SENDRECV));
                    receive(event, first);
                }
                receive(event, m);
            }
        } else if (r->kind == REQ_COLL || (r->kind == REQ_PCOLL && r->active)) {
            end_instance(r->comm, r->instance, aligned(c->t1));
            r->active = 0;
        } else if (r->kind == REQ_IDUP) {
            completed_idup(r);
        }
        if (r->kind == REQ_RECV || r->kind == REQ_COLL || r->kind == REQ_IDUP)
            untrack_found(r);
    }
    if (event >= 0)
        mpp_p2p_event_close(&matcher, event);
    else if (received == 1)
        receive_one(c, first, mpp_call_ticks_of(c, MPP_CAT_SENDRECV, MPP_CAT_SENDRECV));
    int due = due_locked();
    give();
    if (made_count)
        register_made();
    if (due)
        maybe_progress(due);
}

void mpp_ws_freed(const mpp_reqset_t *set)
{
    take();
    for (int i = 0; i < set->n; i++)
        if (set->keys[i])
            untrack(set->keys[i]);
    give();
}

void mpp_ws_comm_idup(mpp_call_t *c, MPI_Comm parent, void *newcomm, int fortran, MPI_Request request)
{
    mpp_comm_t *made = mpp_comm_duplicating(parent);
    if (!made)
        return;
    take();
    ws_request_t *r = track(c, request, REQ_IDUP, NULL, 0, 0, 0);
    if (r) {
        r->made = made;
        r->newcomm = newcomm;
        r->fortran = fortran;
    }
    give();
    if (!r)
        mpp_comm_release(made);
}

void mpp_ws_comm_freeing(MPI_Comm comm)
{
    mpp_comm_t *cm = mpp_comm_unregister(comm);
    if (!cm)
        return;
    take();
    cm->freed = 1; /* a persistent request may outlive it: its instances are not counted */
    detach_ring(cm); /* what remains goes to its reductions now */
    int pending = mpp_wsx_pending_locked();
    give_and_send();
    if (pending)
        mpp_wsx_progress_reductions();
    mpp_comm_release(cm);
}

/* ------------------------------------------------------------------ */

void mpp_ws_fine_threshold(int64_t fine)
{
    fine_threshold = matcher.fine = fine < threshold ? fine : threshold;
}

static void free_memory(void)
{
    mpp_batch_pool_free(&pool);
    free(terms);
    free(fallback_buffer);
    terms = NULL, fallback_buffer = NULL;
}

void mpp_ws_start(MPI_Comm comm, int64_t offset, int64_t thresh, int batch_size, int thread_multiple)
{
    clock_offset = offset;
    threshold = fine_threshold = thresh;
    batch = batch_size > 0 ? batch_size : 256;
    mpp_batch_pool_init(&pool, batch);
    lock.on = thread_multiple;
    memset(&stats, 0, sizeof stats);
    mpp_cover_reset(&entries_covered);
    mpp_cover_reset(&exits_covered);
    terms = malloc(3 * (size_t)batch * sizeof *terms);
    fallback_buffer = malloc(3 * (size_t)batch * sizeof *fallback_buffer);
    if (!terms || !fallback_buffer ||
        mpp_wsx_start(comm, batch, &lock, (mpp_wsx_callbacks_t){replay, reduction_ended}) != 0) {
        free_memory();
        mpp_warn("out of memory at MPI_Init: the wait-state analysis is off for this run");
        return;
    }
    mpp_p2p_init(&matcher, threshold, 1 << 20, deliver_real_sync, NULL);
    mpp_handlemap_init(&requests, sizeof(ws_request_t));
    mpp_comms_start(thread_multiple);
    mpp_ws_on = 1;
}

void mpp_ws_cancel(void)
{
    if (mpp_ws_on) {
        mpp_wsx_cancel();
        mpp_handlemap_free(&requests);
        mpp_comms_stop();
        mpp_p2p_free(&matcher);
    }
    mpp_ws_on = 0;
    free_memory();
}

static void finish_comm(mpp_comm_t *c, void *arg)
{
    (void)arg;
    if (c->coll)
        issue_all(c);
}

static void release_request(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    ws_request_t *r = value;
    mpp_comm_release(r->comm);
    mpp_comm_release(r->made);
}

static void free_ring(mpp_comm_t *c, void *arg)
{
    (void)arg;
    detach_ring(c);
}

void mpp_ws_finish(void)
{
    if (!mpp_ws_on)
        return;
    mpp_ws_on = 0;
    /* Collectives: what every communicator still has, to its reductions
     * (every member is here, with the same count); then the end of the
     * exchange, which delivers every result. */
    take();
    mpp_comms_each(finish_comm, NULL);
    give_and_send();
    mpp_wsx_finish();
    mpp_p2p_finish(&matcher);
    take();
    mpp_comms_each(free_ring, NULL);
    give();
    mpp_ws_apply_deferred(NULL); /* every other thread is done: their tables stay put */
    mpp_ws_deferred_free();
    stats.paired = matcher.paired;
    stats.unpaired = matcher.unpaired_receives + matcher.dropped;
    mpp_wsx_stats_t x;
    mpp_wsx_get_stats(&x);
    stats.batches = x.batches;
    stats.batch_bytes = x.batch_bytes;
    stats.dropped = x.dropped;

    mpp_handlemap_each(&requests, release_request, NULL);
    mpp_handlemap_free(&requests);
    mpp_comms_stop();
    mpp_p2p_free(&matcher);
    free_memory();
}

void mpp_ws_get_stats(mpp_ws_stats_t *out) { *out = stats; }
