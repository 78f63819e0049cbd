#include <stdlib.h>
#include <string.h>

#include "waitstates.h"

void mpp_p2p_init(mpp_p2p_t *m, int64_t threshold, int64_t max_queue, mpp_deliver_fn deliver, void *ctx)
{
    memset(m, 0, sizeof *m);
    m->threshold = m->fine = threshold;
    m->max_queue = max_queue > 0 ? max_queue : 1 << 20;
    m->deliver = deliver;
    m->ctx = ctx;
    m->free_event = -1;
}

void mpp_p2p_free(mpp_p2p_t *m)
{
    for (size_t i = 0; i < m->capacity; i++)
        free(m->channels[i].queue);
    free(m->channels);
    free(m->events);
    memset(m, 0, sizeof *m);
    m->free_event = -1;
}

static uint32_t channel_hash(uint32_t comm, int32_t source, int32_t tag)
{
    uint64_t h = ((uint64_t)comm << 32 | (uint32_t)source) * 0x9E3779B97F4A7C15ull;
    h = (h ^ (uint32_t)tag) * 0xff51afd7ed558ccdull;
    h ^= h >> 29;
    return (uint32_t)h | 1;
}

static int balanced(const mpp_channel_t *c) { return c->len == 0; }

/* Rebuild the table with `cap` slots, leaving out balanced channels (their
 * counts restart at zero on both sides of the pairing). */
static int rebuild(mpp_p2p_t *m, size_t cap)
{
    mpp_channel_t *fresh = calloc(cap, sizeof *fresh);
    if (!fresh)
        return -1;
    size_t count = 0;
    for (size_t i = 0; i < m->capacity; i++) {
        mpp_channel_t *c = &m->channels[i];
        if (!c->hash)
            continue;
        if (balanced(c)) {
            free(c->queue);
            continue;
        }
        size_t j = c->hash & (cap - 1);
        while (fresh[j].hash)
            j = (j + 1) & (cap - 1);
        fresh[j] = *c;
        count++;
    }
    free(m->channels);
    m->channels = fresh;
    m->capacity = cap;
    m->count = count;
    m->last = NULL; /* it moved, or was left out */
    return 0;
}

static mpp_channel_t *channel_lookup(mpp_p2p_t *m, uint32_t comm, int32_t source, int32_t tag)
{
    if ((m->count + 1) * 2 > m->capacity) {
        /* first drop the balanced channels; grow only if that is not enough */
        size_t cap = m->capacity ? m->capacity : 256;
        if (m->capacity && rebuild(m, cap) != 0)
            return NULL;
        while ((m->count + 1) * 2 > cap)
            cap *= 2;
        if ((cap != m->capacity || !m->channels) && rebuild(m, cap) != 0)
            return NULL;
    }
    uint32_t h = channel_hash(comm, source, tag);
    size_t mask = m->capacity - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        mpp_channel_t *c = &m->channels[i];
        if (c->hash == h && c->comm == comm && c->source == source && c->tag == tag)
            return c;
        if (!c->hash) {
            memset(c, 0, sizeof *c);
            c->hash = h;
            c->comm = comm;
            c->source = source;
            c->tag = tag;
            m->count++;
            return c;
        }
    }
}

static mpp_channel_t *channel(mpp_p2p_t *m, uint32_t comm, int32_t source, int32_t tag)
{
    mpp_channel_t *last = m->last;
    if (last && last->comm == comm && last->source == source && last->tag == tag)
        return last;
    return m->last = channel_lookup(m, comm, source, tag);
}

static int push(mpp_p2p_t *m, mpp_channel_t *c, int kind, int64_t value)
{
    if (c->len && c->kind != kind)
        return -1; /* cannot happen: a queue holds one side only */
    if (c->len >= m->max_queue) {
        /* one side never comes (a receive MPI did not let us see, a send
         * from code that is not profiled): stop pairing on this channel's
         * backlog rather than grow without bound */
        m->dropped += (uint64_t)c->len;
        if (c->kind == 2)
            m->waiting -= c->len;
        c->len = 0;
    }
    if (c->len == c->cap) {
        int cap = c->cap ? c->cap * 2 : 8;
        int64_t *q = malloc((size_t)cap * sizeof *q);
        if (!q)
            return -1;
        for (int i = 0; i < c->len; i++)
            q[i] = c->queue[(c->head + i) & (c->cap - 1)];
        free(c->queue);
        c->queue = q;
        c->cap = cap;
        c->head = 0;
    }
    c->kind = kind;
    c->queue[(c->head + c->len) & (c->cap - 1)] = value; /* cap: a power of two (8, doubled) */
    c->len++;
    return 0;
}

static int64_t pop(mpp_channel_t *c)
{
    int64_t v = c->queue[c->head];
    c->head = (c->head + 1) & (c->cap - 1);
    c->len--;
    return v;
}

static void deliver_if_done(mpp_p2p_t *m, int e)
{
    mpp_wait_event_t *ev = &m->events[e];
    if (ev->open || ev->pending > 0)
        return;
    int64_t wait = mpp_late_sender_wait(ev->duration, ev->latest, m->threshold);
    if (wait > 0 && m->deliver) {
        m->deliver(m->ctx, &ev->origin, wait, 0);
    } else if (m->fine < m->threshold && m->deliver) {
        wait = mpp_late_sender_wait(ev->duration, ev->latest, m->fine);
        if (wait > 0)
            m->deliver(m->ctx, &ev->origin, wait, 1);
    }
    ev->next_free = m->free_event;
    m->free_event = e;
    ev->open = -1; /* free */
}

