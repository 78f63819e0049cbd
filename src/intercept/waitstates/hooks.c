#include <stdlib.h>
#include <string.h>

#include "check/collcheck.h"
#include "intercept/check/collectives.h"
#include "intercept/waitstates/clockbound.h"
#include "intercept/waitstates/hooks.h"
#include "intercept/waitstates/owners.h"
#include "util/warnings.h"

int mpp_ws_on;
int mpp_ws_inline_world;

int64_t mpp_ws_clock_offset;
static int64_t threshold, fine_threshold;
int mpp_ws_batch = 256;
mpp_mt_lock_t mpp_ws_lock = MPP_MT_LOCK_INITIALIZER;
mpp_p2p_t mpp_ws_matcher;
mpp_ws_stats_t mpp_ws_stats;

static void deliver_real_sync(void *ctx, const mpp_request_origin_t *o, int64_t wait, int fine)
{
    (void)ctx;
    mpp_ws_add_wait(o, MPP_WAIT_REALSYNC + (fine ? MPP_WAIT_FINE_PART : 0), wait);
}

/* Differences below the threshold count as 0: below twice MPI_Init's
 * largest uncertainty, or below what the two offsets' errors are bounded
 * to now (clockbound.h), whichever is less.  `others`: the largest error
 * of the other processes the comparison involves. */
static int64_t threshold_now(int64_t others)
{
    if (!threshold)
        return 0;
    int64_t t = mpp_wsc_error() + (others > 0 ? others : 0);
    t = t < threshold ? t : threshold;
    if (t < mpp_ws_stats.least_threshold)
        mpp_ws_stats.least_threshold = t;
    return t;
}

static void replay(int source, const mpp_send_record_t *records, int n)
{
    /* the clocks' trailer of this batch was just taken (exchange.c) */
    mpp_ws_matcher.threshold = threshold_now(mpp_wsc_peers_error());
    mpp_ws_matcher.fine = fine_threshold < mpp_ws_matcher.threshold ? fine_threshold : mpp_ws_matcher.threshold;
    mpp_p2p_sent_all(&mpp_ws_matcher, source, records, n);
}

static __thread unsigned since_progress __attribute__((tls_model("initial-exec")));

void mpp_ws_maybe_progress(int due)
{
    if (due & MPP_WS_DUE_REDUCTIONS)
        mpp_wsx_progress_reductions();
    if ((due & MPP_WS_DUE_STREAM) && (++since_progress & 3) == 0)
        mpp_wsx_progress_stream();
}

/* ------------------------------------------------------------------ */
/* Collective instances of a communicator (waitstates/shared.h) and their
 * reductions (waitstates/exchange.h). */

static int64_t *terms; /* [6 * batch]: scratch of apply_batch: terms, bounds, its fine_terms, its windows' reach */
/* Buffers of batches, shared by all communicators: a batch's goes back
 * once its reduction ended (maybe after its communicator was freed). */
static mpp_batch_pool_t pool;
/* This process's time covered by Potential sync and by Time variation so
 * far, over all its communicators: instances share it (cover.h). */
static mpp_cover_t entries_covered, exits_covered;

/* Where each instance's windows end at the latest: the end of the
 * interval execution it was in, or now while that is still open (the
 * other members' instants are past, whatever their clocks say); where the
 * interval log no longer holds that end, the instance's own exit. */
static void bound_windows(const mpp_instance_batch_t *b, int64_t *bound)
{
    int64_t now = mpp_ws_aligned(mpp_now());
    for (int j = 0; j < b->n; j++) {
        uint64_t end;
        int known = mpp_interval_end_of(mpp_interval_place_unpack(b->places[j]), &end);
        bound[j] = known > 0 ? mpp_ws_aligned(end) : known == 0 ? now : b->values[b->n + j];
        mpp_ws_stats.unbounded += known < 0;
    }
}

