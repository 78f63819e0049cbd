#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/commids.h"
#include "check/msgcheck.h"
#include "check/msgpair.h"
#include "context/config.h"
#include "gen/mpi_declared.h"
#include "intercept/check/local.h"
#include "intercept/check/messages.h"
#include "intercept/check/run.h"
#include "intercept/check/signatures.h"
#include "intercept/check/sites.h"
#include "intercept/handle_keys.h"
#include "intercept/waitstates/hooks.h"
#include "util/handlemap.h"
#include "util/mt_lock.h"
#include "util/warnings.h"

static int on, full, checksums;
/* A call through a binding not checked went by: the pairing is no longer
 * sure, nothing more is reported from it; the first reason, for Warnings. */
static int unseen;
static const char *unseen_why;

static void go_quiet(const char *why)
{
    if (!unseen_why)
        unseen_why = why;
    unseen = 1;
}

/* The call stack a finding names (a copy that lives as long as the run). */
typedef struct {
    uint32_t fid;
    int depth;
    const uintptr_t *frames;
} site_t;

/* What a receive brings to its pairing. */
typedef struct {
    int64_t capacity; /* bytes its buffer takes */
    int64_t received; /* bytes its status says came */
    mpp_signature_t sig;
    uint64_t checksum;
    int flags;
    site_t site;
} recv_t;

/* R_DEFERRED: a truncation whose mpi-error the call did not report, for
 * the pairing to report as wrong-send-size; if the pairing cannot (its
 * send's record never comes, the pairing went quiet), the mpi-error is
 * reported then (deferred_error), so that no error MPI returned goes
 * without a finding. */
enum { R_CHECKSUM = 1, R_QUIET = 2, R_TRUNCATED = 4, R_DEFERRED = 8 };

/* The requests the checks follow: receives (persistent or not),
 * persistent sends. */
enum { Q_RECV = 1, Q_PRECV, Q_PSEND };

typedef struct {
    int kind, active;
    mpp_comm_t *comm; /* a receive's (held) */
    uint32_t channel;
    int32_t peer, tag; /* source (MPP_MSG_ANY) and tag (MPP_MSG_ANY) of a receive; destination of a send */
    int source;        /* a receive's source as posted (a rank of comm, or MPI_ANY_SOURCE) */
    void *buf;
    int64_t count;
    MPI_Datatype type;
    int64_t bytes;
    mpp_signature_t sig;
    int padded;
    site_t site;
    mpp_ro_post_t *post; /* a receive's, while pending */
    uint64_t seq;
    mpp_chk_record_t record; /* a persistent send's, but for its checksum */
} req_t;

static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;
static mpp_handlemap_t requests; /* key (as mpp_reqset_t's) -> req_t */
static mpp_handlemap_t poisoned; /* channels where a receive went unseen: nothing reported */
static mpp_msgpair_t pairs;
static mpp_recvorder_t order;

static void take(void) { mpp_mt_take(&lock); }
static void give(void) { mpp_mt_give(&lock); }

int mpp_chk_took_message(int ret)
{
    int cls = ret;
    if (ret == MPI_SUCCESS)
        return 1;
    if (PMPI_Error_class(ret, &cls) != MPI_SUCCESS)
        return 0;
    return cls == MPI_ERR_TRUNCATE;
}

int mpp_chk_msg_record_bytes(int level) { return level & MPP_CHECK_LEVEL ? (int)sizeof(mpp_chk_record_t) : 0; }

static site_t site_of(const mpp_call_t *c)
{
    mpp_request_origin_t o = {0};
    if (c->cell) /* none: a paused call */
        mpp_call_origin_frames(c, &o);
    return (site_t){c->fid, o.depth, o.frames};
}

/* ------------------------------------------------------------------ */
/* Checksums of the bytes a buffer's elements hold, in their order: those
 * of one contiguous block read where they are, the others packed first
 * (into a scratch buffer of the thread's). */

static __thread unsigned char *scratch __attribute__((tls_model("initial-exec")));
static __thread int scratch_size __attribute__((tls_model("initial-exec")));

