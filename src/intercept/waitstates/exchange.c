#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/commids.h"
#include "intercept/waitstates/clockbound.h"
#include "intercept/waitstates/exchange.h"

enum { TAG_STREAM = 7201, TAG_REDUCTION = 7202, TAG_CHECK = 7203 };

/* A reduction message: this header, then n int64_t values. */
typedef struct {
    uint64_t comm, seq;
    int32_t n, flags;
} reduction_header_t;

enum { FLAG_RESULT = 1, FLAG_MISMATCH = 2, FLAG_SUM = 4 };

/* Every message buffer has room for a full stream batch or a reduction of
 * width x batch values, and the clocks' trailer (clockbound.h), which every
 * message to another process ends with. */
typedef struct message {
    MPI_Request request;
    int dest, tag, bytes;
    struct message *next;
    unsigned char data[];
} message_t;

/* One posted receive of each kind; `busy`: a thread is testing it. */
typedef struct {
    int tag, busy, active;
    MPI_Request request;
    unsigned char *buffer;
} receive_t;

static MPI_Comm comm = MPI_COMM_NULL;
static int batch, self; /* self: this process's rank in comm */
int mpp_wsx_world_size;
mpp_wsx_cursor_t *mpp_wsx_cursors; /* [world size]: into filling[dest] */
static size_t capacity;
static mpp_mt_lock_t *lock;
static mpp_wsx_callbacks_t cb;
static message_t **filling; /* [mpp_wsx_world_size] */
static message_t *spare, *in_flight, *queue, **queue_tail = &queue;
static int sending, reclaiming;
static receive_t stream_in = {TAG_STREAM, 0, 0, MPI_REQUEST_NULL, NULL};
static receive_t reductions_in = {TAG_REDUCTION, 0, 0, MPI_REQUEST_NULL, NULL};
/* The check records' stream (none when check_bytes is 0): a batch being
 * filled per destination, `check_fill[dest]` records in it. */
static receive_t check_in = {TAG_CHECK, 0, 0, MPI_REQUEST_NULL, NULL};
static int check_bytes;
static message_t **check_filling;
static int *check_fill;
static void (*check_replay)(int source, const unsigned char *records, int n);
mpp_reductions_t mpp_wsx_reductions;
static mpp_tree_t world_tree;             /* this process in the tree of all processes (the end's rounds) */
static uint64_t data_sent, data_received; /* stream batches and reduction messages, not the rounds' */
static mpp_wsx_stats_t stats;
static int round_done;
static int64_t round_totals[2];

__thread int mpp_wsx_queued_here __attribute__((tls_model("initial-exec")));

static void reclaim(void);
static void deliver_locally(message_t *list);

static inline void take(void) { mpp_mt_take(lock); }
static inline void give(void) { mpp_mt_give(lock); }

static message_t *new_message_locked(void)
{
    message_t *m = spare;
    if (m)
        spare = m->next;
    else if (!(m = malloc(sizeof *m + capacity)))
        return NULL;
    m->next = NULL;
    return m;
}

static void queue_locked(message_t *m, int dest, int tag, int bytes, int data)
{
    m->dest = dest;
    m->tag = tag;
    m->bytes = bytes;
    m->next = NULL;
    *queue_tail = m;
    queue_tail = &m->next;
    mpp_wsx_queued_here = 1;
    if (data)
        data_sent++;
}

void mpp_wsx_flush(void)
{
    mpp_wsx_queued_here = 0;
    take();
    if (sending || !queue) {
        give();
        return;
    }
    sending = 1;
    while (queue) {
        message_t *list = queue;
        queue = NULL;
        queue_tail = &queue;
        /* a process's records for itself need no message (MPICH 4.0.2
         * crashes testing an MPI_Issend to self under sessions at one
         * process) */
        message_t *local = NULL, **local_tail = &local, *remote = NULL, **remote_tail = &remote;
        for (message_t *m = list, *next; m; m = next) {
            next = m->next;
            m->next = NULL;
            if (m->dest == self) {
                *local_tail = m, local_tail = &m->next;
            } else {
                *remote_tail = m, remote_tail = &m->next;
                mpp_wsc_stamp(m->dest, m->data + m->bytes); /* read before it leaves: a bound still */
                m->bytes += MPP_WSC_TRAILER;
            }
        }
        if (local)
            deliver_locally(local); /* may queue more: the loop takes them */
        give();
        /* synchronous: its completion says the receiver has it */
        for (message_t *m = remote; m; m = m->next)
            PMPI_Issend(m->data, m->bytes, MPI_BYTE, m->dest, m->tag, comm, &m->request);
        take();
        if (remote) {
            *remote_tail = in_flight;
            in_flight = remote;
        }
    }
    sending = 0;
    give();
    /* a process that only sends comes here once a batch: its buffers in
     * flight go back to the spares (none is allocated once they suffice) */
    reclaim();
}

