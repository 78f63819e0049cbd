/* How far this process's clock offset (to rank 0's clock, measured at
 * MPI_Init and kept for the whole run) can be from the truth, as the
 * wait-state analysis's own messages bound it while the program runs.
 * Pure: no MPI, no clock; the exchange (intercept/waitstates/exchange.c)
 * feeds it.
 *
 * Every message from a to b bounds the true offsets: it left before it
 * arrived, so s_a + theta_a <= r_b + theta_b (s, r: the sender's and the
 * receiver's clocks; theta: ticks to rank 0's clock).  b learns a lower
 * bound of its own theta from a's; a learns an upper bound of its own when
 * b reports r_b - s_a back on its next message to a.  Two messages either
 * way are one round trip, whose lower bound on the offset is that of
 * Cristian's algorithm and NTP's filtering: the quickest round trip
 * bounds best, and the bounds kept are the best so far.  A bound ages:
 * two hosts' clocks drift apart by at most MPP_OFFSET_DRIFT of the time
 * since it was measured.  Rank 0's offset is 0 and exact; so are those of
 * processes that read its clock. */
#ifndef MPP_OFFSETBOUND_H
#define MPP_OFFSETBOUND_H

#include <stdint.h>

/* How fast two hosts' clocks may drift apart: 50 ppm, the tolerance of
 * common quartz oscillators (NTP assumes 15 ppm for a disciplined clock). */
#define MPP_OFFSET_DRIFT 50e-6

typedef struct {
    int64_t offset;        /* the offset used: MPI_Init's */
    int exact;             /* rank 0, or its clock: never moves */
    int64_t lo, lo_at;     /* theta >= lo, measured at lo_at (this process's ticks) */
    int64_t hi, hi_at;     /* theta <= hi, measured at hi_at */
    uint64_t tightened;    /* bounds improved by a message */
    uint64_t contradicted; /* bounds that crossed (drift beyond the assumed): the newer kept */
} mpp_offset_bound_t;

/* MPI_Init's offset, within +-uncertainty, measured at `at`; uncertainty
 * 0 is exact. */
void mpp_offset_bound_init(mpp_offset_bound_t *b, int64_t offset, int64_t uncertainty, int64_t at);
/* The bounds as they stand at `now`, aged by the drift since measured. */
int64_t mpp_offset_bound_lo(const mpp_offset_bound_t *b, int64_t now);
int64_t mpp_offset_bound_hi(const mpp_offset_bound_t *b, int64_t now);
/* A message says theta >= lower (theta <= upper) at `now`. */
void mpp_offset_bound_lower(mpp_offset_bound_t *b, int64_t lower, int64_t now);
void mpp_offset_bound_upper(mpp_offset_bound_t *b, int64_t upper, int64_t now);
/* How far the offset used can be from the truth at `now`: 0 when exact. */
int64_t mpp_offset_bound_error(const mpp_offset_bound_t *b, int64_t now);

/* The bound one message gives its receiver.  s: the sender's clock when it
 * sent; r: the receiver's when it took the message; sender_lo: the
 * sender's lower bound then.  Its upper bound comes from back_tau, the
 * sender's r - s of the receiver's latest message to it, back_age ticks
 * before this one left (INT64_MAX: none yet). */
static inline int64_t mpp_offset_bound_from_message(int64_t sender_lo, int64_t s, int64_t r)
{
    return sender_lo - (r - s);
}
static inline int64_t mpp_offset_bound_from_reply(int64_t sender_hi, int64_t back_tau, int64_t back_age)
{
    return sender_hi + back_tau + (int64_t)(MPP_OFFSET_DRIFT * (double)(back_age > 0 ? back_age : 0));
}

#endif
