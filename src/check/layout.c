#include <stdlib.h>
#include <string.h>

#include "check/layout.h"

/* Raw blocks a builder takes before merging (a datatype may name its
 * blocks in any order, some adjacent). */
#define RAW_MAX (4 * MPP_LAYOUT_MAX_BLOCKS)

void mpp_layout_builder_init(mpp_layout_builder_t *b) { *b = (mpp_layout_builder_t){0}; }

void mpp_layout_add(mpp_layout_builder_t *b, int64_t off, int64_t len)
{
    if (b->failed || len <= 0)
        return;
    if (b->n && b->blocks[b->n - 1].off + b->blocks[b->n - 1].len == off) {
        b->blocks[b->n - 1].len += len; /* the common case: the next bytes */
        return;
    }
    if (b->n == b->capacity) {
        size_t cap = b->capacity ? 2 * b->capacity : 16;
        mpp_block_t *grown = b->n >= RAW_MAX ? NULL : realloc(b->blocks, cap * sizeof *grown);
        if (!grown) {
            b->failed = 1;
            return;
        }
        b->blocks = grown;
        b->capacity = cap;
    }
    b->blocks[b->n++] = (mpp_block_t){off, len};
}

void mpp_layout_add_child(mpp_layout_builder_t *b, const mpp_layout_t *child, int64_t off, int64_t count)
{
    if (!child) {
        b->failed = 1;
        return;
    }
    if (count <= 0 || child->n == 0)
        return;
    int64_t total, step;
    if (child->n == 1 && child->blocks[0].len == child->extent) { /* copies side by side: one block */
        if (__builtin_mul_overflow(count, child->extent, &total))
            b->failed = 1;
        else
            mpp_layout_add(b, off + child->blocks[0].off, total);
        return;
    }
    if ((uint64_t)count * child->n > RAW_MAX) {
        b->failed = 1;
        return;
    }
    for (int64_t i = 0; i < count && !b->failed; i++) {
        if (__builtin_mul_overflow(i, child->extent, &step)) {
            b->failed = 1;
            return;
        }
        for (uint32_t j = 0; j < child->n; j++)
            mpp_layout_add(b, off + step + child->blocks[j].off, child->blocks[j].len);
    }
}

static int by_offset(const void *x, const void *y)
{
    const mpp_block_t *a = x, *b = y;
    return a->off < b->off ? -1 : a->off > b->off;
}

mpp_layout_t *mpp_layout_finish(mpp_layout_builder_t *b, int64_t extent, int64_t size)
{
    mpp_layout_t *l = NULL;
    if (b->failed)
        goto out;
    qsort(b->blocks, b->n, sizeof *b->blocks, by_offset);
    size_t n = 0;
    int64_t total = 0;
    for (size_t i = 0; i < b->n; i++) {
        total += b->blocks[i].len;
        if (n && b->blocks[i].off <= b->blocks[n - 1].off + b->blocks[n - 1].len) {
            int64_t end = b->blocks[i].off + b->blocks[i].len;
            if (end > b->blocks[n - 1].off + b->blocks[n - 1].len)
                b->blocks[n - 1].len = end - b->blocks[n - 1].off;
        } else {
            b->blocks[n++] = b->blocks[i];
        }
    }
    int64_t merged = 0;
    for (size_t i = 0; i < n; i++)
        merged += b->blocks[i].len;
    /* a byte named twice, or a size that is not MPI's: not this layout */
    if (n > MPP_LAYOUT_MAX_BLOCKS || merged != total || total != size)
        goto out;
    l = malloc(sizeof *l + n * sizeof l->blocks[0]);
    if (!l)
        goto out;
    l->extent = extent;
    l->size = size;
    l->n = (uint32_t)n;
    l->refs = 1;
    memcpy(l->blocks, b->blocks, n * sizeof l->blocks[0]);
    l->lb = n ? l->blocks[0].off : 0;
    l->ub = n ? l->blocks[n - 1].off + l->blocks[n - 1].len : 0;
out:
    free(b->blocks);
    *b = (mpp_layout_builder_t){0};
    return l;
}

mpp_layout_t *mpp_layout_contiguous(int64_t size, int64_t extent)
{
    mpp_layout_builder_t b;
    mpp_layout_builder_init(&b);
    mpp_layout_add(&b, 0, size);
    return mpp_layout_finish(&b, extent, size > 0 ? size : 0);
}

