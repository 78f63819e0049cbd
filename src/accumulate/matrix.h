/* The communication matrix of one process (mpiprof(7), COMMUNICATION
 * MATRIX): per peer it talked to by point-to-point calls, the messages and
 * bytes it sent to that peer and the time of its point-to-point calls that
 * named it.  A small open-addressing table keyed by the peer's world rank:
 * memory follows the peers a process actually talks to, not the number of
 * processes.  The hot path adds to a found slot; only a peer not seen
 * before takes the slow path, which grows the table when it is half full
 * (like the call-site table: the first contact with a peer is warm-up, a
 * loop over the same neighbours allocates nothing).  No MPI, no lock:
 * the caller serializes (intercept/matrix_hook.h). */
#ifndef MPP_ACCUMULATE_MATRIX_H
#define MPP_ACCUMULATE_MATRIX_H

#include <stdint.h>

#include "records/matrix.h"
#include "util/common.h"

typedef struct {
    int32_t peer; /* world rank; -1: empty slot */
    uint32_t pad;
    uint64_t messages, bytes; /* sent to the peer */
    uint64_t ticks;           /* in point-to-point calls naming the peer */
} mpp_peer_cell_t;

typedef struct {
    mpp_peer_cell_t *cells;
    uint32_t capacity; /* a power of two; 0: not started */
    uint32_t count;
    uint64_t dropped; /* calls not counted: memory ran out for a new peer */
} mpp_peer_table_t;

/* Empty, with room for `capacity` peers (rounded up to a power of two):
 * 0, or -1 when memory ran out (the table then stays unstarted). */
int mpp_peer_table_init(mpp_peer_table_t *t, uint32_t capacity);
void mpp_peer_table_free(mpp_peer_table_t *t);

/* The slow path of mpp_peer_add: a peer not in the table (grown first when
 * half full). */
void mpp_peer_add_new(mpp_peer_table_t *t, int32_t peer, uint64_t messages, uint64_t bytes, uint64_t ticks);

static inline uint32_t mpp_peer_slot(int32_t peer, uint32_t capacity)
{
    return ((uint32_t)peer * 2654435761u) & (capacity - 1);
}

/* Add to the peer's slot (a peer < 0, MPI_PROC_NULL or unknown, adds
 * nothing). */
MPP_ALWAYS_INLINE void mpp_peer_add(mpp_peer_table_t *t, int32_t peer, uint64_t messages, uint64_t bytes,
                                    uint64_t ticks)
{
    if (peer < 0 || !t->capacity)
        return;
    for (uint32_t i = mpp_peer_slot(peer, t->capacity);; i = (i + 1) & (t->capacity - 1)) {
        mpp_peer_cell_t *c = &t->cells[i];
        if (MPP_LIKELY(c->peer == peer)) {
            c->messages += messages, c->bytes += bytes, c->ticks += ticks;
            return;
        }
        if (c->peer < 0)
            break;
    }
    mpp_peer_add_new(t, peer, messages, bytes, ticks);
}

/* The table's entries as pairs from `self`, time in seconds (allocated,
 * *n of them; NULL with *n 0 when empty or out of memory). */
mpp_pair_t *mpp_peer_table_pairs(const mpp_peer_table_t *t, int self, double (*to_seconds)(uint64_t), int *n);

/* Pairs summed by (node of from, node of to): node_of[rank] for every
 * rank of the pairs.  Allocated, sorted by (from, to), *n of them; NULL
 * with *n 0 when there are none or memory ran out (*n -1). */
mpp_pair_t *mpp_pairs_by_node(const mpp_pair_t *pairs, int npairs, const int *node_of, int *n);

/* Sum the pairs with equal (from, to) in place, after sorting them by
 * (from, to): the count left. */
int mpp_pairs_merge(mpp_pair_t *pairs, int npairs);

/* Sorted in place, heaviest first (by bytes, then messages, then time). */
void mpp_pairs_heaviest(mpp_pair_t *pairs, int npairs);

#endif
