/* Wait states of a trace, exactly from its events (replay.h), by the
 * definitions the dynamic mode approximates (characteristics.md) and with
 * its arithmetic (waitstates.h, cover.h), but with every instant known:
 *   Real sync: messages of one channel (communicator, sender, receiver,
 *     tag) are non-overtaking, so the n-th send on a channel, in the order
 *     the sends were made, is received by the n-th receive, in the order
 *     the receives were posted; each receiving call gets
 *     min(its SendRecv time, max over its messages of (send entry - its
 *     entry)), its SendRecv time its duration, or a wait's share of it for
 *     the point-to-point requests it completed (rp_split_time: the
 *     dynamic mode's cap, Real sync <= SendRecv);
 *   Potential sync and Time variation: the k-th collective a process
 *     begins on a communicator is instance k there on every member; each
 *     member gets max entry - its entry and max exit - its exit, each
 *     instant of its time line counted once (its covers, in entry order).
 * The results go into the calls' wait[] in ticks, where the replay adds
 * them to their cells as the dynamic mode's batches do.  Under mpiexec a
 * reader holds a share of the processes: the sends to its receivers from
 * every share (share_mpi.c), and each instance's maxima over all members
 * from the combine step; the arithmetic is the same. */
#include <stdlib.h>
#include <string.h>

#include "accumulate/intervals.h"
#include "accumulate/waitstates/cover.h"
#include "accumulate/waitstates/waitstates.h"
#include "replay/replay.h"

static const rp_trace_t *sorting; /* qsort has no context argument */

static int receiver_of(const rp_message_t *m, int send)
{
    return send ? m->peer : sorting->locations[m->location].process;
}

static int sender_of(const rp_message_t *m, int send)
{
    return send ? sorting->locations[m->location].process : m->peer;
}

#define CMP(a, b)                      \
    do {                               \
        if ((a) != (b))                \
            return (a) < (b) ? -1 : 1; \
    } while (0)

static int by_channel(const rp_message_t *a, const rp_message_t *b, int send)
{
    CMP(a->comm, b->comm);
    CMP(sender_of(a, send), sender_of(b, send));
    CMP(receiver_of(a, send), receiver_of(b, send));
    CMP(a->tag, b->tag);
    CMP(a->posted, b->posted);
    CMP(a->location, b->location);
    CMP(a->call, b->call);
    return 0;
}

static int sends_by_channel(const void *a, const void *b) { return by_channel(a, b, 1); }
static int recvs_by_channel(const void *a, const void *b) { return by_channel(a, b, 0); }

/* The order of two channels, a send's and a receive's. */
static int channel_order(const rp_message_t *send, const rp_message_t *recv)
{
    CMP(send->comm, recv->comm);
    CMP(sender_of(send, 1), sender_of(recv, 0));
    CMP(receiver_of(send, 1), receiver_of(recv, 0));
    CMP(send->tag, recv->tag);
    return 0;
}

/* The sends and receives sorted by channel and paired in order (the n-th
 * send of a channel with its n-th receive): fn for each pair, for each
 * send no receive took (recv NULL) and each receive of no send (send
 * NULL).  Real sync and the clocks' bounds pair alike. */
typedef void (*pair_fn)(void *ctx, rp_trace_t *t, const rp_message_t *send, const rp_message_t *recv);

static void each_pair(rp_trace_t *t, pair_fn fn, void *ctx)
{
    sorting = t;
    if (t->nsends > 1) /* (no sends: NULL, which qsort may not take) */
        qsort(t->sends, t->nsends, sizeof *t->sends, sends_by_channel);
    if (t->nrecvs > 1)
        qsort(t->recvs, t->nrecvs, sizeof *t->recvs, recvs_by_channel);
    for (size_t s = 0, r = 0; s < t->nsends || r < t->nrecvs;) {
        int order = s == t->nsends ? 1 : r == t->nrecvs ? -1 : channel_order(&t->sends[s], &t->recvs[r]);
        fn(ctx, t, order <= 0 ? &t->sends[s] : NULL, order >= 0 ? &t->recvs[r] : NULL);
        s += order <= 0;
        r += order >= 0;
    }
}