/* Buffers of the sends that completed go back to the spares. */
static void reclaim(void)
{
    take();
    if (reclaiming || !in_flight) {
        give();
        return;
    }
    reclaiming = 1;
    message_t *list = in_flight, *done = NULL, *pending = NULL;
    in_flight = NULL;
    give();
    while (list) {
        message_t *m = list;
        int complete = 0;
        list = m->next;
        PMPI_Test(&m->request, &complete, MPI_STATUS_IGNORE);
        message_t **to = complete ? &done : &pending;
        m->next = *to;
        *to = m;
    }
    take();
    while (pending) {
        message_t *m = pending;
        pending = m->next;
        m->next = in_flight;
        in_flight = m;
    }
    while (done) {
        message_t *m = done;
        done = m->next;
        m->next = spare;
        spare = m;
    }
    reclaiming = 0;
    give();
}

/* ------------------------------------------------------------------ */
/* Stream */

static mpp_send_record_t *records_of(message_t *m) { return (mpp_send_record_t *)(void *)m->data; }

static void flush_stream_locked(int dest)
{
    message_t *m = filling[dest];
    if (!m || mpp_wsx_cursors[dest].next == records_of(m))
        return;
    int bytes = (int)((mpp_wsx_cursors[dest].next - records_of(m)) * (ptrdiff_t)sizeof(mpp_send_record_t));
    filling[dest] = NULL;
    mpp_wsx_cursors[dest] = (mpp_wsx_cursor_t){NULL, NULL};
    queue_locked(m, dest, TAG_STREAM, bytes, 1);
    stats.batches++;
    stats.batch_bytes += (uint64_t)bytes;
}

/* The record that begins a batch or ends it (mpp_wsx_record_send_locked
 * writes the others). */
int mpp_wsx_record_send_else_locked(int dest, uint32_t channel, int32_t tag, int64_t entry)
{
    if (dest < 0 || dest >= mpp_wsx_world_size)
        return 0;
    mpp_wsx_cursor_t *c = &mpp_wsx_cursors[dest];
    message_t *m = filling[dest];
    if (!m) {
        if (!(m = filling[dest] = new_message_locked()))
            return 0;
        c->next = records_of(m);
        c->last = records_of(m) + batch - 1;
    }
    *c->next++ = (mpp_send_record_t){channel, tag, entry};
    if (c->next == records_of(m) + batch)
        flush_stream_locked(dest);
    return 1;
}

static void flush_checks_locked(int dest)
{
    message_t *m = check_filling[dest];
    if (!m || !check_fill[dest])
        return;
    int bytes = check_fill[dest] * check_bytes;
    check_filling[dest] = NULL;
    check_fill[dest] = 0;
    queue_locked(m, dest, TAG_CHECK, bytes, 1);
}

int mpp_wsx_check_record_locked(int dest, const void *record)
{
    if (!check_bytes || dest < 0 || dest >= mpp_wsx_world_size)
        return 0;
    message_t *m = check_filling[dest];
    if (!m && !(m = check_filling[dest] = new_message_locked()))
        return 0;
    memcpy(m->data + (size_t)check_fill[dest]++ * (size_t)check_bytes, record, (size_t)check_bytes);
    if (check_fill[dest] == batch)
        flush_checks_locked(dest);
    return 1;
}

void mpp_wsx_check_replay(void (*replay)(int source, const unsigned char *records, int n))
{
    take();
    check_replay = replay;
    give();
}

static void replay_checks_locked(int source, const unsigned char *data, int bytes)
{
    if (check_replay && check_bytes)
        check_replay(source, data, bytes / check_bytes);
}

/* ------------------------------------------------------------------ */
/* Reductions */

