/* Per-thread table of accumulated characteristics, one cell per
 * (MPI function, interval, call stack).  Open addressing, probed without
 * locks (each thread owns its table); it grows only when a new call site
 * appears, so after warm-up the hot path allocates nothing.  Memory is
 * bounded by MPIPROF_MAX_SRC cells: calls from further call sites fold into
 * one cell per (function, interval) with an empty stack. */
#ifndef MPP_TABLE_H
#define MPP_TABLE_H

#include <stdint.h>

#include "analyze/model.h"
#include "records/frame_step.h"
#include "util/common.h"

/* What the communication model needs of a cell is 40 bytes, added by the
 * hot path as plain additions:
 *   model    the price of each call (model.h: per link, the latency units
 *            and bytes of its formula), summed.  Each call is priced when it
 *            is made, from its own bytes, communicator size and node
 *            locality, but the parameters are final only at MPI_Finalize
 *            (measured again there, the better of the two kept: a noisy
 *            node can spoil either measurement), where a price becomes
 *            seconds, exactly.  Seconds priced at MPI_Init would need
 *            re-scaling by latency and bandwidth separately, per link,
 *            which is these four numbers; a histogram of message-size
 *            classes (32 counters, 128 bytes) would be larger and still need
 *            the communicator size and locality per class;
 *   overlap  ticks of Overlap of the nonblocking requests this call site
 *            started (min(time to the completing call, model transfer
 *            time)), added when the completing call is entered.
 * A cell with calls == 0 can exist: overlap of requests started by another
 * thread's cell of the same site, completed here (wait states likewise). */
/* Wait states of the calls of a cell (ticks, characteristics.md), added by
 * the wait-state analysis (src/intercept/waitstates/hooks.c) when an event is
 * paired or a batch of collective instants comes back, never by the hot
 * path itself. */
enum { MPP_WAIT_REALSYNC = 0, MPP_WAIT_POTSYNC, MPP_WAIT_VARIATION, MPP_NWAIT };
/* which + MPP_WAIT_FINE_PART: the fine part of `which` (mpp_table_fold_fine). */
enum { MPP_WAIT_FINE_PART = MPP_NWAIT };

typedef struct {
    uint64_t calls;
    uint64_t ticks[MPP_NCAT]; /* time inside the call, by category */
    uint64_t bytes_sent, bytes_recv;
    double model[MPP_NPRICE]; /* the model's price (model.h) */
    uint64_t overlap;         /* ticks */
    uint64_t wait[MPP_NWAIT]; /* ticks */
    uint64_t fine[MPP_NWAIT]; /* ticks below MPI_Init's threshold, from MPP_WAIT_FINE on (waitstates.h) */
} mpp_stats_t;

/* The rule both modes split a call's `dt` ticks by: over the categories in
 * proportion to count[k] (its requests of each kind), the rounding
 * remainder to the last category counted; all zero when none is. */
void mpp_split_ticks(uint64_t dt, const uint32_t count[MPP_NCAT], uint64_t share[MPP_NCAT]);

typedef struct {
    uint64_t hash; /* 0: empty slot */
    uint32_t fid;
    uint32_t interval;
    mpp_stats_t stats; /* next to the key: a hit touches the first cache lines only */
    /* The words the last walk that matched this cell read, and from which
     * frame (callsite.h, mpp_callsite_matches_noted): a loop calling from
     * one frame compares them instead of walking. */
    mpp_walk_t walk;
    uintptr_t frames[MPP_MAX_DEPTH];
    /* steps[i]: the unwind rule from frames[i] to frames[i+1], with which
     * the hot path walks the current stack to compare it with the frames
     * (callsite.h); MPP_STEP_UNKNOWN where the capture cannot be repeated
     * that way (set by the first capture that can). */
    mpp_step_rule_t steps[MPP_MAX_DEPTH];
    /* A copy of frames that never moves (cells do, as their table grows),
     * for origins other threads find the cell by (thread_state.h,
     * mpp_call_origin_frames); made the first time one needs it. */
    const uintptr_t *shared_frames;
} mpp_cell_t;

#define MPP_RECENT 32 /* a power of two */
#define MPP_RECENT_WAYS 4

typedef struct {
    mpp_cell_t *cells;
    size_t capacity; /* power of two */
    size_t count;
    size_t limit; /* distinct call-site cells before folding */
    int depth;
    int folded;          /* calls were folded into [other call sites] */
    int thread;          /* the index of the thread it is of, by first MPI call (per-thread times: profile.c) */
    uint64_t generation; /* incremented whenever cells move (growth) */
    /* The cells of the thread's recent calls, by their return address
     * (mpp_recent_slot), most recent first: loops repeat a few call sites,
     * and the hot path tries these cells before hashing.  Several ways per
     * slot, so that what a loop repeats stays on the fast path, instead of
     * a capture and a lookup at every call: two call sites that share a
     * slot (aligned code puts them a multiple of MPP_RECENT bytes apart:
     * the two calls of a ping-pong 32 bytes apart), and one call site
     * reached by several stacks in turn (a recursion: MPICH's datatype
     * library asks MPI_Type_size at the end of one, 1 to 3 levels deep).
     * Cleared when growth moves the cells. */
    mpp_cell_t *recent[MPP_RECENT][MPP_RECENT_WAYS];
} mpp_table_t;

