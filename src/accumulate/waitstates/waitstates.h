/* Wait states without traces (characteristics.md): the bookkeeping that
 * pairs each received message with its send, and the arithmetic of Real
 * sync, Potential sync and Time variation.  Pure: no MPI, no clock; the MPI
 * side (src/intercept/waitstates/hooks.c) feeds it instants already aligned to
 * rank 0's clock, in ticks.
 *
 * Real sync pairing.  Messages from one sender on one communicator with one
 * tag are non-overtaking, so the n-th message a receiver gets on a channel
 * (communicator id, sender, tag) is the n-th one the sender sent on it.
 * Senders stream a record (communicator id, tag, send entry) per message to
 * each receiver in batches; the receiver replays the stream and its own
 * receives per channel, in order, and pairs them by position.  Only what
 * one side has and the other not yet is kept, so memory is bounded by what
 * is in flight, never by run length.
 *
 * Per sender, the receives still waiting for their record are kept in one
 * log in the order received, and the records that came before their
 * receive in another, in the order sent.  A channel never has entries in
 * both, so the first entry of the other log on the same channel is the
 * match; in nearly every program (one channel per peer at a time, or the
 * same order on both sides) that is the head, found by one comparison.
 * When a sender's channels interleave so that the match is farther than a
 * few entries, that sender's entries move to a table of channels (each a
 * FIFO; a balanced channel is dropped when the table needs room, counting
 * restarting at zero on both sides), and back to the logs once it holds
 * none.
 *
 * A receiving call (MPI_Recv, a wait completing receives, ...) is an
 * *event*: entry R, duration D, the cell it is attributed to, and the
 * messages it received.  Its Real sync is
 *     min(D, max over its messages (S - R))   when that is >= threshold, else 0
 * (S: the matching send's entry): Scalasca's late-sender wait, with the
 * latest sender for a wait completing several receives.  The event is
 * delivered when all its messages are paired.  A call that received one
 * message needs no event: its entry, duration and cell wait in the log. */
#ifndef MPP_WAITSTATES_H
#define MPP_WAITSTATES_H

#include <stdint.h>

#include "accumulate/waitstates/cover.h"
#include "records/origin.h"
#include "util/common.h"

/* What a sender streams per message (16 bytes). */
typedef struct {
    uint32_t comm; /* agreed communicator id (never 0) */
    int32_t tag;
    int64_t entry; /* send entry, aligned ticks */
} mpp_send_record_t;

/* A finished event: add `wait` ticks of Real sync to the cell `origin`
 * (`fine`: a wait counted only at the fine threshold, below). */
typedef void (*mpp_deliver_fn)(void *ctx, const mpp_request_origin_t *origin, int64_t wait, int fine);

typedef struct {
    uint32_t comm;
    int32_t source, tag;
    uint32_t hash; /* 0: empty slot */
    int kind;      /* what the queue holds: 0 nothing, 1 send entries, 2 receive events */
    int head, len, cap;
    int64_t *queue; /* ring: send entries (ticks) or event indexes */
} mpp_channel_t;

typedef struct {
    int64_t entry, duration, latest; /* latest: max over paired messages of S - R */
    int pending;                     /* messages not yet paired */
    int open;                        /* more messages may be added */
    int next_free;
    mpp_request_origin_t origin;
} mpp_wait_event_t;

/* A receive waiting for its send record, in its sender's log. */
typedef struct {
    uint32_t comm; /* 0: paired already, out of order (skipped) */
    int32_t tag;
    int event; /* its event; -1: the call received this message only, and it is: */
    int64_t entry, duration;
    mpp_request_origin_t origin; /* frames: only those in use are copied */
} mpp_p2p_waiting_t;

/* What one sender has in flight: two rings (capacities: powers of two),
 * each entry paired already out of order skipped (comm 0) when it reaches
 * the head. */
typedef struct {
    mpp_p2p_waiting_t *receives;
    mpp_send_record_t *records;
    int rhead, rlen, rcap;
    int shead, slen, scap;
    int64_t in_table; /* > 0: its entries are in the channel table instead */
} mpp_p2p_peer_t;

