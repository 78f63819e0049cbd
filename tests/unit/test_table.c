/* The per-thread table of (function, interval, call stack) cells
 * (src/accumulate/table.c). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "accumulate/table.h"
#include "suites.h"

static mpp_table_t T;

static void setup(void)
{
    unit_reset_warnings();
    memset(&T, 0, sizeof T);
}

static void teardown(void)
{
    mpp_table_free(&T);
    mpp_warnings_reset();
}

/* A full-length stack a, b, c, d, then zeros. */
static void stack4(uintptr_t *frames, uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d)
{
    memset(frames, 0, MPP_MAX_DEPTH * sizeof *frames);
    frames[0] = a, frames[1] = b, frames[2] = c, frames[3] = d;
}

/* --- lookup --- */

START_TEST(test_table_init)
{
    ck_assert_int_eq(mpp_table_init(&T, 100, 4), 0);
    ck_assert_ptr_nonnull(T.cells);
    ck_assert_uint_gt(T.capacity, 0);
    ck_assert_uint_eq(T.capacity & (T.capacity - 1), 0); /* power of two */
    ck_assert_uint_eq(T.count, 0);
    ck_assert_uint_eq(T.limit, 100);
    ck_assert_int_eq(T.depth, 4);
    ck_assert_int_eq(T.folded, 0);
    for (size_t i = 0; i < T.capacity; i++)
        ck_assert_uint_eq(T.cells[i].hash, 0);
}
END_TEST

START_TEST(test_table_same_key_same_cell)
{
    uintptr_t f[MPP_MAX_DEPTH], g[MPP_MAX_DEPTH];
    ck_assert_int_eq(mpp_table_init(&T, 100, 4), 0);
    stack4(f, 0x401000, 0x402000, 0x403000, 0x404000);
    mpp_cell_t *c = mpp_table_lookup(&T, 7, 2, f);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(c->fid, 7);
    ck_assert_uint_eq(c->interval, 2);
    ck_assert_uint_eq(c->frames[0], 0x401000);
    ck_assert_uint_eq(c->frames[3], 0x404000);
    ck_assert_uint_ne(c->hash, 0);
    ck_assert_uint_eq(c->stats.calls, 0); /* a new cell starts empty */
    c->stats.calls = 3;
    c->stats.ticks[MPP_CAT_COLLECTIVE] = 99;
    /* the same key from another array */
    memcpy(g, f, sizeof g);
    mpp_cell_t *again = mpp_table_lookup(&T, 7, 2, g);
    ck_assert_ptr_eq(again, c);
    ck_assert_uint_eq(again->stats.calls, 3);
    ck_assert_uint_eq(again->stats.ticks[MPP_CAT_COLLECTIVE], 99);
    ck_assert_uint_eq(T.count, 1);
}
END_TEST

START_TEST(test_table_different_keys)
{
    uintptr_t f[MPP_MAX_DEPTH];
    mpp_cell_t *cells[8];
    ck_assert_int_eq(mpp_table_init(&T, 100, 4), 0);
    stack4(f, 0x10, 0x20, 0x30, 0x40);
    cells[0] = mpp_table_lookup(&T, 1, 0, f);
    cells[1] = mpp_table_lookup(&T, 2, 0, f); /* another function */
    cells[2] = mpp_table_lookup(&T, 1, 1, f); /* another interval */
    for (int i = 0; i < 4; i++) {             /* another frame at each position */
        stack4(f, 0x10, 0x20, 0x30, 0x40);
        f[i] += 8;
        cells[3 + i] = mpp_table_lookup(&T, 1, 0, f);
    }
    stack4(f, 0x20, 0x10, 0x30, 0x40); /* the same frames in another order */
    cells[7] = mpp_table_lookup(&T, 1, 0, f);
    for (int i = 0; i < 8; i++) {
        ck_assert_ptr_nonnull(cells[i]);
        cells[i]->stats.calls = (uint64_t)i + 1;
    }
    ck_assert_uint_eq(T.count, 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < i; j++)
            ck_assert_ptr_ne(cells[i], cells[j]);
    stack4(f, 0x10, 0x20, 0x30, 0x40);
    ck_assert_uint_eq(mpp_table_lookup(&T, 2, 0, f)->stats.calls, 2);
    ck_assert_uint_eq(mpp_table_lookup(&T, 1, 1, f)->stats.calls, 3);
    ck_assert_uint_eq(T.count, 8);
}
END_TEST

