#include <stdlib.h>
#include <string.h>

#include "accumulate/table.h"
#include "util/warnings.h"

/* The table stays at most half full; folded cells (one per function and
 * interval) may use the headroom above `limit`.  It starts small (8 call
 * sites, 9 KiB): a thread that calls MPI from a few sites, as most
 * threads of a hybrid program do, needs no more. */
#define INITIAL_CAPACITY 16

void mpp_split_ticks(uint64_t dt, const uint32_t count[MPP_NCAT], uint64_t share[MPP_NCAT])
{
    uint64_t total = 0, given = 0;
    int last = -1;
    for (int k = 0; k < MPP_NCAT; k++)
        total += count[k];
    for (int k = 0; k < MPP_NCAT; k++) {
        share[k] = count[k] ? dt * count[k] / total : 0;
        given += share[k];
        if (count[k])
            last = k;
    }
    if (last >= 0)
        share[last] += dt - given;
}

int mpp_table_init(mpp_table_t *t, size_t limit, int depth)
{
    memset(t, 0, sizeof *t);
    t->cells = calloc(INITIAL_CAPACITY, sizeof *t->cells);
    if (!t->cells)
        return -1;
    t->capacity = INITIAL_CAPACITY;
    t->limit = limit;
    t->depth = depth;
    return 0;
}

void mpp_table_free(mpp_table_t *t)
{
    free(t->cells);
    memset(t, 0, sizeof *t);
}

void mpp_table_fold_fine(mpp_table_t *t, int count)
{
    for (size_t i = 0; t->cells && i < t->capacity; i++)
        for (int w = 0; w < MPP_NWAIT; w++) {
            if (count)
                t->cells[i].stats.wait[w] += t->cells[i].stats.fine[w];
            t->cells[i].stats.fine[w] = 0;
        }
}

static mpp_cell_t *place(mpp_cell_t *cells, size_t capacity, uint64_t hash)
{
    size_t i = hash & (capacity - 1);
    while (cells[i].hash)
        i = (i + 1) & (capacity - 1);
    return &cells[i];
}

static int grow(mpp_table_t *t)
{
    size_t capacity = t->capacity * 2;
    mpp_cell_t *cells = calloc(capacity, sizeof *cells);
    if (!cells)
        return -1;
    for (size_t i = 0; i < t->capacity; i++)
        if (t->cells[i].hash)
            *place(cells, capacity, t->cells[i].hash) = t->cells[i];
    free(t->cells);
    t->cells = cells;
    t->capacity = capacity;
    t->generation++;
    memset(t->recent, 0, sizeof t->recent);
    return 0;
}

mpp_cell_t *mpp_table_insert(mpp_table_t *t, uint64_t hash, uint32_t fid, uint32_t interval, const uintptr_t *frames)
{
    static const uintptr_t no_frames[MPP_MAX_DEPTH];
    if (t->count >= t->limit && !mpp_same_frames(frames, no_frames, t->depth)) {
        if (!t->folded)
            mpp_warn("more than MPIPROF_MAX_SRC=%zu distinct call sites in one thread; calls from "
                     "further call sites are counted under [other call sites]",
                     t->limit);
        t->folded = 1;
        return mpp_table_lookup(t, fid, interval, no_frames);
    }
    if ((t->count + 1) * 2 > t->capacity && grow(t) != 0)
        return NULL;
    mpp_cell_t *c = place(t->cells, t->capacity, hash);
    c->hash = hash;
    c->fid = fid;
    c->interval = interval;
    memset(c->frames, 0, sizeof c->frames);
    memcpy(c->frames, frames, (size_t)t->depth * sizeof *frames);
    memset(c->steps, 0, sizeof c->steps); /* MPP_STEP_UNKNOWN */
    c->walk.frame = 0;                    /* nothing noted */
    t->count++;
    return c;
}
