/* The covered part of one process's time line.  Potential sync, Time
 * variation and Overlap are parts of a process's time (characteristics.md):
 * each operation contributes a window of the process's time line (an
 * instance's [own entry, latest entry), [own exit, latest exit); a
 * request's [return of the starting call, + its Overlap)), and windows of
 * one characteristic may overlap (a root running ahead through many
 * non-synchronizing collectives, many requests in flight at once).  Each
 * instant counts once.
 *
 * Windows with an owner (mpp_cover_claim) follow one rule whatever the
 * order they come in: an instant belongs to the window that began first;
 * of windows that began together, to the one whose operation was begun
 * first (`begun`: e.g. the Time variation windows of two nonblocking
 * collectives one wait completed); then to the one claimed first.  A window that began earlier than the
 * owner of a part it covers takes that part over, and the cover tells the
 * former owner's caller to take back what it credited (the debit
 * function): the dynamic mode learns its instances' windows in the order
 * its reductions end, the trace analyzer in time order, and both credit
 * each SRC point the same.  Windows without an owner (mpp_cover_add) are
 * first come, first served and are never taken over.
 *
 * Memory is bounded: at most MPP_COVER_PIECES disjoint covered pieces are
 * kept, sorted.  When a window needs more, the closest of the older three
 * quarters of the pieces are joined (the smallest gaps, until half is
 * left): a joined gap counts as covered, so a later window falling in it
 * is credited less, never more (an undercount, never an overcount), and
 * joined pieces have no owner any more (a window that began earlier but
 * came more than some 500 pieces late keeps what it was credited first
 * come, first served).  Windows mostly come in time order and land after
 * the last piece, at constant cost; no allocation, no lock (the caller
 * serializes the threads of a process), no system call.  Pure: no MPI, no
 * clock. */
#ifndef MPP_COVER_H
#define MPP_COVER_H

#include <stdint.h>

#define MPP_COVER_PIECES 1024

/* The owner of a window: a tag of the caller's (0: nobody).  FINAL: a
 * window that takes over parts of later ones as an owned one does, but
 * that the caller knows no window to come began before (then nothing can
 * take it over, and the caller keeps nothing to take its credit back). */
#define MPP_COVER_NOBODY 0
#define MPP_COVER_FINAL UINT64_MAX

typedef struct {
    int64_t from, to; /* [from, to), ticks */
    int64_t start;    /* where its owner's window began */
    int64_t begun;    /* where its owner's operation began */
    uint64_t owner;
} mpp_cover_piece_t;

/* Take back `ticks` credited to the window of `owner`. */
typedef void (*mpp_cover_debit_fn)(void *ctx, uint64_t owner, int64_t ticks);
/* Whether the window of `owner` can still take back what it was credited
 * (the caller's memory of owners may be bounded). */
typedef int (*mpp_cover_known_fn)(void *ctx, uint64_t owner);

typedef struct {
    int n;                    /* pieces in use */
    uint64_t joined;          /* ticks of gaps joined to make room */
    uint64_t retired;         /* ticks of pieces no window to come can reach, let go (mpp_cover_retire) */
    mpp_cover_debit_fn debit; /* NULL: no part is ever taken over */
    mpp_cover_known_fn known; /* NULL: every owner is known */
    void *debit_ctx;
    /* sorted, disjoint; touching only where their owners differ */
    mpp_cover_piece_t piece[MPP_COVER_PIECES];
    mpp_cover_piece_t made[2 * MPP_COVER_PIECES + 3]; /* a claim's new pieces, before they move in */
    int64_t scratch[MPP_COVER_PIECES];                /* gap lengths while joining */
} mpp_cover_t;

/* Nothing covered; no debit function. */
void mpp_cover_reset(mpp_cover_t *c);
/* Where claims tell of the parts they took over; parts of owners not
 * `known` (may be NULL) stay theirs. */
void mpp_cover_set_debit(mpp_cover_t *c, mpp_cover_debit_fn debit, mpp_cover_known_fn known, void *ctx);
/* Cover the window [from, to) for `owner`: returns the ticks of it that
 * were not covered yet, or covered by windows that began later (0 for an
 * empty or inverted window), which the caller credits to the window's
 * operation; for each part taken over, the debit function is called with
 * its former owner first. */
int64_t mpp_cover_claim(mpp_cover_t *c, int64_t from, int64_t to, uint64_t owner, int64_t begun);
/* A window without an owner: first come, first served. */
static inline int64_t mpp_cover_add(mpp_cover_t *c, int64_t from, int64_t to)
{
    return mpp_cover_claim(c, from, to, MPP_COVER_NOBODY, 0);
}
/* mpp_cover_claim, inline for the usual cases: an empty window, one after
 * everything covered while there is room, or one that begins in the last
 * piece (requests in flight together; a root running ahead): the pieces
 * before it end before it begins, and the last one's window began before
 * this one (or together, its operation no later), so nothing is taken
 * over. */
static inline int64_t mpp_cover_claim_fast(mpp_cover_t *c, int64_t from, int64_t to, uint64_t owner, int64_t begun)
{
    if (!(to > from))
        return 0;
    int n = c->n;
    if (n > 0 && n < MPP_COVER_PIECES) {
        mpp_cover_piece_t *last = &c->piece[n - 1];
        if (from >= last->from && (from > last->start || begun >= last->begun || owner == MPP_COVER_NOBODY)) {
            int64_t begin = from > last->to ? from : last->to;
            if (to <= begin)
                return 0;
            if (begin == last->to && owner == last->owner &&
                (owner == MPP_COVER_NOBODY || owner == MPP_COVER_FINAL || from == last->start))
                last->to = to; /* touching its own, or one nobody can take over after another */
            else
                c->piece[c->n++] = (mpp_cover_piece_t){begin, to, from, begun, owner};
            return to - begin;
        }
    }
    return mpp_cover_claim(c, from, to, owner, begun);
}
/* mpp_cover_claim_fast for a window the caller knows no window to come
 * begins before `reach`: one that ends by then and begins after every
 * piece can never be covered again, and is credited whole without
 * keeping it (the usual case of blocking collectives in time order). */
static inline int64_t mpp_cover_claim_before(mpp_cover_t *c, int64_t from, int64_t to, uint64_t owner, int64_t begun,
                                             int64_t reach)
{
    if (to > from && to <= reach && (c->n == 0 || from >= c->piece[c->n - 1].to)) {
        c->retired += (uint64_t)(to - from);
        return to - from;
    }
    return mpp_cover_claim_fast(c, from, to, owner, begun);
}
static inline int64_t mpp_cover_add_fast(mpp_cover_t *c, int64_t from, int64_t to)
{
    return mpp_cover_claim_fast(c, from, to, MPP_COVER_NOBODY, 0);
}
/* Ticks covered now: what every window credited, plus the gaps joined. */
int64_t mpp_cover_length(const mpp_cover_t *c);
/* No window to come begins before `horizon` (the caller knows): the
 * pieces that end by then can never be covered again and go, so that a
 * process whose windows come in time order keeps a few pieces, not
 * MPP_COVER_PIECES with joins. */
void mpp_cover_retire(mpp_cover_t *c, int64_t horizon);

#endif
