/* Trace mode's hot path: each thread writes the events of its MPI calls and
 * marks to its own OTF2 event writer (its location).  Its tables (call
 * sites, user regions, communicators, requests in flight) grow only when
 * something new appears; events reuse them.  Nothing here takes a lock but
 * a thread's first event, which registers it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "accumulate/table.h"
#include "attribute/requests.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "intercept/check/collectives.h"
#include "intercept/check/messages.h"
#include "intercept/check/run.h"
#include "intercept/check/signatures.h"
#include "intercept/comms.h"
#include "intercept/trace_hooks.h"
#include "intercept/waitstates/hooks.h"
#include "trace/trace_local.h"

static void lost(trace_thread_t *t)
{
    __atomic_fetch_add(&mpp_trace_errors, 1, __ATOMIC_RELAXED);
    (void)t;
}

/* A location's events never go back in time (a mark read the clock after
 * a call whose events are written later, MPI_THREAD_MULTIPLE's calls). */
static inline uint64_t at(trace_thread_t *t, uint64_t time)
{
    if (time < t->last_time)
        time = t->last_time;
    t->last_time = time;
    return time;
}

/* The local string id of the call's SRC point (its cell's function and
 * frames), UINT32_MAX when it has none. */
static uint32_t site_of(trace_thread_t *t, const mpp_call_t *c, int depth)
{
    const mpp_cell_t *cell = c->cell;
    return cell ? mpp_trace_site(t, cell->fid, cell->frames, depth) : UINT32_MAX;
}

void mpp_trace_enter(mpp_call_t *c)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t)
        return;
    const mpp_thread_t *owner = c->thread;
    uint32_t site = site_of(t, c, owner ? owner->table.depth : 0);
    if (site != UINT32_MAX)
        OTF2_AttributeList_AddStringRef(t->attributes, TRACE_ATTR_SRC, site);
    if (OTF2_EvtWriter_Enter(t->writer, t->attributes, at(t, c->t0), c->fid) != OTF2_SUCCESS)
        lost(t);
    t->call_sent = t->call_recv = 0;
    t->probe_found = 0;
}

static uint64_t positive(int64_t bytes) { return (uint64_t)(bytes > 0 ? bytes : 0); }

void mpp_trace_leave(mpp_call_t *c, int64_t sent, int64_t received)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t)
        return;
    /* the protocol's bytes, where the events do not give them (trace_local.h) */
    OTF2_AttributeList *attributes = NULL;
    if (positive(sent) != t->call_sent || positive(received) != t->call_recv) {
        attributes = t->attributes;
        OTF2_AttributeList_AddUint64(attributes, TRACE_ATTR_BYTES_SENT, positive(sent));
        OTF2_AttributeList_AddUint64(attributes, TRACE_ATTR_BYTES_RECV, positive(received));
    }
    if (t->probe_found) {
        attributes = t->attributes;
        OTF2_AttributeList_AddUint8(attributes, TRACE_ATTR_PROBE_FOUND, 1);
    }
    if (c->by_kind_used && c->by_kind[MPP_CAT_IO]) { /* its time's share of I/O (the dynamic mode's split) */
        attributes = t->attributes;
        OTF2_AttributeList_AddUint32(attributes, TRACE_ATTR_IO_DONE, c->by_kind[MPP_CAT_IO]);
    }
    if (OTF2_EvtWriter_Leave(t->writer, attributes, at(t, c->t1), c->fid) != OTF2_SUCCESS)
        lost(t);
}

/* Members of a communicator as MPI_COMM_WORLD ranks (local queries only). */
static int *members_of(MPI_Comm comm, int *size)
{
    int inter = 0, n = 0;
    MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
    PMPI_Comm_test_inter(comm, &inter);
    PMPI_Comm_group(comm, &group); /* the local group, also of an intercommunicator */
    PMPI_Group_size(group, &n);
    PMPI_Comm_group(mpp_world(), &world);
    int *ranks = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *ranks);
    if (ranks) {
        for (int r = 0; r < n; r++)
            ranks[r] = r;
        PMPI_Group_translate_ranks(group, n, ranks, world, ranks + n);
        memmove(ranks, ranks + n, (size_t)n * sizeof *ranks);
    }
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
    *size = n;
    (void)inter;
    return ranks;
}

