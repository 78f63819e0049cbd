/* Real sync pairing (waitstates.h): per sender, the receives waiting for
 * their record and the records waiting for their receive, each in one log
 * paired by position; a table of channels for the senders whose channels
 * interleave. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/waitstates.h"

/* How far into a sender's log the match is looked for: farther, its
 * channels interleave and its entries go to the channel table. */
enum { SCAN_LIMIT = 16 };

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
    for (int s = 0; s < m->npeers; s++) {
        if (m->peers[s]) {
            free(m->peers[s]->receives);
            free(m->peers[s]->records);
            free(m->peers[s]);
        }
    }
    free(m->peers);
    for (size_t i = 0; i < m->capacity; i++)
        free(m->channels[i].queue);
    free(m->channels);
    free(m->events);
    memset(m, 0, sizeof *m);
    m->free_event = -1;
}

/* ------------------------------------------------------------------ */
/* Events: calls that received several messages. */

/* Real sync of a call entered at `entry` that spent `duration` receiving,
 * its latest sender `latest` ticks after its entry. */
static void deliver_wait(mpp_p2p_t *m, const mpp_request_origin_t *origin, int64_t duration, int64_t latest)
{
    if (!m->deliver)
        return;
    int64_t wait = mpp_late_sender_wait(duration, latest, m->threshold);
    if (wait > 0) {
        m->deliver(m->ctx, origin, wait, 0);
    } else if (m->fine < m->threshold) {
        wait = mpp_late_sender_wait(duration, latest, m->fine);
        if (wait > 0)
            m->deliver(m->ctx, origin, wait, 1);
    }
}