static void send_reduction_locked(int dest, const mpp_reduction_t *r, int result)
{
    message_t *m = new_message_locked();
    if (!m)
        return; /* the reduction will not finish: dropped at the end */
    reduction_header_t h = {r->comm, r->seq, r->n,
                            (result ? FLAG_RESULT : 0) | (r->mismatch ? FLAG_MISMATCH : 0) |
                                (r->op == MPP_REDUCE_SUM ? FLAG_SUM : 0)};
    memcpy(m->data, &h, sizeof h);
    memcpy(m->data + sizeof h, r->values, (size_t)r->n * sizeof *r->values);
    queue_locked(m, dest, TAG_REDUCTION, (int)(sizeof h + (size_t)r->n * sizeof *r->values),
                 r->comm != MPP_COMM_ID_CONTROL);
}

static void ended_locked(mpp_reduction_t *r)
{
    if (r->comm == MPP_COMM_ID_CONTROL) {
        round_totals[0] = r->values[0];
        round_totals[1] = r->n > 1 ? r->values[1] : 0;
        round_done = 1;
        return;
    }
    if (r->mismatch && r->seq != MPP_WS_COUNT_SEQ) /* (the checks' counts are not the wait states') */
        stats.dropped++;
    cb.result(r->user, r->seq, r->mismatch ? NULL : r->values, r->n);
}

static void step_locked(mpp_reduction_t *r, mpp_reduction_next_t next)
{
    if (next == MPP_REDUCTION_SEND_UP) {
        send_reduction_locked(r->tree.parent, r, 0);
        mpp_reduction_sent_up(r);
    } else if (next == MPP_REDUCTION_RESULT) {
        for (int i = 0; i < r->tree.nchildren; i++)
            send_reduction_locked(r->tree.children[i], r, 1);
        ended_locked(r);
        mpp_reduction_remove(&mpp_wsx_reductions, r);
    }
}

static void reduce_locked(uint64_t id, uint64_t seq, int op, int n, const int64_t *values, const mpp_tree_t *tree,
                          void *user)
{
    mpp_reduction_t *r;
    mpp_reduction_next_t next = mpp_reduction_own(&mpp_wsx_reductions, id, seq, op, n, values, tree, user, &r);
    if (next == MPP_REDUCTION_ERROR) {
        if (id != MPP_COMM_ID_CONTROL) {
            stats.dropped += seq != MPP_WS_COUNT_SEQ;
            cb.result(user, seq, NULL, n);
        }
        return;
    }
    step_locked(r, next);
}

void mpp_wsx_reduce_locked(uint64_t id, uint64_t seq, int n, const int64_t *values, const mpp_tree_t *tree,
                           void *user)
{
    reduce_locked(id, seq, MPP_REDUCE_MAX, n, values, tree, user);
}

static void dispatch_reduction_locked(const unsigned char *buffer, int bytes)
{
    reduction_header_t h;
    if (bytes < (int)sizeof h)
        return;
    memcpy(&h, buffer, sizeof h);
    if (h.n < 0 || (size_t)bytes != sizeof h + (size_t)h.n * sizeof(int64_t))
        return;
    if (h.comm != MPP_COMM_ID_CONTROL)
        data_received++;
    const int64_t *values = (const int64_t *)(const void *)(buffer + sizeof h); /* the header keeps them aligned */
    mpp_reduction_t *r;
    mpp_reduction_next_t next =
        h.flags & FLAG_RESULT
            ? mpp_reduction_result(&mpp_wsx_reductions, h.comm, h.seq, h.n, values, h.flags & FLAG_MISMATCH, &r)
            : mpp_reduction_part(&mpp_wsx_reductions, h.comm, h.seq,
                                 h.flags & FLAG_SUM ? MPP_REDUCE_SUM : MPP_REDUCE_MAX, h.n, values,
                                 h.flags & FLAG_MISMATCH, &r);
    if (next != MPP_REDUCTION_ERROR)
        step_locked(r, next);
}

/* ------------------------------------------------------------------ */
/* Receives */

static void post(receive_t *in)
{
    PMPI_Irecv(in->buffer, (int)capacity, MPI_BYTE, MPI_ANY_SOURCE, in->tag, comm, &in->request);
}

/* Take what arrived, one thread at a time; the request is touched only by
 * the thread that set `busy`. */