typedef struct {
    mpp_p2p_peer_t **peers; /* by sender's MPI_COMM_WORLD rank, made when it first sends */
    int npeers;
    mpp_channel_t *channels;
    size_t capacity, count;
    mpp_channel_t *last; /* the channel looked up last (NULL: none): a loop's receives and a
                            batch's records mostly name one channel, found again without hashing */
    mpp_wait_event_t *events;
    int nevents, free_event;
    int64_t threshold; /* differences below it count as 0 (clock uncertainty) */
    int64_t fine;      /* a lower threshold (mpp_p2p_init: the same): waits counted at it only
                          are delivered apart (MPP_WAIT_FINE) */
    int64_t max_queue; /* a sender's log or a channel holding more is desynchronized: dropped */
    mpp_deliver_fn deliver;
    void *ctx;
    /* what happened, for the protocol */
    uint64_t paired, unpaired_receives, dropped;
    /* receives waiting for their send record: senders stream records in
     * full batches only, so the stream is worth looking at only once a
     * batch's worth waits (mpp_p2p_stream_due) */
    int64_t waiting;
} mpp_p2p_t;

void mpp_p2p_init(mpp_p2p_t *m, int64_t threshold, int64_t max_queue, mpp_deliver_fn deliver, void *ctx);
void mpp_p2p_free(mpp_p2p_t *m);
/* A call that received one message (source: the sender's MPI_COMM_WORLD
 * rank): the same as an event with that message only, without one. */
void mpp_p2p_receive(mpp_p2p_t *m, uint32_t comm, int32_t source, int32_t tag, int64_t entry, int64_t duration,
                     const mpp_request_origin_t *origin);
/* mpp_p2p_receive's usual case, inline: no record of the sender waits (a
 * receive mostly comes before its record: records come in batches) and its
 * log has room.  Returns the receive's entry in the log, its entry,
 * duration and origin for the caller to fill (before the pairing is used
 * again); NULL: not that case, call mpp_p2p_receive. */
static inline mpp_p2p_waiting_t *mpp_p2p_receive_waits(mpp_p2p_t *m, uint32_t comm, int32_t source, int32_t tag)
{
    mpp_p2p_peer_t *p;
    if ((uint32_t)source >= (uint32_t)m->npeers || !(p = m->peers[source]) || p->in_table || p->slen ||
        p->rlen == p->rcap || p->rlen >= m->max_queue || !comm)
        return NULL;
    mpp_p2p_waiting_t *w = &p->receives[(p->rhead + p->rlen++) & (p->rcap - 1)];
    w->comm = comm;
    w->tag = tag;
    w->event = -1;
    m->waiting++;
    return w;
}
/* A receiving call of several messages: returns its event index (-1: out of memory, nothing is
 * recorded; the caller must then not count its messages either). */
int mpp_p2p_event_open(mpp_p2p_t *m, int64_t entry, int64_t duration, const mpp_request_origin_t *origin);
/* One message the event received (source: the sender's MPI_COMM_WORLD rank). */
void mpp_p2p_received(mpp_p2p_t *m, int event, uint32_t comm, int32_t source, int32_t tag);
/* No more messages for the event: it is delivered once all are paired. */
void mpp_p2p_event_close(mpp_p2p_t *m, int event);
/* Records of the stream from `source`, in the order sent. */
void mpp_p2p_sent_all(mpp_p2p_t *m, int32_t source, const mpp_send_record_t *records, int n);
static inline void mpp_p2p_sent(mpp_p2p_t *m, int32_t source, const mpp_send_record_t *record)
{
    mpp_p2p_sent_all(m, source, record, 1);
}
/* The end (MPI_Finalize): deliver events whose messages never got their
 * send record with what they have; count those messages as unpaired. */
void mpp_p2p_finish(mpp_p2p_t *m);
/* Receiving calls not yet delivered (events and single receives). */
int mpp_p2p_pending_events(const mpp_p2p_t *m);
/* Some batch of send records must have been sent to this process and not
 * replayed yet: `batch` receives or more wait for their records (a sender
 * sends a batch once it holds `batch` records, so fewer waiting can all
 * still be in the senders' unsent batches). */
static inline int mpp_p2p_stream_due(const mpp_p2p_t *m, int batch) { return m->waiting >= batch; }

