#include <stdlib.h>
#include <string.h>

#include "check/msgpair.h"

enum { RECORDS = 1, RECEIVES = 2, MAX_SPARE = 64 };

struct mpp_msg_channel {
    mpp_msg_channel_t *next; /* in its bucket, or among the spares */
    uint32_t comm;
    int32_t source, tag;
    int kind;
    size_t head, len, cap; /* cap: a power of two */
    unsigned char *ring;
};

void mpp_msgpair_init(mpp_msgpair_t *m, size_t record_size, size_t receive_size, size_t max_queue,
                      mpp_msgpair_fn pair, void *ctx)
{
    memset(m, 0, sizeof *m);
    m->record_size = record_size;
    m->receive_size = receive_size;
    m->slot = record_size > receive_size ? record_size : receive_size;
    m->max_queue = max_queue ? max_queue : (size_t)1 << 20;
    m->pair = pair;
    m->ctx = ctx;
}

static void free_chain(mpp_msg_channel_t *c)
{
    while (c) {
        mpp_msg_channel_t *next = c->next;
        free(c->ring);
        free(c);
        c = next;
    }
}

void mpp_msgpair_free(mpp_msgpair_t *m)
{
    for (size_t i = 0; i < m->nbuckets; i++)
        free_chain(m->buckets[i]);
    free(m->buckets);
    free_chain(m->spare);
    m->buckets = NULL;
    m->spare = NULL;
    m->nbuckets = m->count = 0;
    m->nspare = 0;
}

static size_t hash(uint32_t comm, int32_t source, int32_t tag)
{
    uint64_t h = ((uint64_t)comm << 32 | (uint32_t)source) * 0x9E3779B97F4A7C15ull;
    h = (h ^ (uint32_t)tag) * 0xff51afd7ed558ccdull;
    return (size_t)(h ^ (h >> 29));
}

static int grow(mpp_msgpair_t *m)
{
    size_t n = m->nbuckets ? 2 * m->nbuckets : 64;
    mpp_msg_channel_t **b = calloc(n, sizeof *b);
    if (!b)
        return -1;
    for (size_t i = 0; i < m->nbuckets; i++) {
        for (mpp_msg_channel_t *c = m->buckets[i], *next; c; c = next) {
            next = c->next;
            size_t j = hash(c->comm, c->source, c->tag) & (n - 1);
            c->next = b[j];
            b[j] = c;
        }
    }
    free(m->buckets);
    m->buckets = b;
    m->nbuckets = n;
    return 0;
}

/* The channel's link in its bucket (*link NULL: none). */
static mpp_msg_channel_t **find(mpp_msgpair_t *m, uint32_t comm, int32_t source, int32_t tag)
{
    static mpp_msg_channel_t *none;
    if (!m->nbuckets)
        return &none;
    mpp_msg_channel_t **link = &m->buckets[hash(comm, source, tag) & (m->nbuckets - 1)];
    while (*link && !((*link)->comm == comm && (*link)->source == source && (*link)->tag == tag))
        link = &(*link)->next;
    return link;
}

static mpp_msg_channel_t *create(mpp_msgpair_t *m, uint32_t comm, int32_t source, int32_t tag)
{
    if (m->count >= m->nbuckets && grow(m) != 0)
        return NULL;
    mpp_msg_channel_t *c = m->spare;
    if (c) {
        m->spare = c->next;
        m->nspare--;
    } else if (!(c = calloc(1, sizeof *c))) {
        return NULL;
    }
    c->comm = comm;
    c->source = source;
    c->tag = tag;
    c->kind = 0;
    c->head = c->len = 0;
    size_t j = hash(comm, source, tag) & (m->nbuckets - 1);
    c->next = m->buckets[j];
    m->buckets[j] = c;
    m->count++;
    return c;
}

/* An empty channel leaves (both sides even: counting restarts on both). */
static void release(mpp_msgpair_t *m, mpp_msg_channel_t **link)
{
    mpp_msg_channel_t *c = *link;
    *link = c->next;
    m->count--;
    if (m->nspare < MAX_SPARE) {
        c->next = m->spare;
        m->spare = c;
        m->nspare++;
    } else {
        free(c->ring);
        free(c);
    }
}

static void *at(const mpp_msgpair_t *m, const mpp_msg_channel_t *c, size_t i)
{
    return c->ring + ((c->head + i) & (c->cap - 1)) * m->slot;
}

