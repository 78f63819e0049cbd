#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/waitstates.h"
#include "util/warnings.h"

void mpp_batch_pool_init(mpp_batch_pool_t *p, int size) { mpp_batch_pool_init_rows(p, size, 0); }

void mpp_batch_pool_init_rows(mpp_batch_pool_t *p, int size, int rows)
{
    p->size = size;
    p->rows = rows;
    p->spares = NULL;
}

mpp_instance_batch_t *mpp_batch_get(mpp_batch_pool_t *p)
{
    mpp_instance_batch_t *b = p->spares;
    if (b) {
        p->spares = b->next;
        return b;
    }
    if (!(b = calloc(1, sizeof *b)))
        return NULL;
    /* one more: the reduction's last value (the clocks' largest error) */
    b->values = malloc(((3 + (size_t)p->rows) * (size_t)p->size + 1) * sizeof *b->values);
    b->origins = malloc((size_t)p->size * sizeof *b->origins);
    b->places = malloc((size_t)p->size * sizeof *b->places);
    if (!b->values || !b->origins || !b->places) {
        free(b->values);
        free(b->origins);
        free(b->places);
        free(b);
        return NULL;
    }
    return b;
}

void mpp_batch_put(mpp_batch_pool_t *p, mpp_instance_batch_t *b)
{
    if (!b)
        return;
    b->max = NULL;
    b->next = p->spares;
    p->spares = b;
}

void mpp_batch_pool_free(mpp_batch_pool_t *p)
{
    for (mpp_instance_batch_t *b; (b = p->spares) != NULL;) {
        p->spares = b->next;
        free(b->values);
        free(b->origins);
        free(b->places);
        free(b);
    }
}

void mpp_instances_init(mpp_instances_t *r, mpp_batch_pool_t *pool)
{
    memset(r, 0, sizeof *r);
    r->pool = pool;
}

mpp_batch_slot_t *mpp_instances_pending(mpp_instances_t *r)
{
    return r->ready.n ? &r->ready : r->fill.n ? &r->fill : NULL;
}

void mpp_instances_next_batch(mpp_instances_t *r)
{
    if (r->fill.n == r->pool->size) { /* full: it waits one batch for late exits (the due one was taken) */
        r->ready = r->fill;
        r->fill = (mpp_batch_slot_t){r->count, 0, NULL};
    }
    r->fill.first = r->count;
    r->fill.buf = mpp_batch_get(r->pool); /* NULL: not kept, still counted */
    size_t from = 3 * (size_t)r->pool->size, to = from + (size_t)r->pool->rows * (size_t)r->pool->size;
    for (size_t i = from; r->fill.buf && i < to; i++)
        r->fill.buf->values[i] = INT64_MIN; /* an instance without check values changes no member's maximum */
}

void mpp_instances_set_rows(mpp_instances_t *r, const int64_t *values)
{
    mpp_instance_batch_t *b = r->fill.buf;
    int size = r->pool->size, j = r->fill.n - 1;
    if (!b || j < 0)
        return;
    for (int k = 0; k < r->pool->rows; k++)
        b->values[(3 + k) * size + j] = values[k];
}

void mpp_instances_end(mpp_instances_t *r, uint64_t i, int64_t exit)
{
    int size = r->pool->size;
    mpp_batch_slot_t *slot = i >= r->fill.first && i - r->fill.first < (uint64_t)r->fill.n ? &r->fill
                             : r->ready.n && i >= r->ready.first && i - r->ready.first < (uint64_t)r->ready.n
                                 ? &r->ready
                                 : NULL;
    if (slot && slot->buf)
        slot->buf->values[size + (i - slot->first)] = exit;
}

