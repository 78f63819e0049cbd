/* Per-thread table of accumulated characteristics, one cell per
 * (MPI function, interval, call stack).  Open addressing, probed without
 * locks (each thread owns its table); it grows only when a new call site
 * appears, so after warm-up the hot path allocates nothing.  Memory is
 * bounded by MPIPROF_MAX_SRC cells: calls from further call sites fold into
 * one cell per (function, interval) with an empty stack. */
#ifndef MPP_TABLE_H
#define MPP_TABLE_H

#include <stdint.h>

#include "mpp_common.h"

typedef struct {
    uint64_t calls;
    uint64_t ticks[MPP_NCAT]; /* time inside the call, by category */
    uint64_t bytes_sent, bytes_recv;
} mpp_stats_t;

typedef struct {
    uint64_t hash; /* 0: empty slot */
    uint32_t fid;
    uint32_t interval;
    mpp_stats_t stats; /* next to the key: a hit touches the first cache lines only */
    uintptr_t frames[MPP_MAX_DEPTH];
} mpp_cell_t;

typedef struct {
    mpp_cell_t *cells;
    size_t capacity; /* power of two */
    size_t count;
    size_t limit;    /* distinct call-site cells before folding */
    int depth;
    int folded;      /* calls were folded into [other call sites] */
    uint64_t generation; /* incremented whenever cells move (growth) */
} mpp_table_t;

int mpp_table_init(mpp_table_t *t, size_t limit, int depth);
void mpp_table_free(mpp_table_t *t);

static inline uint64_t mpp_key_hash(uint32_t fid, uint32_t interval, const uintptr_t *frames, int depth)
{
    uint64_t h = (((uint64_t)fid << 32) | interval) * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < depth; i++)
        h = (h ^ frames[i]) * 0xff51afd7ed558ccdull;
    h ^= h >> 31;
    return h | 1;
}

/* Slow path of mpp_table_lookup: insert (growing or folding as needed). */
mpp_cell_t *mpp_table_insert(mpp_table_t *t, uint64_t hash, uint32_t fid, uint32_t interval,
                             const uintptr_t *frames);

static inline int mpp_same_frames(const uintptr_t *a, const uintptr_t *b, int depth)
{
    for (int i = 0; i < depth; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

/* The cell of (fid, interval, frames[0..depth-1]); NULL only when memory ran out. */
static inline mpp_cell_t *mpp_table_lookup(mpp_table_t *t, uint32_t fid, uint32_t interval,
                                           const uintptr_t *frames)
{
    uint64_t h = mpp_key_hash(fid, interval, frames, t->depth);
    size_t mask = t->capacity - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        mpp_cell_t *c = &t->cells[i];
        if (c->hash == h && c->fid == fid && c->interval == interval &&
            mpp_same_frames(c->frames, frames, t->depth))
            return c;
        if (c->hash == 0)
            return mpp_table_insert(t, h, fid, interval, frames);
    }
}

#endif