static void push(mpp_msgpair_t *m, mpp_msg_channel_t *c, int kind, const void *blob, size_t size)
{
    if (c->len >= m->max_queue) { /* one side never comes: its backlog goes */
        m->dropped += c->len;
        c->len = 0;
    }
    if (c->len == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 4;
        unsigned char *ring = malloc(cap * m->slot);
        if (!ring) {
            m->dropped++;
            return;
        }
        for (size_t i = 0; i < c->len; i++)
            memcpy(ring + i * m->slot, at(m, c, i), m->slot);
        free(c->ring);
        c->ring = ring;
        c->cap = cap;
        c->head = 0;
    }
    c->kind = kind;
    memcpy(at(m, c, c->len++), blob, size);
}

static void add(mpp_msgpair_t *m, int kind, uint32_t comm, int32_t source, int32_t tag, const void *blob)
{
    mpp_msg_channel_t **link = find(m, comm, source, tag), *c = *link;
    if (c && c->len && c->kind != kind) { /* the other side waits: the pair */
        const void *other = at(m, c, 0);
        if (kind == RECORDS)
            m->pair(m->ctx, comm, source, tag, blob, other);
        else
            m->pair(m->ctx, comm, source, tag, other, blob);
        c->head = (c->head + 1) & (c->cap - 1);
        if (--c->len == 0)
            release(m, link);
        return;
    }
    if (!c && !(c = create(m, comm, source, tag))) {
        m->dropped++;
        return;
    }
    push(m, c, kind, blob, kind == RECORDS ? m->record_size : m->receive_size);
}

void mpp_msgpair_record(mpp_msgpair_t *m, uint32_t comm, int32_t source, int32_t tag, const void *record)
{
    add(m, RECORDS, comm, source, tag, record);
}

void mpp_msgpair_receive(mpp_msgpair_t *m, uint32_t comm, int32_t source, int32_t tag, const void *receive)
{
    add(m, RECEIVES, comm, source, tag, receive);
}

int mpp_msgpair_take(mpp_msgpair_t *m, uint32_t comm, int32_t source, int32_t tag, void *out)
{
    for (size_t i = 0; i < m->nbuckets; i++) {
        for (mpp_msg_channel_t **link = &m->buckets[i]; *link; link = &(*link)->next) {
            mpp_msg_channel_t *c = *link;
            if (c->kind != RECORDS || !c->len || c->comm != comm || (source != MPP_MSG_ANY && c->source != source) ||
                (tag != MPP_MSG_ANY && c->tag != tag))
                continue;
            memcpy(out, at(m, c, 0), m->record_size);
            c->head = (c->head + 1) & (c->cap - 1);
            if (--c->len == 0)
                release(m, link);
            return 1;
        }
    }
    return 0;
}

typedef void (*each_fn)(void *arg, uint32_t comm, int32_t source, int32_t tag, const void *blob);

static void each_of(mpp_msgpair_t *m, int kind, each_fn fn, void *arg)
{
    for (size_t i = 0; i < m->nbuckets; i++)
        for (mpp_msg_channel_t *c = m->buckets[i]; c; c = c->next)
            for (size_t k = 0; c->kind == kind && k < c->len; k++)
                fn(arg, c->comm, c->source, c->tag, at(m, c, k));
}

void mpp_msgpair_each_receive(mpp_msgpair_t *m, each_fn fn, void *arg) { each_of(m, RECEIVES, fn, arg); }

void mpp_msgpair_each_record(mpp_msgpair_t *m, each_fn fn, void *arg) { each_of(m, RECORDS, fn, arg); }

uint64_t mpp_msg_checksum(uint64_t seed, const void *bytes, size_t n)
{
    const unsigned char *p = bytes;
    uint64_t h = seed ^ (n * 0x9E3779B97F4A7C15ull);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, sizeof w);
        h ^= w * 0x9E3779B97F4A7C15ull;
        h = (h << 31 | h >> 33) * 0x85EBCA77C2B2AE63ull;
    }
    uint64_t tail = 0;
    for (size_t k = 0; i < n; i++, k += 8)
        tail |= (uint64_t)p[i] << k;
    h ^= tail * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return h * 0xBF58476D1CE4E5B9ull;
}