/* The local reference of a communicator: by handle and, with the
 * wait-state analysis on, its id (a freed handle MPI gives again is then
 * another communicator). */
static uint32_t comm_ref(trace_thread_t *t, MPI_Comm comm)
{
    uint64_t id = 0;
    if (mpp_ws_on) {
        const mpp_comm_t *e = mpp_comm_get(comm);
        id = e ? e->id : 0;
    }
    if (t->last_comm < t->ncomms && t->comms[t->last_comm].handle == comm && t->comms[t->last_comm].id == id)
        return t->last_comm;
    for (size_t i = 0; i < t->ncomms; i++)
        if (t->comms[i].handle == comm && t->comms[i].id == id)
            return t->last_comm = (uint32_t)i;
    if (mpp_grow((void **)&t->comms, &t->comms_capacity, t->ncomms + 1, sizeof *t->comms, 16) != 0)
        return UINT32_MAX;
    trace_comm_t *n = &t->comms[t->ncomms];
    n->handle = comm;
    n->id = id;
    n->members = members_of(comm, &n->size);
    if (!n->members)
        return UINT32_MAX;
    return t->last_comm = (uint32_t)t->ncomms++;
}

/* What the checks between processes need of a message (trace_local.h),
 * with the checks on: count x type's bytes and, at full, its signature
 * (kept with the type: no MPI call for one seen before). */
static trace_check_t check_of(int64_t count, MPI_Datatype type)
{
    trace_check_t k = {mpp_check_level & MPP_CHECK_LEVEL, -1, {0, 0, -2}};
    if (MPP_LIKELY(!k.level))
        return k;
    int64_t size = mpp_type_size_known(type);
    k.bytes = size < 0 ? -1 : count * size;
    if (k.level >= MPP_CHECK_FULL)
        k.sig = mpp_chk_signature(type, count).sig;
    return k;
}

/* The list with a message's check attributes (list: NULL, or the thread's
 * with others already), NULL when there are none. */
static OTF2_AttributeList *checked(trace_thread_t *t, OTF2_AttributeList *list, const trace_check_t *k)
{
    if (MPP_LIKELY(!k->level))
        return list;
    OTF2_AttributeList_AddInt64(t->attributes, TRACE_ATTR_CHECK_BYTES, k->bytes);
    if (k->level >= MPP_CHECK_FULL) {
        OTF2_AttributeList_AddUint64(t->attributes, TRACE_ATTR_SIG_HASH, k->sig.hash);
        OTF2_AttributeList_AddUint64(t->attributes, TRACE_ATTR_SIG_LENGTH, k->sig.length);
        OTF2_AttributeList_AddInt32(t->attributes, TRACE_ATTR_SIG_BASIC, k->sig.basic);
    }
    return t->attributes;
}

/* The list with a receive request's channel as posted (trace_local.h),
 * where the checks are on: a receive still pending at the end is paired
 * with what was sent to it (nonpaired-send, nonpaired-recv). */
static OTF2_AttributeList *posted_on(trace_thread_t *t, const trace_request_t *r)
{
    if (MPP_LIKELY(!r->check.level) || r->comm == UINT32_MAX)
        return NULL;
    OTF2_AttributeList_AddCommRef(t->attributes, TRACE_ATTR_RECV_COMM, r->comm);
    OTF2_AttributeList_AddInt32(t->attributes, TRACE_ATTR_RECV_SOURCE, r->source >= 0 ? r->source : -1);
    OTF2_AttributeList_AddInt32(t->attributes, TRACE_ATTR_RECV_TAG, r->tag >= 0 ? r->tag : -1);
    return t->attributes;
}

/* The list with a collective member's values (trace_local.h), NULL when
 * it gave none. */
static OTF2_AttributeList *with_cc(trace_thread_t *t, int has, const int64_t *rows)
{
    if (MPP_LIKELY(!has))
        return NULL;
    for (int k = 0; k < TRACE_CC_ROWS; k++)
        OTF2_AttributeList_AddInt64(t->attributes, TRACE_ATTR_CC_ROWS + (uint32_t)k, rows[k]);
    return t->attributes;
}

/* The request table's key (requests.h), as completions find it in their
 * mpp_reqset_t: the handle's key and the serial above its bits; 0 when the
 * call created no request (new_serial is then not set at all). */