static void deliver_if_done(mpp_p2p_t *m, int e)
{
    mpp_wait_event_t *ev = &m->events[e];
    if (ev->open || ev->pending > 0)
        return;
    deliver_wait(m, &ev->origin, ev->duration, ev->latest);
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

static void pair_event(mpp_p2p_t *m, int e, int64_t send_entry)
{
    mpp_wait_event_t *ev = &m->events[e];
    int64_t late = send_entry - ev->entry;
    if (late > ev->latest)
        ev->latest = late;
    m->paired++;
}

/* A waiting message of event e will never be paired. */
static void give_up(mpp_p2p_t *m, int e)
{
    m->waiting--;
    m->events[e].pending--;
    deliver_if_done(m, e);
}

void mpp_p2p_event_close(mpp_p2p_t *m, int event)
{
    if (event < 0 || event >= m->nevents)
        return;
    m->events[event].open = 0;
    deliver_if_done(m, event);
}

/* ------------------------------------------------------------------ */
/* The channel table, for senders whose channels interleave: a FIFO per
 * (communicator, sender, tag). */

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

static int64_t pop(mpp_p2p_peer_t *p, mpp_channel_t *c)
{
    int64_t v = c->queue[c->head];
    c->head = (c->head + 1) & (c->cap - 1);
    c->len--;
    p->in_table--;
    return v;
}

static int push(mpp_p2p_t *m, mpp_p2p_peer_t *p, mpp_channel_t *c, int kind, int64_t value)
{
    if (c->len && c->kind != kind)
        return -1; /* cannot happen: a queue holds one side only */
    if (c->len >= m->max_queue) {
        /* one side never comes (a receive MPI did not let us see, a send
         * from code that is not profiled): stop pairing on this channel's
         * backlog rather than grow without bound */
        m->dropped += (uint64_t)c->len;
        while (c->len) {
            int64_t v = pop(p, c);
            if (kind == 2)
                give_up(m, (int)v);
        }
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
    p->in_table++;
    return 0;
}

/* Message of event e from the sender p in the table. */
static void table_received(mpp_p2p_t *m, mpp_p2p_peer_t *p, int e, uint32_t comm, int32_t source, int32_t tag)
{
    mpp_channel_t *c = channel(m, comm, source, tag);
    if (!c)
        return;
    if (c->len && c->kind == 1) { /* its send record is here already */
        pair_event(m, e, pop(p, c));
        return;
    }
    if (push(m, p, c, 2, e) == 0) {
        m->events[e].pending++;
        m->waiting++;
    }
}

static void table_sent(mpp_p2p_t *m, mpp_p2p_peer_t *p, int32_t source, const mpp_send_record_t *r)
{
    mpp_channel_t *c = channel(m, r->comm, source, r->tag);
    if (!c)
        return;
    if (c->len && c->kind == 2) { /* the receive came first */
        int e = (int)pop(p, c);
        m->waiting--;
        pair_event(m, e, r->entry);
        m->events[e].pending--;
        deliver_if_done(m, e);
        return;
    }
    push(m, p, c, 1, r->entry);
}

/* ------------------------------------------------------------------ */
/* The logs of one sender. */

static mpp_p2p_peer_t *new_peer(mpp_p2p_t *m, int32_t source)
{
    if (source < 0)
        return NULL;
    if (source >= m->npeers) {
        int n = m->npeers ? m->npeers : 16;
        while (n <= source)
            n *= 2;
        mpp_p2p_peer_t **grown = realloc(m->peers, (size_t)n * sizeof *grown);
        if (!grown)
            return NULL;
        memset(grown + m->npeers, 0, (size_t)(n - m->npeers) * sizeof *grown);
        m->peers = grown;
        m->npeers = n;
    }
    return m->peers[source] = calloc(1, sizeof **m->peers);
}

static inline mpp_p2p_peer_t *peer_of(mpp_p2p_t *m, int32_t source)
{
    if ((uint32_t)source < (uint32_t)m->npeers && m->peers[source])
        return m->peers[source];
    return new_peer(m, source);
}

static inline mpp_p2p_waiting_t *receive_at(const mpp_p2p_peer_t *p, int i)
{
    return &p->receives[(p->rhead + i) & (p->rcap - 1)];
}

static inline mpp_send_record_t *record_at(const mpp_p2p_peer_t *p, int i)
{
    return &p->records[(p->shead + i) & (p->scap - 1)];
}

/* Offset of the first entry of the channel in a log: a ring of `cap`
 * entries of `size` bytes from `head`, each beginning with its comm and
 * tag (mpp_send_record_t, mpp_p2p_waiting_t); -1: none; -2: none within
 * SCAN_LIMIT, maybe farther.  Entries paired already have comm 0, which no
 * channel has. */
static int find_in_log(const void *ring, size_t size, int head, int len, int cap, uint32_t comm, int32_t tag)
{
    int n = len < SCAN_LIMIT ? len : SCAN_LIMIT;
    for (int i = 0; i < n; i++) {
        const char *e = (const char *)ring + (size_t)((head + i) & (cap - 1)) * size;
        uint32_t c;
        int32_t t;
        memcpy(&c, e, sizeof c);
        memcpy(&t, e + sizeof c, sizeof t);
        if (c == comm && t == tag)
            return i;
    }
    return len > SCAN_LIMIT ? -2 : -1;
}

_Static_assert(offsetof(mpp_send_record_t, comm) == 0 && offsetof(mpp_send_record_t, tag) == 4 &&
                   offsetof(mpp_p2p_waiting_t, comm) == 0 && offsetof(mpp_p2p_waiting_t, tag) == 4,
               "a log entry begins with its comm and tag");

static int find_record(const mpp_p2p_peer_t *p, uint32_t comm, int32_t tag)
{
    return find_in_log(p->records, sizeof *p->records, p->shead, p->slen, p->scap, comm, tag);
}

static int find_receive(const mpp_p2p_peer_t *p, uint32_t comm, int32_t tag)
{
    return find_in_log(p->receives, sizeof *p->receives, p->rhead, p->rlen, p->rcap, comm, tag);
}

/* Take entry i out of a log: the head goes with the paired entries behind
 * it, another is marked paired (the head is never one). */
static int64_t take_record(mpp_p2p_peer_t *p, int i)
{
    mpp_send_record_t *r = record_at(p, i);
    int64_t entry = r->entry;
    if (i) {
        r->comm = 0;
        return entry;
    }
    do {
        p->shead = (p->shead + 1) & (p->scap - 1);
        p->slen--;
    } while (p->slen && p->records[p->shead].comm == 0);
    return entry;
}

static void take_receive(mpp_p2p_peer_t *p, int i)
{
    if (i) {
        receive_at(p, i)->comm = 0;
        return;
    }
    do { /* also: skip the paired entries at a head just taken */
        p->rhead = (p->rhead + 1) & (p->rcap - 1);
        p->rlen--;
    } while (p->rlen && p->receives[p->rhead].comm == 0);
}

static void drop_records(mpp_p2p_t *m, mpp_p2p_peer_t *p)
{
    for (int i = 0; i < p->slen; i++)
        m->dropped += record_at(p, i)->comm != 0;
    p->slen = p->shead = 0;
}

/* A sender's waiting receives will get no record: each counted in
 * *counter, its event delivered with what it has. */
static void give_up_receives(mpp_p2p_t *m, mpp_p2p_peer_t *p, uint64_t *counter)
{
    for (int i = 0; i < p->rlen; i++) { /* delivering touches no log */
        const mpp_p2p_waiting_t *w = receive_at(p, i);
        if (!w->comm)
            continue;
        (*counter)++;
        if (w->event >= 0)
            give_up(m, w->event);
        else
            m->waiting--;
    }
    p->rlen = p->rhead = 0;
}

static void drop_receives(mpp_p2p_t *m, mpp_p2p_peer_t *p) { give_up_receives(m, p, &m->dropped); }

/* Room at the end of a log (a sender's log holding max_queue entries is
 * desynchronized, as a channel's is: its backlog is dropped). */
static void *append(void **ring, int *head, int *len, int *cap, size_t size)
{
    if (*len == *cap) {
        int grown_cap = *cap ? *cap * 2 : 8;
        unsigned char *grown = malloc((size_t)grown_cap * size);
        if (!grown)
            return NULL;
        for (int i = 0; i < *len; i++)
            memcpy(grown + (size_t)i * size, (unsigned char *)*ring + (size_t)((*head + i) & (*cap - 1)) * size,
                   size);
        free(*ring);
        *ring = grown;
        *cap = grown_cap;
        *head = 0;
    }
    void *slot = (unsigned char *)*ring + (size_t)((*head + *len) & (*cap - 1)) * size;
    (*len)++;
    return slot;
}

static mpp_p2p_waiting_t *append_receive(mpp_p2p_t *m, mpp_p2p_peer_t *p)
{
    if (p->rlen >= m->max_queue)
        drop_receives(m, p);
    return append((void **)&p->receives, &p->rhead, &p->rlen, &p->rcap, sizeof *p->receives);
}

static void append_record(mpp_p2p_t *m, mpp_p2p_peer_t *p, const mpp_send_record_t *r)
{
    if (p->slen >= m->max_queue)
        drop_records(m, p);
    mpp_send_record_t *slot = append((void **)&p->records, &p->shead, &p->slen, &p->scap, sizeof *p->records);
    if (slot)
        *slot = *r;
}

/* The sender's channels interleave: its entries go to the channel table,
 * in order (a channel has entries in one of its logs only). */
static void to_table(mpp_p2p_t *m, mpp_p2p_peer_t *p, int32_t source)
{
    for (int i = 0; i < p->slen; i++) {
        const mpp_send_record_t *r = record_at(p, i);
        mpp_channel_t *c = r->comm ? channel(m, r->comm, source, r->tag) : NULL;
        if (r->comm && (!c || push(m, p, c, 1, r->entry) != 0))
            m->dropped++;
    }
    p->slen = p->shead = 0;
    for (int i = 0; i < p->rlen; i++) { /* nothing below touches the logs */
        mpp_p2p_waiting_t *w = receive_at(p, i);
        if (!w->comm)
            continue;
        int e = w->event;
        if (e < 0) { /* the table's queues hold events */
            e = mpp_p2p_event_open(m, w->entry, w->duration, &w->origin);
            if (e < 0) {
                m->dropped++;
                m->waiting--;
                continue;
            }
            m->events[e].pending = 1;
            m->events[e].open = 0;
        }
        mpp_channel_t *c = channel(m, w->comm, source, w->tag);
        if (!c || push(m, p, c, 2, e) != 0) {
            m->dropped++;
            give_up(m, e);
        }
    }
    p->rlen = p->rhead = 0;
}

/* ------------------------------------------------------------------ */

/* Where a received message of the channel goes among its sender's logs:
 * LOG_PAIRED, its record came first (*sent: its send entry, taken out);
 * LOG_WAITING, a new entry of the receive log (*w, its channel set, for
 * the caller to fill); LOG_TABLE, the sender's entries are in the channel
 * table (moved there now when the match is too far in); LOG_NONE, out of
 * memory. */
enum { LOG_PAIRED, LOG_WAITING, LOG_TABLE, LOG_NONE };

static int log_receive(mpp_p2p_t *m, mpp_p2p_peer_t *p, int32_t source, uint32_t comm, int32_t tag, int64_t *sent,
                       mpp_p2p_waiting_t **w)
{
    if (p->in_table)
        return LOG_TABLE;
    int i = p->slen ? find_record(p, comm, tag) : -1;
    if (i >= 0) {
        *sent = take_record(p, i);
        return LOG_PAIRED;
    }
    if (i == -2) {
        to_table(m, p, source);
        return LOG_TABLE;
    }
    if (!(*w = append_receive(m, p)))
        return LOG_NONE;
    (*w)->comm = comm;
    (*w)->tag = tag;
    m->waiting++;
    return LOG_WAITING;
}

void mpp_p2p_receive(mpp_p2p_t *m, uint32_t comm, int32_t source, int32_t tag, int64_t entry, int64_t duration,
                     const mpp_request_origin_t *origin)
{
    mpp_p2p_peer_t *p = peer_of(m, source);
    if (!p || !comm)
        return;
    int64_t sent;
    mpp_p2p_waiting_t *w;
    switch (log_receive(m, p, source, comm, tag, &sent, &w)) {
    case LOG_PAIRED:
        m->paired++;
        deliver_wait(m, origin, duration, sent - entry);
        return;
    case LOG_WAITING:
        w->event = -1;
        w->entry = entry;
        w->duration = duration;
        if (origin)
            mpp_origin_copy(&w->origin, origin);
        else
            w->origin.thread = NULL;
        return;
    case LOG_NONE:
        return;
    }
    int e = mpp_p2p_event_open(m, entry, duration, origin);
    if (e < 0)
        return;
    table_received(m, p, e, comm, source, tag);
    mpp_p2p_event_close(m, e);
}

void mpp_p2p_received(mpp_p2p_t *m, int event, uint32_t comm, int32_t source, int32_t tag)
{
    if (event < 0 || event >= m->nevents || !comm)
        return;
    mpp_p2p_peer_t *p = peer_of(m, source);
    if (!p)
        return;
    int64_t sent;
    mpp_p2p_waiting_t *w;
    switch (log_receive(m, p, source, comm, tag, &sent, &w)) {
    case LOG_PAIRED:
        pair_event(m, event, sent);
        return;
    case LOG_WAITING:
        w->event = event;
        m->events[event].pending++;
        return;
    case LOG_NONE:
        return;
    }
    table_received(m, p, event, comm, source, tag);
}

/* Receive i of the sender's log got its record, sent at `sent`. */
static void pair_receive(mpp_p2p_t *m, mpp_p2p_peer_t *p, int i, int64_t sent)
{
    const mpp_p2p_waiting_t *w = receive_at(p, i);
    int e = w->event;
    m->waiting--;
    if (e < 0) {
        m->paired++;
        deliver_wait(m, &w->origin, w->duration, sent - w->entry); /* touches no log */
        take_receive(p, i);
        return;
    }
    take_receive(p, i);
    pair_event(m, e, sent);
    m->events[e].pending--;
    deliver_if_done(m, e);
}

/* Records from k on while each finds its receive at the head of the log,
 * a call of one message (the usual case): returns the next one. */
static int pair_heads(mpp_p2p_t *m, mpp_p2p_peer_t *p, const mpp_send_record_t *records, int k, int n)
{
    int64_t least = m->fine < m->threshold ? m->fine : m->threshold;
    int head = p->rhead, len = p->rlen, mask = p->rcap - 1, paired = 0;
    for (; k < n && len; k++) {
        const mpp_send_record_t *r = &records[k];
        const mpp_p2p_waiting_t *w = &p->receives[head];
        if (w->comm != r->comm || w->tag != r->tag || w->event >= 0)
            break;
        int64_t late = r->entry - w->entry;
        if (late > 0 && late >= least)                      /* else no wait at either threshold */
            deliver_wait(m, &w->origin, w->duration, late); /* touches no log */
        paired++;
        head = (head + 1) & mask;
        len--;
        while (len && p->receives[head].comm == 0) { /* paired before, out of order */
            head = (head + 1) & mask;
            len--;
        }
    }
    p->rhead = len ? head : 0;
    p->rlen = len;
    m->paired += (uint64_t)paired;
    m->waiting -= paired;
    return k;
}

void mpp_p2p_sent_all(mpp_p2p_t *m, int32_t source, const mpp_send_record_t *records, int n)
{
    mpp_p2p_peer_t *p = peer_of(m, source);
    if (!p)
        return;
    for (int k = 0; k < n; k++) {
        if (p->rlen && p->in_table == 0 && (k = pair_heads(m, p, records, k, n)) == n)
            break;
        const mpp_send_record_t *r = &records[k];
        if (!r->comm)
            continue;
        if (p->in_table == 0) {
            if (!p->rlen) {
                append_record(m, p, r);
                continue;
            }
            int i = find_receive(p, r->comm, r->tag);
            if (i >= 0) {
                pair_receive(m, p, i, r->entry);
                continue;
            }
            if (i == -1) {
                append_record(m, p, r);
                continue;
            }
            to_table(m, p, source);
        }
        table_sent(m, p, source, r);
    }
}

void mpp_p2p_finish(mpp_p2p_t *m)
{
    for (int s = 0; s < m->npeers; s++) {
        if (m->peers[s])
            give_up_receives(m, m->peers[s], &m->unpaired_receives);
    }
    for (size_t i = 0; i < m->capacity; i++) {
        mpp_channel_t *c = &m->channels[i];
        if (!c->hash || c->kind != 2)
            continue;
        mpp_p2p_peer_t *p = m->peers[c->source];
        while (c->len) {
            m->unpaired_receives++;
            give_up(m, (int)pop(p, c));
        }
    }
}

int mpp_p2p_pending_events(const mpp_p2p_t *m)
{
    int n = 0;
    for (int i = 0; i < m->nevents; i++)
        n += m->events[i].open != -1;
    for (int s = 0; s < m->npeers; s++) {
        const mpp_p2p_peer_t *p = m->peers[s];
        for (int i = 0; p && i < p->rlen; i++)
            n += receive_at(p, i)->comm != 0 && receive_at(p, i)->event < 0;
    }
    return n;
}