int mpp_instances_take(mpp_instances_t *r, mpp_batch_slot_t *slot, int64_t *fallback, mpp_instance_batch_t **buf,
                       int *n)
{
    int size = r->pool->size, rows = r->pool->rows, count = slot->n, unknown = 0;
    mpp_instance_batch_t *b = slot->buf;
    *n = count;
    *buf = b;
    if (b) {
        /* entries, exits and negated exits, each `count` long, one after the
         * other, then the check rows (each moves down: no row is overwritten
         * before it moved) */
        int64_t *v = b->values;
        if (count < size) {
            memmove(v + count, v + size, (size_t)count * sizeof *v);
            for (int k = 3; k < 3 + rows; k++)
                memmove(v + (size_t)k * count, v + (size_t)k * size, (size_t)count * sizeof *v);
        }
        for (int j = 0; j < count; j++) {
            int64_t exit = v[count + j];
            int known = exit != INT64_MIN;
            v[2 * count + j] = known ? -exit : INT64_MAX;
            unknown += !known;
        }
        b->n = count;
    } else {
        /* nothing kept: the neutral values of a maximum, exits unknown */
        for (int j = 0; j < count; j++) {
            fallback[j] = fallback[count + j] = INT64_MIN;
            fallback[2 * count + j] = INT64_MAX;
            for (int k = 3; k < 3 + rows; k++)
                fallback[(size_t)k * count + j] = INT64_MIN;
        }
        unknown = count;
    }
    if (slot == &r->ready) {
        r->ready = (mpp_batch_slot_t){0, 0, NULL};
    } else { /* the one being filled: instances begin in a new batch */
        r->fill = (mpp_batch_slot_t){r->count, 0, NULL};
    }
    return unknown;
}

/* A window [from, from + length) ending at `bound` at the latest: its
 * length then. */
static int64_t cut_window(int64_t from, int64_t length, int64_t bound, int64_t threshold, mpp_window_cuts_t *cuts)
{
    if (length <= 0 || from + length <= bound)
        return length;
    int64_t kept = bound > from ? bound - from : 0;
    if (cuts) {
        cuts->windows++;
        cuts->within += length - kept < threshold;
        if (length - kept > cuts->largest)
            cuts->largest = length - kept;
    }
    return kept;
}

static inline uint64_t owner_of(const mpp_window_owners_t *owners, int j, int variation, int64_t start)
{
    if (!owners)
        return MPP_COVER_NOBODY;
    return start < owners->final_before ? MPP_COVER_FINAL : owners->tag(owners->ctx, j, variation);
}

void mpp_instances_terms(int n, const int64_t *sent, const int64_t *max, const int64_t *bound, int64_t threshold,
                         int64_t fine_from, mpp_cover_t *entries, mpp_cover_t *exits, int64_t *potsync,
                         int64_t *variation, unsigned char *fine, mpp_window_cuts_t *cuts,
                         const mpp_window_owners_t *owners)
{
    int64_t least = fine && fine_from < threshold ? fine_from : threshold;
    /* the earliest start of the windows after each instance's: later
     * entries, later known exits, the windows to come */
    int64_t *reach = owners && owners->reach && owners->final_before != INT64_MIN ? owners->reach : NULL;
    if (reach) {
        int64_t e = owners->final_before, x = owners->final_before;
        for (int j = n - 1; j >= 0; j--) {
            reach[j] = e, reach[n + j] = x;
            if (sent[j] < e)
                e = sent[j];
            if (max[2 * n + j] != INT64_MAX && sent[n + j] < x)
                x = sent[n + j];
        }
    }
    for (int j = 0; j < n; j++) {
        int64_t entry = sent[j], exit = sent[n + j], end = bound ? bound[j] : INT64_MAX;
        int64_t p = mpp_sync_term(max[j], entry, least);
        if (fine) /* the difference itself, not what the cover leaves of it, decides */
            fine[j] = p > 0 && p < threshold ? MPP_FINE_POTSYNC : 0;
        p = cut_window(entry, p, end, threshold, cuts);
        if (entries && p > 0)
            p = mpp_cover_claim_before(entries, entry, entry + p, owner_of(owners, j, 0, entry), entry,
                                       reach ? reach[j] : INT64_MIN);
        potsync[j] = p;
        if (max[2 * n + j] == INT64_MAX) {
            variation[j] = -1;
            continue;
        }
        int64_t v = mpp_sync_term(max[n + j], exit, least);
        if (fine && v > 0 && v < threshold)
            fine[j] |= MPP_FINE_VARIATION;
        v = cut_window(exit, v, end, threshold, cuts);
        if (exits && v > 0)
            v = mpp_cover_claim_before(exits, exit, exit + v, owner_of(owners, j, 1, exit), entry,
                                       reach ? reach[n + j] : INT64_MIN);
        variation[j] = v;
    }
}

void mpp_instances_free(mpp_instances_t *r)
{
    mpp_batch_put(r->pool, r->fill.buf);
    mpp_batch_put(r->pool, r->ready.buf);
    r->fill = r->ready = (mpp_batch_slot_t){0, 0, NULL};
}