static uint64_t request_id(const mpp_call_t *c)
{
    return c->new_request && c->new_serial ? mpp_request_pack(c->new_request, c->new_serial) : 0;
}

static void remember(trace_thread_t *t, uint64_t id, trace_request_t request)
{
    if (!id)
        return;
    int inserted = 0;
    trace_request_t *r = mpp_handlemap_put(&t->requests, id, &inserted);
    if (!r) {
        lost(t);
        return;
    }
    *r = request;
}

void mpp_trace_send(mpp_call_t *c, MPI_Comm comm, int dest, int tag, int64_t bytes, int nonblocking, int64_t count,
                    MPI_Datatype type)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t || dest == MPI_PROC_NULL)
        return;
    uint32_t ref = comm_ref(t, comm);
    if (ref == UINT32_MAX) {
        lost(t);
        return;
    }
    uint64_t n = (uint64_t)(bytes > 0 ? bytes : 0);
    OTF2_ErrorCode rc;
    uint64_t id = nonblocking ? request_id(c) : 0;
    trace_check_t k = check_of(count, type);
    OTF2_AttributeList *attributes = checked(t, NULL, &k);
    if (nonblocking) { /* an untracked request (id 0) never completes in the trace */
        rc = OTF2_EvtWriter_MpiIsend(t->writer, attributes, at(t, c->t0), (uint32_t)dest, ref, (uint32_t)tag, n, id);
        remember(t, id, (trace_request_t){.kind = TRACE_REQ_SEND, .comm = ref, .bytes = n});
    } else {
        rc = OTF2_EvtWriter_MpiSend(t->writer, attributes, at(t, c->t0), (uint32_t)dest, ref, (uint32_t)tag, n);
    }
    if (rc != OTF2_SUCCESS)
        lost(t);
    t->call_sent += n;
}

/* A blocking receive's MpiRecv; `probed`: it took the message the
 * thread's last probe found (mpiprof::probed). */
static void received(trace_thread_t *t, mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, int64_t bytes,
                     int probed, const trace_check_t *k)
{
    uint32_t ref = comm_ref(t, comm);
    if (ref == UINT32_MAX) {
        lost(t);
        return;
    }
    OTF2_AttributeList *attributes = NULL;
    if (probed) {
        attributes = t->attributes;
        OTF2_AttributeList_AddUint8(attributes, TRACE_ATTR_PROBED, 1);
    }
    attributes = checked(t, attributes, k);
    if (OTF2_EvtWriter_MpiRecv(t->writer, attributes, at(t, c->t1), (uint32_t)status->MPI_SOURCE, ref,
                               (uint32_t)status->MPI_TAG, positive(bytes)) != OTF2_SUCCESS)
        lost(t);
    t->call_recv += positive(bytes);
}

void mpp_trace_recv(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, int64_t bytes, int64_t count,
                    MPI_Datatype type)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t || !status || status == MPI_STATUS_IGNORE || status->MPI_SOURCE < 0) /* MPI_PROC_NULL */
        return;
    /* the message the last probe found, if this is it (mpp_ws_recv_general's test) */
    const trace_probe_t *p = &t->probe;
    int probed = p->valid && p->comm == comm && p->source == status->MPI_SOURCE && p->tag == status->MPI_TAG;
    if (probed)
        t->probe.valid = 0;
    trace_check_t k = check_of(count, type);
    received(t, c, comm, status, bytes, probed, &k);
}

/* The attributes of a message event of a call that returned an error but
 * whose message came (mpiprof::truncated and the checks'), its
 * communicator's reference in *ref; NULL when the communicator is not
 * known (the event is lost). */
static OTF2_AttributeList *truncated(trace_thread_t *t, MPI_Comm comm, int64_t count, MPI_Datatype type,
                                     uint32_t *ref)
{
    if ((*ref = comm_ref(t, comm)) == UINT32_MAX) {
        lost(t);
        return NULL;
    }
    trace_check_t k = check_of(count, type);
    OTF2_AttributeList_AddUint8(t->attributes, TRACE_ATTR_TRUNCATED, 1);
    return checked(t, t->attributes, &k);
}