/* --- growth --- */

static void key_of(int i, uint32_t *fid, uint32_t *interval, uintptr_t *frames)
{
    memset(frames, 0, MPP_MAX_DEPTH * sizeof *frames);
    *fid = (uint32_t)(i % 7);
    *interval = (uint32_t)(i % 3);
    frames[0] = 0x400000 + (uintptr_t)i * 16;
    frames[1] = 0x500000 + (uintptr_t)(i % 97) * 32;
    frames[2] = (uintptr_t)i * 2654435761u;
    frames[3] = 0x600000;
}

START_TEST(test_table_growth_keeps_cells)
{
    enum { N = 5000 };
    uintptr_t f[MPP_MAX_DEPTH];
    uint32_t fid, interval;
    ck_assert_int_eq(mpp_table_init(&T, 100000, 4), 0);
    size_t initial = T.capacity;
    for (int i = 0; i < N; i++) {
        key_of(i, &fid, &interval, f);
        mpp_cell_t *c = mpp_table_lookup(&T, fid, interval, f);
        ck_assert_ptr_nonnull(c);
        ck_assert_uint_eq(c->stats.calls, 0);
        c->stats.calls = (uint64_t)i + 1;
        c->stats.ticks[MPP_CAT_SENDRECV] = (uint64_t)i * 3;
        c->stats.ticks[MPP_CAT_IO] = 7;
        c->stats.bytes_sent = (uint64_t)i * 100;
        c->stats.bytes_recv = (uint64_t)i * 200;
    }
    ck_assert_uint_eq(T.count, N);
    ck_assert_uint_gt(T.capacity, initial);
    ck_assert_uint_ge(T.capacity, 2 * T.count); /* at most half full */
    ck_assert_uint_eq(T.capacity & (T.capacity - 1), 0);
    size_t occupied = 0;
    for (size_t s = 0; s < T.capacity; s++)
        occupied += T.cells[s].hash != 0;
    ck_assert_uint_eq(occupied, N);
    for (int i = 0; i < N; i++) {
        key_of(i, &fid, &interval, f);
        mpp_cell_t *c = mpp_table_lookup(&T, fid, interval, f);
        ck_assert_ptr_nonnull(c);
        ck_assert_msg(c->stats.calls == (uint64_t)i + 1, "cell %d lost its stats (calls %llu)", i,
                      (unsigned long long)c->stats.calls);
        ck_assert_uint_eq(c->stats.ticks[MPP_CAT_SENDRECV], (uint64_t)i * 3);
        ck_assert_uint_eq(c->stats.ticks[MPP_CAT_IO], 7);
        ck_assert_uint_eq(c->stats.bytes_sent, (uint64_t)i * 100);
        ck_assert_uint_eq(c->stats.bytes_recv, (uint64_t)i * 200);
        ck_assert_uint_eq(c->fid, fid);
        ck_assert_uint_eq(c->interval, interval);
        ck_assert_uint_eq(c->frames[0], f[0]);
    }
    ck_assert_uint_eq(T.count, N); /* finding inserted nothing */
    ck_assert_int_eq(T.folded, 0);
    ck_assert_uint_eq(mpp_warnings_count(), 0);
}
END_TEST

/* A cell found again by its slot (a request's origin, for Overlap) only
 * while the table has not moved its cells. */
