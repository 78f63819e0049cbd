/* rma-conflict between origins (MPIPROF_CHECK=full, correctness.md).
 * Each one-sided operation of a fence or exposure epoch sends its target
 * records of the bytes it accesses there, by the exchange that carries the
 * message checks' records (messages.h: 64 bytes, in their batches, under
 * the channel MPP_COMM_ID_RMA that no communicator has); the target
 * compares the records of one epoch of its window from different origins
 * (check/rma_conflicts.h) as they come.  A conflict is a finding of the
 * target process at one of the two calls, the other its other side
 * (report(): the same whichever came first; both calls are on origins:
 * their stacks are the one frame a record carries, as for nonpaired-send).
 *
 * The members name a window alike without a message: its communicator's
 * id (commids.h, which every member derives by itself) with the number of
 * windows the process made over it; a fence epoch is the number of
 * fences before it, which every member counts alike (MPI_Win_fence is
 * collective).  In general active target (PSCW) an origin numbers its
 * access epochs to each target, and the target knows which of its
 * exposure epochs each origin's n-th one is (it posted to that origin n
 * times).  The target turns a displacement into bytes with its own
 * displacement unit.  Passive-target epochs are not compared: they have
 * no point that every origin and the target share, after which their
 * records could be told apart from the next epoch's. */
#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/commids.h"
#include "check/rma_conflicts.h"
#include "gen/function_table.h"
#include "intercept/check/datatypes.h"
#include "intercept/check/local.h"
#include "intercept/check/messages.h"
#include "intercept/check/run.h"
#include "intercept/check/sites.h"
#include "intercept/comms.h"
#include "intercept/waitstates/hooks.h"
#include "util/handlemap.h"
#include "util/mt_lock.h"
#include "util/warnings.h"

/* What travels per run of ranges an operation accesses: `reps` ranges of
 * `len` bytes, each `stride` after the one before (a strided datatype's
 * blocks in one record); the size of a message's record, mpp_chk_record_t,
 * whose first field is the same. */
typedef struct {
    uint32_t channel; /* MPP_COMM_ID_RMA */
    uint32_t kind;    /* MPP_RMA_READ, ...; above its 8 bits, PSCW: 1 + the origin's rank in the window's group */
    uint32_t module;  /* its call site (sites.h) ... */
    uint32_t len;
    uint64_t offset; /* ... */
    uint64_t window; /* the window's name (above) */
    uint32_t epoch;  /* its epoch's number; PSCW: | EPOCH_PSCW (mpp_rma_between_access) */
    uint32_t fid;
    int64_t disp; /* in the target's displacement units */
    int64_t lo;   /* bytes [disp * unit + lo + i * stride, + len), i < reps */
    int32_t stride;
    uint32_t reps;
} record_t;

#define EPOCH_PSCW (1u << 31)

_Static_assert(sizeof(record_t) == sizeof(mpp_chk_record_t), "an access travels as a message's record");

/* Past this many runs of ranges (records), or blocks looked at, an
 * operation is not compared: counted, said in Warnings. */
#define MAX_RUNS 8
#define MAX_BLOCKS 65536

static int on;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;
static mpp_handlemap_t made; /* communicator id -> windows made over it (uint64_t) */
/* A window this process is a target of (by name, for the run): its
 * displacement unit and, once it posted an exposure epoch, how many it
 * posted to each origin (its rank in the window's group) and which of its
 * exposure epochs each (origin, its count) was, for the last EXPOSED of
 * them: records come late (in batches), so a few per origin would not do. */
#define EXPOSED 4096
typedef struct {
    int64_t unit;
    uint32_t size;
    uint32_t *counts;      /* [size] */
    mpp_handlemap_t *seen; /* origin << 32 | its count -> the exposure epoch (uint64_t) */
    uint64_t *order;       /* [EXPOSED] their keys, oldest first from `first` (a ring) */
    uint32_t first, kept;
} target_t;
static mpp_handlemap_t units;
static mpp_rma_conflicts_t conflicts;
static uint64_t skipped; /* operations not compared (datatype, no name) */