/* ------------------------------------------------------------------ */
/* The horizon: no window to come begins before it.  Windows to come are
 * those of instances not applied yet: in the batches issued to their
 * reductions, the batches still filling or ready on each communicator,
 * and the instances not begun (from now on).  In a process whose calls
 * are not concurrent (no lock) the instances of one communicator begin in
 * order, so a batch's first entry is its earliest.  A window that began
 * before the horizon can take over later ones' parts but can never be
 * taken over (no owner to keep: MPP_COVER_FINAL), and pieces that end
 * before it are let go (mpp_cover_retire): with windows in time order the
 * covers stay a few pieces long.  With threads in MPI at once, whose
 * blocking collectives enter their batches only when they return, the
 * horizon is not known: every window has an owner (owners.h). */
typedef struct {
    const mpp_instance_batch_t *b;
    int64_t first;
} inflight_t;
static inflight_t *inflight; /* issued, not applied */
static int ninflight, inflight_capacity, horizon_unknown;

static void inflight_add(const mpp_instance_batch_t *b, int n)
{
    if (!b || n <= 0 || horizon_unknown)
        return;
    if (ninflight == inflight_capacity) {
        int cap = inflight_capacity ? 2 * inflight_capacity : 64;
        inflight_t *grown = realloc(inflight, (size_t)cap * sizeof *grown);
        if (!grown) {
            horizon_unknown = 1; /* no memory: every window keeps an owner, as with threads */
            return;
        }
        inflight = grown, inflight_capacity = cap;
    }
    inflight[ninflight++] = (inflight_t){b, b->values[0]};
}

static void inflight_remove(const mpp_instance_batch_t *b)
{
    for (int i = 0; i < ninflight; i++)
        if (inflight[i].b == b) {
            inflight[i] = inflight[--ninflight];
            return;
        }
}

/* Every communicator's ring (and every persistent collective's): walked
 * for the horizon, however large the tables of communicators and
 * requests have grown. */
static struct mpp_coll_ring *rings;

static void ring_link(struct mpp_coll_ring *r)
{
    r->prev = NULL, r->next = rings;
    if (rings)
        rings->prev = r;
    rings = r;
}

static void ring_unlink(struct mpp_coll_ring *r)
{
    if (r->prev)
        r->prev->next = r->next;
    else
        rings = r->next;
    if (r->next)
        r->next->prev = r->prev;
}

static int64_t horizon(void)
{
    if (mpp_ws_lock.on || horizon_unknown)
        return INT64_MIN;
    int64_t h = mpp_ws_aligned(mpp_now());
    for (int i = 0; i < ninflight; i++)
        if (inflight[i].first < h)
            h = inflight[i].first;
    for (const struct mpp_coll_ring *r = rings; r; r = r->next) {
        const mpp_batch_slot_t *slots[2] = {&r->instances.ready, &r->instances.fill};
        for (int k = 0; k < 2; k++)
            if (slots[k]->n > 0 && slots[k]->buf && slots[k]->buf->values[0] < h)
                h = slots[k]->buf->values[0];
    }
    return h;
}

/* The batch being credited, for its windows' owners. */
struct applying {
    mpp_instance_batch_t *b;
    int64_t *potsync, *variation;
    unsigned char *fine;
};

/* The wait an instance's window counts in: Potential sync or (variation)
 * Time variation, its fine part when the difference was below the
 * threshold (fine: the instance's MPP_FINE_* flags). */
static int wait_of(unsigned char fine, int variation)
{
    int which = variation ? MPP_WAIT_VARIATION : MPP_WAIT_POTSYNC;
    return which + (fine & (variation ? MPP_FINE_VARIATION : MPP_FINE_POTSYNC) ? MPP_WAIT_FINE_PART : 0);
}

static uint64_t window_owner(void *ctx, int j, int variation)
{
    struct applying *a = ctx;
    return mpp_ws_owner_tag(&a->b->origins[j], wait_of(a->fine[j], variation),
                            variation ? &a->variation[j] : &a->potsync[j]);
}

/* Ticks for one cell, summed while the windows are of its call. */
typedef struct {
    const mpp_request_origin_t *at;
    int which;
    int64_t ticks;
} credit_t;

static int same_cell(const mpp_request_origin_t *a, const mpp_request_origin_t *b)
{
    return a->thread == b->thread && a->generation == b->generation && a->slot == b->slot && a->hash == b->hash &&
           a->fid == b->fid && a->interval == b->interval;
}