/* The recent[] slot of a call returning to `pc`: its low bits.  The call
 * sites of one loop lie a few bytes to a few dozen apart, so they get
 * different slots unless they are a multiple of MPP_RECENT bytes apart
 * (then they share its ways). */
static inline unsigned mpp_recent_slot(uintptr_t pc) { return (unsigned)pc & (MPP_RECENT - 1); }

/* The recent cell of a call of function fid returning to `pc` from the
 * frame at `frame`: the first of the slot's ways of that site whose last
 * walk was noted from that frame (thread_state.h: its noted words are
 * then compared), else the first of that site, else NULL.  The ways of
 * one slot are tried in order, most recent first, so that a loop calling
 * from one stack finds its cell at the first. */
MPP_ALWAYS_INLINE mpp_cell_t *mpp_recent_cell(const mpp_table_t *t, uintptr_t pc, uint32_t fid, uintptr_t frame)
{
    mpp_cell_t *const *way = t->recent[mpp_recent_slot(pc)];
    mpp_cell_t *site = NULL;
    for (int w = 0; w < MPP_RECENT_WAYS; w++) {
        mpp_cell_t *cell = way[w];
        if (!cell)
            break;
        if (cell->frames[0] == pc && cell->fid == fid) {
            if (MPP_LIKELY(cell->walk.frame == frame))
                return cell;
            if (!site)
                site = cell;
        }
    }
    return site;
}

/* The cell a call was found in becomes its slot's most recent way. */
static inline void mpp_recent_put(mpp_table_t *t, mpp_cell_t *cell)
{
    mpp_cell_t **way = t->recent[mpp_recent_slot(cell->frames[0])];
    int w = 0;
    while (w < MPP_RECENT_WAYS - 1 && way[w] && way[w] != cell)
        w++;
    for (; w > 0; w--)
        way[w] = way[w - 1];
    way[0] = cell;
}

int mpp_table_init(mpp_table_t *t, size_t limit, int depth);
void mpp_table_free(mpp_table_t *t);
/* MPI_Finalize: the fine part of every cell's wait states added to them
 * (`count`) or dropped. */
void mpp_table_fold_fine(mpp_table_t *t, int count);

static inline uint64_t mpp_key_hash(uint32_t fid, uint32_t interval, const uintptr_t *frames, int depth)
{
    uint64_t h = (((uint64_t)fid << 32) | interval) * 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < depth; i++)
        h = (h ^ frames[i]) * 0xff51afd7ed558ccdull;
    h ^= h >> 31;
    return h | 1;
}

/* Slow path of mpp_table_lookup: insert (growing or folding as needed). */
mpp_cell_t *mpp_table_insert(mpp_table_t *t, uint64_t hash, uint32_t fid, uint32_t interval, const uintptr_t *frames);

static inline int mpp_same_frames(const uintptr_t *a, const uintptr_t *b, int depth)
{
    for (int i = 0; i < depth; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* The cell at `slot` if the table has not moved its cells since (same
 * generation) and it still holds `hash`; else NULL. */
static inline mpp_cell_t *mpp_table_at(mpp_table_t *t, uint64_t generation, size_t slot, uint64_t hash)
{
    if (generation != t->generation || slot >= t->capacity || t->cells[slot].hash != hash)
        return NULL;
    return &t->cells[slot];
}

/* The existing cell with this hash, fid and interval, wherever growth put
 * it; NULL if none.  (The hash covers the frames: two cells of one fid and
 * interval with the same 64-bit hash are not expected.) */
static inline mpp_cell_t *mpp_table_find_hash(mpp_table_t *t, uint64_t hash, uint32_t fid, uint32_t interval)
{
    size_t mask = t->capacity - 1;
    for (size_t i = hash & mask; t->cells && t->cells[i].hash; i = (i + 1) & mask)
        if (t->cells[i].hash == hash && t->cells[i].fid == fid && t->cells[i].interval == interval)
            return &t->cells[i];
    return NULL;
}

/* The cell of (fid, interval, frames[0..depth-1]); NULL only when memory ran out. */
static inline mpp_cell_t *mpp_table_lookup(mpp_table_t *t, uint32_t fid, uint32_t interval, const uintptr_t *frames)
{
    uint64_t h = mpp_key_hash(fid, interval, frames, t->depth);
    size_t mask = t->capacity - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        mpp_cell_t *c = &t->cells[i];
        if (c->hash == h && c->fid == fid && c->interval == interval && mpp_same_frames(c->frames, frames, t->depth))
            return c;
        if (c->hash == 0)
            return mpp_table_insert(t, h, fid, interval, frames);
    }
}

#endif