/* Collective instances of one communicator as one member keeps them.  The
 * k-th collective on a communicator is the same instance on every member,
 * so every member cuts its instances into the same batches: batch k goes
 * to a reduction (maximum over members) when the first instance of batch
 * k+2 begins, which leaves one batch of lag for nonblocking collectives to
 * complete; what remains goes when the communicator is freed.
 *
 * An instance is written where its reduction reads it: into the values of
 * its batch's buffer (no copy at the reduction), from a pool of buffers
 * the batches return to once reduced, so none is allocated once there are
 * enough for the batches in flight. */
typedef struct mpp_instance_batch {
    struct mpp_instance_batch *next; /* among the pool's spares */
    int64_t *values; /* [(3 + rows) * size]: entries, exits, negated exits (mpp_instances_take), then the
                        pool's rows of values the correctness checks reduce with them (check/collcheck.h) */
    mpp_request_origin_t *origins; /* [size]: the cells of the instances */
    uint64_t *places;              /* [size]: their places in the interval log (intervals.h, packed) */
    const int64_t *max;            /* set by the caller: the maxima over members, once reduced */
    int n;                         /* instances in it, once taken */
} mpp_instance_batch_t;

typedef struct {
    int size; /* instances per batch */
    int rows; /* rows of the checks' values per instance (0: checks off, the batch as without them) */
    mpp_instance_batch_t *spares;
} mpp_batch_pool_t;

void mpp_batch_pool_init(mpp_batch_pool_t *p, int size);
/* The same with `rows` more values per instance, reduced (maximum) with
 * its instants: the correctness checks' (check/collcheck.h). */
void mpp_batch_pool_init_rows(mpp_batch_pool_t *p, int size, int rows);
/* A buffer for `size` instances: a spare, else allocated (NULL: no memory). */
mpp_instance_batch_t *mpp_batch_get(mpp_batch_pool_t *p);
void mpp_batch_put(mpp_batch_pool_t *p, mpp_instance_batch_t *b);
void mpp_batch_pool_free(mpp_batch_pool_t *p);

/* One batch of a communicator: instances [first, first + n); no buffer
 * when memory ran out (its instants are not kept, its number still
 * counts, so that every member cuts the same batches). */
typedef struct {
    uint64_t first;
    int n;
    mpp_instance_batch_t *buf;
} mpp_batch_slot_t;

typedef struct {
    uint64_t count; /* instances begun */
    mpp_batch_pool_t *pool;
    mpp_batch_slot_t fill;  /* the batch instances begin in */
    mpp_batch_slot_t ready; /* the full one before it, waiting for late exits (n 0: none) */
} mpp_instances_t;

void mpp_instances_init(mpp_instances_t *r, mpp_batch_pool_t *pool);
/* The batch to take for a reduction before the next instance begins (the
 * ready one, once the one after it is full), or NULL. */
static inline mpp_batch_slot_t *mpp_instances_due(mpp_instances_t *r)
{
    return r->fill.n == r->pool->size && r->ready.n ? &r->ready : NULL;
}
/* The batches not taken yet, oldest first (at the end), or NULL. */
mpp_batch_slot_t *mpp_instances_pending(mpp_instances_t *r);
/* The batch instances begin in is full or empty: the next one (out of line). */
void mpp_instances_next_batch(mpp_instances_t *r);
/* A new instance (the due batch taken first): its number; `exit`
 * INT64_MIN while it runs (nonblocking: mpp_instances_end).  *origin: where
 * its cell goes, for the caller to fill (NULL: the instance is not kept). */
static inline uint64_t mpp_instances_begin(mpp_instances_t *r, int64_t entry, int64_t exit, uint64_t place,
                                           mpp_request_origin_t **origin)
{
    int size = r->pool->size;
    if (MPP_UNLIKELY(r->fill.n == 0 || r->fill.n == size))
        mpp_instances_next_batch(r);
    uint64_t i = r->count++;
    int j = r->fill.n++;
    mpp_instance_batch_t *b = r->fill.buf;
    *origin = NULL;
    if (MPP_LIKELY(b != NULL)) {
        b->values[j] = entry;
        b->values[size + j] = exit;
        b->places[j] = place;
        *origin = &b->origins[j];
    }
    return i;
}
/* The check rows of the instance begun last (values[rows], one per row;
 * nothing when its batch has no buffer). */