void mpp_rma_between_start(int locking)
{
    on = (mpp_check_level & MPP_CHECK_LEVEL) >= MPP_CHECK_FULL;
    lock.on = locking;
    if (!on)
        return;
    mpp_handlemap_init(&made, sizeof(uint64_t));
    mpp_handlemap_init(&units, sizeof(target_t));
    mpp_rma_conflicts_init(&conflicts);
    skipped = 0;
}

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    return h ^ (h >> 33);
}

uint64_t mpp_rma_between_new(MPI_Win win, MPI_Comm comm, uint32_t size, int32_t **world)
{
    *world = NULL;
    mpp_comm_t *cm = on ? mpp_comm_get(comm) : NULL;
    int *unit = NULL, flag = 0;
    if (!cm || cm->id == MPP_COMM_ID_NONE || cm->inter || (uint32_t)cm->size != size ||
        PMPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag) != MPI_SUCCESS || !flag || !unit)
        return 0;
    if (cm->world) {
        if (!(*world = malloc(size * sizeof **world)))
            return 0;
        for (uint32_t r = 0; r < size; r++)
            (*world)[r] = cm->world[r];
    }
    uint64_t id = 0;
    mpp_mt_take(&lock);
    int inserted;
    uint64_t *n = mpp_handlemap_put(&made, cm->id, &inserted);
    target_t *u = NULL;
    if (n) {
        id = mix(cm->id * 0x9E3779B97F4A7C15ull + ++*n) | 1;
        u = mpp_handlemap_put(&units, id, &inserted);
    }
    if (u)
        *u = (target_t){.unit = *unit, .size = size};
    mpp_mt_give(&lock);
    if (!u) {
        free(*world);
        *world = NULL;
        return 0;
    }
    return id;
}

typedef struct {
    int64_t lo, len, stride, reps;
} run_t;

/* One more range [at, at + len), after the others: into the last run,
 * else a new one; -1 past MAX_RUNS. */
static int add_range(run_t *runs, int *n, int64_t at, int64_t len)
{
    run_t *r = *n ? &runs[*n - 1] : NULL;
    if (r && r->len == len) {
        if (r->reps == 1 && at - r->lo > len && at - r->lo <= INT32_MAX) {
            r->stride = at - r->lo;
            r->reps = 2;
            return 0;
        }
        if (r->reps > 1 && at == r->lo + r->reps * r->stride && r->reps < UINT32_MAX) {
            r->reps++;
            return 0;
        }
    }
    if (*n == MAX_RUNS || len > UINT32_MAX)
        return -1;
    runs[(*n)++] = (run_t){at, len, 0, 1};
    return 0;
}

/* The bytes `count` elements of layout l touch, as runs of ranges (a
 * vector's blocks: one run); how many, MAX_RUNS + 1: too many. */
static int runs_of(const mpp_layout_t *l, int64_t count, run_t *runs)
{
    int64_t total;
    if (l->n == 1 && l->blocks[0].len == l->extent) { /* side by side: one range */
        if (__builtin_mul_overflow(count, l->extent, &total) || total > UINT32_MAX)
            return MAX_RUNS + 1;
        runs[0] = (run_t){l->blocks[0].off, total, 0, 1};
        return 1;
    }
    if (l->extent < l->ub - l->lb || __builtin_mul_overflow(count, (int64_t)l->n, &total) || total > MAX_BLOCKS)
        return MAX_RUNS + 1; /* (elements that interleave: not in address order) */
    int n = 0;
    int64_t lo = 0, len = 0; /* the range being merged */
    for (int64_t i = 0; i < count; i++)
        for (uint32_t b = 0; b < l->n; b++) {
            int64_t at = i * l->extent + l->blocks[b].off;
            if (len && lo + len == at) {
                len += l->blocks[b].len;
                continue;
            }
            if (len && add_range(runs, &n, lo, len) != 0)
                return MAX_RUNS + 1;
            lo = at, len = l->blocks[b].len;
        }
    return len && add_range(runs, &n, lo, len) != 0 ? MAX_RUNS + 1 : n;
}

