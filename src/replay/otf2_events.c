/* The events of one location (otf2_reader.h), in time order: MPI calls
 * (the Enter and Leave of a region of the MPI paradigm; calls MPI makes
 * inside one are its own), the messages and collective operations their
 * events name, the marks of mpiprof's user regions; and the checks that
 * tell a corrupt event file from a trace (time never goes back, regions
 * are left as they were entered). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/waitstates.h"
#include "check/msgpair.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "replay/otf2_reader.h"
#include "util/srckey.h"

/* --- events --- */

static int function_of(const char *name)
{
    int lo = 0, hi = MPP_NFUNCTIONS - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2, c = strcmp(mpp_functions[mpp_functions_by_name[mid]].name, name);
        if (!c)
            return mpp_functions_by_name[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* A location's timestamp on the common time line: its clock offsets
 * applied (one constant when they agree within their uncertainty, else
 * linear between two measurements, constant outside), the trace's global
 * offset removed. */
static int64_t corrected(const rp_trace_t *t, const rp_location_t *loc, OTF2_TimeStamp time)
{
    int64_t at = (int64_t)(time - t->global_offset), off = 0;
    int n = loc->noffsets;
    if (loc->offset_constant) {
        off = loc->offset_fixed;
    } else if (n == 1 || (n > 1 && (int64_t)time <= loc->offset_time[0])) {
        off = loc->offset[0];
    } else if (n > 1 && (int64_t)time >= loc->offset_time[n - 1]) {
        off = loc->offset[n - 1];
    } else if (n > 1) {
        int k = 1;
        while (k < n - 1 && loc->offset_time[k] < (int64_t)time)
            k++;
        double span = (double)(loc->offset_time[k] - loc->offset_time[k - 1]);
        double f = span > 0 ? (double)((int64_t)time - loc->offset_time[k - 1]) / span : 0;
        off = loc->offset[k - 1] + (int64_t)(f * (double)(loc->offset[k] - loc->offset[k - 1]));
    }
    return at + off;
}

static rp_location_t *current(reader_t *r) { return &r->t->locations[r->current]; }

static rp_call_t *open_call(reader_t *r) { return r->open_call >= 0 ? &current(r)->calls[r->open_call] : NULL; }

/* Every event: the location's time line, which never goes back (OTF2's
 * rule; a corrupt event file often breaks it).  0, or -1 (failed). */
static int seen(reader_t *r, OTF2_TimeStamp time, int mpi)
{
    rp_location_t *loc = current(r);
    int64_t at = corrected(r->t, loc, time);
    if (loc->events && at < loc->last) {
        rp_fail(r, "the events of location %llu go back in time at event %llu (a corrupt event file)",
                (unsigned long long)loc->ref, (unsigned long long)loc->events + 1);
        return -1;
    }
    if (!loc->events++)
        loc->first = at;
    loc->last = at;
    r->t->events++;
    r->t->mpi_events += mpi;
    return 0;
}

#define SEEN(r, time, mpi)                  \
    do {                                    \
        if (seen(r, time, mpi) != 0)        \
            return OTF2_CALLBACK_INTERRUPT; \
    } while (0)

/* Regions are entered and left as a stack: a Leave of another region than
 * the innermost one, or of an undefined one, is a corrupt event file. */
static int region_entered(reader_t *r, OTF2_RegionRef region)
{
    if (region >= r->nregions) {
        rp_fail(r, "location %llu enters region %u, which is not defined (a corrupt event file)",
                (unsigned long long)current(r)->ref, region);
        return -1;
    }
    if (mpp_grow((void **)&r->open, &r->open_cap, r->nopen + 1, sizeof *r->open, 64) != 0) {
        rp_fail(r, "out of memory for the regions of location %llu", (unsigned long long)current(r)->ref);
        return -1;
    }
    r->open[r->nopen++] = region;
    return 0;
}

static int region_left(reader_t *r, OTF2_RegionRef region)
{
    if (!r->nopen || r->open[r->nopen - 1] != region) {
        rp_fail(r, "location %llu leaves region %u, which is not the one it is in (a corrupt event file)",
                (unsigned long long)current(r)->ref, region);
        return -1;
    }
    r->nopen--;
    return 0;
}

/* The call site of an Enter: mpiprof's attribute (an SRC key: the frames
 * after the function's name), or the region alone (0); its string in
 * open_src (the checks' findings name it). */
static uint32_t site_of(reader_t *r, OTF2_AttributeList *attributes)
{
    OTF2_StringRef ref;
    r->open_src = RP_NO_STRING;
    if (r->src_attribute == OTF2_UNDEFINED_ATTRIBUTE || !attributes ||
        OTF2_AttributeList_GetStringRef(attributes, r->src_attribute, &ref) != OTF2_SUCCESS)
        return 0;
    r->open_src = ref;
    const char *key = rp_string(r, ref), *frames = strchr(key, MPP_RS);
    if (!frames || !frames[1])
        return 0;
    frames++;
    int inserted;
    uintptr_t *v = mpp_strmap_put(&r->sites, frames, r->t->nsites, &inserted);
    if (!v)
        return 0;
    if (inserted) {
        char **grown = realloc(r->t->sites, (r->t->nsites + 1) * sizeof *grown);
        if (!grown || !(grown[r->t->nsites] = strdup(frames))) {
            if (grown)
                r->t->sites = grown;
            rp_fail(r, "out of memory for the call sites");
            return 0;
        }
        r->t->sites = grown;
        r->t->nsites++;
        r->t->from_mpiprof = 1;
    }
    return (uint32_t)*v;
}

/* The SRC key's string a message event names (a persistent request's
 * start: its creating call's, mpiprof-trace(5)), else the open call's. */
static uint32_t src_of(reader_t *r, OTF2_AttributeList *attributes)
{
    OTF2_StringRef ref;
    if (r->src_attribute != OTF2_UNDEFINED_ATTRIBUTE && attributes &&
        OTF2_AttributeList_GetStringRef(attributes, r->src_attribute, &ref) == OTF2_SUCCESS)
        return ref;
    return r->open_src;
}

/* The Enter or Leave of an interval's or replicated code's region. */
static int add_mark(reader_t *r, OTF2_TimeStamp time, OTF2_RegionRef region, int begin)
{
    rp_location_t *loc = current(r);
    if (region >= r->t->nregions || !r->t->regions[region].kind || r->depth > 0 || loc->finalize_enter >= 0)
        return 0;
    if (mpp_grow((void **)&loc->marks, &loc->marks_cap, loc->nmarks + 1, sizeof *loc->marks, 64) != 0) {
        rp_fail(r, "out of memory for the marks of location %llu", (unsigned long long)loc->ref);
        return -1;
    }
    loc->marks[loc->nmarks++] = (rp_mark_t){corrected(r->t, loc, time), region, begin};
    return 0;
}

/* The call whose return begins interval 0: MPI_Init, MPI_Init_thread, or
 * (a program of sessions) the MPI_Session_init that started mpiprof, the
 * only one its traces hold. */
static int starts_profile(const char *name)
{
    return !strcmp(name, "MPI_Init") || !strcmp(name, "MPI_Init_thread") || !strcmp(name, "MPI_Session_init");
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    reader_t *r = data;
    (void)location, (void)position;
    const region_def_t *d = AT(r->regions, r->nregions, region);
    int mpi = d && d->paradigm == OTF2_PARADIGM_MPI;
    SEEN(r, time, mpi);
    if (region_entered(r, region) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    if (!mpi)
        return add_mark(r, time, region, 1) ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
    if (r->depth++ > 0)
        return OTF2_CALLBACK_SUCCESS; /* an MPI call made inside one: MPI's own */
    rp_location_t *loc = current(r);
    const char *name = rp_string(r, d->name);
    int64_t at = corrected(r->t, loc, time);
    r->open_call = -1;
    r->open_src = RP_NO_STRING;
    if (!strcmp(name, "MPI_Finalize") || !strcmp(name, "MPI_Session_finalize")) {
        if (loc->finalize_enter < 0)
            loc->finalize_enter = at;
        return OTF2_CALLBACK_SUCCESS;
    }
    if (starts_profile(name)) {
        loc->init_site = site_of(r, attributes); /* interval 0's position */
        return r->failed ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
    }
    int fid = function_of(name);
    if (fid < 0 || mpp_functions[fid].category < 0 || loc->finalize_enter >= 0)
        return OTF2_CALLBACK_SUCCESS; /* not profiled, as at run time */
    if (mpp_grow((void **)&loc->calls, &loc->calls_cap, loc->ncalls + 1, sizeof *loc->calls, 256) != 0) {
        rp_fail(r, "out of memory for the events of location %llu", (unsigned long long)loc->ref);
        return OTF2_CALLBACK_INTERRUPT;
    }
    r->open_call = (int64_t)loc->ncalls;
    if (r->src_attribute != OTF2_UNDEFINED_ATTRIBUTE && r->probe_attribute[1] == OTF2_UNDEFINED_ATTRIBUTE &&
        rp_untraced(name)) /* an earlier mpiprof's archive (otf2_reader.h) */
        r->t->untraced++;
    loc->calls[loc->ncalls++] =
        (rp_call_t){.fid = (uint32_t)fid, .site = site_of(r, attributes), .enter = at, .leave = at};
    return r->failed ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
}

/* mpiprof's uint64 attribute `which` of the list into *value; 0 when it
 * has none (or the archive does not define it). */
static int attribute_u64(OTF2_AttributeList *attributes, uint64_t which, uint64_t *value)
{
    return attributes && which != OTF2_UNDEFINED_ATTRIBUTE &&
           OTF2_AttributeList_GetUint64(attributes, (OTF2_AttributeRef)which, value) == OTF2_SUCCESS;
}

/* Whether mpiprof's uint8 attribute `which` is set in the list. */
static int flagged(OTF2_AttributeList *attributes, uint64_t which)
{
    uint8_t value = 0;
    return attributes && which != OTF2_UNDEFINED_ATTRIBUTE &&
           OTF2_AttributeList_GetUint8(attributes, (OTF2_AttributeRef)which, &value) == OTF2_SUCCESS && value;
}

/* The call's bytes as the protocol counts them, where its Leave says them
 * (mpiprof's archives: MPI_PROC_NULL, one-sided and I/O calls); its
 * events' bytes are then not added to it. */
static void said_bytes(reader_t *r, rp_call_t *c, OTF2_AttributeList *attributes)
{
    uint64_t sent, received;
    if (!attribute_u64(attributes, r->bytes_attribute[0], &sent) ||
        !attribute_u64(attributes, r->bytes_attribute[1], &received))
        return;
    c->bytes_sent = sent;
    c->bytes_recv = received;
    c->bytes_said = 1;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                  OTF2_AttributeList *attributes, OTF2_RegionRef region)
{
    reader_t *r = data;
    (void)location, (void)position;
    const region_def_t *d = AT(r->regions, r->nregions, region);
    int mpi = d && d->paradigm == OTF2_PARADIGM_MPI;
    SEEN(r, time, mpi);
    if (region_left(r, region) != 0)
        return OTF2_CALLBACK_INTERRUPT;
    if (!mpi)
        return add_mark(r, time, region, 0) ? OTF2_CALLBACK_INTERRUPT : OTF2_CALLBACK_SUCCESS;
    if (r->depth == 0 || --r->depth > 0)
        return OTF2_CALLBACK_SUCCESS;
    rp_location_t *loc = current(r);
    const char *name = rp_string(r, d->name);
    if (starts_profile(name))
        loc->init_leave = corrected(r->t, loc, time);
    rp_call_t *c = open_call(r);
    if (c) {
        c->leave = corrected(r->t, loc, time);
        said_bytes(r, c, attributes);
        uint32_t io = 0;
        if (attributes && r->io_attribute != OTF2_UNDEFINED_ATTRIBUTE &&
            OTF2_AttributeList_GetUint32(attributes, (OTF2_AttributeRef)r->io_attribute, &io) == OTF2_SUCCESS)
            c->io_done = io;
        if (flagged(attributes, r->probe_attribute[0]))
            r->probe_call = r->open_call;
    }
    r->open_call = -1;
    return OTF2_CALLBACK_SUCCESS;
}

/* What mpiprof's checks said of a message event (mpiprof-trace(5)) into m:
 * nothing (level 0), its bytes, at full its signature. */
static void checked(reader_t *r, OTF2_AttributeList *attributes, rp_message_t *m)
{
    const uint64_t *a = r->check_attribute;
    int64_t bytes;
    uint64_t hash, length;
    int32_t basic;
    if (!attributes || a[CHECK_BYTES] == OTF2_UNDEFINED_ATTRIBUTE ||
        OTF2_AttributeList_GetInt64(attributes, (OTF2_AttributeRef)a[CHECK_BYTES], &bytes) != OTF2_SUCCESS)
        return;
    m->check_level = MPP_CHECK_BASIC;
    m->check_bytes = bytes;
    m->sig = (mpp_signature_t){0, 0, -2};
    if (a[CHECK_SIG_BASIC] != OTF2_UNDEFINED_ATTRIBUTE &&
        OTF2_AttributeList_GetUint64(attributes, (OTF2_AttributeRef)a[CHECK_SIG_HASH], &hash) == OTF2_SUCCESS &&
        OTF2_AttributeList_GetUint64(attributes, (OTF2_AttributeRef)a[CHECK_SIG_LENGTH], &length) == OTF2_SUCCESS &&
        OTF2_AttributeList_GetInt32(attributes, (OTF2_AttributeRef)a[CHECK_SIG_BASIC], &basic) == OTF2_SUCCESS) {
        m->check_level = MPP_CHECK_FULL;
        m->sig = (mpp_signature_t){hash, length, basic};
    }
    uint8_t truncated = 0;
    m->truncated =
        a[CHECK_TRUNCATED] != OTF2_UNDEFINED_ATTRIBUTE &&
        OTF2_AttributeList_GetUint8(attributes, (OTF2_AttributeRef)a[CHECK_TRUNCATED], &truncated) == OTF2_SUCCESS &&
        truncated;
    if (m->check_level > r->t->derived_level)
        r->t->derived_level = m->check_level;
}

/* A message of the open call (`call`: the one it counts on), with the
 * checks' attributes of its event and the SRC key `src` they name. */
static int add_message(reader_t *r, int send, uint32_t comm, uint32_t peer, uint32_t tag, int64_t posted,
                       int64_t call, OTF2_AttributeList *attributes, uint32_t src)
{
    rp_trace_t *t = r->t;
    const rp_comm_t *c = comm < t->ncomms ? &t->comms[comm] : NULL;
    if (!c || !c->size || peer >= c->size) {
        rp_fail(r, "location %llu names rank %u of communicator %u, which the definitions do not give it",
                (unsigned long long)current(r)->ref, peer, comm);
        return -1;
    }
    int32_t world = c->world[peer] == -1 ? t->locations[r->current].process : c->world[peer];
    rp_message_t **list = send ? &t->sends : &t->recvs;
    size_t *n = send ? &t->nsends : &t->nrecvs, *cap = send ? &t->sends_cap : &t->recvs_cap;
    if (mpp_grow((void **)list, cap, *n + 1, sizeof **list, 1024) != 0) {
        rp_fail(r, "out of memory for the messages");
        return -1;
    }
    rp_message_t *m = &(*list)[(*n)++];
    *m = (rp_message_t){comm, world, (int32_t)tag, posted, (uint32_t)r->current, (uint32_t)call, .src = src};
    checked(r, attributes, m);
    return 0;
}

/* A blocking send or receive in the open call: its bytes, and the message
 * to pair, posted at the call's entry.  A receive marked mpiprof::probed
 * took the message of the location's last probe that found one: the probe
 * is the call that waited for it (the dynamic mode's rule), the bytes stay
 * the receive's. */
static OTF2_CallbackCode message(reader_t *r, OTF2_TimeStamp time, int send, OTF2_CommRef comm, uint32_t peer,
                                 uint32_t tag, uint64_t length, OTF2_AttributeList *attributes)
{
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (!c)
        return OTF2_CALLBACK_SUCCESS;
    *(send ? &c->bytes_sent : &c->bytes_recv) += length;
    int64_t waiting = r->open_call;
    if (!send && r->probe_call >= 0 && flagged(attributes, r->probe_attribute[1])) {
        waiting = r->probe_call;
        r->probe_call = -1;
    }
    /* the checks name the receive's own call, not the probe that waited */
    return add_message(r, send, comm, peer, tag, current(r)->calls[waiting].enter, waiting, attributes,
                       src_of(r, attributes))
               ? OTF2_CALLBACK_INTERRUPT
               : OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                 OTF2_AttributeList *attributes, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t length)
{
    (void)location, (void)position;
    return message(data, time, 1, comm, receiver, tag, length, attributes);
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                  OTF2_AttributeList *attributes, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t length, uint64_t request)
{
    (void)request;
    rp_call_t *c = open_call(data);
    if (c)
        c->p2p_begun++;
    return ev_send(location, time, position, data, attributes, receiver, comm, tag, length);
}

static OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                           void *data, OTF2_AttributeList *attributes, uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes, (void)request;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (c)
        c->p2p_done++;
    return OTF2_CALLBACK_SUCCESS;
}

/* A request begun in the open call at `at` (a receive or a nonblocking
 * collective), found again by its id where it completes. */
static OTF2_CallbackCode posted(reader_t *r, uint64_t request, int64_t at, const char *kind, uint32_t src)
{
    int inserted;
    irecv_t *q = mpp_handlemap_put(&r->requests, request, &inserted);
    if (!q) {
        rp_fail(r, "out of memory for the %s requests", kind);
        return OTF2_CALLBACK_INTERRUPT;
    }
    *q = (irecv_t){at, r->open_call, src, 0, 0, 0, 0};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                          void *data, OTF2_AttributeList *attributes, uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (c)
        c->p2p_begun++;
    OTF2_CallbackCode rc =
        posted(r, request, c ? c->enter : corrected(r->t, current(r), time), "receive", src_of(r, attributes));
    /* the channel it was posted for (mpiprof-trace(5)), for what is left pending at the end */
    OTF2_CommRef comm;
    int32_t source, tag;
    const uint64_t *a = r->recv_attribute;
    irecv_t *q = rc == OTF2_CALLBACK_SUCCESS ? mpp_handlemap_get(&r->requests, request) : NULL;
    if (q && attributes && a[0] != OTF2_UNDEFINED_ATTRIBUTE && a[1] != OTF2_UNDEFINED_ATTRIBUTE &&
        a[2] != OTF2_UNDEFINED_ATTRIBUTE &&
        OTF2_AttributeList_GetCommRef(attributes, (OTF2_AttributeRef)a[0], &comm) == OTF2_SUCCESS &&
        OTF2_AttributeList_GetInt32(attributes, (OTF2_AttributeRef)a[1], &source) == OTF2_SUCCESS &&
        OTF2_AttributeList_GetInt32(attributes, (OTF2_AttributeRef)a[2], &tag) == OTF2_SUCCESS &&
        comm < r->t->ncomms && r->t->comms[comm].size && source < (int32_t)r->t->comms[comm].size) {
        const rp_comm_t *cm = &r->t->comms[comm];
        q->channel = 1;
        q->comm = comm;
        q->source = source < 0 ? MPP_MSG_ANY : cm->world[source] == -1 ? current(r)->process : cm->world[source];
        q->tag = tag < 0 ? MPP_MSG_ANY : tag;
    }
    return rc;
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                 OTF2_AttributeList *attributes, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                 uint64_t length)
{
    (void)location, (void)position;
    return message(data, time, 0, comm, sender, tag, length, attributes);
}

/* A receive request completed: its bytes count on the call that posted it
 * (as the wrappers count them), it was posted when that call began. */
static OTF2_CallbackCode ev_irecv(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                  OTF2_AttributeList *attributes, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                                  uint64_t length, uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (!c)
        return OTF2_CALLBACK_SUCCESS;
    irecv_t q = {.posted = c->enter, .call = r->open_call, .src = RP_NO_STRING};
    mpp_handlemap_remove(&r->requests, request, &q);
    rp_location_t *loc = current(r);
    rp_call_t *poster = q.call >= 0 ? &loc->calls[q.call] : c;
    if (!poster->bytes_said)
        poster->bytes_recv += length;
    c = open_call(r);
    c->p2p_done++;
    return add_message(r, 0, comm, sender, tag, q.posted, r->open_call, attributes, q.src) ? OTF2_CALLBACK_INTERRUPT
                                                                                           : OTF2_CALLBACK_SUCCESS;
}

/* A receive request cancelled: no message; the bytes it posted (mpiprof's
 * mpiprof::bytes_recv on the event) count on the call that posted it. */
static OTF2_CallbackCode ev_request_cancelled(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                              void *data, OTF2_AttributeList *attributes, uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    irecv_t q = {.call = -1, .src = RP_NO_STRING};
    if (!c || !mpp_handlemap_remove(&r->requests, request, &q))
        return OTF2_CALLBACK_SUCCESS; /* not a receive request of this location's */
    uint64_t posted = 0;
    rp_call_t *poster = q.call >= 0 ? &current(r)->calls[q.call] : c;
    if (!poster->bytes_said && attribute_u64(attributes, r->bytes_attribute[1], &posted))
        poster->bytes_recv += posted;
    c->p2p_done++;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_begin(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                       OTF2_AttributeList *attributes)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes;
    SEEN(r, time, 1);
    if (r->open_call < 0)
        return OTF2_CALLBACK_SUCCESS;
    if (mpp_grow((void **)&r->coll_open, &r->coll_open_cap, r->ncoll_open + 1, sizeof *r->coll_open, 16) != 0) {
        rp_fail(r, "out of memory for the collective operations");
        return OTF2_CALLBACK_INTERRUPT;
    }
    r->coll_open[r->ncoll_open++] = r->open_call;
    return OTF2_CALLBACK_SUCCESS;
}

/* A collective operation of the location completed in its open call,
 * begun in call `begin` (the same, or the one that started it). */
static OTF2_CallbackCode collective_done(reader_t *r, int64_t begin, OTF2_CommRef comm, uint64_t sent,
                                         uint64_t received, OTF2_AttributeList *attributes, uint32_t src)
{
    rp_trace_t *t = r->t;
    rp_location_t *loc = current(r);
    if (!loc->calls[begin].bytes_said) {
        loc->calls[begin].bytes_sent += sent;
        loc->calls[begin].bytes_recv += received;
    }
    if (begin != r->open_call)
        loc->calls[r->open_call].coll_done++;
    if (comm >= t->ncomms || !t->comms[comm].size) {
        rp_fail(r, "location %llu has a collective operation on communicator %u, which is not defined",
                (unsigned long long)loc->ref, comm);
        return OTF2_CALLBACK_INTERRUPT;
    }
    size_t need = t->ncollectives + 1;
    if (mpp_grow((void **)&t->collectives, &t->collectives_cap, need, sizeof *t->collectives, 1024) != 0) {
        rp_fail(r, "out of memory for the collective operations");
        return OTF2_CALLBACK_INTERRUPT;
    }
    rp_collective_t *c = &t->collectives[t->ncollectives++];
    *c = (rp_collective_t){comm, (uint32_t)r->current, (uint32_t)begin, (uint32_t)r->open_call, .src = src};
    /* the values mpiprof's checks gave (mpiprof-trace(5)): all rows, or none */
    c->has_cc = attributes != NULL;
    for (int k = 0; c->has_cc && k < 2 * MPP_CC_NVALUES; k++)
        c->has_cc =
            r->cc_attribute[k] != OTF2_UNDEFINED_ATTRIBUTE &&
            OTF2_AttributeList_GetInt64(attributes, (OTF2_AttributeRef)r->cc_attribute[k], &c->cc[k]) == OTF2_SUCCESS;
    if (c->has_cc) { /* a signature given: the checks were full */
        int level = c->cc[2 * MPP_CC_SIGNATURE] != INT64_MIN ? MPP_CHECK_FULL : MPP_CHECK_BASIC;
        t->derived_coll = 1;
        t->derived_level = level > t->derived_level ? level : t->derived_level;
    }
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                     OTF2_AttributeList *attributes, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                     uint32_t root, uint64_t sent, uint64_t received)
{
    reader_t *r = data;
    (void)location, (void)position, (void)op, (void)root;
    SEEN(r, time, 1);
    if (r->open_call < 0)
        return OTF2_CALLBACK_SUCCESS;
    int64_t begin = r->ncoll_open ? r->coll_open[--r->ncoll_open] : r->open_call;
    return collective_done(r, begin, comm, sent, received, attributes, r->open_src);
}

/* A nonblocking collective operation begun (OTF2 3's request events, as
 * mpiprof and Score-P write them): the call that began it, found again by
 * its request at its completion. */
static OTF2_CallbackCode ev_nbc_request(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position, void *data,
                                        OTF2_AttributeList *attributes, uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position, (void)attributes;
    SEEN(r, time, 1);
    rp_call_t *c = open_call(r);
    if (!c)
        return OTF2_CALLBACK_SUCCESS;
    c->coll_begun++;
    return posted(r, request, c->enter, "collective", r->open_src);
}

/* ... and completed in the open call (a wait or test): entry of the call
 * that began it, exit of this one. */
static OTF2_CallbackCode ev_nbc_complete(OTF2_LocationRef location, OTF2_TimeStamp time, uint64_t position,
                                         void *data, OTF2_AttributeList *attributes, OTF2_CollectiveOp op,
                                         OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t received,
                                         uint64_t request)
{
    reader_t *r = data;
    (void)location, (void)position, (void)op, (void)root;
    SEEN(r, time, 1);
    irecv_t q = {.call = -1, .src = RP_NO_STRING};
    if (r->open_call < 0 || !mpp_handlemap_remove(&r->requests, request, &q) || q.call < 0)
        return OTF2_CALLBACK_SUCCESS; /* begun or completed where nothing is profiled */
    return collective_done(r, q.call, comm, sent, received, attributes, q.src);
}

static OTF2_CallbackCode def_clock_offset(void *data, OTF2_TimeStamp time, int64_t offset, double deviation)
{
    reader_t *r = data;
    rp_location_t *loc = current(r);
    size_t n = (size_t)loc->noffsets + 1;
    int64_t *at = realloc(loc->offset_time, n * sizeof *at);
    if (at)
        loc->offset_time = at;
    int64_t *off = at ? realloc(loc->offset, n * sizeof *off) : NULL;
    if (off)
        loc->offset = off;
    double *dev = off ? realloc(loc->offset_dev, n * sizeof *dev) : NULL;
    if (!dev) {
        rp_fail(r, "out of memory for the clock offsets");
        return OTF2_CALLBACK_INTERRUPT;
    }
    loc->offset_dev = dev;
    int k = loc->noffsets++;
    while (k > 0 && loc->offset_time[k - 1] > (int64_t)time) { /* sorted by time */
        loc->offset_time[k] = loc->offset_time[k - 1];
        loc->offset[k] = loc->offset[k - 1];
        loc->offset_dev[k] = loc->offset_dev[k - 1];
        k--;
    }
    loc->offset_time[k] = (int64_t)time;
    loc->offset[k] = offset;
    loc->offset_dev[k] = deviation > 0 ? deviation : 0; /* a writer's unknown (NaN, negative): taken as exact */
    /* a drift within the measurements' own error is not applied */
    loc->offset_constant = mpp_clock_offset_constant(loc->offset, loc->offset_dev, loc->noffsets, &loc->offset_fixed);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_EvtReaderCallbacks *event_callbacks(void)
{
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    if (!cb)
        return NULL;
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_request_cancelled);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveBeginCallback(cb, ev_coll_begin);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, ev_nbc_request);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, ev_nbc_complete);
    return cb;
}