void mpp_instances_set_rows(mpp_instances_t *r, const int64_t *values);
/* Instance i completed at `exit` (ignored once its batch was taken). */
void mpp_instances_end(mpp_instances_t *r, uint64_t i, int64_t exit);
/* Take the batch of slot (due or pending) for its reduction: its buffer's
 * values become sent[(3 + rows) n], their entries, exits and negated exits
 * (an exit not known yet: INT64_MIN and INT64_MAX, so that the maximum
 * over members says someone did not know it), then each check row (n
 * values each); *buf its buffer (the caller's now, with the cells in
 * origins), or NULL when there is none: then `fallback` [(3 + rows) size]
 * gets values that leave the other members' maxima as they are.
 * Returns how many exits were not known; *n the batch's instances. */
int mpp_instances_take(mpp_instances_t *r, mpp_batch_slot_t *slot, int64_t *fallback, mpp_instance_batch_t **buf,
                       int *n);
/* The buffers still held go back to the pool. */
void mpp_instances_free(mpp_instances_t *r);
/* Windows cut at the end of their interval (mpp_instances_terms). */
typedef struct {
    uint64_t windows; /* windows that reached past it */
    int64_t largest;  /* the most cut off one, ticks */
    uint64_t within;  /* ... by less than the threshold: as far as the clocks know, maybe not at all */
} mpp_window_cuts_t;

/* The reduced batch (max[3n]: maxima over members of sent[3n]): this
 * member's Potential sync and Time variation of each instance, each
 * mpp_sync_term or, for a variation some member could not know, -1.
 * They are windows of this process's time line, [own entry, latest
 * entry) and [own exit, latest exit), which overlap when the process runs
 * ahead through several instances (a root of non-synchronizing
 * collectives, nonblocking collectives in flight at once): with the
 * process's covers `entries` and `exits` (NULL: none), each instant of
 * the process's time counts once, for the window that began first
 * (cover.h): `owners` (NULL: none, first come first served) tags each
 * window so that a window that began earlier can take over the parts
 * credited to one that began later, whatever the order batches are
 * reduced in (the covers' debit functions take them back).  A window is part of the
 * process's time in its interval: it ends at bound[j] at the latest (the
 * end of the interval's execution the instance was in, on this process;
 * NULL: no bound), whatever the other members' clocks say; what that cuts
 * off is counted in `cuts` (may be NULL). */
typedef struct {
    /* the owner tag of instance j's window (variation: its Time
     * variation's, else its Potential sync's); called only for windows
     * with a length that begin at `final_before` or later, after fine[j]
     * is set */
    uint64_t (*tag)(void *ctx, int j, int variation);
    void *ctx;
    /* windows that begin before it are MPP_COVER_FINAL: the caller knows
     * no window to come began before them (INT64_MIN: none) */
    int64_t final_before;
    /* [2n] scratch (with final_before): what no later window of the batch
     * nor any window to come begins before, per instance, so that windows
     * that end by then are credited without being kept */
    int64_t *reach;
} mpp_window_owners_t;
void mpp_instances_terms(int n, const int64_t *sent, const int64_t *max, const int64_t *bound, int64_t threshold,
                         int64_t fine_from, mpp_cover_t *entries, mpp_cover_t *exits, int64_t *potsync,
                         int64_t *variation, unsigned char *fine, mpp_window_cuts_t *cuts,
                         const mpp_window_owners_t *owners);
/* With `fine` (may be NULL), differences from fine_from to threshold count
 * too, and fine[j] says which of instance j's terms they are (the fine
 * part, kept apart: see MPP_WAIT_FINE below). */
enum { MPP_FINE_POTSYNC = 1, MPP_FINE_VARIATION = 2 };

/* Waits and differences of instants below MPI_Init's threshold (twice the
 * largest uncertainty of its clock alignment) count as 0.  When that
 * threshold is larger than MPP_WAIT_FINE seconds, those from MPP_WAIT_FINE
 * on are kept apart in each cell (table.h, the fine part): MPI_Finalize's
 * alignment may show that MPI_Init's offsets were better than their
 * uncertainty said (mpp_clock_init_error), and they count then.  A
 * threshold that stays above it is said in Warnings. */