static void progress_receive(receive_t *in)
{
    take();
    if (in->busy || !in->active) {
        give();
        return;
    }
    in->busy = 1;
    give();
    for (;;) {
        int done = 0, bytes = 0;
        MPI_Status status;
        PMPI_Test(&in->request, &done, &status);
        if (!done)
            break;
        PMPI_Get_count(&status, MPI_BYTE, &bytes);
        take();
        if (bytes >= MPP_WSC_TRAILER) {
            bytes -= MPP_WSC_TRAILER;
            mpp_wsc_receive(status.MPI_SOURCE, in->buffer + bytes);
        }
        if (in == &stream_in) {
            data_received++;
            cb.replay(status.MPI_SOURCE, (const mpp_send_record_t *)(const void *)in->buffer,
                      bytes / (int)sizeof(mpp_send_record_t));
        } else if (in == &check_in) {
            data_received++;
            replay_checks_locked(status.MPI_SOURCE, in->buffer, bytes);
        } else {
            dispatch_reduction_locked(in->buffer, bytes);
        }
        give();
        post(in);
    }
    take();
    in->busy = 0;
    give();
    if (mpp_wsx_queued_here)
        mpp_wsx_flush();
}

void mpp_wsx_progress_stream(void)
{
    progress_receive(&stream_in);
    if (check_bytes)
        progress_receive(&check_in);
    reclaim();
}

void mpp_wsx_progress_reductions(void) { progress_receive(&reductions_in); }

/* Messages to this process (lock held): handled as if received, in the
 * order queued (what non-overtaking gives between two processes), their
 * buffers back to the spares. */
static void deliver_locally(message_t *list)
{
    while (list) {
        message_t *m = list;
        list = m->next;
        if (m->tag == TAG_STREAM) {
            data_received++;
            cb.replay(self, records_of(m), m->bytes / (int)sizeof(mpp_send_record_t));
        } else if (m->tag == TAG_CHECK) {
            data_received++;
            replay_checks_locked(self, m->data, m->bytes);
        } else {
            dispatch_reduction_locked(m->data, m->bytes);
        }
        m->next = spare;
        spare = m;
    }
}

static void cancel_receive(receive_t *in)
{
    if (in->active) {
        PMPI_Cancel(&in->request);
        PMPI_Wait(&in->request, MPI_STATUS_IGNORE);
        in->active = 0;
    }
    free(in->buffer);
    in->buffer = NULL;
}

/* ------------------------------------------------------------------ */

int mpp_wsx_start(MPI_Comm c, int batch_size, int width, int check_records, mpp_mt_lock_t *l,
                  mpp_wsx_callbacks_t callbacks)
{
    comm = c;
    batch = batch_size;
    lock = l;
    cb = callbacks;
    memset(&stats, 0, sizeof stats);
    data_sent = data_received = 0;
    spare = in_flight = queue = NULL;
    queue_tail = &queue;
    sending = reclaiming = 0;
    size_t stream_bytes = (size_t)batch * sizeof(mpp_send_record_t);
    size_t reduction_bytes = sizeof(reduction_header_t) + ((size_t)width * (size_t)batch + 1) * sizeof(int64_t);
    size_t check_batch_bytes = (size_t)batch * (size_t)check_records;
    capacity = stream_bytes > reduction_bytes ? stream_bytes : reduction_bytes;
    capacity = check_batch_bytes > capacity ? check_batch_bytes : capacity;
    capacity += MPP_WSC_TRAILER;
    PMPI_Comm_size(comm, &mpp_wsx_world_size);
    PMPI_Comm_rank(comm, &self);
    filling = calloc((size_t)mpp_wsx_world_size, sizeof *filling);
    mpp_wsx_cursors = calloc((size_t)mpp_wsx_world_size, sizeof *mpp_wsx_cursors);
    stream_in.buffer = malloc(capacity);
    reductions_in.buffer = malloc(capacity);
    check_bytes = check_records;
    check_filling = check_bytes ? calloc((size_t)mpp_wsx_world_size, sizeof *check_filling) : NULL;
    check_fill = check_bytes ? calloc((size_t)mpp_wsx_world_size, sizeof *check_fill) : NULL;
    check_in.buffer = check_bytes ? malloc(capacity) : NULL;
    int *everyone = malloc((size_t)mpp_wsx_world_size * sizeof *everyone);
    if (!filling || !mpp_wsx_cursors || !stream_in.buffer || !reductions_in.buffer || !everyone ||
        (check_bytes && (!check_filling || !check_fill || !check_in.buffer))) {
        free(filling), free(mpp_wsx_cursors), free(stream_in.buffer), free(reductions_in.buffer), free(everyone);
        free(check_filling), free(check_fill), free(check_in.buffer);
        filling = NULL, mpp_wsx_cursors = NULL, stream_in.buffer = reductions_in.buffer = NULL;
        check_filling = NULL, check_fill = NULL, check_in.buffer = NULL, check_bytes = 0;
        mpp_wsx_world_size = 0;
        return -1;
    }
    for (int r = 0; r < mpp_wsx_world_size; r++)
        everyone[r] = r;
    mpp_tree_place(&world_tree, everyone, mpp_wsx_world_size, self, MPP_COMM_ID_CONTROL);
    free(everyone);
    mpp_reductions_init(&mpp_wsx_reductions);
    /* Alone, every message is to itself (delivered locally): no receive
     * is posted, so no call of the exchange ever waits on MPI's progress
     * (MPICH 4.0.2 crashes in it under sessions at one process). */
    if (mpp_wsx_world_size > 1) {
        post(&stream_in);
        post(&reductions_in);
        stream_in.active = reductions_in.active = 1;
        if (check_bytes) {
            post(&check_in);
            check_in.active = 1;
        }
    }
    return 0;
}