int mpp_p2p_event_open(mpp_p2p_t *m, int64_t entry, int64_t duration, const mpp_request_origin_t *origin)
{
    if (m->free_event < 0) {
        int n = m->nevents ? m->nevents * 2 : 64;
        mpp_wait_event_t *grown = realloc(m->events, (size_t)n * sizeof *grown);
        if (!grown)
            return -1;
        m->events = grown;
        for (int i = n - 1; i >= m->nevents; i--) {
            grown[i].next_free = m->free_event;
            grown[i].open = -1;
            m->free_event = i;
        }
        m->nevents = n;
    }
    int e = m->free_event;
    mpp_wait_event_t *ev = &m->events[e];
    m->free_event = ev->next_free;
    ev->entry = entry;
    ev->duration = duration;
    ev->latest = INT64_MIN;
    ev->pending = 0;
    ev->open = 1;
    if (origin)
        mpp_origin_copy(&ev->origin, origin);
    else
        ev->origin.thread = NULL;
    return e;
}

static void pair(mpp_p2p_t *m, int e, int64_t send_entry)
{
    mpp_wait_event_t *ev = &m->events[e];
    int64_t late = send_entry - ev->entry;
    if (late > ev->latest)
        ev->latest = late;
    m->paired++;
}

void mpp_p2p_received(mpp_p2p_t *m, int event, uint32_t comm, int32_t source, int32_t tag)
{
    if (event < 0 || event >= m->nevents)
        return;
    mpp_channel_t *c = channel(m, comm, source, tag);
    if (!c)
        return;
    if (c->len && c->kind == 1) { /* its send record is here already */
        pair(m, event, pop(c));
        return;
    }
    if (push(m, c, 2, event) == 0) {
        m->events[event].pending++;
        m->waiting++;
    }
}

void mpp_p2p_event_close(mpp_p2p_t *m, int event)
{
    if (event < 0 || event >= m->nevents)
        return;
    m->events[event].open = 0;
    deliver_if_done(m, event);
}

void mpp_p2p_sent(mpp_p2p_t *m, int32_t source, const mpp_send_record_t *r)
{
    mpp_channel_t *c = channel(m, r->comm, source, r->tag);
    if (!c)
        return;
    if (c->len && c->kind == 2) { /* the receive came first */
        int e = (int)pop(c);
        m->waiting--;
        pair(m, e, r->entry);
        m->events[e].pending--;
        deliver_if_done(m, e);
        return;
    }
    push(m, c, 1, r->entry);
}

void mpp_p2p_finish(mpp_p2p_t *m)
{
    for (size_t i = 0; i < m->capacity; i++) {
        mpp_channel_t *c = &m->channels[i];
        if (!c->hash || c->kind != 2)
            continue;
        while (c->len) {
            int e = (int)pop(c);
            m->waiting--;
            m->unpaired_receives++;
            m->events[e].pending--;
            deliver_if_done(m, e);
        }
    }
}

int mpp_p2p_pending_events(const mpp_p2p_t *m)
{
    int n = 0;
    for (int i = 0; i < m->nevents; i++)
        n += m->events[i].open != -1;
    return n;
}

void mpp_batch_pool_init(mpp_batch_pool_t *p, int size)
{
    p->size = size;
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
    b->values = malloc(3 * (size_t)p->size * sizeof *b->values);
    b->origins = malloc((size_t)p->size * sizeof *b->origins);
    if (!b->values || !b->origins) {
        free(b->values);
        free(b->origins);
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
    int size = r->pool->size, count = slot->n, unknown = 0;
    mpp_instance_batch_t *b = slot->buf;
    *n = count;
    *buf = b;
    if (b) {
        /* entries, exits and negated exits, each `count` long, one after the other */
        int64_t *v = b->values;
        if (count < size)
            memmove(v + count, v + size, (size_t)count * sizeof *v);
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

void mpp_instances_terms(int n, const int64_t *sent, const int64_t *max, int64_t threshold, int64_t fine_from,
                         mpp_cover_t *entries, mpp_cover_t *exits, int64_t *potsync, int64_t *variation,
                         unsigned char *fine)
{
    int64_t least = fine && fine_from < threshold ? fine_from : threshold;
    for (int j = 0; j < n; j++) {
        int64_t entry = sent[j], exit = sent[n + j];
        int64_t p = mpp_sync_term(max[j], entry, least);
        if (fine) /* the difference itself, not what the cover leaves of it, decides */
            fine[j] = p > 0 && p < threshold ? MPP_FINE_POTSYNC : 0;
        potsync[j] = entries ? mpp_cover_add_fast(entries, entry, entry + p) : p;
        if (max[2 * n + j] == INT64_MAX) {
            variation[j] = -1;
            continue;
        }
        int64_t v = mpp_sync_term(max[n + j], exit, least);
        if (fine && v > 0 && v < threshold)
            fine[j] |= MPP_FINE_VARIATION;
        variation[j] = exits ? mpp_cover_add_fast(exits, exit, exit + v) : v;
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