void mpp_trace_recv_truncated(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, int64_t count,
                              MPI_Datatype type)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t || !status || status == MPI_STATUS_IGNORE || status->MPI_SOURCE < 0)
        return;
    uint32_t ref;
    OTF2_AttributeList *a = truncated(t, comm, count, type, &ref);
    if (a && OTF2_EvtWriter_MpiRecv(t->writer, a, at(t, c->t1), (uint32_t)status->MPI_SOURCE, ref,
                                    (uint32_t)status->MPI_TAG, 0) != OTF2_SUCCESS)
        lost(t);
}

void mpp_trace_send_truncated(mpp_call_t *c, MPI_Comm comm, int dest, int tag, int64_t count, MPI_Datatype type)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t || dest == MPI_PROC_NULL)
        return;
    uint32_t ref;
    OTF2_AttributeList *a = truncated(t, comm, count, type, &ref);
    if (a &&
        OTF2_EvtWriter_MpiSend(t->writer, a, at(t, c->t0), (uint32_t)dest, ref, (uint32_t)tag, 0) != OTF2_SUCCESS)
        lost(t);
}

void mpp_trace_completed_truncated(mpp_call_t *c, int ret, const mpp_reqset_t *set, int n, const int *which,
                                   const MPI_Status *statuses)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t || statuses == MPI_STATUSES_IGNORE)
        return; /* (the dynamic checks stop there too) */
    for (int j = 0; j < n; j++) {
        int i = which ? which[j] : j;
        const MPI_Status *s = &statuses[j];
        int err = ret == MPI_ERR_IN_STATUS ? s->MPI_ERROR : ret;
        trace_request_t *q =
            i >= 0 && i < set->n && set->keys[i] ? mpp_handlemap_get(&t->requests, set->keys[i]) : NULL;
        if (!q || q->kind != TRACE_REQ_RECV || q->comm == UINT32_MAX || err == MPI_ERR_PENDING ||
            !mpp_chk_took_message(err) || s->MPI_SOURCE < 0)
            continue;
        trace_request_t r;
        mpp_handlemap_remove(&t->requests, set->keys[i], &r);
        int source = r.source != MPI_ANY_SOURCE ? r.source : s->MPI_SOURCE;
        int tag = r.tag != MPI_ANY_TAG ? r.tag : s->MPI_TAG;
        OTF2_AttributeList_AddUint8(t->attributes, TRACE_ATTR_TRUNCATED, 1);
        if (OTF2_EvtWriter_MpiIrecv(t->writer, checked(t, t->attributes, &r.check), at(t, c->t1), (uint32_t)source,
                                    r.comm, (uint32_t)tag, r.bytes, set->keys[i]) != OTF2_SUCCESS)
            lost(t);
    }
}

void mpp_trace_probe(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, MPI_Message message)
{
    trace_thread_t *t = mpp_trace_self();
    (void)c;
    if (!t || !status || status == MPI_STATUS_IGNORE)
        return;
    t->probe = (trace_probe_t){1, comm, message, status->MPI_SOURCE, status->MPI_TAG};
    t->probe_found = 1;
}

/* The communicator of a matched receive's message: its probe's, taken. */
static int probed_comm(trace_thread_t *t, MPI_Message message, MPI_Comm *comm)
{
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC || !t->probe.valid ||
        t->probe.message != message)
        return 0; /* matched by another thread's probe: not recorded (mpiprof-trace(5)) */
    t->probe.valid = 0;
    *comm = t->probe.comm;
    return 1;
}

void mpp_trace_mrecv(mpp_call_t *c, MPI_Message message, const MPI_Status *status, int64_t bytes, int64_t count,
                     MPI_Datatype type)
{
    trace_thread_t *t = mpp_trace_self();
    MPI_Comm comm;
    if (!t || !probed_comm(t, message, &comm) || !status || status == MPI_STATUS_IGNORE || status->MPI_SOURCE < 0)
        return;
    trace_check_t k = check_of(count, type);
    received(t, c, comm, status, bytes, 1, &k); /* MPI_Mrecv always takes its probe's message */
}

/* The receive request the call created, on comm. */
static void receive_request(trace_thread_t *t, mpp_call_t *c, MPI_Comm comm, int source, int tag, int64_t bytes,
                            int64_t count, MPI_Datatype type)
{
    uint64_t id = request_id(c);
    if (!id)
        return;
    uint32_t ref = comm_ref(t, comm);
    trace_request_t q = {.kind = TRACE_REQ_RECV,
                         .comm = ref,
                         .bytes = positive(bytes),
                         .source = source,
                         .tag = tag,
                         .check = check_of(count, type)};
    if (OTF2_EvtWriter_MpiIrecvRequest(t->writer, posted_on(t, &q), at(t, c->t0), id) != OTF2_SUCCESS)
        lost(t);
    remember(t, id, q);
    t->call_recv += positive(bytes); /* its MpiIrecv gives them to this call */
}

