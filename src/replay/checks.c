/* The checks between processes from a trace's message events (replay.h):
 * where mpiprof's checks wrote what they need on each message event
 * (mpiprof::check_bytes, mpiprof::sig_*: mpiprof-trace(5)), a send and
 * the receive that took it, paired by rp_waits as the dynamic mode pairs
 * its send records with receives, get the same verdict in the same words
 * (check/msgcheck.h), reported by the receiving process at its receive's
 * SRC point with the send's call as the other side.  Occurrences fold into
 * one entry per process, kind and SRC point, as the dynamic mode's store
 * folds them (check/findings.h), its details the first occurrence's. */
#include <stdlib.h>
#include <string.h>

#include "check/finding_list.h"
#include "check/msgcheck.h"
#include "check/msgpair.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "replay/replay.h"
#include "util/srckey.h"

struct rp_derived {
    int process, kind;
    int one_frame;       /* src names its function and innermost frame alone (a send's, nonpaired-send) */
    uint32_t src, other; /* the trace's strings (RP_NO_STRING: none) */
    int64_t at;          /* the first occurrence: when its receive completed */
    int32_t peer;
    uint64_t count;
    char detail[MPP_FINDING_DETAIL];
};

int rp_derives(const rp_trace_t *t, int kind)
{
    if (kind == MPP_FIND_COLLECTIVE_MISMATCH || kind == MPP_FIND_DIFFERENT_ROOTS ||
        kind == MPP_FIND_DIFFERENT_REDUCTIONS || kind == MPP_FIND_COLLECTIVE_SIZE ||
        kind == MPP_FIND_COLLECTIVE_DATATYPE)
        return t->derived_coll;
    return t->derived_level > 0 &&
           (kind == MPP_FIND_WRONG_SEND_SIZE || kind == MPP_FIND_INCORRECT_SEND_SIZE ||
            kind == MPP_FIND_WRONG_DATATYPE || kind == MPP_FIND_NONPAIRED_SEND || kind == MPP_FIND_NONPAIRED_RECV);
}

static void add(rp_trace_t *t, const struct rp_derived *d)
{
    for (size_t i = 0; i < t->nderived; i++) { /* few: one per SRC point and kind */
        struct rp_derived *e = &t->derived[i];
        if (e->process != d->process || e->kind != d->kind || e->src != d->src || e->one_frame != d->one_frame)
            continue;
        uint64_t count = e->count + 1;
        if (d->at < e->at) /* pairs come by channel, not in time: the first keeps its details */
            *e = *d;
        e->count = count;
        return;
    }
    if (mpp_grow((void **)&t->derived, &t->derived_cap, t->nderived + 1, sizeof *t->derived, 16) == 0)
        t->derived[t->nderived++] = *d;
}

void rp_check_pair(rp_trace_t *t, const rp_message_t *send, const rp_message_t *recv)
{
    /* a receive without an SRC point: a paused call, which the dynamic mode does not check either */
    if (!send->check_level || !recv->check_level || recv->src == RP_NO_STRING)
        return;
    mpp_msg_side_t sent = {send->check_bytes, send->sig}, into = {recv->check_bytes, recv->sig};
    mpp_msg_verdict_t v[MPP_MSG_VERDICTS];
    int n = mpp_msg_verdicts(&sent, &into, recv->tag, recv->check_level >= MPP_CHECK_FULL, v);
    const rp_location_t *loc = &t->locations[recv->location];
    for (int i = 0; i < n; i++) {
        struct rp_derived d = {.process = loc->process,
                               .kind = v[i].kind,
                               .src = recv->src,
                               .other = send->src,
                               .at = loc->calls[recv->call].leave,
                               .peer = recv->peer,
                               .count = 1};
        memcpy(d.detail, v[i].detail, sizeof d.detail);
        add(t, &d);
    }
}

/* Whether a collective kind at the SRC key `src` stays the carried
 * finding: a persistent collective's start, whose instances the dynamic
 * mode matches by request (MPICH's order of persistent collectives), not
 * by their order on the communicator, as the replay does. */
static int carried_collective(int kind, const char *src)
{
    if (kind < MPP_FIND_COLLECTIVE_MISMATCH || kind > MPP_FIND_COLLECTIVE_DATATYPE)
        return 0;
    size_t n = strcspn(src, (const char[]){MPP_RS, 0});
    return (n == 9 && !strncmp(src, "MPI_Start", 9)) || (n == 12 && !strncmp(src, "MPI_Startall", 12));
}

static const char *function_name(int64_t fid)
{
    return fid >= 0 && fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "an unknown operation";
}

void rp_check_collective(rp_trace_t *t, const rp_collective_t *c, const int64_t *max)
{
    if (!c->has_cc || c->src >= t->nstrings || !t->strings[c->src]) /* no values, or a paused call's */
        return;
    if (carried_collective(MPP_FIND_COLLECTIVE_MISMATCH, t->strings[c->src]))
        return;
    mpp_cc_values_t own, all;
    int kinds[MPP_CC_NVALUES], which[MPP_CC_NVALUES];
    mpp_cc_from_rows(c->cc, 1, MPP_CC_NVALUES, &own);
    mpp_cc_from_rows(max, 1, MPP_CC_NVALUES, &all);
    int n = mpp_cc_verdicts(&own, &all, MPP_CC_NVALUES, kinds, which);
    const rp_location_t *loc = &t->locations[c->location];
    for (int i = 0; i < n; i++) {
        struct rp_derived d = {.process = loc->process,
                               .kind = kinds[i],
                               .src = c->src,
                               .other = RP_NO_STRING,
                               .at = loc->calls[c->end_call].leave,
                               .peer = -1,
                               .count = 1};
        mpp_cc_describe(which[i], &own, &all, function_name, d.detail, 200); /* as long as the dynamic mode's */
        add(t, &d);
    }
}

