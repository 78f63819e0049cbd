/* The communication matrix of a trace (matrix.h). */
#include <stdlib.h>
#include <string.h>

#include "accumulate/matrix.h"
#include "gen/function_table.h"
#include "replay/matrix.h"

/* The receive side of an MPI_Sendrecv call: its peer, found by (location,
 * call) while its send side is counted. */
typedef struct {
    uint32_t location, call;
    int32_t peer;
    int used; /* its send side split the time with it */
} sr_recv_t;

static int by_call(const void *a, const void *b)
{
    const sr_recv_t *x = a, *y = b;
    if (x->location != y->location)
        return x->location < y->location ? -1 : 1;
    return x->call < y->call ? -1 : x->call > y->call;
}

/* A call's duration in ticks (0 for a clock that went back). */
static uint64_t ticks_of(const rp_call_t *c) { return c->leave > c->enter ? (uint64_t)(c->leave - c->enter) : 0; }

static double tick_seconds; /* of the trace being counted: mpp_peer_table_pairs' conversion */
static double to_seconds(uint64_t ticks) { return (double)ticks * tick_seconds; }

typedef struct {
    const rp_trace_t *t;
    int first, end;
    mpp_peer_table_t *tables; /* [end - first] */
} counter_t;

/* The call of message m, its duration and its process's table (NULL: not
 * one of the counted processes). */
static mpp_peer_table_t *table_of(const counter_t *c, const rp_message_t *m, const rp_call_t **call, uint64_t *dt)
{
    const rp_location_t *loc = &c->t->locations[m->location];
    if (loc->process < c->first || loc->process >= c->end || m->call >= loc->ncalls)
        return NULL;
    *call = &loc->calls[m->call];
    *dt = ticks_of(*call);
    return &c->tables[loc->process - c->first];
}

/* How the matrix counts the call: by its function, as the wrappers do;
 * not at all for a paused call (MPI_Pcontrol(0)), which an mpiprof trace
 * records without an SRC point and the run does not count. */
static int role(const counter_t *c, const rp_call_t *call)
{
    if (c->t->from_mpiprof && !call->site)
        return MPP_FMATRIX_NONE;
    return call->fid < MPP_NFUNCTIONS ? mpp_functions[call->fid].matrix : MPP_FMATRIX_NONE;
}

/* The call of location `loc` that entered at `posted` (a nonblocking
 * receive's posting: its request's event has the call's entry time). */
static const rp_call_t *posting_call(const rp_location_t *loc, int64_t posted)
{
    size_t lo = 0, hi = loc->ncalls;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (loc->calls[mid].enter < posted)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < loc->ncalls && loc->calls[lo].enter == posted ? &loc->calls[lo] : NULL;
}

/* The receives: blocking ones, postings, and the receive sides of
 * MPI_Sendrecv (kept in *sr for their send sides). */
static int count_receives(const counter_t *c, sr_recv_t **sr, size_t *nsr)
{
    const rp_trace_t *t = c->t;
    size_t n = 0;
    *sr = malloc((t->nrecvs ? t->nrecvs : 1) * sizeof **sr);
    if (!*sr)
        return -1;
    for (size_t i = 0; i < t->nrecvs; i++) {
        const rp_message_t *m = &t->recvs[i];
        const rp_call_t *call;
        uint64_t dt;
        mpp_peer_table_t *table = table_of(c, m, &call, &dt);
        if (!table)
            continue;
        /* a receive that failed (MPI_ERR_TRUNCATE) counts as the wrappers
         * count it: not at all, but its posting succeeded */
        if (role(c, call) == MPP_FMATRIX_RECV) {
            if (!m->truncated)
                mpp_peer_add(table, m->peer, 0, 0, dt);
        } else if (role(c, call) == MPP_FMATRIX_SENDRECV) {
            if (m->truncated)
                continue;
            (*sr)[n++] = (sr_recv_t){m->location, m->call, m->peer, 0};
        } else { /* completed by a wait or test: the call that posted it */
            const rp_call_t *post = posting_call(&t->locations[m->location], m->posted);
            if (post && role(c, post) == MPP_FMATRIX_IRECV)
                mpp_peer_add(table, m->peer, 0, 0, ticks_of(post));
        }
    }
    qsort(*sr, n, sizeof **sr, by_call);
    *nsr = n;
    return 0;
}