/* Add `ticks` for origin o (NULL: none, what is summed goes to its cell). */
static void credit_add(credit_t *c, const mpp_request_origin_t *o, int which, int64_t ticks)
{
    if (c->at && (!o || which != c->which || !same_cell(c->at, o))) {
        mpp_ws_add_wait(c->at, c->which, c->ticks);
        c->at = NULL;
    }
    if (!o)
        return;
    if (!c->at)
        *c = (credit_t){o, which, 0};
    c->ticks += ticks;
}

static void apply_batch(mpp_instance_batch_t *b, int64_t thresh)
{
    int64_t *potsync = terms, *variation = terms + b->n, *bound = terms + 2 * (size_t)mpp_ws_batch;
    unsigned char *fine_terms = (unsigned char *)(terms + 3 * (size_t)mpp_ws_batch);
    struct applying applying = {b, potsync, variation, fine_terms};
    mpp_window_owners_t owners = {window_owner, &applying, horizon(), terms + 4 * (size_t)mpp_ws_batch};
    bound_windows(b, bound);
    mpp_ws_owners_next_batch();
    mpp_instances_terms(b->n, b->values, b->max, bound, thresh, fine_threshold, &entries_covered, &exits_covered,
                        potsync, variation, fine_terms, &mpp_ws_stats.cuts, &owners);
    mpp_cover_retire(&entries_covered, owners.final_before);
    mpp_cover_retire(&exits_covered, owners.final_before);
    /* consecutive instances mostly share a call site: one addition each */
    credit_t credit[2] = {{NULL, 0, 0}, {NULL, 0, 0}};
    for (int j = 0; j < b->n; j++) {
        if (potsync[j] > 0)
            credit_add(&credit[0], &b->origins[j], wait_of(fine_terms[j], 0), potsync[j]);
        if (variation[j] > 0) /* -1: some member did not know its exit */
            credit_add(&credit[1], &b->origins[j], wait_of(fine_terms[j], 1), variation[j]);
    }
    credit_add(&credit[0], NULL, 0, 0);
    credit_add(&credit[1], NULL, 0, 0);
}

static void count_ended(void *user, const int64_t *values, int n);

/* A reduction ended (lock held): its maxima, or NULL when it was dropped. */
static void reduction_ended(void *user, uint64_t seq, const int64_t *values, int n)
{
    if (seq == MPP_WS_COUNT_SEQ) {
        count_ended(user, values, n);
        return;
    }
    mpp_instance_batch_t *b = user;
    if (!b)
        return;
    inflight_remove(b); /* not among the windows to come (the horizon) */
    if (values && n == (3 + pool.rows) * b->n + 1) {
        b->max = values;
        /* the last value: the largest error of the members' offsets (issue) */
        apply_batch(b, threshold_now(values[n - 1]));
        if (pool.rows) /* the correctness checks' rows follow the instants */
            mpp_chk_coll_results(b->n, pool.rows, b->values + 3 * b->n, values + 3 * b->n, b->origins);
    }
    mpp_batch_put(&pool, b); /* for a later batch: none is allocated once they suffice */
}

/* Every member must take part in each reduction, so a batch whose
 * instants could not be kept (no memory) is reduced from a buffer set
 * aside at MPI_Init, with values that change no other member's result. */
static int64_t *fallback_buffer; /* [(3 + rows) * batch + 1] */

/* The batch of slot goes to its reduction. */
static void issue(mpp_comm_t *c, struct mpp_coll_ring *ring, mpp_batch_slot_t *slot)
{
    mpp_instance_batch_t *b;
    int n;
    mpp_ws_stats.exits_unknown += (uint64_t)mpp_instances_take(&ring->instances, slot, fallback_buffer, &b, &n);
    inflight_add(b, n);
    int64_t *values = b ? b->values : fallback_buffer;
    int count = (3 + pool.rows) * n;
    values[count] = mpp_wsc_error(); /* their maximum bounds every member's (threshold_now) */
    mpp_wsx_reduce_locked(c->id, ring->batches++, count + 1, values, &c->tree, b);
    mpp_ws_stats.reductions++;
}