START_TEST(test_table_at_generation)
{
    uintptr_t f[MPP_MAX_DEPTH];
    uint32_t fid, interval;
    ck_assert_int_eq(mpp_table_init(&T, 100000, 4), 0);
    key_of(0, &fid, &interval, f);
    mpp_cell_t *c = mpp_table_lookup(&T, fid, interval, f);
    c->stats.model[MPP_PRICE_BYTES] = 0.5;
    uint64_t generation = T.generation, hash = c->hash;
    size_t slot = (size_t)(c - T.cells);
    ck_assert_ptr_eq(mpp_table_at(&T, generation, slot, hash), c);
    ck_assert_ptr_null(mpp_table_at(&T, generation, slot, hash ^ 2));   /* another cell's hash */
    ck_assert_ptr_null(mpp_table_at(&T, generation, T.capacity, hash)); /* out of the table */
    for (int i = 1; i < 2000; i++) {                                    /* growth moves the cells */
        key_of(i, &fid, &interval, f);
        mpp_table_lookup(&T, fid, interval, f);
    }
    ck_assert_uint_gt(T.generation, generation);
    ck_assert_ptr_null(mpp_table_at(&T, generation, slot, hash));
    key_of(0, &fid, &interval, f);
    mpp_cell_t *moved = mpp_table_find_hash(&T, hash, fid, interval); /* by its hash, where it is now */
    ck_assert_ptr_nonnull(moved);
    ck_assert_double_eq_tol(moved->stats.model[MPP_PRICE_BYTES], 0.5, 1e-12);
    ck_assert_ptr_null(mpp_table_find_hash(&T, hash, fid + 1, interval));
    key_of(0, &fid, &interval, f);
    c = mpp_table_lookup(&T, fid, interval, f); /* the key finds it where it is now */
    ck_assert_double_eq_tol(c->stats.model[MPP_PRICE_BYTES], 0.5, 1e-12);
    ck_assert_ptr_eq(mpp_table_at(&T, T.generation, (size_t)(c - T.cells), c->hash), c);
}
END_TEST

/* MPI_Finalize: the fine part of the wait states (waitstates.h) added to
 * them when its clock alignment allows, dropped otherwise; either way gone. */
START_TEST(test_table_fold_fine)
{
    uintptr_t f[MPP_MAX_DEPTH];
    uint32_t fid, interval;
    ck_assert_int_eq(mpp_table_init(&T, 100000, 4), 0);
    mpp_table_fold_fine(&T, 1); /* empty */
    key_of(0, &fid, &interval, f);
    mpp_cell_t *c = mpp_table_lookup(&T, fid, interval, f);
    c->stats.wait[MPP_WAIT_REALSYNC] = 100;
    c->stats.fine[MPP_WAIT_REALSYNC] = 7;
    c->stats.fine[MPP_WAIT_VARIATION] = 3;
    mpp_table_fold_fine(&T, 1);
    ck_assert_uint_eq(c->stats.wait[MPP_WAIT_REALSYNC], 107);
    ck_assert_uint_eq(c->stats.wait[MPP_WAIT_VARIATION], 3);
    ck_assert_uint_eq(c->stats.fine[MPP_WAIT_REALSYNC] + c->stats.fine[MPP_WAIT_VARIATION], 0);
    c->stats.fine[MPP_WAIT_POTSYNC] = 5;
    mpp_table_fold_fine(&T, 0);
    ck_assert_uint_eq(c->stats.wait[MPP_WAIT_POTSYNC], 0);
    ck_assert_uint_eq(c->stats.fine[MPP_WAIT_POTSYNC], 0);
}
END_TEST

/* --- MPIPROF_MAX_SRC --- */

