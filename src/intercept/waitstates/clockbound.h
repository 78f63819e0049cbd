/* The clock offsets' error bounded while the program runs, by the
 * wait-state analysis's own messages (accumulate/waitstates/offsetbound.h
 * says how).  Each message of the exchange (exchange.h) carries a trailer
 * of MPP_WSC_TRAILER bytes: when it left by the sender's clock, the
 * sender's bounds of its own offset then, how far its offset can be from
 * the truth, and how long the receiver's latest message to it took by the
 * two clocks.  So the uncertainty a threshold uses at an instant is the
 * best that applies then (hooks.c), not MPI_Init's.  All calls with the
 * exchange's lock held. */
#ifndef MPP_WS_CLOCKBOUND_H
#define MPP_WS_CLOCKBOUND_H

#include <stdint.h>

enum { MPP_WSC_TRAILER = 6 * (int)sizeof(int64_t) };

/* MPI_Init: this process's offset to rank 0's clock and its uncertainty
 * (0: exact); world_size peers.  Returns 0, -1 when out of memory. */
int mpp_wsc_start(int world_size, int64_t offset, int64_t uncertainty);
void mpp_wsc_stop(void);
/* The trailer of a message to peer dest, written at `trailer`. */
void mpp_wsc_stamp(int dest, unsigned char *trailer);
/* The trailer of a message from peer source, taken now. */
void mpp_wsc_receive(int source, const unsigned char *trailer);
/* How far this process's offset can be from the truth now (ticks). */
int64_t mpp_wsc_error(void);
/* The largest such error any peer that sent to this one reported last. */
int64_t mpp_wsc_peers_error(void);

typedef struct {
    int64_t error;         /* this process's, now */
    uint64_t tightened;    /* bounds a message improved */
    uint64_t contradicted; /* bounds that crossed: drift beyond MPP_OFFSET_DRIFT */
} mpp_wsc_stats_t;
void mpp_wsc_get_stats(mpp_wsc_stats_t *out);

#endif