/* Only communicators with an id are analysed: their members know them by it. */
static struct mpp_coll_ring *ring_of(mpp_comm_t *c)
{
    if (c->coll || c->members < 2 || c->id == MPP_COMM_ID_NONE || c->freed)
        return c->coll;
    if ((c->coll = calloc(1, sizeof *c->coll)) != NULL) {
        mpp_instances_init(&c->coll->instances, &pool);
        ring_link(c->coll);
    }
    return c->coll;
}

/* A new instance of call c, `exit` INT64_MIN while it runs; returns its
 * number (UINT64_MAX: not recorded). */
uint64_t mpp_ws_begin_instance(mpp_comm_t *comm, const mpp_call_t *c, int64_t entry, int64_t exit)
{
    struct mpp_coll_ring *ring = comm ? ring_of(comm) : NULL;
    if (!ring)
        return UINT64_MAX;
    mpp_batch_slot_t *due = mpp_instances_due(&ring->instances);
    if (due)
        issue(comm, ring, due);
    return mpp_ws_instance_add(ring, c, entry, exit);
}

void mpp_ws_end_instance(mpp_comm_t *c, uint64_t i, int64_t exit)
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

/* ------------------------------------------------------------------ */
/* The correctness checks' part (intercept/check/collectives.h): the rows of
 * each instance, and at a communicator's end its collective calls counted
 * over its members (incomplete-collective), a reduction of the count and
 * its negation, with the cells of the instances not reduced yet, where the
 * counts may have begun to differ. */

void mpp_ws_instance_checks(struct mpp_coll_ring *ring, const mpp_call_t *c, mpp_request_origin_t *origin)
{
    int64_t rows[2 * MPP_CC_NVALUES];
    mpp_chk_coll_rows_of(c, rows);
    mpp_instances_set_rows(&ring->instances, rows);
    if (origin && origin->thread && !origin->frames) /* its findings name its call stack */
        mpp_call_origin_frames(c, origin);
}

typedef struct {
    uint64_t own, first; /* this member's count; the number of the first instance kept */
    int members, n;
    mpp_request_origin_t at[]; /* [n] */
} count_t;

static void issue_count(mpp_comm_t *c)
{
    if (!pool.rows || c->id == MPP_COMM_ID_NONE || c->members < 2)
        return;
    mpp_instances_t *r = c->coll ? &c->coll->instances : NULL;
    int n = r ? r->ready.n + r->fill.n : 0;
    count_t *k = malloc(sizeof *k + (size_t)n * sizeof *k->at);
    if (!k)
        return; /* the others' reduction ends unfinished: no finding */
    *k = (count_t){r ? r->count : 0, r && r->ready.n ? r->ready.first : r ? r->fill.first : 0, c->members, n};
    const mpp_batch_slot_t *slots[2] = {r ? &r->ready : NULL, r ? &r->fill : NULL};
    for (int s = 0, i = 0; s < 2 && slots[s]; s++)
        for (int j = 0; j < slots[s]->n; j++, i++)
            if (slots[s]->buf)
                mpp_origin_copy(&k->at[i], &slots[s]->buf->origins[j]);
            else
                k->at[i].thread = NULL;
    int64_t values[2] = {(int64_t)k->own, -(int64_t)k->own};
    mpp_wsx_reduce_locked(c->id, MPP_WS_COUNT_SEQ, 2, values, &c->tree, k);
}

static void count_ended(void *user, const int64_t *values, int n)
{
    count_t *k = user;
    if (k && values && n == 2) {
        uint64_t most = (uint64_t)values[0], least = (uint64_t)-values[1], at = k->first;
        if (least >= k->first && least < k->first + (uint64_t)k->n)
            at = least;
        mpp_chk_coll_counts(least, most, k->own, k->members, k->n ? &k->at[at - k->first] : NULL, at);
    }
    free(k);
}

/* The communicator goes: what remains of its instances is reduced (its
 * reductions need only the members' places, not the communicator). */
static void detach_ring(mpp_comm_t *c)
{
    if (!c->coll)
        return;
    issue_all(c);
    mpp_instances_free(&c->coll->instances);
    ring_unlink(c->coll);
    free(c->coll);
    c->coll = NULL;
}

void mpp_ws_comm_end_locked(mpp_comm_t *c)
{
    c->freed = 1; /* no instance after this one */
    issue_count(c);
    detach_ring(c); /* what remains goes to its reductions now */
}