static void release_scratch(void)
{
    free(scratch);
    scratch = NULL;
    scratch_size = 0;
}

/* The bytes of count x type, -1 when the type's size is not known
 * (MPI_DATATYPE_NULL, legal with no element, is not asked MPI about: its
 * error would reach the program's error handler). */
static int64_t bytes_of(int64_t count, MPI_Datatype type)
{
    int64_t size = mpp_type_size_known(type);
    return size < 0 ? -1 : count * size;
}

static int checksum_of(const void *buf, int64_t count, MPI_Datatype type, uint64_t *out)
{
    int size = 0, packed = 0, position = 0;
    MPI_Aint lb, extent, true_lb, true_extent;
    if (count < 0 || type == MPI_DATATYPE_NULL || count > INT_MAX || PMPI_Type_size(type, &size) != MPI_SUCCESS ||
        PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
        return 0;
    if (extent == size && true_extent == size) {
        *out = mpp_msg_checksum(0, (const unsigned char *)((uintptr_t)buf + (uintptr_t)true_lb),
                                (size_t)count * (size_t)size);
        return 1;
    }
    if (PMPI_Pack_size((int)count, type, mpp_world(), &packed) != MPI_SUCCESS)
        return 0;
    if (packed > scratch_size) {
        mpp_thread_at_end(release_scratch);
        unsigned char *grown = realloc(scratch, (size_t)packed);
        if (!grown)
            return 0;
        scratch = grown;
        scratch_size = packed;
    }
    if (PMPI_Pack(buf, (int)count, type, scratch, packed, &position, mpp_world()) != MPI_SUCCESS)
        return 0;
    *out = mpp_msg_checksum(0, scratch, (size_t)position);
    return 1;
}

/* ------------------------------------------------------------------ */
/* Sends */

static void make_record(const mpp_call_t *c, uint32_t channel, int tag, int64_t count, MPI_Datatype type,
                        mpp_chk_record_t *r, int *padded)
{
    mpp_chk_site_t at = mpp_chk_site_of(c->cell ? c->cell->frames[0] : 0);
    *r = (mpp_chk_record_t){channel, tag, c->fid, at.module, at.offset, bytes_of(count, type), 0, 0, -2, 0, 0};
    *padded = 1;
    if (full || checksums) {
        mpp_chk_sig_t s = mpp_chk_signature(type, count);
        *padded = s.padded || s.sig.basic == -2;
        if (full) {
            r->sig_hash = s.sig.hash;
            r->sig_length = s.sig.length;
            r->sig_basic = s.sig.basic;
        }
    }
}

static void add_checksum(mpp_chk_record_t *r, const void *buf, int64_t count, MPI_Datatype type, int padded)
{
    if (checksums && !padded && buf != MPP_NO_BUFFER && checksum_of(buf, count, type, &r->checksum))
        r->flags |= MPP_CHK_RECORD_CHECKSUM;
}

static void send_record(const mpp_call_t *c, MPI_Comm comm, int dest, int tag, const void *buf, int64_t count,
                        MPI_Datatype type, int summed)
{
    if (!on || dest == MPI_PROC_NULL)
        return;
    mpp_comm_t *cm = mpp_comm_get(comm);
    int world = cm && cm->id ? mpp_comm_world_rank(cm, dest) : -1;
    if (world < 0)
        return;
    mpp_chk_record_t r;
    int padded;
    make_record(c, cm->channel, tag, count, type, &r, &padded);
    if (summed)
        add_checksum(&r, buf, count, type, padded);
    mpp_ws_check_record(world, &r);
}

void mpp_chk_send(const mpp_call_t *c, MPI_Comm comm, int dest, int tag, const void *buf, int64_t count,
                  MPI_Datatype type)
{
    send_record(c, comm, dest, tag, buf, count, type, 1);
}

void mpp_chk_send_replaced(const mpp_call_t *c, MPI_Comm comm, int dest, int tag, int64_t count, MPI_Datatype type)
{
    send_record(c, comm, dest, tag, NULL, count, type, 0);
}

void mpp_chk_send_init(const mpp_call_t *c, MPI_Comm comm, int dest, int tag, const void *buf, int64_t count,
                       MPI_Datatype type, MPI_Request request)
{
    if (!on || dest == MPI_PROC_NULL || request == MPI_REQUEST_NULL || !c->new_request)
        return;
    mpp_comm_t *cm = mpp_comm_get(comm);
    int world = cm && cm->id ? mpp_comm_world_rank(cm, dest) : -1;
    if (world < 0)
        return;
    req_t q = {.kind = Q_PSEND, .peer = world, .buf = (void *)buf, .count = count, .type = type};
    make_record(c, cm->channel, tag, count, type, &q.record, &q.padded);
    int inserted;
    take();
    req_t *slot = mpp_handlemap_put(&requests, mpp_request_pack(mpp_request_key(request), c->new_serial), &inserted);
    if (slot)
        *slot = q;
    give();
}

/* ------------------------------------------------------------------ */
/* Receives */

static int is_poisoned(uint32_t channel) { return poisoned.count && mpp_handlemap_get(&poisoned, channel); }

/* A receive of `count` `type` at `site` took the message of status: its
 * part of the pairing. */
static void fill_recv(recv_t *r, const site_t *site, const MPI_Status *st, const void *buf, int64_t count,
                      MPI_Datatype type, int64_t capacity, mpp_signature_t sig, int padded, int ret)
{
    *r = (recv_t){capacity, mpp_status_bytes(st), sig, 0, ret == MPI_SUCCESS ? 0 : R_TRUNCATED, *site};
    int elements = 0;
    (void)count;
    if (checksums && !padded && ret == MPI_SUCCESS && type != MPI_DATATYPE_NULL && buf != MPP_NO_BUFFER &&
        PMPI_Get_count(st, type, &elements) == MPI_SUCCESS && elements != MPI_UNDEFINED &&
        checksum_of(buf, elements, type, &r->checksum))
        r->flags |= R_CHECKSUM;
}

/* The send's call in this address space (asked only for a finding). */
static uintptr_t send_site(const mpp_chk_record_t *s)
{
    return mpp_chk_site_address((mpp_chk_site_t){s->module, s->offset});
}

/* A message paired with its receive: what they disagree on. */
/* The mpi-error of a truncation the pairing could not report after all. */
static void deferred_error(const recv_t *r)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int n = 0;
    PMPI_Error_string(MPI_ERR_TRUNCATE, text, &n);
    mpp_check_report_at(MPP_FIND_MPI_ERROR, -1, r->site.fid, r->site.frames, r->site.depth, -1, 0, 0,
                        "MPI_ERR_TRUNCATE: %s (its send was not seen)", text);
}