#define MPP_WAIT_FINE 50e-6

/* Potential sync or Time variation term of one process in one collective
 * instance: max over members of the instant, less its own, or 0 below the
 * threshold. */
static inline int64_t mpp_sync_term(int64_t max, int64_t own, int64_t threshold)
{
    int64_t d = max - own;
    return d >= threshold && d > 0 ? d : 0;
}

/* Real sync of one event: min(duration, latest) when latest >= threshold. */
static inline int64_t mpp_late_sender_wait(int64_t duration, int64_t latest, int64_t threshold)
{
    if (latest < threshold || latest <= 0)
        return 0;
    return latest < duration ? latest : duration;
}

/* Clock offset by ping-pong: this process sent at t_send (own clock), the
 * peer answered with its clock t_peer, the answer came back at t_recv.  The
 * round trip with the smallest t_recv - t_send bounds the error best:
 * offset = t_peer - (t_send + t_recv) / 2 (add it to own ticks to get the
 * peer's), uncertainty = half that round trip.  Returns 0, -1 if n < 1. */
int mpp_clock_offset_estimate(const int64_t *t_send, const int64_t *t_peer, const int64_t *t_recv, int n,
                              int64_t *offset, int64_t *uncertainty);

/* How far an offset measured at MPI_Init (`init` +- `u_init` ticks, one
 * pair of processes) can be from the true one while the program ran, with
 * the same pair measured again at MPI_Finalize (`fin` +- `u_fin`).  On one
 * host the two read one clock (the TSC, or CLOCK_MONOTONIC): the true
 * offset stays the same, so the error is at most |init - fin| + u_fin, and
 * at most u_init.  On two hosts the clocks drift: the error changes
 * linearly over the run and ends as large as |init - fin| + u_fin, so it is
 * at most the larger of the two. */
int64_t mpp_clock_init_error(int64_t init, int64_t u_init, int64_t fin, int64_t u_fin, int same_host);

/* One clock offset from n measurements (offset[i] +- u[i] ticks, at
 * at[i]), as mpiprof-analyze(1) applies them: when every two agree within
 * their uncertainties (|offset[i] - offset[j]| <= u[i] + u[j]) a drift
 * cannot be told from their error, so the offset is one constant, their
 * mean weighted by 1/u^2 (u at least 1 tick): returns 1 and *constant.
 * Otherwise 0: the clocks drift, and the offsets are interpolated. */
int mpp_clock_offset_constant(const int64_t *offset, const double *u, int n, int64_t *constant);

/* A bound the messages of a trace put on two processes' clocks
 * (mpiprof-analyze(1)): a receive cannot complete before its send began,
 * so with shifts d (ticks added to every timestamp of a process),
 * d[to] - d[from] >= v, where v is the largest (send's entry on `from` -
 * completing call's exit on `to`) over their messages: positive, the
 * aligned clocks contradict the messages; negative, the slack the
 * shifts must not use up. */
typedef struct {
    int32_t from, to;
    int64_t v;
} mpp_clock_bound_t;

/* The shifts of n processes (movable[p] 0: its clock is exact, d[p] = 0)
 * that satisfy every bound, each as near 0 as the others allow: the least
 * solution of the difference constraints above the floors min(0, the
 * largest shift each may take), so that a process is moved later just as
 * far as its incoming messages demand, or earlier just as far as its
 * outgoing ones demand (longest paths by Bellman-Ford relaxation, at most
 * n + 1 rounds each).  0 and *d (all 0 when no bound is violated); -1
 * when the bounds contradict each other (a positive cycle, or an exact
 * clock that would have to move), -2 when memory ran out: d all 0. */
int mpp_clock_bounds(int n, const int *movable, const mpp_clock_bound_t *b, size_t nb, int64_t *d);

/* The warning, in both modes, of an alignment uncertain by more than
 * MPP_WAIT_FINE: `when` (MPI_Init, MPI_Finalize), how much (seconds), on
 * which rank, and what it means for the results (`consequence`).
 * Nothing when it is quieter. */
void mpp_clock_uncertain_warning(const char *when, double seconds, int rank, const char *consequence);

#endif
