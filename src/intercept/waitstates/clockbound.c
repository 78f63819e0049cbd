#include "intercept/waitstates/clockbound.h"

#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/offsetbound.h"
#include "context/clock.h"

enum { T_SENT, T_LO, T_HI, T_ERROR, T_BACK_TAU, T_BACK_AGE, T_N };
_Static_assert(T_N * sizeof(int64_t) == MPP_WSC_TRAILER, "trailer layout");

/* Per peer: the quickest recent message from it (r - s, by the two
 * clocks, and when it came: a bound ages), and the error it reported. */
typedef struct {
    int64_t tau, at, error;
} peer_t;

static mpp_offset_bound_t bound;
static peer_t *peers;
static int npeers;
/* The max of peers[].error, or more: when the peer holding it reports
 * less, it is recomputed after npeers / 16 more messages (a few additions
 * a message, whatever the number of processes). */
static int64_t peers_error;
static int stale, since_recompute;

int mpp_wsc_start(int world_size, int64_t offset, int64_t uncertainty)
{
    mpp_offset_bound_init(&bound, offset, uncertainty, (int64_t)mpp_now());
    peers = malloc((size_t)(world_size > 0 ? world_size : 1) * sizeof *peers);
    if (!peers)
        return -1;
    for (int i = 0; i < world_size; i++)
        peers[i] = (peer_t){INT64_MAX, 0, 0};
    npeers = world_size;
    peers_error = 0;
    stale = since_recompute = 0;
    return 0;
}

void mpp_wsc_stop(void)
{
    free(peers);
    peers = NULL;
    npeers = 0;
}

void mpp_wsc_stamp(int dest, unsigned char *trailer)
{
    int64_t now = (int64_t)mpp_now(), t[T_N] = {now,
                                                mpp_offset_bound_lo(&bound, now),
                                                mpp_offset_bound_hi(&bound, now),
                                                mpp_offset_bound_error(&bound, now),
                                                INT64_MAX,
                                                0};
    if (peers && (unsigned)dest < (unsigned)npeers && peers[dest].tau != INT64_MAX) {
        t[T_BACK_TAU] = peers[dest].tau;
        t[T_BACK_AGE] = now - peers[dest].at;
    }
    memcpy(trailer, t, sizeof t);
}

static void recompute_peers_error(void)
{
    int64_t most = 0;
    for (int i = 0; i < npeers; i++)
        if (peers[i].error > most)
            most = peers[i].error;
    peers_error = most;
    stale = since_recompute = 0;
}

void mpp_wsc_receive(int source, const unsigned char *trailer)
{
    int64_t t[T_N], now = (int64_t)mpp_now();
    memcpy(t, trailer, sizeof t);
    mpp_offset_bound_lower(&bound, mpp_offset_bound_from_message(t[T_LO], t[T_SENT], now), now);
    if (t[T_BACK_TAU] != INT64_MAX)
        mpp_offset_bound_upper(&bound, mpp_offset_bound_from_reply(t[T_HI], t[T_BACK_TAU], t[T_BACK_AGE]), now);
    if (!peers || (unsigned)source >= (unsigned)npeers)
        return;
    peer_t *p = &peers[source];
    int64_t tau = now - t[T_SENT];
    /* the kept one, aged to now both ways (its bound and the reply's), against this one */
    if (p->tau == INT64_MAX || tau <= p->tau + (int64_t)(2 * MPP_OFFSET_DRIFT * (double)(now - p->at)))
        p->tau = tau, p->at = now;
    int64_t was = p->error;
    p->error = t[T_ERROR];
    if (p->error >= peers_error)
        peers_error = p->error;
    else if (was == peers_error)
        stale = 1;
    if (stale && ++since_recompute > npeers / 16)
        recompute_peers_error();
}

int64_t mpp_wsc_error(void) { return mpp_offset_bound_error(&bound, (int64_t)mpp_now()); }

int64_t mpp_wsc_peers_error(void) { return peers_error; }

void mpp_wsc_get_stats(mpp_wsc_stats_t *out)
{
    *out = (mpp_wsc_stats_t){mpp_wsc_error(), bound.tightened, bound.contradicted};
}