static void paired(void *ctx, uint32_t channel, int32_t source, int32_t tag, const void *record, const void *receive)
{
    (void)ctx;
    const mpp_chk_record_t *s = record;
    const recv_t *r = receive;
    if ((r->flags & R_QUIET) || unseen || !r->site.frames || r->site.depth <= 0 || is_poisoned(channel)) {
        if (r->flags & R_DEFERRED)
            deferred_error(r);
        return;
    }
    const site_t *at = &r->site;
    /* the verdict and its words are mpiprof-analyze's too (check/msgcheck.h) */
    mpp_msg_verdict_t v[MPP_MSG_VERDICTS];
    mpp_msg_side_t sent = {s->bytes, {s->sig_hash, s->sig_length, s->sig_basic}}, into = {r->capacity, r->sig};
    int truncation = 0;
    for (int i = 0, n = mpp_msg_verdicts(&sent, &into, tag, full, v); i < n; i++) {
        truncation |= v[i].kind == MPP_FIND_WRONG_SEND_SIZE;
        mpp_check_report_at(v[i].kind, -1, at->fid, at->frames, at->depth, source, s->fid, send_site(s), "%s",
                            v[i].detail);
    }
    if ((r->flags & R_DEFERRED) && !truncation) /* (the record does not say it: MPI did) */
        deferred_error(r);
    if ((s->flags & MPP_CHK_RECORD_CHECKSUM) && (r->flags & R_CHECKSUM) && s->bytes == r->received &&
        s->checksum != r->checksum)
        mpp_check_report_at(MPP_FIND_RECV_CHECKSUM, -1, at->fid, at->frames, at->depth, source, s->fid, send_site(s),
                            "the %lld bytes received (tag %d) differ from those the send had when it was called",
                            (long long)s->bytes, tag);
}