void mpp_trace_irecv(mpp_call_t *c, MPI_Comm comm, int source, int tag, int64_t bytes, int64_t count,
                     MPI_Datatype type)
{
    trace_thread_t *t = mpp_trace_self();
    if (t && source != MPI_PROC_NULL) /* from MPI_PROC_NULL: no message will complete it */
        receive_request(t, c, comm, source, tag, bytes, count, type);
}

void mpp_trace_imrecv(mpp_call_t *c, MPI_Message message, int64_t bytes, int64_t count, MPI_Datatype type)
{
    trace_thread_t *t = mpp_trace_self();
    MPI_Comm comm;
    if (t && probed_comm(t, message, &comm))
        receive_request(t, c, comm, MPI_ANY_SOURCE, MPI_ANY_TAG, bytes, count, type);
}

void mpp_trace_collective(mpp_call_t *c, MPI_Comm comm, int root, int64_t sent, int64_t received, int nonblocking)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t)
        return;
    uint32_t ref = comm_ref(t, comm);
    if (ref == UINT32_MAX) {
        lost(t);
        return;
    }
    uint32_t r = root >= 0 ? (uint32_t)root : OTF2_UNDEFINED_UINT32; /* MPI_ROOT, MPI_PROC_NULL, none */
    t->call_sent += positive(sent); /* its end or completion gives them to this call */
    t->call_recv += positive(received);
    OTF2_CollectiveOp op = mpp_trace_collective_op(mpp_functions[c->fid].name);
    int64_t cc[TRACE_CC_ROWS];
    int has_cc = MPP_CHECKS_ON(MPP_CHECK_BASIC) && mpp_chk_coll_rows_traced(c, cc);
    /* the call's request fields are set only by calls that make one */
    uint64_t id = nonblocking ? request_id(c) : 0;
    if (id) { /* nonblocking: it ends in the wait or test that completes its request */
        if (OTF2_EvtWriter_NonBlockingCollectiveRequest(t->writer, NULL, at(t, c->t0), id) != OTF2_SUCCESS)
            lost(t);
        trace_request_t q = {.kind = TRACE_REQ_COLLECTIVE,
                             .comm = ref,
                             .bytes = positive(sent),
                             .received = positive(received),
                             .root = r,
                             .op = op,
                             .has_cc = has_cc};
        if (has_cc)
            memcpy(q.cc, cc, sizeof cc);
        remember(t, id, q);
        return;
    }
    if (OTF2_EvtWriter_MpiCollectiveBegin(t->writer, NULL, at(t, c->t0)) != OTF2_SUCCESS ||
        OTF2_EvtWriter_MpiCollectiveEnd(t->writer, with_cc(t, has_cc, cc), at(t, c->t1), op, ref, r, positive(sent),
                                        positive(received)) != OTF2_SUCCESS)
        lost(t);
}