struct leftovers {
    const rp_message_t **left; /* the sends no receive took, for the checks (no memory: none checked) */
    size_t n;
};

/* Real sync's pairing: the latest (send entry - receive entry) of each
 * receiving call, kept in its wait[] until all its messages are paired. */
static void latest_send(void *ctx, rp_trace_t *t, const rp_message_t *send, const rp_message_t *recv)
{
    struct leftovers *l = ctx;
    if (!recv) {
        if (l->left)
            l->left[l->n++] = send;
        t->unmatched_sends++;
        return;
    }
    if (!send) {
        t->unmatched_receives++;
        return;
    }
    rp_check_pair(t, send, recv);
    rp_call_t *call = &t->locations[recv->location].calls[recv->call];
    if (recv->truncated || send->truncated) /* the dynamic mode's wait states do not count it */
        return;
    int64_t late = send->posted - call->enter;
    if (late > call->wait[MPP_WAIT_REALSYNC])
        call->wait[MPP_WAIT_REALSYNC] = late;
}

static void real_sync(rp_trace_t *t)
{
    for (int l = 0; l < t->nlocations; l++)
        for (size_t c = 0; c < t->locations[l].ncalls; c++)
            t->locations[l].calls[c].wait[MPP_WAIT_REALSYNC] = INT64_MIN;
    struct leftovers lo = {malloc((t->nsends ? t->nsends : 1) * sizeof *lo.left), 0};
    each_pair(t, latest_send, &lo);
    if (lo.left)
        rp_check_leftovers(t, lo.left, lo.n);
    free(lo.left);
    for (int l = 0; l < t->nlocations; l++)
        for (size_t c = 0; c < t->locations[l].ncalls; c++) {
            rp_call_t *call = &t->locations[l].calls[c];
            int64_t latest = call->wait[MPP_WAIT_REALSYNC];
            call->wait[MPP_WAIT_REALSYNC] = 0;
            if (latest == INT64_MIN) /* no message it waited for */
                continue;
            uint64_t share[MPP_NCAT];
            rp_split_time(call, call->leave > call->enter ? (uint64_t)(call->leave - call->enter) : 0, share);
            call->wait[MPP_WAIT_REALSYNC] = mpp_late_sender_wait((int64_t)share[MPP_CAT_SENDRECV], latest, 0);
        }
}

/* The bounds the messages put on their processes' clocks (replay.h):
 * paired as real_sync pairs them, one per ordered pair of processes, the
 * largest (send entry - completing call's exit) of their messages. */
static int by_pair(const void *x, const void *y)
{
    const mpp_clock_bound_t *a = x, *b = y;
    CMP(a->from, b->from);
    CMP(a->to, b->to);
    return 0;
}

struct bounds {
    mpp_clock_bound_t *b;
    size_t n;
};

static void bound_of(void *ctx, rp_trace_t *t, const rp_message_t *send, const rp_message_t *recv)
{
    struct bounds *bs = ctx;
    if (!send || !recv)
        return;
    int from = sender_of(send, 1), to = receiver_of(recv, 0);
    if (from == to || from < 0 || to < 0)
        return; /* one clock */
    bs->b[bs->n++] =
        (mpp_clock_bound_t){from, to, send->posted - t->locations[recv->location].calls[recv->call].leave};
}

int rp_message_bounds(rp_trace_t *t, mpp_clock_bound_t **out, size_t *nout)
{
    size_t room = t->nsends < t->nrecvs ? t->nsends : t->nrecvs;
    struct bounds bs = {malloc((room ? room : 1) * sizeof *bs.b), 0};
    if (!bs.b)
        return -1;
    each_pair(t, bound_of, &bs);
    mpp_clock_bound_t *b = bs.b;
    size_t n = bs.n;
    if (n > 1)
        qsort(b, n, sizeof *b, by_pair);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (k && !by_pair(&b[k - 1], &b[i])) {
            if (b[i].v > b[k - 1].v)
                b[k - 1].v = b[i].v;
        } else {
            b[k++] = b[i];
        }
    }
    *out = b;
    *nout = k;
    return 0;
}