static void free_messages(message_t *m)
{
    while (m) {
        message_t *next = m->next;
        free(m);
        m = next;
    }
}

static void drop_left(mpp_reduction_t *r, void *arg)
{
    (void)arg;
    if (r->own && r->comm != MPP_COMM_ID_CONTROL) {
        stats.dropped += r->seq != MPP_WS_COUNT_SEQ;
        cb.result(r->user, r->seq, NULL, r->n);
    }
}

static void stop(void)
{
    cancel_receive(&stream_in);
    cancel_receive(&reductions_in);
    cancel_receive(&check_in);
    mpp_reductions_each(&mpp_wsx_reductions, drop_left, NULL);
    mpp_reductions_free(&mpp_wsx_reductions);
    for (int d = 0; filling && d < mpp_wsx_world_size; d++)
        free(filling[d]);
    for (int d = 0; check_filling && d < mpp_wsx_world_size; d++)
        free(check_filling[d]);
    free(check_filling);
    free(check_fill);
    check_filling = NULL;
    check_fill = NULL;
    check_bytes = 0;
    check_replay = NULL;
    free(filling);
    free(mpp_wsx_cursors);
    filling = NULL;
    mpp_wsx_cursors = NULL;
    mpp_wsx_world_size = 0; /* no record goes inline any more */
    free_messages(spare);
    free_messages(queue);
    spare = queue = NULL;
    queue_tail = &queue;
}

void mpp_wsx_cancel(void)
{
    /* nothing was sent yet */
    stop();
}

void mpp_wsx_finish(void)
{
    take();
    for (int d = 0; d < mpp_wsx_world_size; d++) {
        flush_stream_locked(d);
        if (check_bytes)
            flush_checks_locked(d);
    }
    give();
    mpp_wsx_flush();
    int64_t previous[2] = {-1, -1};
    int running = 0;
    for (uint64_t round = 0;;) {
        progress_receive(&stream_in);
        progress_receive(&reductions_in);
        if (check_bytes)
            progress_receive(&check_in);
        reclaim();
        take();
        if (!running) {
            int64_t counts[2] = {(int64_t)data_sent, (int64_t)data_received};
            round_done = 0;
            running = 1;
            reduce_locked(MPP_COMM_ID_CONTROL, round, MPP_REDUCE_SUM, 2, counts, &world_tree, NULL);
        }
        int over = 0;
        if (round_done) {
            running = 0;
            round++;
            over = round_totals[0] == round_totals[1] && round_totals[0] == previous[0] &&
                   round_totals[1] == previous[1];
            previous[0] = round_totals[0];
            previous[1] = round_totals[1];
        }
        give();
        mpp_wsx_flush();
        if (over)
            break;
    }
    /* every message of the analysis has been received: the sends complete */
    take();
    message_t *list = in_flight;
    in_flight = NULL;
    give();
    for (message_t *m = list; m; m = m->next)
        PMPI_Wait(&m->request, MPI_STATUS_IGNORE);
    free_messages(list);
    stop();
}

void mpp_wsx_get_stats(mpp_wsx_stats_t *out) { *out = stats; }