/* The nonblocking receives never completed whose channel the trace
 * records (mpiprof::recv_*, with the checks on): their postings, to the
 * source they named. */
static void count_pending(const counter_t *c)
{
    const rp_trace_t *t = c->t;
    for (size_t i = 0; i < t->npending; i++) {
        const rp_pending_t *q = &t->pending[i];
        if (q->process < c->first || q->process >= c->end || q->source < 0)
            continue;
        const rp_process_t *p = &t->processes[q->process];
        for (int k = 0; k < p->nlocations; k++) {
            const rp_call_t *post = posting_call(&t->locations[p->locations[k]], q->posted);
            if (post && role(c, post) == MPP_FMATRIX_IRECV) {
                mpp_peer_add(&c->tables[q->process - c->first], q->source, 0, 0, ticks_of(post));
                break;
            }
        }
    }
}

/* The sends, MPI_Sendrecv's sharing its time with its receive side. */
static void count_sends(const counter_t *c, sr_recv_t *sr, size_t nsr)
{
    const rp_trace_t *t = c->t;
    for (size_t i = 0; i < t->nsends; i++) {
        const rp_message_t *m = &t->sends[i];
        const rp_call_t *call;
        uint64_t dt;
        mpp_peer_table_t *table = table_of(c, m, &call, &dt);
        if (!table || (role(c, call) != MPP_FMATRIX_SEND && role(c, call) != MPP_FMATRIX_SENDRECV))
            continue;
        sr_recv_t key = {m->location, m->call, 0, 0}, *other = NULL;
        if (role(c, call) == MPP_FMATRIX_SENDRECV)
            other = bsearch(&key, sr, nsr, sizeof *sr, by_call);
        uint64_t half = other ? dt / 2 : 0;
        mpp_peer_add(table, m->peer, 1, call->bytes_sent, dt - half);
        if (other) {
            mpp_peer_add(table, other->peer, 0, 0, half);
            other->used = 1;
        }
    }
    /* a receive side without a send side (sent to MPI_PROC_NULL): all of the time */
    for (size_t i = 0; i < nsr; i++) {
        if (sr[i].used)
            continue;
        const rp_location_t *loc = &t->locations[sr[i].location];
        const rp_call_t *call = &loc->calls[sr[i].call];
        mpp_peer_add(&c->tables[loc->process - c->first], sr[i].peer, 0, 0, ticks_of(call));
    }
}

int rp_matrix_pairs(const rp_trace_t *t, int first, int end, mpp_pair_t **out, int *n)
{
    *out = NULL, *n = 0;
    int count = end - first, bad = 0;
    if (count <= 0)
        return 0;
    counter_t c = {t, first, end, calloc((size_t)count, sizeof *c.tables)};
    for (int p = 0; c.tables && p < count; p++)
        bad |= mpp_peer_table_init(&c.tables[p], 16) != 0;
    sr_recv_t *sr = NULL;
    size_t nsr = 0;
    bad |= !c.tables || count_receives(&c, &sr, &nsr) != 0;
    if (!bad) {
        count_sends(&c, sr, nsr);
        count_pending(&c);
    }
    free(sr);
    tick_seconds = 1.0 / (double)t->resolution;
    size_t total = 0, cap = 0;
    for (int p = 0; !bad && p < count; p++) {
        bad |= c.tables[p].dropped > 0;
        int k;
        mpp_pair_t *mine = mpp_peer_table_pairs(&c.tables[p], t->processes[first + p].rank, to_seconds, &k);
        if (k && !mine)
            bad = 1;
        if (!bad && k) {
            if (total + (size_t)k > cap) {
                cap = (total + (size_t)k) * 2;
                mpp_pair_t *grown = realloc(*out, cap * sizeof *grown);
                bad = !grown;
                if (grown)
                    *out = grown;
            }
            if (!bad)
                memcpy(*out + total, mine, (size_t)k * sizeof *mine), total += (size_t)k;
        }
        free(mine);
    }
    for (int p = 0; c.tables && p < count; p++)
        mpp_peer_table_free(&c.tables[p]);
    free(c.tables);
    if (bad || total > (size_t)INT32_MAX) {
        free(*out);
        *out = NULL;
        return -1;
    }
    *n = (int)total;
    return 0;
}