void mpp_trace_completed(mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which, const MPI_Status *statuses)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t)
        return;
    for (int j = 0; j < n; j++) {
        int i = which ? which[j] : j;
        if (i < 0 || i >= set->n || !set->keys[i])
            continue;
        trace_request_t r;
        if (!mpp_handlemap_remove(&t->requests, set->keys[i], &r))
            continue; /* not a request of this thread's */
        OTF2_ErrorCode rc;
        if (r.kind == TRACE_REQ_SEND) {
            rc = OTF2_EvtWriter_MpiIsendComplete(t->writer, NULL, at(t, c->t1), set->keys[i]);
        } else if (r.kind == TRACE_REQ_COLLECTIVE) {
            rc =
                OTF2_EvtWriter_NonBlockingCollectiveComplete(t->writer, with_cc(t, r.has_cc, r.cc), at(t, c->t1),
                                                             r.op, r.comm, r.root, r.bytes, r.received, set->keys[i]);
        } else {
            const MPI_Status *s = statuses != MPI_STATUSES_IGNORE ? &statuses[j] : NULL;
            int cancelled = 0;
            if (!s || r.comm == UINT32_MAX) /* unknown */
                continue;
            if (PMPI_Test_cancelled(s, &cancelled) == MPI_SUCCESS && cancelled) {
                /* no message: its posted bytes, which the protocol counts, on the event */
                OTF2_AttributeList_AddUint64(t->attributes, TRACE_ATTR_BYTES_RECV, r.bytes);
                rc = OTF2_EvtWriter_MpiRequestCancelled(t->writer, t->attributes, at(t, c->t1), set->keys[i]);
            } else if (s->MPI_SOURCE < 0) { /* MPI_PROC_NULL */
                continue;
            } else { /* as posted where not a wildcard: MPICH's status of an MPI_Isendrecv names an internal tag */
                int source = r.source != MPI_ANY_SOURCE ? r.source : s->MPI_SOURCE;
                int tag = r.tag != MPI_ANY_TAG ? r.tag : s->MPI_TAG;
                rc = OTF2_EvtWriter_MpiIrecv(t->writer, checked(t, NULL, &r.check), at(t, c->t1), (uint32_t)source,
                                             r.comm, (uint32_t)tag, r.bytes, set->keys[i]);
            }
        }
        if (rc != OTF2_SUCCESS)
            lost(t);
    }
}

void mpp_trace_persistent(mpp_call_t *c, int kind, MPI_Comm comm, int peer, int tag, int64_t count, MPI_Datatype type)
{
    trace_thread_t *t = mpp_trace_self();
    uint64_t id = request_id(c);
    if (!t || !id || (kind != MPP_TRACE_PCOLLECTIVE && peer == MPI_PROC_NULL)) /* its starts record nothing */
        return;
    uint32_t ref = comm_ref(t, comm);
    int inserted = 0;
    trace_persistent_t *p = ref == UINT32_MAX ? NULL : mpp_handlemap_put(&t->persistent, id, &inserted);
    if (!p) {
        lost(t);
        return;
    }
    /* bytes of one start: the call's new_sent, new_recv (a collective's
     * received bytes beside its sent ones, as mpp_trace_collective keeps them) */
    trace_request_t r = {.comm = ref, .root = OTF2_UNDEFINED_UINT32, .source = peer, .tag = tag};
    if (kind != MPP_TRACE_PCOLLECTIVE)
        r.check = check_of(count, type);
    if (kind == MPP_TRACE_PSEND) {
        r.kind = TRACE_REQ_SEND, r.bytes = positive(c->new_sent);
    } else if (kind == MPP_TRACE_PRECV) {
        r.kind = TRACE_REQ_RECV, r.bytes = positive(c->new_recv);
    } else {
        r.kind = TRACE_REQ_COLLECTIVE, r.bytes = positive(c->new_sent), r.received = positive(c->new_recv);
        r.root = peer >= 0 ? (uint32_t)peer : OTF2_UNDEFINED_UINT32;
        r.has_cc = MPP_CHECKS_ON(MPP_CHECK_BASIC) && mpp_chk_coll_rows_of_request(id, r.cc);
        r.op = mpp_trace_collective_op(mpp_functions[c->fid].name);
    }
    uint32_t site = UINT32_MAX;
    if (r.check.level)
        site = site_of(t, c, c->thread ? c->thread->table.depth : 0);
    *p = (trace_persistent_t){.request = r, .peer = peer, .tag = tag, .site = site};
}

/* The list with a persistent request's creating call as its SRC point
 * (mpiprof::src), where the checks' findings need it. */
static OTF2_AttributeList *created_at(trace_thread_t *t, OTF2_AttributeList *list, uint32_t site)
{
    if (site == UINT32_MAX)
        return list;
    OTF2_AttributeList_AddStringRef(t->attributes, TRACE_ATTR_SRC, site);
    return t->attributes;
}

/* Each start records what the nonblocking form of the request records at
 * its call (mpp_trace_send, mpp_trace_irecv, mpp_trace_collective), under
 * the request's key; its completion is then found as theirs is. */