void mpp_layout_add_subarray(mpp_layout_builder_t *b, const mpp_layout_t *child, int ndims, const int64_t *sizes,
                             const int64_t *subsizes, const int64_t *starts, int c_order)
{
    enum { MAXD = 32 };
    if (!child || ndims < 1 || ndims > MAXD) {
        b->failed = 1;
        return;
    }
    /* dims from the slowest to the fastest, each one's stride in elements */
    int dim[MAXD];
    int64_t stride[MAXD], index[MAXD] = {0};
    for (int k = 0; k < ndims; k++) {
        dim[k] = c_order ? k : ndims - 1 - k;
        if (subsizes[dim[k]] <= 0)
            return; /* no element */
    }
    int64_t s = 1;
    for (int k = ndims - 1; k >= 0; k--) {
        stride[k] = s;
        if (__builtin_mul_overflow(s, sizes[dim[k]], &s)) {
            b->failed = 1;
            return;
        }
    }
    int last = ndims - 1;
    for (;;) {
        int64_t at = 0, bytes;
        for (int k = 0; k < ndims; k++)
            at += (starts[dim[k]] + (k < last ? index[k] : 0)) * stride[k];
        if (__builtin_mul_overflow(at, child->extent, &bytes)) {
            b->failed = 1;
            return;
        }
        mpp_layout_add_child(b, child, bytes, subsizes[dim[last]]);
        int k = last - 1;
        while (k >= 0 && ++index[k] == subsizes[dim[k]])
            index[k--] = 0;
        if (k < 0 || b->failed)
            return;
    }
}

/* Atomic: the datatypes' cache and the pending buffers share layouts
 * under locks of their own (MPI_THREAD_MULTIPLE). */
void mpp_layout_ref(mpp_layout_t *l)
{
    if (l)
        __atomic_add_fetch(&l->refs, 1, __ATOMIC_RELAXED);
}

void mpp_layout_unref(mpp_layout_t *l)
{
    if (l && __atomic_sub_fetch(&l->refs, 1, __ATOMIC_ACQ_REL) == 0)
        free(l);
}

/* 1 and [lo, hi) as signed addresses; 0 no bytes; -1 out of range. */
static int hull(const mpp_span_t *s, int64_t *lo, int64_t *hi)
{
    const mpp_layout_t *l = s->layout;
    if (!l || s->count <= 0 || l->n == 0)
        return 0;
    int64_t last, base = (int64_t)s->addr;
    if (s->addr > (uintptr_t)INT64_MAX || __builtin_mul_overflow(s->count - 1, l->extent, &last))
        return -1;
    int64_t first = last < 0 ? last : 0;
    last = last < 0 ? 0 : last;
    if (__builtin_add_overflow(base, first + l->lb, lo) || __builtin_add_overflow(base, last, hi) ||
        __builtin_add_overflow(*hi, l->ub, hi))
        return -1;
    return 1;
}

int mpp_span_hull(const mpp_span_t *s, uint64_t *lo, uint64_t *hi)
{
    int64_t a, b;
    if (hull(s, &a, &b) != 1 || a < 0)
        return 0;
    *lo = (uint64_t)a;
    *hi = (uint64_t)b;
    return 1;
}

/* The blocks of a buffer from a window's start, in address order: element
 * by element when elements do not interleave, else all of them sorted. */
typedef struct {
    const mpp_span_t *s;
    int64_t base, i, j; /* element, block */
    mpp_block_t *sorted;
    size_t nsorted, k;
    int64_t start, end; /* the current block; end == start: none left */
    int64_t stop;       /* the window's end */
} blocks_t;

static int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && ((a < 0) != (b < 0))); }

static void current(blocks_t *it)
{
    if (it->sorted) {
        if (it->k < it->nsorted) {
            it->start = it->sorted[it->k].off;
            it->end = it->start + it->sorted[it->k].len;
        } else {
            it->start = it->end = 0;
        }
    } else if (it->i < it->s->count) {
        const mpp_layout_t *l = it->s->layout;
        it->start = it->base + it->i * l->extent + l->blocks[it->j].off;
        it->end = it->start + l->blocks[it->j].len;
    } else {
        it->start = it->end = 0;
    }
    if (it->start >= it->stop)
        it->start = it->end = 0;
}