START_TEST(test_table_max_src_folds)
{
    uintptr_t f[MPP_MAX_DEPTH];
    mpp_cell_t *kept[16];
    ck_assert_int_eq(mpp_table_init(&T, 16, 2), 0);
    for (int i = 0; i < 16; i++) {
        stack4(f, 0x1000 + (uintptr_t)i, 0x2000, 0, 0);
        kept[i] = mpp_table_lookup(&T, 1, 0, f);
        ck_assert_ptr_nonnull(kept[i]);
        kept[i]->stats.calls = (uint64_t)i + 1;
    }
    ck_assert_uint_eq(T.count, 16);
    ck_assert_int_eq(T.folded, 0);
    ck_assert_uint_eq(mpp_warnings_count(), 0);
    /* further call sites of function 1 in interval 0: one cell with no frames */
    mpp_cell_t *other = NULL;
    for (int i = 16; i < 40; i++) {
        stack4(f, 0x1000 + (uintptr_t)i, 0x2000, 0, 0);
        mpp_cell_t *c = mpp_table_lookup(&T, 1, 0, f);
        ck_assert_ptr_nonnull(c);
        if (!other)
            other = c;
        ck_assert_ptr_eq(c, other);
        c->stats.calls++;
    }
    ck_assert_int_eq(T.folded, 1);
    ck_assert_uint_eq(other->fid, 1);
    ck_assert_uint_eq(other->interval, 0);
    for (int d = 0; d < MPP_MAX_DEPTH; d++)
        ck_assert_uint_eq(other->frames[d], 0);
    ck_assert_uint_eq(other->stats.calls, 24);
    ck_assert_uint_eq(T.count, 17);
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_int_ge(UNIT_WARNING_WITH("MPIPROF_MAX_SRC=16", "[other call sites]"), 0);
    /* the kept call sites still have their own cells */
    for (int i = 0; i < 16; i++) {
        stack4(f, 0x1000 + (uintptr_t)i, 0x2000, 0, 0);
        mpp_cell_t *c = mpp_table_lookup(&T, 1, 0, f);
        ck_assert_uint_eq(c->stats.calls, (uint64_t)i + 1);
    }
    /* another function, another interval: their own folded cells, no new warning */
    stack4(f, 0x9000, 0x2000, 0, 0);
    mpp_cell_t *other2 = mpp_table_lookup(&T, 2, 0, f);
    mpp_cell_t *other3 = mpp_table_lookup(&T, 1, 5, f);
    ck_assert_ptr_ne(other2, other);
    ck_assert_ptr_ne(other3, other);
    ck_assert_ptr_ne(other2, other3);
    ck_assert_uint_eq(other2->frames[0], 0);
    ck_assert_uint_eq(other3->interval, 5);
    ck_assert_uint_eq(T.count, 19);
    ck_assert_uint_eq(mpp_warnings_count(), 1);
}
END_TEST

/* --- MPIPROF_DEPTH --- */

START_TEST(test_table_depth_respected)
{
    uintptr_t f[MPP_MAX_DEPTH];
    ck_assert_int_eq(mpp_table_init(&T, 100, 2), 0);
    stack4(f, 0x10, 0x20, 0x30, 0x40);
    mpp_cell_t *a = mpp_table_lookup(&T, 1, 0, f);
    stack4(f, 0x10, 0x20, 0x31, 0x41); /* differs beyond depth 2 only */
    mpp_cell_t *b = mpp_table_lookup(&T, 1, 0, f);
    ck_assert_ptr_eq(a, b);
    stack4(f, 0x10, 0x21, 0x30, 0x40); /* differs within depth */
    mpp_cell_t *c = mpp_table_lookup(&T, 1, 0, f);
    ck_assert_ptr_ne(a, c);
    ck_assert_uint_eq(T.count, 2);
    mpp_table_free(&T);

    /* the deepest stack: the last frame counts */
    ck_assert_int_eq(mpp_table_init(&T, 100, MPP_MAX_DEPTH), 0);
    for (int i = 0; i < MPP_MAX_DEPTH; i++)
        f[i] = 0x100 + (uintptr_t)i;
    a = mpp_table_lookup(&T, 1, 0, f);
    f[MPP_MAX_DEPTH - 1]++;
    b = mpp_table_lookup(&T, 1, 0, f);
    ck_assert_ptr_ne(a, b);
    ck_assert_uint_eq(T.count, 2);
    /* the key hash follows the same rule */
    uintptr_t g[MPP_MAX_DEPTH];
    memcpy(g, f, sizeof g);
    g[3] ^= 0xff;
    ck_assert_uint_eq(mpp_key_hash(1, 0, f, 3), mpp_key_hash(1, 0, g, 3));
    ck_assert_uint_ne(mpp_key_hash(1, 0, f, 4), mpp_key_hash(1, 0, g, 4));
    ck_assert_uint_ne(mpp_key_hash(1, 0, f, 4) & 1, 0); /* never 0, the empty slot */
}
END_TEST