static void deliver(void *ctx, uint32_t channel, int32_t source, int32_t tag, const void *blob)
{
    (void)ctx;
    mpp_msgpair_receive(&pairs, channel, source, tag, blob);
}

/* The thread's last call whose truncated receives the pairing took, to
 * report as wrong-send-size with their sends: MPI's error for them
 * (MPI_ERR_TRUNCATE, MPI_ERR_IN_STATUS) is no mpi-error besides. */
static __thread const mpp_call_t *truncated_call __attribute__((tls_model("initial-exec")));
static __thread uint64_t truncated_t0 __attribute__((tls_model("initial-exec")));

int mpp_chk_truncation_reported(const mpp_call_t *c)
{
    return c && c == truncated_call && c->t0 == truncated_t0; /* (a later call may reuse its stack slot) */
}

/* A receive posted as seq (0: now) took the message of st (lock held):
 * whether the pairing will report what it finds (paired's conditions). */
static int received(const mpp_comm_t *cm, uint64_t seq, const MPI_Status *st, recv_t *r)
{
    int32_t source = mpp_comm_world_rank(cm, st->MPI_SOURCE);
    if (source < 0)
        return 0;
    if (!seq)
        seq = mpp_recvorder_seq(&order);
    int reports = !unseen && r->site.frames && r->site.depth > 0 && !is_poisoned(cm->channel);
    if (reports && (r->flags & R_TRUNCATED))
        r->flags |= R_DEFERRED;
    mpp_recvorder_complete(&order, seq, cm->channel, source, st->MPI_TAG, r);
    return reports;
}

static void blocking_receive(const mpp_call_t *c, mpp_comm_t *cm, const MPI_Status *st, void *buf, int64_t count,
                             MPI_Datatype type, int ret)
{
    if (!cm || !cm->id)
        return;
    mpp_chk_sig_t s = full || checksums ? mpp_chk_signature(type, count) : (mpp_chk_sig_t){{0, 0, -2}, 1};
    site_t site = site_of(c);
    recv_t r;
    fill_recv(&r, &site, st, buf, count, type, bytes_of(count, type), s.sig, s.padded || s.sig.basic == -2, ret);
    take();
    int reported = received(cm, 0, st, &r) && (r.flags & R_TRUNCATED);
    give();
    if (reported) {
        truncated_call = c;
        truncated_t0 = c->t0;
    }
}

void mpp_chk_recv(const mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, void *buf, int64_t count,
                  MPI_Datatype type, int ret)
{
    if (on && mpp_chk_took_message(ret) && mpp_ws_is_message(status))
        blocking_receive(c, mpp_comm_get(comm), status, buf, count, type, ret);
}

void mpp_chk_mrecv(const mpp_call_t *c, MPI_Message message, const MPI_Status *status, void *buf, int64_t count,
                   MPI_Datatype type, int ret)
{
    MPI_Comm comm;
    int source, tag;
    if (!on || !mpp_chk_took_message(ret) || !mpp_ws_is_message(status))
        return;
    if (!mpp_ws_probe_of(message, &comm, &source, &tag)) {
        go_quiet("a message received of a communicator they do not know"); /* the pairing is no longer sure */
        return;
    }
    blocking_receive(c, mpp_comm_get(comm), status, buf, count, type, ret);
}