void mpp_rma_between_access(const mpp_call_t *c, uint64_t window, uint64_t epoch, int origin, int target,
                            MPI_Aint disp, int64_t count, MPI_Datatype type, int kind)
{
    if (count <= 0)
        return;
    mpp_layout_t *l = count <= INT32_MAX ? mpp_chk_layout(type) : NULL;
    run_t runs[MAX_RUNS];
    int n = l ? runs_of(l, count, runs) : MAX_RUNS + 1;
    if (l)
        mpp_layout_unref(l);
    int pscw = (epoch & MPP_RMA_EPOCH_PSCW) != 0;
    if (pscw && (origin < 0 || origin >= (1 << 24) - 1))
        n = MAX_RUNS + 1; /* (a rank the record cannot carry) */
    if (n > MAX_RUNS) {
        mpp_mt_take(&lock);
        skipped++;
        mpp_mt_give(&lock);
        return;
    }
    mpp_chk_site_t at = mpp_chk_site_of(c->cell ? c->cell->frames[0] : 0);
    uint32_t who = pscw ? (uint32_t)(origin + 1) << 8 : 0;
    uint32_t number = ((uint32_t)epoch & ~EPOCH_PSCW) | (pscw ? EPOCH_PSCW : 0);
    for (int k = 0; k < n; k++) {
        record_t r = {MPP_COMM_ID_RMA,
                      (uint32_t)kind | who,
                      at.module,
                      (uint32_t)runs[k].len,
                      at.offset,
                      window,
                      number,
                      c->fid,
                      disp,
                      runs[k].lo,
                      (int32_t)runs[k].stride,
                      (uint32_t)runs[k].reps};
        mpp_ws_check_record(target, &r);
    }
}

static const char *kind_word(uint32_t kind)
{
    return kind == MPP_RMA_READ ? "read" : kind == MPP_RMA_WRITE ? "write" : "accumulate";
}

/* The finding of two accesses that conflict, named alike whichever came
 * first: at the write (a put, else an accumulate; of two alike, the
 * higher origin's), the other access its other side. */
static int weight(const mpp_rma_access_t *a) { return a->kind == MPP_RMA_WRITE ? 2 : a->kind == MPP_RMA_ACCUMULATE; }

static void report(uint64_t at, const char *epoch, const mpp_rma_access_t *a, const mpp_rma_access_t *b)
{
    if (weight(b) > weight(a) || (weight(b) == weight(a) && b->origin > a->origin)) {
        const mpp_rma_access_t *t = a;
        a = b, b = t;
    }
    uintptr_t frame = mpp_chk_site_address((mpp_chk_site_t){a->module, a->offset});
    if (!frame)
        return;
    mpp_check_report_at(MPP_FIND_RMA_CONFLICT, -1, a->fid, &frame, 1, b->origin, b->fid,
                        mpp_chk_site_address((mpp_chk_site_t){b->module, b->offset}),
                        "a %s by rank %d and a %s by rank %d of the same bytes of this process's window in one %s "
                        "epoch (the bytes of one of them begin at byte %llu)",
                        kind_word(a->kind), (int)a->origin, kind_word(b->kind), (int)b->origin, epoch,
                        (unsigned long long)at);
}

/* The target's state for PSCW, made at its first post; -1 out of memory. */
static int exposing(target_t *t)
{
    if (t->counts)
        return 0;
    t->counts = calloc(t->size, sizeof *t->counts);
    t->seen = malloc(sizeof *t->seen);
    t->order = malloc(EXPOSED * sizeof *t->order);
    if (!t->counts || !t->seen || !t->order) {
        free(t->counts), free(t->seen), free(t->order);
        t->counts = NULL, t->seen = NULL, t->order = NULL;
        return -1;
    }
    mpp_handlemap_init(t->seen, sizeof(uint64_t));
    return 0;
}

