#include <stdlib.h>
#include <string.h>

#include "check/buffers.h"

struct mpp_pending {
    mpp_pending_entry_t *e; /* [capacity]; e[0] unused: id 0 is none */
    unsigned char *extra;   /* [capacity * extra_size] */
    size_t extra_size, capacity, count;
    uint32_t top;  /* ids below it have been used */
    uint32_t free; /* ids given back, linked by next */
    uint32_t root;
    uint32_t *map; /* handle -> its first entry: open addressing, at most half full */
    size_t map_capacity, map_count;
};

/* A node's priority: a hash of its id, so that the tree is balanced
 * whatever order the buffers come in. */
static uint32_t priority(uint32_t id)
{
    uint32_t h = id * 0x9E3779B1u;
    h ^= h >> 15;
    h *= 0x85EBCA77u;
    return h ^ (h >> 13);
}

static size_t home(uint64_t handle, size_t capacity)
{
    return (size_t)((handle * 0x9E3779B97F4A7C15ull) >> 17) & (capacity - 1);
}

mpp_pending_t *mpp_pending_create(size_t extra)
{
    mpp_pending_t *p = calloc(1, sizeof *p);
    if (p)
        p->extra_size = extra;
    return p;
}

void mpp_pending_clear(mpp_pending_t *p)
{
    for (uint32_t id = 1; id < p->top; id++)
        if (p->e[id].live)
            mpp_layout_unref((mpp_layout_t *)p->e[id].span.layout);
    p->top = p->capacity ? 1 : 0;
    p->free = p->root = 0;
    p->count = 0;
    if (p->map)
        memset(p->map, 0, p->map_capacity * sizeof *p->map);
    p->map_count = 0;
}

void mpp_pending_destroy(mpp_pending_t *p)
{
    if (!p)
        return;
    mpp_pending_clear(p);
    free(p->e);
    free(p->extra);
    free(p->map);
    free(p);
}

mpp_pending_entry_t *mpp_pending_entry(mpp_pending_t *p, uint32_t id) { return &p->e[id]; }

void *mpp_pending_extra(mpp_pending_t *p, uint32_t id) { return p->extra + (size_t)id * p->extra_size; }

size_t mpp_pending_count(const mpp_pending_t *p) { return p->count; }

size_t mpp_pending_bytes(const mpp_pending_t *p)
{
    return sizeof *p + p->capacity * (sizeof *p->e + p->extra_size) + p->map_capacity * sizeof *p->map;
}

/* --- the handle map --- */

static size_t map_find(const mpp_pending_t *p, uint64_t handle)
{
    size_t i = home(handle, p->map_capacity);
    while (p->map[i] && p->e[p->map[i]].handle != handle)
        i = (i + 1) & (p->map_capacity - 1);
    return i;
}

uint32_t mpp_pending_first(const mpp_pending_t *p, uint64_t handle)
{
    return p->map_capacity ? p->map[map_find(p, handle)] : 0;
}

static int map_grow(mpp_pending_t *p)
{
    size_t cap = p->map_capacity ? 2 * p->map_capacity : 256;
    uint32_t *old = p->map, *map = calloc(cap, sizeof *map);
    if (!map)
        return -1;
    size_t old_capacity = p->map_capacity;
    p->map = map;
    p->map_capacity = cap;
    for (size_t i = 0; i < old_capacity; i++)
        if (old[i])
            p->map[map_find(p, p->e[old[i]].handle)] = old[i];
    free(old);
    return 0;
}

/* Backward-shift deletion: later entries of the cluster move into the hole. */
static void map_remove_at(mpp_pending_t *p, size_t i)
{
    size_t hole = i, mask = p->map_capacity - 1;
    for (size_t j = (i + 1) & mask; p->map[j]; j = (j + 1) & mask) {
        size_t h = home(p->e[p->map[j]].handle, p->map_capacity);
        if ((hole <= j) ? (h <= hole || h > j) : (h <= hole && h > j)) {
            p->map[hole] = p->map[j];
            hole = j;
        }
    }
    p->map[hole] = 0;
    p->map_count--;
}

/* --- the tree, ordered by (lo, id) --- */

static int before(const mpp_pending_t *p, uint32_t t, uint64_t lo, uint32_t id)
{
    return p->e[t].lo < lo || (p->e[t].lo == lo && t < id);
}

static void update(mpp_pending_t *p, uint32_t t)
{
    mpp_pending_entry_t *n = &p->e[t];
    n->max = n->hi;
    if (n->left && p->e[n->left].max > n->max)
        n->max = p->e[n->left].max;
    if (n->right && p->e[n->right].max > n->max)
        n->max = p->e[n->right].max;
}

/* t's nodes before (lo, id) into *l, the others into *r. */
static void split(mpp_pending_t *p, uint32_t t, uint64_t lo, uint32_t id, uint32_t *l, uint32_t *r)
{
    if (!t) {
        *l = *r = 0;
        return;
    }
    if (before(p, t, lo, id)) {
        uint32_t right;
        split(p, p->e[t].right, lo, id, &right, r);
        p->e[t].right = right;
        *l = t;
    } else {
        uint32_t left;
        split(p, p->e[t].left, lo, id, l, &left);
        p->e[t].left = left;
        *r = t;
    }
    update(p, t);
}

static uint32_t merge(mpp_pending_t *p, uint32_t l, uint32_t r)
{
    if (!l || !r)
        return l ? l : r;
    if (priority(l) > priority(r)) {
        uint32_t right = merge(p, p->e[l].right, r);
        p->e[l].right = right;
        update(p, l);
        return l;
    }
    uint32_t left = merge(p, l, p->e[r].left);
    p->e[r].left = left;
    update(p, r);
    return r;
}