/* ------------------------------------------------------------------ */
/* Hooks. */

static __thread MPI_Status *scratch_statuses __attribute__((tls_model("initial-exec")));
static __thread int scratch_count __attribute__((tls_model("initial-exec")));

static void release_statuses(void)
{
    free(scratch_statuses);
    scratch_statuses = NULL;
    scratch_count = 0;
}

MPI_Status *mpp_ws_statuses(int n)
{
    if (n <= 0)
        return MPI_STATUSES_IGNORE;
    if (n > scratch_count) {
        mpp_thread_at_end(release_statuses); /* (growth only: warm-up) */
        MPI_Status *grown = realloc(scratch_statuses, (size_t)n * sizeof *grown);
        if (!grown)
            return MPI_STATUSES_IGNORE;
        scratch_statuses = grown;
        scratch_count = n;
    }
    return scratch_statuses;
}

__thread mpp_ws_probe_t mpp_ws_last_probe __attribute__((tls_model("initial-exec")));

void mpp_ws_probe(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, MPI_Message message)
{
    if (!status || status == MPI_STATUS_IGNORE)
        return;
    mpp_ws_last_probe.valid = 1;
    mpp_ws_last_probe.comm = comm;
    mpp_ws_last_probe.message = message;
    mpp_ws_last_probe.source = status->MPI_SOURCE;
    mpp_ws_last_probe.tag = status->MPI_TAG;
    mpp_ws_last_probe.t0 = c->t0;
    mpp_ws_last_probe.t1 = c->t1;
    mpp_call_origin(c, &mpp_ws_last_probe.origin);
}

int mpp_ws_probe_of(MPI_Message message, MPI_Comm *comm, int *source, int *tag)
{
    if (!mpp_ws_last_probe.valid || mpp_ws_last_probe.message != message || message == MPI_MESSAGE_NULL ||
        message == MPI_MESSAGE_NO_PROC)
        return 0;
    *comm = mpp_ws_last_probe.comm;
    *source = mpp_ws_last_probe.source;
    *tag = mpp_ws_last_probe.tag;
    return 1;
}

int mpp_ws_check_record(int dest, const void *record)
{
    mpp_ws_take();
    int done = mpp_wsx_check_record_locked(dest, record);
    mpp_ws_give_and_send();
    return done;
}

int mpp_ws_take_probe(MPI_Message message, MPI_Comm *comm)
{
    if (!mpp_ws_last_probe.valid || mpp_ws_last_probe.message != message)
        return 0;
    mpp_ws_last_probe.valid = 0;
    *comm = mpp_ws_last_probe.comm;
    return 1;
}

/* A receiving call's event: its entry, the time it spent in SendRecv, its
 * cell. */
int mpp_ws_open_event(mpp_call_t *c, uint64_t sendrecv_ticks)
{
    mpp_request_origin_t o;
    mpp_call_origin(c, &o);
    return mpp_p2p_event_open(&mpp_ws_matcher, mpp_ws_aligned(c->t0), (int64_t)sendrecv_ticks, &o);
}

void mpp_ws_receive_one_general(mpp_call_t *c, mpp_ws_envelope_t m, uint64_t sendrecv_ticks)
{
    mpp_request_origin_t o;
    mpp_call_origin(c, &o);
    mpp_p2p_receive(&mpp_ws_matcher, m.channel, m.sender, m.tag, mpp_ws_aligned(c->t0), (int64_t)sendrecv_ticks, &o);
}

/* A blocking receive of a message; when it takes the message a probe just
 * found, the probe is the call that waited for it, and gets its Real
 * sync.  Lock held. */
static void blocking_receive(mpp_call_t *c, mpp_comm_t *cm, const MPI_Status *st, int probed)
{
    mpp_ws_envelope_t m = mpp_ws_envelope(cm, st);
    if (!probed)
        mpp_ws_receive_one(c, m, c->t1 - c->t0);
    else if (m.sender >= 0)
        mpp_p2p_receive(&mpp_ws_matcher, m.channel, m.sender, m.tag, mpp_ws_aligned(mpp_ws_last_probe.t0),
                        (int64_t)(mpp_ws_last_probe.t1 - mpp_ws_last_probe.t0), &mpp_ws_last_probe.origin);
}