/* The other side as the dynamic mode names it: the send's function and
 * the frames of its innermost return address (malloc'd), NULL when not
 * known. */
static char *other_of(const rp_trace_t *t, uint32_t ref)
{
    const char *key = ref < t->nstrings ? t->strings[ref] : NULL;
    const char *frame = key ? strchr(key, MPP_RS) : NULL;
    if (!frame)
        return NULL;
    return strndup(key, (size_t)(mpp_srckey_address_end(frame + 1) - key));
}

/* Whether process p reached MPI_Finalize (the dynamic mode reports what
 * is left there). */
static int finalized(const rp_trace_t *t, int p)
{
    return p >= 0 && p < t->nprocesses && t->processes[p].nlocations > 0 &&
           t->locations[t->processes[p].locations[0]].finalize_enter >= 0;
}

static int by_posting(const void *a, const void *b)
{
    const rp_pending_t *x = a, *y = b;
    if (x->process != y->process)
        return x->process < y->process ? -1 : 1;
    if (x->posted != y->posted)
        return x->posted < y->posted ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void rp_check_leftovers(rp_trace_t *t, const rp_message_t *const *unmatched, size_t n)
{
    char *taken = calloc(n ? n : 1, 1);
    if (!taken)
        return;
    if (t->npending > 1)
        qsort(t->pending, t->npending, sizeof *t->pending, by_posting);
    for (size_t i = 0; i < t->npending; i++) {
        const rp_pending_t *q = &t->pending[i];
        if (!finalized(t, q->process) || q->src == RP_NO_STRING)
            continue;
        size_t k = 0;
        for (; k < n; k++) { /* the first message left that it could have taken */
            const rp_message_t *s = unmatched[k];
            int32_t sender = t->locations[s->location].process;
            if (!taken[k] && s->peer == q->process && s->comm == q->comm &&
                (q->source == MPP_MSG_ANY || q->source == sender) && (q->tag == MPP_MSG_ANY || q->tag == s->tag))
                break;
        }
        if (k < n) {
            taken[k] = 1; /* an unfinished-recv, which the trace carries */
            continue;
        }
        struct rp_derived d = {.process = q->process,
                               .kind = MPP_FIND_NONPAIRED_RECV,
                               .src = q->src,
                               .other = RP_NO_STRING,
                               .at = q->posted,
                               .peer = q->source == MPP_MSG_ANY ? -1 : q->source,
                               .count = 1};
        mpp_msg_nonpaired_recv(q->source, q->tag, d.detail, sizeof d.detail);
        add(t, &d);
    }
    for (size_t k = 0; k < n; k++) {
        const rp_message_t *s = unmatched[k];
        int32_t sender = t->locations[s->location].process;
        if (taken[k] || !s->check_level || s->src == RP_NO_STRING || !finalized(t, s->peer))
            continue;
        struct rp_derived d = {.process = s->peer,
                               .kind = MPP_FIND_NONPAIRED_SEND,
                               .one_frame = 1,
                               .src = s->src,
                               .other = RP_NO_STRING,
                               .at = s->posted,
                               .peer = sender,
                               .count = 1};
        mpp_msg_nonpaired_send(s->check_bytes, s->tag, sender, d.detail, sizeof d.detail);
        add(t, &d);
    }
    free(taken);
}

int rp_check_findings(const rp_trace_t *t, int p, size_t max, mpp_finding_list_t *f)
{
    if (!t->derived_level && !t->derived_coll)
        return 0;
    if (f->level <= 0) /* none carried (an older mpiprof's trace, its findings renamed) */
        f->level = t->derived_level ? t->derived_level : MPP_CHECK_BASIC;
    int kept = 0;
    for (int i = 0; i < f->n; i++) { /* the carried ones of the kinds made here go */
        mpp_finding_record_t *r = &f->items[i];
        if (rp_derives(t, r->kind) && !carried_collective(r->kind, r->src)) {
            free(r->src), free(r->other), free(r->detail);
            continue;
        }
        f->items[kept++] = *r;
    }
    f->n = kept;
    for (size_t i = 0; i < t->nderived; i++) {
        const struct rp_derived *d = &t->derived[i];
        const char *key = d->src < t->nstrings ? t->strings[d->src] : NULL;
        if (d->process != p || !key)
            continue;
        char *src = d->one_frame ? other_of(t, d->src) : (char *)key;
        if (!src)
            return -1;
        if (max && (size_t)f->n >= max) {
            f->dropped += d->count;
            if (src != key)
                free(src);
            continue;
        }
        mpp_finding_record_t r = {.kind = d->kind,
                                  .severity = mpp_finding_kinds[d->kind].severity,
                                  .src = (char *)src,
                                  .other = other_of(t, d->other),
                                  .count = d->count,
                                  .first_rank = t->processes[p].rank,
                                  .last_rank = t->processes[p].rank,
                                  .nprocs = 1,
                                  .peer = d->peer,
                                  .detail = (char *)d->detail};
        int rc = mpp_finding_list_add(f, &r);
        free(r.other);
        if (src != key)
            free(src);
        if (rc != 0)
            return -1;
    }
    return 0;
}
