#include <string.h>

#include "accumulate/waitstates/cover.h"

void mpp_cover_reset(mpp_cover_t *c)
{
    c->n = 0;
    c->joined = 0;
    c->retired = 0;
    c->debit = NULL;
    c->known = NULL;
    c->debit_ctx = NULL;
}

void mpp_cover_set_debit(mpp_cover_t *c, mpp_cover_debit_fn debit, mpp_cover_known_fn known, void *ctx)
{
    c->debit = debit;
    c->known = known;
    c->debit_ctx = ctx;
}

int64_t mpp_cover_length(const mpp_cover_t *c)
{
    int64_t sum = (int64_t)c->retired;
    for (int i = 0; i < c->n; i++)
        sum += c->piece[i].to - c->piece[i].from;
    return sum;
}

void mpp_cover_retire(mpp_cover_t *c, int64_t horizon)
{
    int k = 0;
    for (; k < c->n && c->piece[k].to <= horizon; k++)
        c->retired += (uint64_t)(c->piece[k].to - c->piece[k].from);
    if (k) {
        memmove(c->piece, c->piece + k, (size_t)(c->n - k) * sizeof *c->piece);
        c->n -= k;
    }
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

/* Full: join the smallest gaps between all but the `newest` pieces until
 * `keep` pieces are left (half, sparing the newest quarter), so that the next half of
 * MPP_COVER_PIECES pieces needs no joining (the cost of a join is spread
 * over them: a few ns per window); the newest quarter keeps its owners for
 * windows that come late.  Gaps equal to the largest one joined are all
 * joined too (more room, never an overcount).  A joined piece has no
 * owner. */
static void join_closest(mpp_cover_t *c, int keep, int newest)
{
    int older = c->n - newest, gaps = older - 1, join = c->n - keep;
    if (join > gaps)
        join = gaps;
    if (join <= 0)
        return;
    for (int i = 0; i < gaps; i++)
        c->scratch[i] = c->piece[i + 1].from - c->piece[i].to;
    int64_t limit = kth_smallest(c->scratch, gaps, join - 1);
    int out = 0;
    for (int i = 1; i < c->n; i++) {
        int64_t gap = c->piece[i].from - c->piece[i - 1].to;
        if (i < older && gap <= limit) {
            c->joined += (uint64_t)gap;
            c->piece[out].to = c->piece[i].to;
            c->piece[out].owner = MPP_COVER_NOBODY;
        } else {
            c->piece[++out] = c->piece[i];
        }
    }
    c->n = out + 1;
}

/* Append piece q to made[0..*m), joined to the last one where they touch
 * and one owner's window has both (nobody's: any two). */
static void emit(mpp_cover_piece_t *made, int *m, mpp_cover_piece_t q)
{
    if (q.to <= q.from)
        return;
    if (*m > 0) {
        mpp_cover_piece_t *last = &made[*m - 1];
        if (last->to == q.from && last->owner == q.owner &&
            (q.owner == MPP_COVER_NOBODY || q.owner == MPP_COVER_FINAL || last->start == q.start)) {
            last->to = q.to;
            return;
        }
    }
    made[(*m)++] = q;
}

/* Whether a window of `owner` beginning at `from`, of an operation begun
 * at `begun`, takes over the part of piece q it covers: both have owners,
 * q's window began later (or together, its operation later), and its
 * owner can take back what it was credited. */
static int taken_over(const mpp_cover_t *c, const mpp_cover_piece_t *q, int64_t from, int64_t begun, uint64_t owner)
{
    return c->debit && owner != MPP_COVER_NOBODY && q->owner != MPP_COVER_NOBODY && q->owner != MPP_COVER_FINAL &&
           (q->start > from || (q->start == from && q->begun > begun)) &&
           (!c->known || c->known(c->debit_ctx, q->owner));
}

int64_t mpp_cover_claim(mpp_cover_t *c, int64_t from, int64_t to, uint64_t owner, int64_t begun)
{
    if (!(to > from))
        return 0;
    mpp_cover_piece_t *p = c->piece;
    int n = c->n;
    /* the pieces [first, last) the window overlaps, with the one before
     * and after when they touch it (to join them where owners allow) */
    int lo = 0, hi = n;
    while (lo < hi) { /* the first piece ending at or after `from` */
        int mid = lo + (hi - lo) / 2;
        if (p[mid].to < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    int first = lo, last = first;
    while (last < n && p[last].from <= to)
        last++;
    int m = 0;
    int64_t credited = 0, cursor = from;
    for (int k = first; k < last; k++) {
        mpp_cover_piece_t q = p[k];
        if (q.from >= to) { /* touching it after (the last one) */
            if (cursor < to) {
                emit(c->made, &m, (mpp_cover_piece_t){cursor, to, from, begun, owner});
                credited += to - cursor;
                cursor = to;
            }
            emit(c->made, &m, q);
            continue;
        }
        if (q.to <= from) { /* touching it before (the first one) */
            emit(c->made, &m, q);
            continue;
        }
        if (q.from > cursor) { /* a gap: the window's */
            emit(c->made, &m, (mpp_cover_piece_t){cursor, q.from, from, begun, owner});
            credited += q.from - cursor;
        }
        emit(c->made, &m, (mpp_cover_piece_t){q.from, cursor, q.start, q.begun, q.owner}); /* before the window */
        int64_t a = q.from > cursor ? q.from : cursor, b = q.to < to ? q.to : to;
        if (taken_over(c, &q, from, begun, owner)) { /* its window began later */
            emit(c->made, &m, (mpp_cover_piece_t){a, b, from, begun, owner});
            credited += b - a;
        } else {
            emit(c->made, &m, (mpp_cover_piece_t){a, b, q.start, q.begun, q.owner});
        }
        emit(c->made, &m, (mpp_cover_piece_t){to, q.to, q.start, q.begun, q.owner}); /* after the window */
        if (b > cursor)
            cursor = b;
    }
    if (cursor < to) {
        emit(c->made, &m, (mpp_cover_piece_t){cursor, to, from, begun, owner});
        credited += to - cursor;
    }
    if (n - (last - first) + m > MPP_COVER_PIECES) {
        /* no room: join pieces, then claim what is left of them (a
         * window over pieces with gaps between all of them, just after
         * a join, may need joins that spare no piece) */
        int before = c->n;
        join_closest(c, MPP_COVER_PIECES / 2, c->n / 4);
        if (c->n == before)
            join_closest(c, MPP_COVER_PIECES / 8, 0);
        return mpp_cover_claim(c, from, to, owner, begun);
    }
    for (int k = first; k < last; k++) /* the former owners take back what they lost */
        if (taken_over(c, &p[k], from, begun, owner)) {
            int64_t a = p[k].from > from ? p[k].from : from, b = p[k].to < to ? p[k].to : to;
            if (b > a)
                c->debit(c->debit_ctx, p[k].owner, b - a);
        }
    memmove(&p[first + m], &p[last], (size_t)(n - last) * sizeof *p);
    memcpy(&p[first], c->made, (size_t)m * sizeof *p);
    c->n = n - (last - first) + m;
    return credited;
}