void mpp_rma_between_posted(uint64_t window, const int *ranks, int n, uint64_t exposure)
{
    mpp_mt_take(&lock);
    target_t *t = on ? mpp_handlemap_get(&units, window) : NULL;
    for (int i = 0; t && exposing(t) == 0 && i < n; i++) {
        if (ranks[i] < 0 || (uint32_t)ranks[i] >= t->size)
            continue;
        uint64_t key = (uint64_t)ranks[i] << 32 | ++t->counts[ranks[i]];
        if (t->kept == EXPOSED) { /* the oldest goes */
            mpp_handlemap_remove(t->seen, t->order[t->first], NULL);
            t->first = (t->first + 1) % EXPOSED;
            t->kept--;
        }
        int inserted;
        uint64_t *k = mpp_handlemap_put(t->seen, key, &inserted);
        if (k) {
            *k = exposure;
            t->order[(t->first + t->kept++) % EXPOSED] = key;
        }
    }
    mpp_mt_give(&lock);
}

/* The epoch of the conflict store a record's accesses belong to: a fence
 * epoch's number, or for PSCW this process's exposure epoch that the
 * origin's access epoch was; 0 when not known (too old, or before its
 * post was seen here). */
static uint64_t epoch_of(const target_t *t, const record_t *r)
{
    if (!(r->epoch & EPOCH_PSCW))
        return (uint64_t)r->epoch | 1ull << 62; /* (never 0) */
    uint32_t origin = (r->kind >> 8) - 1, n = r->epoch & ~EPOCH_PSCW;
    const uint64_t *k = t->seen && origin < t->size ? mpp_handlemap_get(t->seen, (uint64_t)origin << 32 | n) : NULL;
    return k ? MPP_RMA_EPOCH_PSCW | *k : 0;
}

void mpp_rma_between_record(int source, const void *data)
{
    record_t r;
    memcpy(&r, data, sizeof r);
    mpp_rma_access_t a = {source, r.kind & 0xff, r.fid, r.module, r.offset}, other;
    int hit = 0;
    uint64_t at = 0, epoch = 0;
    mpp_mt_take(&lock);
    const target_t *t = on ? mpp_handlemap_get(&units, r.window) : NULL;
    int64_t base;
    if (!t || !(epoch = epoch_of(t, &r)) || __builtin_mul_overflow(r.disp, t->unit, &base) ||
        __builtin_add_overflow(base, r.lo, &base) || base < 0 || !r.len)
        conflicts.dropped += on;
    else
        hit = mpp_rma_conflicts_add(&conflicts, r.window, epoch, at = (uint64_t)base, r.len, r.stride, r.reps, &a,
                                    &other);
    mpp_mt_give(&lock);
    if (hit)
        report(at, epoch & MPP_RMA_EPOCH_PSCW ? "exposure (MPI_Win_post)" : "fence", &a, &other);
}

static void free_target(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    target_t *t = value;
    if (t->seen)
        mpp_handlemap_free(t->seen);
    free(t->seen), free(t->order), free(t->counts);
}

void mpp_rma_between_end(int finalize)
{
    if (!on)
        return;
    on = 0;
    if (finalize && (skipped || conflicts.dropped))
        mpp_warn("rma-conflict between origins: %llu one-sided operations were not compared (a target datatype "
                 "whose bytes are more than %d runs of equal ranges, more than %d blocks, or not known) and %llu "
                 "accesses were not (a window not named alike on its members, an exposure epoch not known, or more "
                 "than %d accesses of an epoch)",
                 (unsigned long long)skipped, MAX_RUNS, MAX_BLOCKS, (unsigned long long)conflicts.dropped,
                 MPP_RMA_GROUP_ACCESSES);
    mpp_rma_conflicts_free(&conflicts);
    mpp_handlemap_free(&made);
    mpp_handlemap_each(&units, free_target, NULL);
    mpp_handlemap_free(&units);
}
