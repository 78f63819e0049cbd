#include <string.h>

#include "check/buffers.h"
#include "gen/function_table.h"
#include "intercept/check/argcheck.h"
#include "intercept/check/buffers.h"
#include "intercept/check/run.h"
#include "intercept/handle_keys.h"
#include "util/mt_lock.h"

/* Pending buffers whose ranges meet a call's looked at, at most, and the
 * blocks compared for each: beyond them no finding (never a guess), and
 * no call costs more than this whatever the number pending. */
#define CANDIDATES 64
#define BUDGET 65536

/* What a pending send keeps for its checksum (MPIPROF_CHECK=...,checksum). */
typedef struct {
    uint64_t sum;
    int depth; /* 0: none taken */
    uintptr_t frames[MPP_MAX_DEPTH];
} sum_t;

static mpp_pending_t *pending;
static int full, checksum;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;

void mpp_chk_buffers_start(int locking)
{
    full = (mpp_check_level & MPP_CHECK_LEVEL) >= MPP_CHECK_FULL;
    checksum = (mpp_check_level & MPP_CHECK_CHECKSUM) != 0;
    lock.on = locking;
    mpp_mt_take(&lock);
    pending = mpp_pending_create(checksum ? sizeof(sum_t) : 0);
    mpp_mt_give(&lock);
}

void mpp_chk_buffers_stop(void)
{
    mpp_mt_take(&lock);
    mpp_pending_destroy(pending);
    pending = NULL;
    mpp_mt_give(&lock);
}

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }

/* A buffer's span (a reference on its layout, NULL when not known). */
static int span_of(const mpp_chk_buffer_t *b, mpp_span_t *s)
{
    mpp_layout_t *l = mpp_chk_layout(b->type);
    *s = (mpp_span_t){(uintptr_t)b->addr, b->count, l};
    return l != NULL;
}

static void release(mpp_span_t *s)
{
    mpp_layout_unref((mpp_layout_t *)s->layout);
    s->layout = NULL;
}

/* A pending buffer that shares a byte with s (one of them written): its
 * entry copied to *hit. */
static int conflict(const mpp_span_t *s, int written, mpp_pending_entry_t *hit)
{
    mpp_mt_take(&lock);
    uint32_t id = pending ? mpp_pending_conflict(pending, s, written, CANDIDATES, BUDGET) : 0;
    if (id)
        *hit = *mpp_pending_entry(pending, id);
    mpp_mt_give(&lock);
    return id != 0;
}

static void report_conflict(const mpp_call_t *c, const char *name, int written, const mpp_pending_entry_t *hit)
{
    /* a one-sided operation's origin buffer handed to another call: rma-conflict */
    int rma = hit->fid < MPP_NFUNCTIONS && (mpp_functions[hit->fid].check & MPP_FCHECK_RMA);
    mpp_check_report(c, rma ? MPP_FIND_RMA_CONFLICT : MPP_FIND_OVERLAPPING_BUFFERS, -1, hit->fid,
                     (uintptr_t)hit->site, "%s (%s) shares bytes with the buffer a pending %s %s", name,
                     written ? "written" : "read", function_name(hit->fid),
                     (hit->flags & MPP_PENDING_WRITTEN) ? "writes" : "reads");
}

void mpp_chk_end(mpp_chk_t *k, int persistent)
{
    if (!full || k->nbuf == 0)
        return;
    mpp_span_t s[2];
    int known[2];
    for (int i = 0; i < k->nbuf; i++)
        known[i] = span_of(&k->buf[i], &s[i]);
    /* the send and receive buffers of one call: two parameters, one written */
    const mpp_chk_buffer_t *a = &k->buf[0], *b = &k->buf[1];
    if (k->nbuf == 2 && known[0] && known[1] && strcmp(a->name, b->name) != 0 &&
        ((a->flags ^ b->flags) & MPP_CHK_WRITTEN) && mpp_span_overlap(&s[0], &s[1], BUDGET) == 1)
        mpp_check_report(k->call, MPP_FIND_SENDRECV_OVERLAP, -1, 0, 0, "%s and %s share bytes", a->name, b->name);
    /* against the pending operations (a persistent request's at its start) */
    mpp_pending_entry_t hit;
    for (int i = 0; i < k->nbuf && !persistent; i++) {
        int written = (k->buf[i].flags & MPP_CHK_WRITTEN) != 0;
        if (known[i] && conflict(&s[i], written, &hit)) {
            report_conflict(k->call, k->buf[i].name, written, &hit);
            break;
        }
    }
    for (int i = 0; i < k->nbuf; i++)
        release(&s[i]);
}

/* A send's checksum, and its call's stack for the finding. */
static void take_sum(const mpp_call_t *c, uint32_t id, const mpp_span_t *s)
{
    sum_t *x = mpp_pending_extra(pending, id);
    x->sum = mpp_span_checksum(s);
    x->depth = mpp_check_call_frames(c, x->frames);
}

void mpp_chk_created(mpp_chk_t *k, MPI_Request request, int persistent, void *site)
{
    mpp_call_t *c = k->call;
    uint64_t key = mpp_request_key(request);
    /* a request the request table does not follow: its completion goes by unseen */
    if (!key || key != c->new_request || !c->new_serial)
        return;
    for (int i = 0; i < k->nbuf; i++) {
        int written = (k->buf[i].flags & MPP_CHK_WRITTEN) != 0;
        mpp_span_t s;
        if (!(full || (checksum && !written)) || !span_of(&k->buf[i], &s))
            continue;
        unsigned flags = (written ? MPP_PENDING_WRITTEN : 0) | (persistent ? MPP_PENDING_PERSISTENT : 0);
        mpp_mt_take(&lock);
        uint32_t id = pending ? mpp_pending_add(pending, key, &s, flags, (uint16_t)c->fid, (uint64_t)site) : 0;
        if (id && checksum && !written)
            take_sum(c, id, &s);
        if (id && !persistent)
            mpp_pending_activate(pending, id, 1);
        mpp_mt_give(&lock);
        release(&s);
    }
}

