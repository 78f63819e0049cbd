#include <string.h>

#include "accumulate/waitstates/cover.h"

void mpp_cover_reset(mpp_cover_t *c)
{
    c->n = 0;
    c->joined = 0;
}

int64_t mpp_cover_length(const mpp_cover_t *c)
{
    int64_t sum = 0;
    for (int i = 0; i < c->n; i++)
        sum += c->piece[i].to - c->piece[i].from;
    return sum;
}

static int64_t median3(int64_t a, int64_t b, int64_t c)
{
    if (a > b) {
        int64_t t = a;
        a = b, b = t;
    }
    return c < a ? a : c > b ? b : c;
}

/* The k-th smallest (from 0) of a[0..n-1], reordering a (Hoare's
 * selection: linear on average). */
static int64_t kth_smallest(int64_t *a, int n, int k)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int64_t pivot = median3(a[lo], a[lo + (hi - lo) / 2], a[hi]);
        int i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                int64_t t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return a[k];
    }
    return a[k];
}

/* Full: join the smallest gaps until a quarter of the pieces is left, so
 * that the next three quarters of MPP_COVER_PIECES windows need no joining
 * (the cost of a join is spread over them: a few ns per window).  Gaps
 * equal to the largest one joined are all joined too (more room, never an
 * overcount). */
static void join_closest(mpp_cover_t *c)
{
    int gaps = c->n - 1, join = c->n - MPP_COVER_PIECES / 4;
    if (join <= 0 || gaps <= 0)
        return;
    for (int i = 0; i < gaps; i++)
        c->scratch[i] = c->piece[i + 1].from - c->piece[i].to;
    int64_t limit = kth_smallest(c->scratch, gaps, join - 1);
    int out = 0;
    for (int i = 1; i < c->n; i++) {
        int64_t gap = c->piece[i].from - c->piece[i - 1].to;
        if (gap <= limit) {
            c->joined += (uint64_t)gap;
            c->piece[out].to = c->piece[i].to;
        } else {
            c->piece[++out] = c->piece[i];
        }
    }
    c->n = out + 1;
}

int64_t mpp_cover_add(mpp_cover_t *c, int64_t from, int64_t to)
{
    if (!(to > from))
        return 0;
    mpp_cover_piece_t *p = c->piece;
    int n = c->n;
    if (n == 0 || from > p[n - 1].to) { /* after everything: the usual case */
        if (n == MPP_COVER_PIECES) {
            join_closest(c);
            n = c->n;
        }
        p[n] = (mpp_cover_piece_t){from, to};
        c->n = n + 1;
        return to - from;
    }
    /* the first piece that ends at or after `from` (one does: the last;
     * mostly it is, for windows of operations started together) */
    int lo = n == 1 || p[n - 2].to < from ? n - 1 : 0, hi = n - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (p[mid].to < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    int first = lo;
    if (p[first].from > to) { /* in a gap: a piece of its own */
        if (n == MPP_COVER_PIECES) {
            join_closest(c);
            return mpp_cover_add(c, from, to); /* the gap may be joined now */
        }
        memmove(&p[first + 1], &p[first], (size_t)(n - first) * sizeof *p);
        p[first] = (mpp_cover_piece_t){from, to};
        c->n = n + 1;
        return to - from;
    }
    /* pieces first..last-1 overlap or touch the window: one piece now */
    int64_t covered = 0, lo_from = from, hi_to = to;
    int last = first;
    for (; last < n && p[last].from <= to; last++) {
        int64_t a = p[last].from > from ? p[last].from : from;
        int64_t b = p[last].to < to ? p[last].to : to;
        if (b > a)
            covered += b - a;
        if (p[last].from < lo_from)
            lo_from = p[last].from;
        if (p[last].to > hi_to)
            hi_to = p[last].to;
    }
    p[first] = (mpp_cover_piece_t){lo_from, hi_to};
    if (last > first + 1) {
        memmove(&p[first + 1], &p[last], (size_t)(n - last) * sizeof *p);
        c->n = n - (last - first - 1);
    }
    return (to - from) - covered;
}
