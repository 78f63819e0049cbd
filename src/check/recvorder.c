/* Receives in the order MPI matched them (msgpair.h: mpp_recvorder_t). */
#include <stdlib.h>
#include <string.h>

#include "check/msgpair.h"

struct mpp_ro_key {
    uint32_t comm;
    int32_t source, tag;
    mpp_ro_post_t *first, *last; /* its pending receives, in posting order */
    mpp_ro_key_t *next;          /* its bucket's */
};

struct mpp_ro_held {
    mpp_ro_held_t *next;
    uint64_t seq;
    uint32_t comm;
    int32_t source, tag;
    unsigned char blob[];
};

void mpp_recvorder_init(mpp_recvorder_t *o, size_t blob,
                        void (*deliver)(void *ctx, uint32_t comm, int32_t source, int32_t tag, const void *blob),
                        void *ctx)
{
    memset(o, 0, sizeof *o);
    o->blob = blob;
    o->deliver = deliver;
    o->ctx = ctx;
}

static void free_posts(mpp_ro_post_t *p)
{
    for (mpp_ro_post_t *next; p; p = next) {
        next = p->next;
        free(p);
    }
}

void mpp_recvorder_free(mpp_recvorder_t *o)
{
    for (size_t i = 0; i < o->nbuckets; i++)
        for (mpp_ro_key_t *k = o->buckets[i], *next; k; k = next) {
            next = k->next;
            free_posts(k->first);
            free(k);
        }
    free(o->buckets);
    for (mpp_ro_key_t *k = o->spare_keys, *next; k; k = next) {
        next = k->next;
        free(k);
    }
    o->spare_keys = NULL;
    free_posts(o->spare);
    for (mpp_ro_held_t *h = o->held, *next; h; h = next) {
        next = h->next;
        free(h);
    }
    o->buckets = NULL;
    o->nbuckets = o->nkeys = 0;
    o->spare = NULL;
    o->held = NULL;
}

static size_t bucket_of(const mpp_recvorder_t *o, uint32_t comm, int32_t source, int32_t tag)
{
    uint64_t h = ((uint64_t)comm << 32 | (uint32_t)source) * 0x9E3779B97F4A7C15ull ^ (uint32_t)tag;
    h *= 0xBF58476D1CE4E5B9ull;
    return (size_t)(h >> 32) & (o->nbuckets - 1);
}

static mpp_ro_key_t *find(const mpp_recvorder_t *o, uint32_t comm, int32_t source, int32_t tag)
{
    if (!o->nbuckets)
        return NULL;
    for (mpp_ro_key_t *k = o->buckets[bucket_of(o, comm, source, tag)]; k; k = k->next)
        if (k->comm == comm && k->source == source && k->tag == tag)
            return k;
    return NULL;
}

/* Twice the buckets once there are as many keys: -1 out of memory. */
static int grow(mpp_recvorder_t *o)
{
    size_t n = o->nbuckets ? 2 * o->nbuckets : 64;
    mpp_ro_key_t **b = calloc(n, sizeof *b), **old = o->buckets;
    if (!b)
        return -1;
    size_t oldn = o->nbuckets;
    o->buckets = b;
    o->nbuckets = n;
    for (size_t i = 0; i < oldn; i++)
        for (mpp_ro_key_t *k = old[i], *next; k; k = next) {
            next = k->next;
            size_t j = bucket_of(o, k->comm, k->source, k->tag);
            k->next = b[j];
            b[j] = k;
        }
    free(old);
    return 0;
}

/* The key's entry, made when new (from the spare ones, once as many keys
 * have had receives pending at once); NULL out of memory. */