/* A receive request the location left pending at its end, with its
 * channel: kept for the checks (rp_check_leftovers). */
static void left_pending(uint64_t key, void *value, void *arg)
{
    reader_t *r = arg;
    const irecv_t *q = value;
    rp_trace_t *t = r->t;
    (void)key;
    if (!q->channel)
        return;
    if (mpp_grow((void **)&t->pending, &t->pending_cap, t->npending + 1, sizeof *t->pending, 16) != 0) {
        rp_fail(r, "out of memory for the pending receives");
        return;
    }
    t->pending[t->npending] =
        (rp_pending_t){current(r)->process, q->comm, q->source, q->tag, q->posted, t->npending, q->src};
    t->npending++;
}

/* The events of one location, its clock offsets first. */
int rp_read_location(reader_t *r, OTF2_Reader *reader, int l, int have_defs)
{
    rp_location_t *loc = &r->t->locations[l];
    r->current = l;
    r->depth = 0;
    r->nopen = 0;
    r->open_call = -1;
    r->probe_call = -1;
    r->ncoll_open = 0;
    if (have_defs) {
        OTF2_DefReader *dr = OTF2_Reader_GetDefReader(reader, loc->ref);
        if (dr) {
            OTF2_DefReaderCallbacks *cb = OTF2_DefReaderCallbacks_New();
            OTF2_DefReaderCallbacks_SetClockOffsetCallback(cb, def_clock_offset);
            OTF2_Reader_RegisterDefCallbacks(reader, dr, cb, r);
            OTF2_DefReaderCallbacks_Delete(cb);
            uint64_t n = 0;
            OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalDefinitions(reader, dr, &n);
            OTF2_Reader_CloseDefReader(reader, dr);
            if (rc != OTF2_SUCCESS && !r->failed)
                rp_fail(r, "the definitions of location %llu are unreadable (%s)", (unsigned long long)loc->ref,
                        OTF2_Error_GetDescription(rc));
            if (r->failed)
                return -1;
        }
    }
    OTF2_EvtReader *er = OTF2_Reader_GetEvtReader(reader, loc->ref);
    OTF2_EvtReaderCallbacks *cb = event_callbacks();
    if (!er || !cb) {
        OTF2_EvtReaderCallbacks_Delete(cb);
        rp_fail(r, "the events of location %llu cannot be opened", (unsigned long long)loc->ref);
        return -1;
    }
    /* libotf2 would apply the clock offsets itself (its default); they are
     * applied here (corrected()), as mpiprof-analyze(1) says, once */
    OTF2_EvtReader_ApplyClockOffsets(er, false);
    OTF2_Reader_RegisterEvtCallbacks(reader, er, cb, r);
    OTF2_EvtReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllLocalEvents(reader, er, &n);
    OTF2_Reader_CloseEvtReader(reader, er);
    if (rc != OTF2_SUCCESS && !r->failed)
        rp_fail(r, "the events of location %llu are unreadable after %llu events (%s)", (unsigned long long)loc->ref,
                (unsigned long long)n, OTF2_Error_GetDescription(rc));
    if (r->failed)
        return -1;
    uint64_t defined = r->locations[l].events;
    if (defined && n != defined) {
        rp_fail(r,
                "the events of location %llu are %llu, where its definition counts %llu (a corrupt or cut event "
                "file)",
                (unsigned long long)loc->ref, (unsigned long long)n, (unsigned long long)defined);
        return -1;
    }
    if (r->nopen > 0 && !r->t->incomplete) { /* ended inside a region: the run died, or the file was cut */
        r->t->incomplete = 1;
        snprintf(r->t->incomplete_why, sizeof r->t->incomplete_why, "the events of location %llu end inside %s",
                 (unsigned long long)loc->ref, r->depth > 0 ? "an MPI call" : "a region it did not leave");
    }
    mpp_handlemap_each(&r->requests, left_pending, r);
    mpp_handlemap_free(&r->requests);
    mpp_handlemap_init(&r->requests, sizeof(irecv_t));
    return r->failed ? -1 : 0;
}