/* A receive request: followed until it completes (persistent: freed). */
static void track_receive(const mpp_call_t *c, mpp_comm_t *cm, int source, int tag, void *buf, int64_t count,
                          MPI_Datatype type, MPI_Request request, int kind)
{
    if (!cm || !cm->id || request == MPI_REQUEST_NULL || !c->new_request || source == MPI_PROC_NULL)
        return;
    mpp_chk_sig_t s = full || checksums ? mpp_chk_signature(type, count) : (mpp_chk_sig_t){{0, 0, -2}, 1};
    req_t q = {.kind = kind,
               .comm = cm,
               .channel = cm->channel,
               .peer = source == MPI_ANY_SOURCE ? MPP_MSG_ANY : mpp_comm_world_rank(cm, source),
               .source = source,
               .tag = tag == MPI_ANY_TAG ? MPP_MSG_ANY : tag,
               .buf = buf,
               .count = count,
               .type = type,
               .bytes = bytes_of(count, type),
               .sig = s.sig,
               .padded = s.padded || s.sig.basic == -2,
               .site = site_of(c)};
    int inserted;
    mpp_comm_hold(cm);
    take();
    req_t *slot = mpp_handlemap_put(&requests, mpp_request_pack(mpp_request_key(request), c->new_serial), &inserted);
    if (!slot)
        mpp_comm_release(cm);
    if (slot) {
        if (!inserted) { /* a handle MPI gave again unseen */
            mpp_recvorder_unpost(&order, slot->post);
            mpp_comm_release(slot->comm);
        }
        *slot = q;
        if (kind == Q_RECV && (slot->post = mpp_recvorder_post(&order, q.channel, q.peer, q.tag)) != NULL)
            slot->seq = slot->post->seq;
    }
    give();
}

void mpp_chk_irecv(const mpp_call_t *c, MPI_Comm comm, int source, int tag, void *buf, int64_t count,
                   MPI_Datatype type, MPI_Request request, int persistent)
{
    if (on)
        track_receive(c, mpp_comm_get(comm), source, tag, buf, count, type, request, persistent ? Q_PRECV : Q_RECV);
}