/* A collective instance of one member: its place on its communicator. */
typedef struct {
    const rp_collective_t *c;
    int process;
    int64_t entry, exit;
    uint64_t k; /* instance number on its communicator */
} member_t;

static int by_comm_process_entry(const void *x, const void *y)
{
    const member_t *a = x, *b = y;
    CMP(a->c->comm, b->c->comm);
    CMP(a->process, b->process);
    CMP(a->entry, b->entry);
    CMP(a->c->location, b->c->location);
    CMP(a->c->begin_call, b->c->begin_call);
    return 0;
}

static int by_process_entry(const void *x, const void *y)
{
    const member_t *a = x, *b = y;
    CMP(a->process, b->process);
    CMP(a->entry, b->entry);
    CMP(a->c->comm, b->c->comm);
    CMP(a->k, b->k);
    return 0;
}

/* The instances of this reader's members, one per (communicator, k), in
 * that order, with what its members say of it (waits.c's maxima); base[c]
 * is communicator c's first.  -1 when memory ran out. */
static int local_instances(const rp_trace_t *t, const member_t *m, size_t n, uint64_t *base, rp_instance_t **out,
                           size_t *nout)
{
    uint64_t *count = calloc(t->ncomms ? t->ncomms : 1, sizeof *count);
    int64_t *members = calloc(t->ncomms ? t->ncomms : 1, sizeof *members);
    if (!count || !members) {
        free(count), free(members);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t comm = m[i].c->comm;
        if (m[i].k + 1 > count[comm])
            count[comm] = m[i].k + 1;
        if (!m[i].k)
            members[comm]++;
    }
    uint64_t ninstances = 0;
    for (uint32_t c = 0; c < t->ncomms; c++)
        base[c] = ninstances, ninstances += count[c];
    rp_instance_t *in = malloc((ninstances ? ninstances : 1) * sizeof *in);
    if (!in) {
        free(count), free(members);
        return -1;
    }
    for (uint32_t c = 0; c < t->ncomms; c++)
        for (uint64_t k = 0; k < count[c]; k++) {
            rp_instance_t *x = &in[base[c] + k];
            *x = (rp_instance_t){c, k, {0}, 0, members[c]};
            for (int j = 0; j < RP_INSTANCE_MAX; j++)
                x->max[j] = INT64_MIN;
        }
    for (size_t i = 0; i < n; i++) {
        rp_instance_t *x = &in[base[m[i].c->comm] + m[i].k];
        int64_t terms[3] = {m[i].entry, m[i].exit, -m[i].exit};
        for (int j = 0; j < 3; j++)
            if (terms[j] > x->max[j])
                x->max[j] = terms[j];
        for (int j = 0; m[i].c->has_cc && j < 2 * MPP_CC_NVALUES; j++) /* the checks' values (checks.c) */
            if (m[i].c->cc[j] > x->max[3 + j])
                x->max[3 + j] = m[i].c->cc[j];
        x->seen++;
    }
    free(count), free(members);
    *out = in;
    *nout = ninstances;
    return 0;
}

/* Where a member's windows end at the latest: the end of the interval
 * execution its beginning call counted in, on its process (the interval
 * stage holds that process's, rp_intervals). */
static int64_t window_bound(const member_t *m)
{
    const rp_location_t *loc = &sorting->locations[m->c->location];
    uint64_t end;
    int64_t leave = loc->calls[m->c->begin_call].leave;
    mpp_interval_place_t place = mpp_interval_place_at(leave > 0 ? (uint64_t)leave : 0);
    return mpp_interval_end_of(place, &end) > 0 ? (int64_t)end : INT64_MAX;
}

/* The cover's owners are the calls' wait slots: a window that began
 * earlier takes over a part credited to a later one (cover.h).  Windows
 * come here in the order of their instances' entries, which is the order
 * their Potential sync windows begin in, not always that of their Time
 * variation windows (nonblocking collectives completed out of order). */
static void debit_slot(void *ctx, uint64_t owner, int64_t ticks)
{
    (void)ctx;
    *(int64_t *)(uintptr_t)owner -= ticks;
}

