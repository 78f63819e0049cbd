#include <string.h>

#include "check/rma_conflicts.h"

void mpp_rma_conflicts_init(mpp_rma_conflicts_t *c) { memset(c, 0, sizeof *c); }

void mpp_rma_conflicts_free(mpp_rma_conflicts_t *c)
{
    for (int g = 0; g < MPP_RMA_GROUPS; g++)
        mpp_pending_destroy(c->group[g].accesses);
    for (int k = 0; k < MPP_RMA_LAYOUTS; k++)
        if (c->layout[k])
            mpp_layout_unref(c->layout[k]);
    memset(c, 0, sizeof *c);
}

/* The group of (window, epoch): found, or a free one, or the least
 * recently used one emptied; -1 out of memory. */
static int group_of(mpp_rma_conflicts_t *c, uint64_t window, uint64_t epoch)
{
    int g, oldest = 0;
    for (g = 0; g < MPP_RMA_GROUPS; g++) {
        if (c->group[g].used && c->group[g].window == window && c->group[g].epoch == epoch)
            break;
        if (c->group[g].used < c->group[oldest].used)
            oldest = g;
    }
    if (g == MPP_RMA_GROUPS) {
        g = oldest;
        if (!c->group[g].accesses && !(c->group[g].accesses = mpp_pending_create(sizeof(mpp_rma_access_t))))
            return -1;
        mpp_pending_clear(c->group[g].accesses);
        c->group[g].window = window;
        c->group[g].epoch = epoch;
    }
    c->group[g].used = ++c->clock;
    return g;
}

/* A layout of one block of len bytes every `stride`, kept for the next
 * ranges alike (most are of a few lengths): no allocation per access. */
static const mpp_layout_t *layout_of(mpp_rma_conflicts_t *c, int64_t len, int64_t stride)
{
    for (int k = 0; k < MPP_RMA_LAYOUTS; k++)
        if (c->layout[k] && c->layout[k]->size == len && c->layout[k]->extent == stride)
            return c->layout[k];
    mpp_layout_t *l = mpp_layout_contiguous(len, stride);
    if (!l)
        return NULL;
    unsigned k = c->next_layout++ % MPP_RMA_LAYOUTS;
    if (c->layout[k])
        mpp_layout_unref(c->layout[k]); /* the accesses keep their own references */
    c->layout[k] = l;
    return l;
}

typedef struct {
    const mpp_rma_access_t *a;
} query_t;

static int conflicting(mpp_pending_t *p, uint32_t id, void *arg)
{
    const mpp_rma_access_t *a = ((query_t *)arg)->a, *b = mpp_pending_extra(p, id);
    return b->origin != a->origin && mpp_rma_kinds_conflict(a->kind, b->kind);
}

int mpp_rma_conflicts_add(mpp_rma_conflicts_t *c, uint64_t window, uint64_t epoch, uint64_t lo, uint64_t len,
                          int64_t stride, uint64_t reps, const mpp_rma_access_t *a, mpp_rma_access_t *other)
{
    if (reps <= 1)
        stride = (int64_t)len;
    const mpp_layout_t *l = len && len <= INT32_MAX && reps && reps <= INT32_MAX && stride >= (int64_t)len
                                ? layout_of(c, (int64_t)len, stride)
                                : NULL;
    int g = l ? group_of(c, window, epoch) : -1;
    if (g < 0) {
        c->dropped += len != 0;
        return 0;
    }
    mpp_pending_t *p = c->group[g].accesses;
    mpp_span_t s = {(uintptr_t)lo, (int64_t)reps, l};
    query_t q = {a};
    /* (ranges that interleave are compared block by block, up to 4096 steps each) */
    uint32_t hit = mpp_pending_conflict_if(p, &s, a->kind != MPP_RMA_READ, 64, 4096, conflicting, &q);
    if (hit)
        *other = *(const mpp_rma_access_t *)mpp_pending_extra(p, hit);
    uint32_t id =
        mpp_pending_count(p) < MPP_RMA_GROUP_ACCESSES
            ? mpp_pending_add(p, 1, &s, MPP_PENDING_ACTIVE | (a->kind != MPP_RMA_READ ? MPP_PENDING_WRITTEN : 0),
                              (uint16_t)a->fid, 0)
            : 0;
    if (id)
        *(mpp_rma_access_t *)mpp_pending_extra(p, id) = *a;
    else
        c->dropped++;
    return hit != 0;
}
