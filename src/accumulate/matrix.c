/* The per-process peer table of the communication matrix and the pure
 * steps of its reduction (accumulate/matrix.h). */
#include <stdlib.h>
#include <string.h>

#include "accumulate/matrix.h"

int mpp_peer_table_init(mpp_peer_table_t *t, uint32_t capacity)
{
    uint32_t n = 8;
    while (n < capacity && n < (1u << 30))
        n *= 2;
    memset(t, 0, sizeof *t);
    t->cells = malloc((size_t)n * sizeof *t->cells);
    if (!t->cells)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        t->cells[i] = (mpp_peer_cell_t){.peer = -1};
    t->capacity = n;
    return 0;
}

void mpp_peer_table_free(mpp_peer_table_t *t)
{
    free(t->cells);
    memset(t, 0, sizeof *t);
}

static void put(mpp_peer_cell_t *cells, uint32_t capacity, const mpp_peer_cell_t *c)
{
    uint32_t i = mpp_peer_slot(c->peer, capacity);
    while (cells[i].peer >= 0)
        i = (i + 1) & (capacity - 1);
    cells[i] = *c;
}

/* Twice the room, every entry moved: 0, or -1 (the table as it was). */
static int grow(mpp_peer_table_t *t)
{
    if (t->capacity >= (1u << 30))
        return -1;
    uint32_t n = 2 * t->capacity;
    mpp_peer_cell_t *cells = malloc((size_t)n * sizeof *cells);
    if (!cells)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        cells[i] = (mpp_peer_cell_t){.peer = -1};
    for (uint32_t i = 0; i < t->capacity; i++)
        if (t->cells[i].peer >= 0)
            put(cells, n, &t->cells[i]);
    free(t->cells);
    t->cells = cells;
    t->capacity = n;
    return 0;
}

void mpp_peer_add_new(mpp_peer_table_t *t, int32_t peer, uint64_t messages, uint64_t bytes, uint64_t ticks)
{
    if (2 * (t->count + 1) > t->capacity && grow(t) != 0) {
        t->dropped++;
        return;
    }
    put(t->cells, t->capacity,
        &(mpp_peer_cell_t){.peer = peer, .messages = messages, .bytes = bytes, .ticks = ticks});
    t->count++;
}

mpp_pair_t *mpp_peer_table_pairs(const mpp_peer_table_t *t, int self, double (*to_seconds)(uint64_t), int *n)
{
    *n = 0;
    mpp_pair_t *out = t->count ? malloc(t->count * sizeof *out) : NULL;
    for (uint32_t i = 0; out && i < t->capacity; i++) {
        const mpp_peer_cell_t *c = &t->cells[i];
        if (c->peer >= 0)
            out[(*n)++] = (mpp_pair_t){self, c->peer, (double)c->messages, (double)c->bytes, to_seconds(c->ticks)};
    }
    return out;
}

static int by_ends(const void *a, const void *b)
{
    const mpp_pair_t *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return (x->to > y->to) - (x->to < y->to);
}

int mpp_pairs_merge(mpp_pair_t *pairs, int npairs)
{
    if (npairs <= 0)
        return 0;
    qsort(pairs, (size_t)npairs, sizeof *pairs, by_ends);
    int n = 0;
    for (int i = 0; i < npairs; i++) {
        if (n && pairs[n - 1].from == pairs[i].from && pairs[n - 1].to == pairs[i].to) {
            pairs[n - 1].messages += pairs[i].messages;
            pairs[n - 1].bytes += pairs[i].bytes;
            pairs[n - 1].time += pairs[i].time;
        } else {
            pairs[n++] = pairs[i];
        }
    }
    return n;
}

mpp_pair_t *mpp_pairs_by_node(const mpp_pair_t *pairs, int npairs, const int *node_of, int *n)
{
    *n = 0;
    if (npairs <= 0)
        return NULL;
    mpp_pair_t *out = malloc((size_t)npairs * sizeof *out);
    if (!out) {
        *n = -1;
        return NULL;
    }
    for (int i = 0; i < npairs; i++) {
        out[i] = pairs[i];
        out[i].from = node_of[pairs[i].from];
        out[i].to = node_of[pairs[i].to];
    }
    *n = mpp_pairs_merge(out, npairs);
    return out;
}

static int heavier_first(const void *a, const void *b)
{
    const mpp_pair_t *x = a, *y = b;
    if (x->bytes != y->bytes)
        return x->bytes > y->bytes ? -1 : 1;
    if (x->messages != y->messages)
        return x->messages > y->messages ? -1 : 1;
    if (x->time != y->time)
        return x->time > y->time ? -1 : 1;
    return by_ends(a, b);
}

void mpp_pairs_heaviest(mpp_pair_t *pairs, int npairs)
{
    if (npairs > 1)
        qsort(pairs, (size_t)npairs, sizeof *pairs, heavier_first);
}
