/* The covered part of one process's time line.  Potential sync, Time
 * variation and Overlap are parts of a process's time (characteristics.md):
 * each operation contributes a window of the process's time line (an
 * instance's [own entry, latest entry), [own exit, latest exit); a
 * request's [return of the starting call, + its Overlap)), and windows of
 * one characteristic may overlap (a root running ahead through many
 * non-synchronizing collectives, many requests in flight at once).  Each
 * instant counts once: a window is credited with the part of it that no
 * window credited before covered (first come, first served), so a
 * process's value is at most the length of the union of its windows,
 * whatever the order windows come in.
 *
 * Memory is bounded: at most MPP_COVER_PIECES disjoint covered pieces are
 * kept, sorted.  When a window needs one more, the closest pieces are
 * joined first (the smallest gaps, until a quarter is left): a joined
 * gap counts as covered, so a later window falling in it is credited less,
 * never more (an undercount, never an overcount).  Windows mostly come in
 * time order and land after the last piece, at constant cost; no
 * allocation, no lock (the caller serializes the threads of a process),
 * no system call.  Pure: no MPI, no clock. */
#ifndef MPP_COVER_H
#define MPP_COVER_H

#include <stdint.h>

#define MPP_COVER_PIECES 1024

typedef struct {
    int64_t from, to; /* [from, to), ticks */
} mpp_cover_piece_t;

typedef struct {
    int n;                                     /* pieces in use */
    uint64_t joined;                           /* ticks of gaps joined to make room */
    mpp_cover_piece_t piece[MPP_COVER_PIECES]; /* sorted, disjoint, not touching */
    int64_t scratch[MPP_COVER_PIECES];         /* gap lengths while joining */
} mpp_cover_t;

/* Nothing covered. */
void mpp_cover_reset(mpp_cover_t *c);
/* Cover the window [from, to): returns the ticks of it that were not
 * covered yet (0 for an empty or inverted window), which the caller
 * credits to the window's operation. */
int64_t mpp_cover_add(mpp_cover_t *c, int64_t from, int64_t to);
/* The same, inline for the usual cases: an empty window, one after
 * everything covered while there is room, or one that begins in the last
 * piece (requests in flight together: it extends that piece). */
static inline int64_t mpp_cover_add_fast(mpp_cover_t *c, int64_t from, int64_t to)
{
    if (!(to > from))
        return 0;
    int n = c->n;
    if (n > 0) {
        mpp_cover_piece_t *last = &c->piece[n - 1];
        if (from > last->to) {
            if (n < MPP_COVER_PIECES) {
                c->piece[n].from = from;
                c->piece[n].to = to;
                c->n = n + 1;
                return to - from;
            }
        } else if (from >= last->from) { /* the pieces before it end before it begins */
            int64_t covered = (to < last->to ? to : last->to) - from;
            if (to > last->to)
                last->to = to;
            return (to - from) - covered;
        }
    }
    return mpp_cover_add(c, from, to);
}
/* Ticks covered now: what every window credited, plus the gaps joined. */
int64_t mpp_cover_length(const mpp_cover_t *c);

#endif