/* A pending send that completes: its bytes must be those it started with. */
static void compare_sum(mpp_pending_t *p, uint32_t id, void *arg)
{
    (void)arg;
    const mpp_pending_entry_t *e = mpp_pending_entry(p, id);
    if (!checksum || (e->flags & MPP_PENDING_WRITTEN) || !(e->flags & MPP_PENDING_ACTIVE))
        return;
    sum_t *x = mpp_pending_extra(p, id);
    if (x->depth && mpp_span_checksum(&e->span) != x->sum)
        mpp_check_report_at(MPP_FIND_SEND_BUFFER_MODIFIED, -1, e->fid, x->frames, x->depth, -1, 0, 0,
                            "the send buffer changed between %s and its completion", function_name(e->fid));
}

/* A persistent request started: each buffer checked against the pending
 * ones, then pending itself. */
static void start(mpp_call_t *c, uint64_t handle)
{
    for (uint32_t id = mpp_pending_first(pending, handle); id; id = mpp_pending_entry(pending, id)->next) {
        mpp_pending_entry_t *e = mpp_pending_entry(pending, id);
        if (e->flags & MPP_PENDING_ACTIVE)
            continue;
        int written = (e->flags & MPP_PENDING_WRITTEN) != 0;
        uint32_t hit = full ? mpp_pending_conflict(pending, &e->span, written, CANDIDATES, BUDGET) : 0;
        if (hit)
            report_conflict(c, written ? "the receive buffer" : "the send buffer", written,
                            mpp_pending_entry(pending, hit));
        if (checksum && !written) /* its stack was taken at its creation */
            ((sum_t *)mpp_pending_extra(pending, id))->sum = mpp_span_checksum(&e->span);
        mpp_pending_activate(pending, id, 1);
    }
}

/* A persistent request completed (its handle stays): out of the tree. */
static void finish(uint64_t handle)
{
    for (uint32_t id = mpp_pending_first(pending, handle); id; id = mpp_pending_entry(pending, id)->next) {
        if (!(mpp_pending_entry(pending, id)->flags & MPP_PENDING_PERSISTENT))
            continue; /* a request a test found not complete yet */
        compare_sum(pending, id, NULL);
        mpp_pending_activate(pending, id, 0);
    }
}

void mpp_chk_handled(mpp_call_t *c, const mpp_reqset_t *set, const MPI_Request *requests, int n, int action)
{
    mpp_mt_take(&lock);
    for (int i = 0; pending && i < set->n && i < n; i++) {
        if (!set->keys[i])
            continue;
        uint64_t handle = mpp_request_handle_of(set->keys[i]);
        if (!mpp_pending_first(pending, handle))
            continue;
        if (action == MPP_CHK_START)
            start(c, handle);
        else if (requests[i] == MPI_REQUEST_NULL) /* done, or freed: every buffer of the handle leaves */
            mpp_pending_remove(pending, handle, compare_sum, NULL);
        else if (action == MPP_CHK_COMPLETE) /* persistent (or a test's not yet: out early, never a finding) */
            finish(handle);
    }
    mpp_mt_give(&lock);
}

void mpp_chk_forget(const mpp_reqset_t *set)
{
    mpp_mt_take(&lock);
    for (int i = 0; pending && i < set->n; i++)
        if (set->keys[i])
            mpp_pending_remove(pending, mpp_request_handle_of(set->keys[i]), NULL, NULL);
    mpp_mt_give(&lock);
}

void mpp_chk_rma_issued(mpp_chk_t *k, MPI_Win win, int rank, MPI_Request request, void *site)
{
    mpp_call_t *c = k->call;
    uint64_t key = mpp_request_key(request);
    if (!full || k->nbuf == 0 || (request != MPI_REQUEST_NULL && (!key || key != c->new_request || !c->new_serial)))
        return;
    if (!(key = mpp_check_rma_pending(win, rank, key)))
        return;
    for (int i = 0; i < k->nbuf; i++) {
        mpp_span_t s;
        if (!span_of(&k->buf[i], &s))
            continue;
        unsigned flags = MPP_PENDING_ACTIVE | ((k->buf[i].flags & MPP_CHK_WRITTEN) ? MPP_PENDING_WRITTEN : 0);
        mpp_mt_take(&lock);
        if (pending)
            (void)mpp_pending_add(pending, key, &s, flags, (uint16_t)c->fid, (uint64_t)site);
        mpp_mt_give(&lock);
        release(&s);
    }
}

void mpp_chk_rma_release(uint64_t handle)
{
    mpp_mt_take(&lock);
    if (pending)
        mpp_pending_remove(pending, handle, NULL, NULL);
    mpp_mt_give(&lock);
}

void mpp_chk_unseen(int requests, int types)
{
    if (requests) {
        mpp_mt_take(&lock);
        if (pending)
            mpp_pending_clear(pending);
        mpp_mt_give(&lock);
    }
    if (types) {
        mpp_chk_types_forget();
        mpp_chk_comms_forget();
    }
}