/* LIBRARY BUG (src/accumulate/table.c, mpp_table_insert): table.h says a
 * lookup uses frames[0..depth-1], but the insert copies MPP_MAX_DEPTH frames
 * (memcpy(c->frames, frames, sizeof c->frames)), reading past an array of
 * `depth` frames.  Here the array ends at a page that cannot be read: the
 * lookup must not touch it. */
START_TEST(test_table_reads_only_depth_frames)
{
    long page = sysconf(_SC_PAGESIZE);
    char *area = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ck_assert_ptr_ne(area, MAP_FAILED);
    ck_assert_int_eq(mprotect(area + page, (size_t)page, PROT_NONE), 0);
    uintptr_t *frames = (uintptr_t *)(area + page) - 2; /* exactly `depth` frames readable */
    frames[0] = 0x1234, frames[1] = 0x5678;
    ck_assert_int_eq(mpp_table_init(&T, 100, 2), 0);
    mpp_cell_t *c = mpp_table_lookup(&T, 1, 0, frames);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(c->frames[0], 0x1234);
    ck_assert_uint_eq(c->frames[1], 0x5678);
    ck_assert_ptr_eq(mpp_table_lookup(&T, 1, 0, frames), c);
    munmap(area, (size_t)page * 2);
}
END_TEST

/* --- bad arguments --- */

START_TEST(test_table_bad_args)
{
    uintptr_t f[MPP_MAX_DEPTH];
    /* limit 0: every call site with a stack folds at once */
    ck_assert_int_eq(mpp_table_init(&T, 0, 4), 0);
    stack4(f, 0x10, 0x20, 0, 0);
    mpp_cell_t *a = mpp_table_lookup(&T, 3, 0, f);
    ck_assert_ptr_nonnull(a);
    ck_assert_uint_eq(a->frames[0], 0);
    ck_assert_int_eq(T.folded, 1);
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    /* the empty stack itself is accepted at the limit */
    stack4(f, 0, 0, 0, 0);
    ck_assert_ptr_eq(mpp_table_lookup(&T, 3, 0, f), a);
    ck_assert_uint_eq(T.count, 1);
    mpp_table_free(&T);
    mpp_table_free(&T); /* twice is harmless */
    ck_assert_ptr_null(T.cells);

    /* depth 0: the stack does not matter */
    ck_assert_int_eq(mpp_table_init(&T, 10, 0), 0);
    stack4(f, 0x10, 0x20, 0, 0);
    a = mpp_table_lookup(&T, 3, 0, f);
    stack4(f, 0x11, 0x21, 0, 0);
    ck_assert_ptr_eq(mpp_table_lookup(&T, 3, 0, f), a);
    ck_assert_uint_eq(T.count, 1);
    /* extreme ids */
    mpp_cell_t *b = mpp_table_lookup(&T, UINT32_MAX, UINT32_MAX, f);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_ne(a, b);
    ck_assert_uint_eq(b->fid, UINT32_MAX);
}
END_TEST

/* The hot path's cells of recent calls (thread_state.h) must not point
 * into the old cells once growth has moved them. */