void mpp_chk_imrecv(const mpp_call_t *c, MPI_Message message, void *buf, int64_t count, MPI_Datatype type,
                    MPI_Request request)
{
    MPI_Comm comm;
    int source, tag;
    if (!on || message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return;
    if (!mpp_ws_probe_of(message, &comm, &source, &tag)) {
        go_quiet("a message received of a communicator they do not know");
        return;
    }
    track_receive(c, mpp_comm_get(comm), source, tag, buf, count, type, request, Q_RECV);
}

/* ------------------------------------------------------------------ */
/* Requests */

/* A receive request completed with status st (NULL: not known): whether
 * the pairing took it and will report what it finds. */
static int receive_done(req_t *q, const MPI_Status *st, int err)
{
    int taken = 0;
    if (st && mpp_chk_took_message(err) && mpp_ws_is_message(st)) {
        recv_t r;
        fill_recv(&r, &q->site, st, q->buf, q->count, q->type, q->bytes, q->sig, q->padded, err);
        /* the message has the source and tag posted, where they were not
         * wildcards: MPICH's status of an MPI_Isendrecv names its own
         * internal tag */
        MPI_Status posted = *st;
        if (q->source != MPI_ANY_SOURCE)
            posted.MPI_SOURCE = q->source;
        if (q->tag != MPP_MSG_ANY)
            posted.MPI_TAG = q->tag;
        taken = received(q->comm, q->seq, &posted, &r);
    } else if (!st) {
        go_quiet("a receive completed whose status they did not see"); /* the pairing is no longer sure */
    }
    mpp_recvorder_unpost(&order, q->post);
    q->post = NULL;
    q->active = 0;
    return taken;
}

/* The error of completion j of a call that returned ret. */
static int error_of(int ret, const MPI_Status *st)
{
    if (ret != MPI_ERR_IN_STATUS)
        return ret;
    return st ? st->MPI_ERROR : MPI_ERR_OTHER;
}

void mpp_chk_completed(const mpp_call_t *c, int ret, const mpp_reqset_t *set, int n, const int *which,
                       const MPI_Status *statuses)
{
    if (!on || (ret != MPI_ERR_IN_STATUS && !mpp_chk_took_message(ret)))
        return;
    int reported = ret != MPI_SUCCESS; /* every failed completion a truncation the pairing took */
    take();
    for (int j = 0; j < n && (requests.count || reported); j++) {
        int i = which ? which[j] : j;
        req_t *q = requests.count && i >= 0 && i < set->n && set->keys[i] ? mpp_handlemap_get(&requests, set->keys[i])
                                                                          : NULL;
        const MPI_Status *st = statuses != MPI_STATUSES_IGNORE ? &statuses[j] : NULL;
        int err = error_of(ret, st);
        if (err == MPI_ERR_PENDING)
            continue; /* not completed */
        int truncated = err != MPI_SUCCESS && mpp_chk_took_message(err);
        if (!q || q->kind == Q_PSEND) {
            reported = reported && err == MPI_SUCCESS;
            continue;
        }
        int taken = receive_done(q, st, err);
        reported = reported && (err == MPI_SUCCESS || (truncated && taken));
        if (q->kind == Q_RECV) {
            mpp_comm_release(q->comm);
            mpp_handlemap_remove_value(&requests, q);
        }
    }
    give();
    if (reported) {
        truncated_call = c;
        truncated_t0 = c->t0;
    }
}

void mpp_chk_started(const mpp_call_t *c, const mpp_reqset_t *set)
{
    (void)c;
    if (!on)
        return;
    for (int i = 0; i < set->n; i++) {
        mpp_chk_record_t r;
        int dest = -1;
        take();
        req_t *q = set->keys[i] ? mpp_handlemap_get(&requests, set->keys[i]) : NULL;
        if (q && q->kind == Q_PSEND) {
            r = q->record;
            dest = q->peer;
            add_checksum(&r, q->buf, q->count, q->type, q->padded); /* the bytes it has now */
        } else if (q && q->kind == Q_PRECV) {
            mpp_recvorder_unpost(&order, q->post);
            q->post = mpp_recvorder_post(&order, q->channel, q->peer, q->tag);
            q->seq = q->post ? q->post->seq : 0;
            q->active = 1;
        }
        give();
        if (dest >= 0) /* outside this lock: the exchange's comes first where both are held */
            mpp_ws_check_record(dest, &r);
    }
}

void mpp_chk_freed(const mpp_reqset_t *set)
{
    if (!on)
        return;
    take();
    for (int i = 0; i < set->n; i++) {
        req_t *q = set->keys[i] ? mpp_handlemap_get(&requests, set->keys[i]) : NULL;
        if (!q)
            continue;
        if (q->kind == Q_RECV || (q->kind == Q_PRECV && q->active)) {
            /* a receive freed while active may take a message no one sees */
            int inserted;
            mpp_handlemap_put(&poisoned, q->channel, &inserted);
        }
        mpp_recvorder_unpost(&order, q->post);
        mpp_comm_release(q->comm);
        mpp_handlemap_remove_value(&requests, q);
    }
    give();
}

void mpp_chk_cancelled(const mpp_reqset_t *set)
{
    if (!on)
        return;
    take();
    for (int i = 0; i < set->n; i++) {
        req_t *q = set->keys[i] ? mpp_handlemap_get(&requests, set->keys[i]) : NULL;
        if (!q || q->kind == Q_PSEND)
            go_quiet("MPI_Cancel of a send (its message may never come)"); /* not a receive followed: maybe a send */
    }
    give();
}

/* ------------------------------------------------------------------ */

/* Check records from world rank source (the exchange's lock held). */
static void replay(int source, const unsigned char *data, int n)
{
    take();
    for (int k = 0; k < n; k++) {
        mpp_chk_record_t r;
        memcpy(&r, data + (size_t)k * sizeof r, sizeof r);
        if (r.comm == MPP_COMM_ID_RMA) /* a one-sided access, no message (rma_between.c) */
            mpp_rma_between_record(source, data + (size_t)k * sizeof r);
        else
            mpp_msgpair_record(&pairs, r.comm, source, r.tag, &r);
    }
    give();
}

void mpp_chk_msg_start(int level)
{
    on = (level & MPP_CHECK_LEVEL) != MPP_CHECK_OFF;
    full = (level & MPP_CHECK_LEVEL) >= MPP_CHECK_FULL;
    checksums = on && (level & MPP_CHECK_CHECKSUM);
    unseen = 0;
    if (!on)
        return;
    lock.on = mpp_ws_lock.on;
    mpp_handlemap_init(&requests, sizeof(req_t));
    mpp_handlemap_init(&poisoned, 1);
    mpp_msgpair_init(&pairs, sizeof(mpp_chk_record_t), sizeof(recv_t), 0, paired, NULL);
    mpp_recvorder_init(&order, sizeof(recv_t), deliver, NULL);
    mpp_wsx_check_replay(replay);
}

static void make_quiet(void *blob) { ((recv_t *)blob)->flags |= R_QUIET; }

static int by_seq(const void *a, const void *b)
{
    const req_t *x = *(req_t *const *)a, *y = *(req_t *const *)b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void collect_pending(uint64_t key, void *value, void *arg)
{
    (void)key;
    req_t *q = value, ***out = arg;
    if (q->post)
        *(*out)++ = q;
}

/* A receive pending at the end: the message some record left could be
 * its own (unfinished-recv says that); none could: nonpaired-recv. */
static void pending_receive(const req_t *q)
{
    mpp_chk_record_t r;
    if (mpp_msgpair_take(&pairs, q->channel, q->peer, q->tag, &r) || unseen || is_poisoned(q->channel) ||
        !q->site.frames)
        return;
    char detail[MPP_FINDING_DETAIL];
    mpp_msg_nonpaired_recv(q->peer, q->tag, detail, sizeof detail);
    mpp_check_report_at(MPP_FIND_NONPAIRED_RECV, -1, q->site.fid, q->site.frames, q->site.depth,
                        q->peer == MPP_MSG_ANY ? -1 : q->peer, 0, 0, "%s", detail);
}

/* A receive no record came for (its sender not profiled, or gone). */
static void unpaired_receive(void *arg, uint32_t channel, int32_t source, int32_t tag, const void *receive)
{
    (void)arg, (void)channel, (void)source, (void)tag;
    if (((const recv_t *)receive)->flags & R_DEFERRED)
        deferred_error(receive);
}

static void nonpaired_send(void *arg, uint32_t channel, int32_t source, int32_t tag, const void *record)
{
    (void)arg;
    const mpp_chk_record_t *s = record;
    uintptr_t at = mpp_chk_site_address((mpp_chk_site_t){s->module, s->offset});
    if (!at || unseen || is_poisoned(channel))
        return; /* the send's call is not known here */
    char detail[MPP_FINDING_DETAIL];
    mpp_msg_nonpaired_send(s->bytes, tag, (int)source, detail, sizeof detail);
    mpp_check_report_at(MPP_FIND_NONPAIRED_SEND, -1, s->fid, &at, 1, source, 0, 0, "%s", detail);
}

void mpp_chk_msg_end(void)
{
    if (!on)
        return;
    on = 0;
    /* receives held back for one still pending: their order is not sure */
    mpp_recvorder_flush(&order, make_quiet);
    req_t **pending = requests.count ? malloc(requests.count * sizeof *pending) : NULL, **end = pending;
    if (pending) {
        mpp_handlemap_each(&requests, collect_pending, &end);
        qsort(pending, (size_t)(end - pending), sizeof *pending, by_seq);
        for (req_t **q = pending; q < end; q++)
            pending_receive(*q);
    }
    free(pending);
    mpp_msgpair_each_record(&pairs, nonpaired_send, NULL);
    mpp_msgpair_each_receive(&pairs, unpaired_receive, NULL);
    mpp_recvorder_free(&order);
    mpp_msgpair_free(&pairs);
    mpp_handlemap_free(&requests); /* (the communicators went with the wait states' end) */
    mpp_handlemap_free(&poisoned);
    mpp_chk_sites_end();
    if (unseen_why) /* a check that could not run is said, never skipped in silence */
        mpp_warn("the message checks (wrong-send-size, incorrect-send-size, wrong-datatype, recv-checksum, "
                 "nonpaired-send, nonpaired-recv) stopped reporting at the first %s: from then on their pairing "
                 "of messages was not sure",
                 unseen_why);
}