static mpp_ro_key_t *key_of(mpp_recvorder_t *o, uint32_t comm, int32_t source, int32_t tag)
{
    mpp_ro_key_t *k = find(o, comm, source, tag);
    if (k)
        return k;
    if (o->nkeys >= o->nbuckets && grow(o) != 0)
        return NULL;
    if ((k = o->spare_keys))
        o->spare_keys = k->next;
    else if (!(k = malloc(sizeof *k)))
        return NULL;
    *k = (mpp_ro_key_t){comm, source, tag, NULL, NULL, NULL};
    size_t j = bucket_of(o, comm, source, tag);
    k->next = o->buckets[j];
    o->buckets[j] = k;
    o->nkeys++;
    return k;
}

mpp_ro_post_t *mpp_recvorder_post(mpp_recvorder_t *o, uint32_t comm, int32_t source, int32_t tag)
{
    mpp_ro_key_t *k = key_of(o, comm, source, tag);
    if (!k)
        return NULL;
    mpp_ro_post_t *p = o->spare; /* none is allocated once there are as many as pending at once */
    if (p)
        o->spare = p->next;
    else if (!(p = malloc(sizeof *p)))
        return NULL;
    *p = (mpp_ro_post_t){mpp_recvorder_seq(o), comm, source, tag, k->last, NULL, k};
    if (k->last)
        k->last->next = p;
    else
        k->first = p;
    k->last = p;
    return p;
}

/* A receive posted before seq, still pending, that could take a message
 * of (comm, source, tag): the oldest of each key that could. */
static int blocked(const mpp_recvorder_t *o, uint64_t seq, uint32_t comm, int32_t source, int32_t tag)
{
    const int32_t sources[2] = {source, MPP_MSG_ANY}, tags[2] = {tag, MPP_MSG_ANY};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            const mpp_ro_key_t *k = find(o, comm, sources[i], tags[j]);
            if (k && k->first && k->first->seq < seq)
                return 1;
        }
    return 0;
}

void mpp_recvorder_complete(mpp_recvorder_t *o, uint64_t seq, uint32_t comm, int32_t source, int32_t tag,
                            const void *blob)
{
    mpp_ro_held_t *h = blocked(o, seq, comm, source, tag) ? malloc(sizeof *h + o->blob) : NULL;
    if (!h) {
        o->deliver(o->ctx, comm, source, tag, blob);
        return;
    }
    h->seq = seq;
    h->comm = comm;
    h->source = source;
    h->tag = tag;
    memcpy(h->blob, blob, o->blob);
    mpp_ro_held_t **link = &o->held;
    while (*link && (*link)->seq < seq)
        link = &(*link)->next;
    h->next = *link;
    *link = h;
}

void mpp_recvorder_unpost(mpp_recvorder_t *o, mpp_ro_post_t *p)
{
    if (!p)
        return;
    mpp_ro_key_t *k = p->key;
    int oldest = !p->prev; /* else an older one of its key holds back all it held */
    if (p->prev)
        p->prev->next = p->next;
    else
        k->first = p->next;
    if (p->next)
        p->next->prev = p->prev;
    else
        k->last = p->prev;
    p->next = o->spare;
    o->spare = p;
    if (!k->first) { /* no receive of its key pending: it leaves the table (the keys a run uses are not kept) */
        mpp_ro_key_t **at = &o->buckets[bucket_of(o, k->comm, k->source, k->tag)];
        while (*at != k)
            at = &(*at)->next;
        *at = k->next;
        k->next = o->spare_keys;
        o->spare_keys = k;
        o->nkeys--;
    }
    for (mpp_ro_held_t **link = &o->held; oldest && *link;) {
        mpp_ro_held_t *h = *link;
        if (blocked(o, h->seq, h->comm, h->source, h->tag)) {
            link = &h->next;
            continue;
        }
        *link = h->next;
        o->deliver(o->ctx, h->comm, h->source, h->tag, h->blob);
        free(h);
    }
}

void mpp_recvorder_flush(mpp_recvorder_t *o, void (*quiet)(void *blob))
{
    while (o->held) {
        mpp_ro_held_t *h = o->held;
        o->held = h->next;
        if (quiet)
            quiet(h->blob);
        o->deliver(o->ctx, h->comm, h->source, h->tag, h->blob);
        free(h);
    }
}