void mpp_ws_recv_general(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status)
{
    int message = mpp_ws_is_message(status);
    const mpp_ws_probe_t *p = &mpp_ws_last_probe;
    int probed =
        p->valid && p->comm == comm && message && p->source == status->MPI_SOURCE && p->tag == status->MPI_TAG;
    if (probed)
        mpp_ws_last_probe.valid = 0;
    mpp_comm_t *cm = message ? mpp_comm_get(comm) : NULL;
    if (!cm || !cm->id)
        return;
    mpp_ws_take();
    blocking_receive(c, cm, status, probed);
    int due = mpp_ws_due_locked();
    mpp_ws_give();
    mpp_ws_maybe_progress(due);
}

void mpp_ws_mrecv(mpp_call_t *c, MPI_Message message, const MPI_Status *status)
{
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return;
    if (!mpp_ws_last_probe.valid || mpp_ws_last_probe.message != message)
        return;
    /* MPI_Mrecv names no communicator: the probe that matched it did */
    mpp_ws_last_probe.valid = 0;
    mpp_comm_t *cm = mpp_ws_is_message(status) ? mpp_comm_get(mpp_ws_last_probe.comm) : NULL;
    if (!cm || !cm->id)
        return;
    mpp_ws_take();
    blocking_receive(c, cm, status, 1);
    int due = mpp_ws_due_locked();
    mpp_ws_give();
    mpp_ws_maybe_progress(due);
}

/* A call on a communicator the analysis cannot follow (counted for Warnings). */
int mpp_ws_unfollowed(const mpp_comm_t *cm)
{
    if (!cm || cm->id != MPP_COMM_ID_NONE || cm->members < 2)
        return 0;
    mpp_ws_take();
    mpp_ws_stats.unfollowed++;
    mpp_ws_give();
    return 1;
}

void mpp_ws_send_general(mpp_call_t *c, MPI_Comm comm, int dest, int tag)
{
    if (dest == MPI_PROC_NULL)
        return;
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || mpp_ws_unfollowed(cm) || !cm->id)
        return;
    int world_dest = mpp_comm_world_rank(cm, dest);
    mpp_ws_take();
    mpp_ws_stats.messages +=
        (uint64_t)mpp_wsx_record_send_locked(world_dest, cm->channel, tag, mpp_ws_aligned(c->t0));
    mpp_ws_give_and_send();
}

void mpp_ws_collective_general(mpp_call_t *c, MPI_Comm comm)
{
    mpp_comm_t *cm = mpp_comm_get(comm);
    mpp_ws_unfollowed(cm);
    mpp_ws_take();
    if (cm && cm->members > 1)
        mpp_ws_begin_instance(cm, c, mpp_ws_aligned(c->t0), mpp_ws_aligned(c->t1));
    int due = mpp_ws_due_locked();
    mpp_ws_give_and_send();
    mpp_ws_maybe_progress(due);
}

void mpp_ws_comm_freeing(MPI_Comm comm)
{
    mpp_comm_t *cm = mpp_comm_unregister(comm);
    if (!cm)
        return;
    mpp_ws_take();
    mpp_ws_comm_end_locked(cm);
    int pending = mpp_wsx_pending_locked();
    mpp_ws_give_and_send();
    if (pending)
        mpp_wsx_progress_reductions();
    mpp_comm_release(cm);
}

/* ------------------------------------------------------------------ */

void mpp_ws_fine_threshold(int64_t fine)
{
    fine_threshold = mpp_ws_matcher.fine = fine < threshold ? fine : threshold;
}

static void free_memory(void)
{
    mpp_ws_owners_free();
    free(inflight);
    inflight = NULL;
    ninflight = inflight_capacity = horizon_unknown = 0;
    rings = NULL; /* the rings are their communicators' (freed with them, or by then) */
    mpp_batch_pool_free(&pool);
    free(terms);
    free(fallback_buffer);
    terms = NULL, fallback_buffer = NULL;
}