START_TEST(test_table_growth_clears_recent)
{
    uintptr_t f[MPP_MAX_DEPTH];
    uint32_t fid, interval;
    ck_assert_int_eq(mpp_table_init(&T, 100000, 4), 0);
    for (int k = 0; k < MPP_RECENT; k++)
        ck_assert_ptr_null(T.recent[k][0]);
    key_of(0, &fid, &interval, f);
    for (int k = 0; k < MPP_RECENT; k++)
        T.recent[k][0] = T.recent[k][MPP_RECENT_WAYS - 1] = mpp_table_lookup(&T, fid, interval, f);
    uint64_t generation = T.generation;
    int i = 1;
    for (; T.generation == generation; i++) { /* up to the first growth */
        key_of(i, &fid, &interval, f);
        mpp_table_lookup(&T, fid, interval, f);
        if (T.generation == generation)
            ck_assert_ptr_nonnull(T.recent[MPP_RECENT - 1][0]); /* kept while the cells stay */
    }
    for (int k = 0; k < MPP_RECENT; k++)
        for (int w = 0; w < MPP_RECENT_WAYS; w++)
            ck_assert_ptr_null(T.recent[k][w]);
}
END_TEST

/* Two call sites of one loop, a few bytes to a few dozen apart, get
 * different recent[] slots unless they are MPP_RECENT bytes apart. */
START_TEST(test_table_recent_slots_apart)
{
    for (uintptr_t pc = 0x401000; pc < 0x401000 + 256; pc++)
        for (uintptr_t gap = 1; gap <= 2 * MPP_RECENT; gap++) {
            ck_assert_uint_lt(mpp_recent_slot(pc), MPP_RECENT);
            int same = mpp_recent_slot(pc) == mpp_recent_slot(pc + gap);
            ck_assert_msg(same == (gap % MPP_RECENT == 0), "pc %#lx and %lu bytes further: same slot %d",
                          (unsigned long)pc, (unsigned long)gap, same);
        }
}
END_TEST

/* Two call sites of one loop that share a recent[] slot (MPP_RECENT bytes
 * apart, as the two calls of a ping-pong were) both find their cell in
 * its ways, instead of one of them going through a capture and a lookup
 * at every call. */
START_TEST(test_table_recent_shared_slot)
{
    uintptr_t f[MPP_MAX_DEPTH] = {0};
    ck_assert_int_eq(mpp_table_init(&T, 100000, 1), 0);
    uintptr_t pc = 0x40810e, other = pc + MPP_RECENT;
    f[0] = pc;
    mpp_cell_t *a = mpp_table_lookup(&T, 7, 0, f);
    f[0] = other;
    mpp_cell_t *b = mpp_table_lookup(&T, 9, 0, f);
    ck_assert_uint_eq(mpp_recent_slot(pc), mpp_recent_slot(other));
    mpp_recent_put(&T, a);
    mpp_recent_put(&T, b); /* the newer one */
    ck_assert_ptr_eq(T.recent[mpp_recent_slot(pc)][0], b);
    ck_assert_ptr_eq(mpp_recent_cell(&T, other, 9, 0), b);
    ck_assert_ptr_eq(mpp_recent_cell(&T, pc, 7, 0), a);
    ck_assert_ptr_null(mpp_recent_cell(&T, pc, 9, 0)); /* no cell of that function there */
}
END_TEST

/* One call site reached by several stacks in turn (a recursion 1 to 3
 * levels deep, as MPICH's datatype library checks its buffers): each
 * stack's cell stays in the slot's ways, found by the frame its walk was
 * noted from; a cell found again moves to the front, and the least
 * recent goes when a fifth comes. */