static uint64_t slot_of(void *ctx, int j, int variation)
{
    (void)j;
    return (uint64_t)(uintptr_t) & ((int64_t *)ctx)[variation ? MPP_WAIT_VARIATION : MPP_WAIT_POTSYNC];
}

static int collective_waits(rp_trace_t *t, rp_combine_fn combine, void *ctx, int max_intervals, int max_nesting)
{
    size_t n = t->ncollectives, ninstances = 0;
    member_t *m = calloc(n ? n : 1, sizeof *m);
    uint64_t *base = calloc(t->ncomms ? t->ncomms : 1, sizeof *base);
    rp_instance_t *in = NULL;
    mpp_cover_t *covers = malloc(2 * sizeof *covers);
    int rc = m && base && covers ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const rp_collective_t *c = &t->collectives[i];
        const rp_location_t *loc = &t->locations[c->location];
        m[i] = (member_t){c, loc->process, loc->calls[c->begin_call].enter, loc->calls[c->end_call].leave, 0};
    }
    if (rc == 0 && n > 1)
        qsort(m, n, sizeof *m, by_comm_process_entry);
    /* instance numbers: the k-th a process begins on a communicator */
    for (size_t i = 0; rc == 0 && i < n; i++) {
        int first = !i || m[i].c->comm != m[i - 1].c->comm || m[i].process != m[i - 1].process;
        m[i].k = first ? 0 : m[i - 1].k + 1;
    }
    if (rc == 0)
        rc = local_instances(t, m, n, base, &in, &ninstances);
    /* the other members' instants, where they are another reader's */
    if (combine && combine(in, rc == 0 ? ninstances : 0, rc, ctx) != 0)
        rc = -1;
    if (rc != 0) {
        t->unmatched_collectives += n;
        free(m), free(base), free(in), free(covers);
        return -1;
    }
    if (n > 1)
        qsort(m, n, sizeof *m, by_process_entry);
    sorting = t;
    int bounded = 0;
    for (size_t i = 0; i < n; i++) {
        if (!i || m[i].process != m[i - 1].process) {
            mpp_cover_reset(&covers[0]), mpp_cover_reset(&covers[1]);
            mpp_cover_set_debit(&covers[0], debit_slot, NULL, NULL);
            mpp_cover_set_debit(&covers[1], debit_slot, NULL, NULL);
            bounded = rp_intervals(t, m[i].process, max_intervals, max_nesting) == 0;
        }
        uint32_t comm = m[i].c->comm;
        const rp_instance_t *x = &in[base[comm] + m[i].k];
        if (t->comms[comm].world[0] == -1)
            continue; /* MPI_COMM_SELF: nobody to wait for */
        /* an instance some member of the communicator never reached (a
         * collective the trace lost, or one of a member that died) */
        if (x->seen < x->members || x->seen < (int64_t)t->comms[comm].size) {
            t->unmatched_collectives++;
            continue;
        }
        rp_check_collective(t, m[i].c, x->max + 3);
        int64_t sent[3] = {m[i].entry, m[i].exit, -m[i].exit};
        int64_t pot = 0, var = 0, bound = bounded ? window_bound(&m[i]) : INT64_MAX;
        rp_location_t *loc = &t->locations[m[i].c->location];
        mpp_window_owners_t owners = {slot_of, loc->calls[m[i].c->begin_call].wait, INT64_MIN, NULL};
        mpp_instances_terms(1, sent, x->max, &bound, 0, 0, &covers[0], &covers[1], &pot, &var, NULL, NULL, &owners);
        loc->calls[m[i].c->begin_call].wait[MPP_WAIT_POTSYNC] += pot;
        loc->calls[m[i].c->begin_call].wait[MPP_WAIT_VARIATION] += var > 0 ? var : 0;
    }
    free(m), free(base), free(in), free(covers);
    return 0;
}

int rp_waits(rp_trace_t *t, rp_combine_fn combine, void *ctx, int max_intervals, int max_nesting)
{
    real_sync(t);
    return collective_waits(t, combine, ctx, max_intervals, max_nesting);
}