void mpp_ws_start(MPI_Comm comm, int64_t offset, int64_t thresh, int batch_size, int thread_multiple, int check_rows,
                  int check_records)
{
    mpp_ws_clock_offset = offset;
    threshold = fine_threshold = thresh;
    mpp_ws_batch = batch_size > 0 ? batch_size : 256;
    mpp_batch_pool_init_rows(&pool, mpp_ws_batch, check_rows);
    mpp_ws_lock.on = thread_multiple;
    memset(&mpp_ws_stats, 0, sizeof mpp_ws_stats);
    mpp_ws_stats.least_threshold = thresh;
    mpp_cover_reset(&entries_covered);
    mpp_cover_reset(&exits_covered);
    mpp_cover_set_debit(&entries_covered, mpp_ws_owner_debit, mpp_ws_owner_known, NULL);
    mpp_cover_set_debit(&exits_covered, mpp_ws_owner_debit, mpp_ws_owner_known, NULL);
    terms = malloc(6 * (size_t)mpp_ws_batch * sizeof *terms);
    fallback_buffer = malloc(((3 + (size_t)check_rows) * (size_t)mpp_ws_batch + 1) * sizeof *fallback_buffer);
    if (!terms || !fallback_buffer || mpp_ws_owners_start() != 0 ||
        mpp_wsx_start(comm, mpp_ws_batch, 3 + check_rows, check_records, &mpp_ws_lock,
                      (mpp_wsx_callbacks_t){replay, reduction_ended}) != 0) {
        free_memory();
        mpp_warn("out of memory at MPI_Init: the wait-state analysis is off for this run");
        return;
    }
    mpp_p2p_init(&mpp_ws_matcher, threshold, 1 << 20, deliver_real_sync, NULL);
    mpp_ws_requests_start();
    mpp_comms_start(thread_multiple);
    /* one thread makes the MPI calls (no lock, no other thread's waits to
     * apply: waitstates/deferred.h) and the world has an id (mpp_origin_keeps_frames
     * is set from MPI_THREAD_SERIALIZED on, before this) */
    mpp_ws_inline_world =
        !thread_multiple && !mpp_origin_keeps_frames && mpp_comm_world_entry && mpp_comm_world_entry->id;
    mpp_ws_on = 1;
}

void mpp_ws_cancel(void)
{
    if (mpp_ws_on) {
        mpp_wsx_cancel();
        mpp_ws_requests_free();
        mpp_comms_stop();
        mpp_p2p_free(&mpp_ws_matcher);
    }
    mpp_ws_on = mpp_ws_inline_world = 0;
    free_memory();
}

static void finish_comm(mpp_comm_t *c, void *arg)
{
    (void)arg;
    issue_count(c);
    if (c->coll)
        issue_all(c);
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
    mpp_ws_on = mpp_ws_inline_world = 0;
    /* Collectives: what every communicator still has, to its reductions
     * (every member is here, with the same count); then the end of the
     * exchange, which delivers every result. */
    mpp_ws_take();
    mpp_comms_each(finish_comm, NULL);
    mpp_ws_requests_each_comm(finish_comm, NULL);
    mpp_ws_give_and_send();
    mpp_wsx_finish();
    mpp_p2p_finish(&mpp_ws_matcher);
    mpp_ws_take();
    mpp_comms_each(free_ring, NULL);
    mpp_ws_requests_each_comm(free_ring, NULL);
    mpp_ws_give();
    mpp_ws_apply_deferred(NULL); /* every other thread is done: their tables stay put */
    mpp_ws_deferred_free();
    mpp_ws_stats.paired = mpp_ws_matcher.paired;
    mpp_ws_stats.unpaired = mpp_ws_matcher.unpaired_receives + mpp_ws_matcher.dropped;
    mpp_wsx_stats_t x;
    mpp_wsx_get_stats(&x);
    mpp_ws_stats.batches = x.batches;
    mpp_ws_stats.batch_bytes = x.batch_bytes;
    mpp_ws_stats.dropped = x.dropped;

    mpp_ws_requests_free();
    mpp_comms_stop();
    mpp_p2p_free(&mpp_ws_matcher);
    free_memory();
}

void mpp_ws_get_stats(mpp_ws_stats_t *out) { *out = mpp_ws_stats; }