void mpp_trace_start_requests(mpp_call_t *c, const mpp_reqset_t *set)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t)
        return;
    for (int i = 0; i < set->n; i++) {
        const trace_persistent_t *p = set->keys[i] ? mpp_handlemap_get(&t->persistent, set->keys[i]) : NULL;
        if (!p)
            continue; /* not persistent, MPI_PROC_NULL, or created by another thread (mpiprof-trace(5)) */
        uint64_t id = set->keys[i];
        const trace_request_t *r = &p->request;
        OTF2_ErrorCode rc;
        /* the start's bytes, as the protocol counts them (mpiprof(7), BYTES) */
        if (r->kind == TRACE_REQ_SEND) {
            rc = OTF2_EvtWriter_MpiIsend(t->writer, created_at(t, checked(t, NULL, &r->check), p->site), at(t, c->t0),
                                         (uint32_t)p->peer, r->comm, (uint32_t)p->tag, r->bytes, id);
            t->call_sent += r->bytes;
        } else if (r->kind == TRACE_REQ_RECV) {
            rc = OTF2_EvtWriter_MpiIrecvRequest(t->writer, created_at(t, posted_on(t, r), p->site), at(t, c->t0), id);
            t->call_recv += r->bytes;
        } else {
            rc = OTF2_EvtWriter_NonBlockingCollectiveRequest(t->writer, NULL, at(t, c->t0), id);
            t->call_sent += r->bytes;
            t->call_recv += r->received;
        }
        if (rc != OTF2_SUCCESS)
            lost(t);
        remember(t, id, *r);
    }
}

void mpp_trace_freed(const mpp_reqset_t *set)
{
    trace_thread_t *t = mpp_trace_self();
    for (int i = 0; t && i < set->n; i++) {
        if (!set->keys[i])
            continue;
        mpp_handlemap_remove(&t->persistent, set->keys[i], NULL);
        mpp_handlemap_remove(&t->requests, set->keys[i], NULL); /* an active request freed: it never completes here */
    }
}

/* The local id of a user region (an interval by name and begin position,
 * replicated code), created at its first mark. */
static uint32_t region_of(trace_thread_t *t, const char *name, const mpp_mark_t *mark, int seq)
{
    for (size_t i = 0; i < t->nregions; i++) {
        const trace_region_t *r = &t->regions[i];
        if (r->seq == seq && r->line == mark->line && !strcmp(r->name, name) &&
            (r->file ? mark->file && !strcmp(r->file, mark->file) : !mark->file && r->site == mark->site))
            return MPP_NFUNCTIONS + (uint32_t)i;
    }
    if (mpp_grow((void **)&t->regions, &t->regions_capacity, t->nregions + 1, sizeof *t->regions, 16) != 0)
        return UINT32_MAX;
    trace_region_t *r = &t->regions[t->nregions];
    snprintf(r->name, sizeof r->name, "%s", name);
    r->file = mark->file;
    r->line = mark->line;
    r->site = mark->site;
    r->seq = seq;
    return MPP_NFUNCTIONS + (uint32_t)t->nregions++;
}

void mpp_trace_mark(int kind, const char *name, const mpp_mark_t *mark, uint64_t now)
{
    trace_thread_t *t = mpp_trace_self();
    if (!t)
        return;
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    if (kind == MPP_TRACE_INTERVAL_BEGIN || kind == MPP_TRACE_SEQ_BEGIN) {
        int seq = kind == MPP_TRACE_SEQ_BEGIN;
        uint32_t region = region_of(t, seq ? "[replicated code]" : name, mark, seq);
        if (region == UINT32_MAX ||
            mpp_grow((void **)&t->open, &t->open_capacity, t->nopen + 1, sizeof *t->open, 16) != 0) {
            lost(t);
            return;
        }
        t->open[t->nopen++] = region;
        rc = OTF2_EvtWriter_Enter(t->writer, NULL, at(t, now), region);
    } else {
        /* the innermost region of that kind that is open: a mark the
         * intervals ignore (an end without a begin) leaves none */
        int seq = kind == MPP_TRACE_SEQ_END;
        size_t k = t->nopen;
        while (k > 0 && t->regions[t->open[k - 1] - MPP_NFUNCTIONS].seq != seq)
            k--;
        if (k == 0)
            return;
        /* regions opened inside it and not closed are left with it */
        while (t->nopen >= k && rc == OTF2_SUCCESS) {
            uint32_t region = t->open[--t->nopen];
            rc = OTF2_EvtWriter_Leave(t->writer, NULL, at(t, now), region);
        }
    }
    if (rc != OTF2_SUCCESS)
        lost(t);
}