int mpp_clock_offset_estimate(const int64_t *t_send, const int64_t *t_peer, const int64_t *t_recv, int n,
                              int64_t *offset, int64_t *uncertainty)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (t_recv[i] >= t_send[i] && (best < 0 || t_recv[i] - t_send[i] < t_recv[best] - t_send[best]))
            best = i;
    if (best < 0)
        return -1;
    int64_t rtt = t_recv[best] - t_send[best];
    *offset = t_peer[best] - (t_send[best] + rtt / 2);
    *uncertainty = (rtt + 1) / 2;
    return 0;
}

int64_t mpp_clock_init_error(int64_t init, int64_t u_init, int64_t fin, int64_t u_fin, int same_host)
{
    int64_t change = init > fin ? init - fin : fin - init, at_end = change + u_fin;
    if (same_host)
        return at_end < u_init ? at_end : u_init;
    return at_end > u_init ? at_end : u_init;
}

int mpp_clock_offset_constant(const int64_t *offset, const double *u, int n, int64_t *constant)
{
    double sum = 0, weights = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < i; j++) {
            double d = (double)offset[i] - (double)offset[j];
            if ((d < 0 ? -d : d) > u[i] + u[j])
                return 0;
        }
        double w = 1 / (u[i] > 1 ? u[i] * u[i] : 1);
        sum += w * (double)(offset[i] - offset[0]); /* relative: no rounding of large offsets */
        weights += w;
    }
    if (n < 1)
        return 0;
    double mean = sum / weights;
    *constant = offset[0] + (int64_t)(mean < 0 ? mean - 0.5 : mean + 0.5);
    return 1;
}

/* "No path" in the relaxations: far below any sum of real bounds, so that
 * adding a bound to it cannot wrap. */
#define NO_PATH (INT64_MIN / 4)

int mpp_clock_bounds(int n, const int *movable, const mpp_clock_bound_t *b, size_t nb, int64_t *d)
{
    /* g[p]: the longest path from p to an exact clock, so d[p] <= -g[p]
     * (NO_PATH: nothing bounds p from above) */
    int64_t *g = malloc((size_t)(n > 0 ? n : 1) * sizeof *g);
    for (int p = 0; p < n; p++)
        d[p] = 0;
    if (!g)
        return -2;
    int ok = 1, changed = 1;
    for (int p = 0; p < n; p++)
        g[p] = movable[p] ? NO_PATH : 0;
    for (int round = 0; ok && changed && round <= n; round++) {
        changed = 0;
        for (size_t i = 0; i < nb; i++)
            if (g[b[i].to] != NO_PATH && g[b[i].to] + b[i].v > g[b[i].from])
                g[b[i].from] = g[b[i].to] + b[i].v, changed = 1;
    }
    ok = ok && !changed;
    for (int p = 0; ok && p < n; p++)
        ok = movable[p] || g[p] <= 0; /* an exact clock bounded later than another exact one */
    /* the least solution above the floors min(0, -g): a process with no
     * bound pulling it earlier stays at 0 unless pushed later */
    for (int p = 0; ok && p < n; p++)
        d[p] = movable[p] && g[p] > 0 ? -g[p] : 0;
    changed = 1;
    for (int round = 0; ok && changed && round <= n; round++) {
        changed = 0;
        for (size_t i = 0; ok && i < nb; i++)
            if (d[b[i].from] + b[i].v > d[b[i].to]) {
                ok = movable[b[i].to] != 0;
                d[b[i].to] = d[b[i].from] + b[i].v, changed = 1;
            }
    }
    ok = ok && !changed;
    free(g);
    for (int p = 0; !ok && p < n; p++)
        d[p] = 0;
    return ok ? 0 : -1;
}

void mpp_clock_uncertain_warning(const char *when, double seconds, int rank, const char *consequence)
{
    if (seconds <= MPP_WAIT_FINE)
        return;
    mpp_warn("Clock alignment: the offsets measured at %s are uncertain by up to %.3g s (rank %d's, to rank 0's "
             "clock), more than the %g us a quiet alignment gives (no round trip of its ping-pong was quicker: a "
             "loaded node, or a slow network); %s",
             when, seconds, rank, MPP_WAIT_FINE * 1e6, consequence);
}