START_TEST(test_table_recent_stacks_of_one_site)
{
    uintptr_t f[MPP_MAX_DEPTH] = {0};
    ck_assert_int_eq(mpp_table_init(&T, 100000, 4), 0);
    uintptr_t pc = 0x401234;
    mpp_cell_t *cells[MPP_RECENT_WAYS + 1];
    for (int k = 0; k <= MPP_RECENT_WAYS; k++) {
        f[0] = pc;
        f[1] = 0x402000 + 16 * (uintptr_t)k; /* another caller: another stack */
        cells[k] = mpp_table_lookup(&T, 7, 0, f);
        cells[k]->walk.frame = 0x7ffd0000 - 64 * (uintptr_t)k; /* noted from its own frame */
    }
    for (int k = 0; k < MPP_RECENT_WAYS; k++)
        mpp_recent_put(&T, cells[k]);
    for (int k = 0; k < MPP_RECENT_WAYS; k++)
        ck_assert_ptr_eq(mpp_recent_cell(&T, pc, 7, cells[k]->walk.frame), cells[k]);
    /* a frame no cell was noted from: the most recent of the site */
    ck_assert_ptr_eq(mpp_recent_cell(&T, pc, 7, 0x1000), cells[MPP_RECENT_WAYS - 1]);
    mpp_recent_put(&T, cells[0]); /* found again: to the front, the others keep their order */
    ck_assert_ptr_eq(T.recent[mpp_recent_slot(pc)][0], cells[0]);
    ck_assert_ptr_eq(T.recent[mpp_recent_slot(pc)][1], cells[MPP_RECENT_WAYS - 1]);
    mpp_recent_put(&T, cells[MPP_RECENT_WAYS]); /* a fifth: the least recent (cells[1]) goes */
    for (int w = 0; w < MPP_RECENT_WAYS; w++)
        ck_assert_ptr_ne(T.recent[mpp_recent_slot(pc)][w], cells[1]);
    ck_assert_ptr_eq(mpp_recent_cell(&T, pc, 7, cells[MPP_RECENT_WAYS]->walk.frame), cells[MPP_RECENT_WAYS]);
}
END_TEST

/* The split both modes give a call's time by its requests' kinds: in
 * proportion to their counts, the remainder to the last category counted,
 * nothing where none is counted. */
START_TEST(test_split_ticks)
{
    uint64_t share[MPP_NCAT];
    uint32_t two_p2p_one_coll[MPP_NCAT] = {[MPP_CAT_SENDRECV] = 2, [MPP_CAT_COLLECTIVE] = 1};
    mpp_split_ticks(10, two_p2p_one_coll, share);
    ck_assert_uint_eq(share[MPP_CAT_SENDRECV], 6);
    ck_assert_uint_eq(share[MPP_CAT_COLLECTIVE], 4); /* 3 and the remainder 1 */
    ck_assert_uint_eq(share[MPP_CAT_SYSTEM] + share[MPP_CAT_IO], 0);
    uint32_t one_kind[MPP_NCAT] = {[MPP_CAT_COLLECTIVE] = 5};
    mpp_split_ticks(7, one_kind, share);
    ck_assert_uint_eq(share[MPP_CAT_COLLECTIVE], 7);
    ck_assert_uint_eq(share[MPP_CAT_SENDRECV], 0);
    uint32_t none[MPP_NCAT] = {0};
    mpp_split_ticks(9, none, share);
    for (int k = 0; k < MPP_NCAT; k++)
        ck_assert_uint_eq(share[k], 0);
}
END_TEST

Suite *table_suite(void)
{
    Suite *s = suite_create("table");
    TCase *tc;

    tc = tcase_create("lookup");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_table_init);
    tcase_add_test(tc, test_table_same_key_same_cell);
    tcase_add_test(tc, test_table_different_keys);
    tcase_add_test(tc, test_split_ticks);
    suite_add_tcase(s, tc);

    tc = tcase_create("growth");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_table_growth_keeps_cells);
    tcase_add_test(tc, test_table_at_generation);
    tcase_add_test(tc, test_table_fold_fine);
    tcase_add_test(tc, test_table_growth_clears_recent);
    tcase_add_test(tc, test_table_recent_slots_apart);
    tcase_add_test(tc, test_table_recent_shared_slot);
    tcase_add_test(tc, test_table_recent_stacks_of_one_site);
    suite_add_tcase(s, tc);

    tc = tcase_create("limits");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_table_max_src_folds);
    tcase_add_test(tc, test_table_depth_respected);
    tcase_add_test(tc, test_table_reads_only_depth_frames);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_table_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