static void advance(blocks_t *it)
{
    if (it->sorted) {
        it->k++;
    } else if (++it->j == it->s->layout->n) {
        it->j = 0;
        it->i++;
    }
    current(it);
}

/* 0, or -1 when it would take more than budget blocks. */
static int blocks_open(blocks_t *it, const mpp_span_t *s, int64_t from, int64_t to, size_t budget)
{
    const mpp_layout_t *l = s->layout;
    *it = (blocks_t){.s = s, .base = (int64_t)s->addr, .stop = to};
    if (s->count == 1 || (l->extent > 0 && l->extent >= l->ub - l->lb)) {
        int64_t i = floor_div(from - it->base - l->ub, l->extent > 0 ? l->extent : 1) + 1;
        it->i = s->count == 1 || i < 0 ? 0 : i;
        int64_t at = it->base + it->i * l->extent;
        uint32_t lo = 0, hi = l->n; /* the first block that ends after `from` */
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (at + l->blocks[mid].off + l->blocks[mid].len <= from)
                lo = mid + 1;
            else
                hi = mid;
        }
        it->j = lo;
        if (it->j == l->n) {
            it->j = 0;
            it->i++;
        }
        current(it);
        return 0;
    }
    if ((uint64_t)s->count > budget / l->n)
        return -1;
    it->sorted = malloc((size_t)s->count * l->n * sizeof *it->sorted);
    if (!it->sorted)
        return -1;
    for (int64_t i = 0; i < s->count; i++)
        for (uint32_t j = 0; j < l->n; j++) {
            int64_t start = it->base + i * l->extent + l->blocks[j].off;
            if (start < to && start + l->blocks[j].len > from)
                it->sorted[it->nsorted++] = (mpp_block_t){start, l->blocks[j].len};
        }
    qsort(it->sorted, it->nsorted, sizeof *it->sorted, by_offset);
    current(it);
    return 0;
}

int mpp_span_overlap(const mpp_span_t *a, const mpp_span_t *b, size_t budget)
{
    int64_t alo, ahi, blo, bhi;
    int ha = hull(a, &alo, &ahi), hb = hull(b, &blo, &bhi);
    if (ha < 0 || hb < 0)
        return -1;
    if (!ha || !hb)
        return 0;
    int64_t from = alo > blo ? alo : blo, to = ahi < bhi ? ahi : bhi;
    if (from >= to)
        return 0;
    blocks_t x, y;
    int result = -1;
    if (blocks_open(&x, a, from, to, budget) != 0)
        return -1;
    if (blocks_open(&y, b, from, to, budget) != 0)
        goto out;
    result = 0;
    for (size_t steps = 0; x.end > x.start && y.end > y.start; steps++) {
        if (steps >= budget) {
            result = -1;
            break;
        }
        if (x.start < y.end && y.start < x.end) {
            result = 1;
            break;
        }
        /* the block that ends first meets no later block of the other */
        if (x.end <= y.end)
            advance(&x);
        else
            advance(&y);
    }
    free(y.sorted);
out:
    free(x.sorted);
    return result;
}

static uint64_t mix(uint64_t h, uint64_t w)
{
    h ^= w;
    h *= 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

uint64_t mpp_span_checksum(const mpp_span_t *s)
{
    uint64_t h = 0x243F6A8885A308D3ull;
    const mpp_layout_t *l = s->layout;
    int64_t lo, hi;
    if (hull(s, &lo, &hi) != 1)
        return h;
    for (int64_t i = 0; i < s->count; i++)
        for (uint32_t j = 0; j < l->n; j++) {
            const unsigned char *p = (const unsigned char *)(s->addr + i * l->extent + l->blocks[j].off);
            int64_t len = l->blocks[j].len, k = 0;
            for (; k + 8 <= len; k += 8) {
                uint64_t w;
                memcpy(&w, p + k, 8);
                h = mix(h, w);
            }
            uint64_t tail = 0;
            memcpy(&tail, p + k, (size_t)(len - k));
            h = mix(h, tail ^ ((uint64_t)(len - k) << 56));
        }
    return h;
}