static void tree_insert(mpp_pending_t *p, uint32_t id)
{
    uint32_t l, r;
    p->e[id].left = p->e[id].right = 0;
    update(p, id);
    split(p, p->root, p->e[id].lo, id, &l, &r);
    p->root = merge(p, merge(p, l, id), r);
}

static void tree_remove(mpp_pending_t *p, uint32_t id)
{
    uint32_t l, m, r;
    split(p, p->root, p->e[id].lo, id, &l, &r);
    split(p, r, p->e[id].lo, id + 1, &m, &r); /* m: the node itself */
    p->root = merge(p, l, r);
}

void mpp_pending_activate(mpp_pending_t *p, uint32_t id, int on)
{
    mpp_pending_entry_t *n = &p->e[id];
    if (!n->live || !(n->flags & MPP_PENDING_ACTIVE) == !on)
        return;
    if (on) {
        n->flags |= MPP_PENDING_ACTIVE;
        tree_insert(p, id);
    } else {
        tree_remove(p, id);
        n->flags &= (uint8_t)~MPP_PENDING_ACTIVE;
    }
}

/* --- entries --- */

static uint32_t new_id(mpp_pending_t *p)
{
    if (p->free) {
        uint32_t id = p->free;
        p->free = p->e[id].next;
        return id;
    }
    if (p->top == 0)
        p->top = 1;
    if (p->top >= p->capacity) {
        size_t cap = p->capacity ? 2 * p->capacity : 1024;
        if (cap > UINT32_MAX)
            return 0;
        mpp_pending_entry_t *e = realloc(p->e, cap * sizeof *e);
        if (!e)
            return 0;
        p->e = e;
        unsigned char *extra = p->extra_size ? realloc(p->extra, cap * p->extra_size) : NULL;
        if (p->extra_size && !extra)
            return 0;
        p->extra = extra;
        p->capacity = cap;
    }
    return p->top++;
}

uint32_t mpp_pending_add(mpp_pending_t *p, uint64_t handle, const mpp_span_t *s, unsigned flags, uint16_t fid,
                         uint64_t site)
{
    uint64_t lo, hi;
    if (!mpp_span_hull(s, &lo, &hi))
        return 0;
    if ((p->map_count + 1) * 2 > p->map_capacity && map_grow(p) != 0)
        return 0;
    uint32_t id = new_id(p);
    if (!id)
        return 0;
    mpp_pending_entry_t *n = &p->e[id];
    *n = (mpp_pending_entry_t){.lo = lo,
                               .hi = hi,
                               .fid = fid,
                               .flags = (uint8_t)(flags & ~MPP_PENDING_ACTIVE),
                               .live = 1,
                               .handle = handle,
                               .site = site,
                               .span = *s};
    mpp_layout_ref((mpp_layout_t *)s->layout);
    if (p->extra_size)
        memset(mpp_pending_extra(p, id), 0, p->extra_size);
    size_t slot = map_find(p, handle);
    if (p->map[slot]) { /* right after the handle's first: O(1) however many it has (one-sided operations) */
        uint32_t first = p->map[slot];
        n->next = p->e[first].next;
        p->e[first].next = id;
    } else {
        p->map[slot] = id;
        p->map_count++;
    }
    p->count++;
    if (flags & MPP_PENDING_ACTIVE)
        mpp_pending_activate(p, id, 1);
    return id;
}

void mpp_pending_remove(mpp_pending_t *p, uint64_t handle, void (*each)(mpp_pending_t *, uint32_t, void *), void *arg)
{
    if (!p->map_capacity)
        return;
    size_t slot = map_find(p, handle);
    uint32_t id = p->map[slot];
    if (!id)
        return;
    map_remove_at(p, slot);
    while (id) {
        if (each)
            each(p, id, arg);
        mpp_pending_activate(p, id, 0);
        mpp_pending_entry_t *n = &p->e[id];
        uint32_t next = n->next;
        mpp_layout_unref((mpp_layout_t *)n->span.layout);
        n->live = 0;
        n->next = p->free;
        p->free = id;
        p->count--;
        id = next;
    }
}

typedef struct {
    const mpp_span_t *s;
    uint64_t lo, hi;
    int written;
    size_t left, budget; /* candidates still to look at */
    mpp_pending_accept_fn accept;
    void *arg;
    uint32_t hit;
} query_t;

static void visit(mpp_pending_t *p, uint32_t t, query_t *q)
{
    if (!t || q->hit || !q->left || p->e[t].max <= q->lo)
        return;
    visit(p, p->e[t].left, q);
    const mpp_pending_entry_t *n = &p->e[t];
    if (q->hit || !q->left || n->lo >= q->hi)
        return; /* the nodes to the right begin further still */
    if (n->hi > q->lo) {
        q->left--;
        if ((q->written || (n->flags & MPP_PENDING_WRITTEN)) && (!q->accept || q->accept(p, t, q->arg)) &&
            mpp_span_overlap(q->s, &n->span, q->budget) == 1) {
            q->hit = t;
            return;
        }
    }
    visit(p, n->right, q);
}

uint32_t mpp_pending_conflict(mpp_pending_t *p, const mpp_span_t *s, int written, size_t max_candidates,
                              size_t budget)
{
    return mpp_pending_conflict_if(p, s, written, max_candidates, budget, NULL, NULL);
}

uint32_t mpp_pending_conflict_if(mpp_pending_t *p, const mpp_span_t *s, int written, size_t max_candidates,
                                 size_t budget, mpp_pending_accept_fn accept, void *arg)
{
    query_t q = {.s = s, .written = written, .left = max_candidates, .budget = budget, .accept = accept, .arg = arg};
    if (!p->root || !mpp_span_hull(s, &q.lo, &q.hi))
        return 0;
    visit(p, p->root, &q);
    return q.hit;
}
