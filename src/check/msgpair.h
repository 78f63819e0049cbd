/* The checks between processes pair each received message with what its
 * sender said of it (a record: size, type signature, call site,
 * checksum), as the wait-state analysis pairs it with its send's entry
 * (accumulate/waitstates/waitstates.h): messages on one channel
 * (communicator, sender, tag) are non-overtaking, so the n-th receive on a
 * channel took the n-th message sent on it.  A channel keeps, in order,
 * the records or the receives that wait for their other side (never both),
 * and goes once both sides are even: memory is bounded by what is in
 * flight.  Records and receives are the caller's fixed-size blobs; a pair
 * goes to the caller's function.  Pure: no MPI.
 *
 * Receives must come in the order MPI matched them, which is the order
 * they were posted, not always the one they completed in (MPI_Irecv A, B
 * on one channel; MPI_Wait B, then A): `mpp_recvorder_t` keeps a
 * completed receive until no receive posted before it that could have
 * taken its message (the same communicator, its sender or any, its tag or
 * any) is still pending. */
#ifndef MPP_CHECK_MSGPAIR_H
#define MPP_CHECK_MSGPAIR_H

#include <stddef.h>
#include <stdint.h>

/* A receive's source or tag when it takes any. */
#define MPP_MSG_ANY INT32_MIN

typedef struct mpp_msg_channel mpp_msg_channel_t;

/* A pair: the record and the receive, both of the channel. */
typedef void (*mpp_msgpair_fn)(void *ctx, uint32_t comm, int32_t source, int32_t tag, const void *record,
                               const void *receive);

typedef struct {
    size_t record_size, receive_size, slot;
    mpp_msg_channel_t **buckets;
    size_t nbuckets, count;
    mpp_msg_channel_t *spare; /* emptied channels, for the next ones */
    int nspare;
    size_t max_queue; /* a channel holding more has lost one side: its backlog is dropped */
    mpp_msgpair_fn pair;
    void *ctx;
    uint64_t dropped; /* entries dropped (out of memory, backlog) */
} mpp_msgpair_t;

void mpp_msgpair_init(mpp_msgpair_t *m, size_t record_size, size_t receive_size, size_t max_queue,
                      mpp_msgpair_fn pair, void *ctx);
void mpp_msgpair_free(mpp_msgpair_t *m);
/* A record of the channel, in the order sent. */
void mpp_msgpair_record(mpp_msgpair_t *m, uint32_t comm, int32_t source, int32_t tag, const void *record);
/* A receive of the channel, in the order matched. */
void mpp_msgpair_receive(mpp_msgpair_t *m, uint32_t comm, int32_t source, int32_t tag, const void *receive);
/* Take the first record left that a receive of (comm, source, tag) could
 * have taken (source, tag: MPP_MSG_ANY for any) into out: 1, else 0. */
int mpp_msgpair_take(mpp_msgpair_t *m, uint32_t comm, int32_t source, int32_t tag, void *out);
/* Every receive left (no record came for it), in each channel's order. */
void mpp_msgpair_each_receive(mpp_msgpair_t *m,
                              void (*fn)(void *arg, uint32_t comm, int32_t source, int32_t tag, const void *receive),
                              void *arg);
/* Every record left, in each channel's order. */
void mpp_msgpair_each_record(mpp_msgpair_t *m,
                             void (*fn)(void *arg, uint32_t comm, int32_t source, int32_t tag, const void *record),
                             void *arg);

/* Posted receives and completed ones held back (above; recvorder.c).
 * The pending receives are indexed by what they take (communicator,
 * source or any, tag or any), each such key's in posting order, so that
 * "is a receive posted before it still pending that could have taken its
 * message?" is four look-ups however many are pending. */
typedef struct mpp_ro_post {
    uint64_t seq;
    uint32_t comm;
    int32_t source, tag;             /* MPP_MSG_ANY: any */
    struct mpp_ro_post *prev, *next; /* its key's, in posting order */
    struct mpp_ro_key *key;
} mpp_ro_post_t;

typedef struct mpp_ro_key mpp_ro_key_t;
typedef struct mpp_ro_held mpp_ro_held_t;

typedef struct {
    mpp_ro_key_t **buckets; /* keys with pending receives (and emptied ones, for the next) */
    size_t nbuckets, nkeys;
    mpp_ro_key_t *spare_keys; /* keys no receive is pending of, for the next ones */
    mpp_ro_post_t *spare;     /* nodes of receives no longer pending, for the next ones */
    mpp_ro_held_t *held;      /* completed ones held back, in posting order */
    size_t blob;              /* bytes of a held receive's blob */
    uint64_t next_seq;
    /* where a receive goes once its turn has come */
    void (*deliver)(void *ctx, uint32_t comm, int32_t source, int32_t tag, const void *blob);
    void *ctx;
} mpp_recvorder_t;

void mpp_recvorder_init(mpp_recvorder_t *o, size_t blob,
                        void (*deliver)(void *ctx, uint32_t comm, int32_t source, int32_t tag, const void *blob),
                        void *ctx);
void mpp_recvorder_free(mpp_recvorder_t *o);
/* The next posting number (a blocking receive takes one at its call). */
static inline uint64_t mpp_recvorder_seq(mpp_recvorder_t *o) { return ++o->next_seq; }
/* A receive posted now (a request): its node, NULL when out of memory
 * (it then holds back no other). */
mpp_ro_post_t *mpp_recvorder_post(mpp_recvorder_t *o, uint32_t comm, int32_t source, int32_t tag);
/* A receive posted as seq took the message of (comm, source, tag): it
 * goes now, or is held back.  Out of memory: it goes now. */
void mpp_recvorder_complete(mpp_recvorder_t *o, uint64_t seq, uint32_t comm, int32_t source, int32_t tag,
                            const void *blob);
/* A posted receive is no longer pending (completed, cancelled, freed):
 * the receives it held back go, those now free to. */
void mpp_recvorder_unpost(mpp_recvorder_t *o, mpp_ro_post_t *post);
/* The end: every receive still held goes, in posting order; `quiet` is
 * called first for each (its order is not sure). */
void mpp_recvorder_flush(mpp_recvorder_t *o, void (*quiet)(void *blob));

/* A checksum of bytes (for recv-checksum): the same bytes give the same. */
uint64_t mpp_msg_checksum(uint64_t seed, const void *bytes, size_t n);

#endif
