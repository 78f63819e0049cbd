/* The requests the wait-state analysis follows (waitstates/hooks.h): a
 * receive's request, for the message its completion receives; a
 * nonblocking or persistent collective's, for its instance's exit; a
 * persistent send's, for the send record each start makes; MPI_Comm_idup's,
 * for the communicator it makes.  Kept by handle and serial, from the
 * call that creates the request to the one that completes or frees it. */
#include <stdlib.h>

#include "intercept/check/collectives.h"
#include "intercept/check/run.h"
#include "intercept/waitstates/hooks.h"
#include "util/handlemap.h"

enum { REQ_RECV = 1, REQ_PRECV, REQ_PSEND, REQ_COLL, REQ_PCOLL, REQ_IDUP };

typedef struct {
    int kind;
    int dest, tag;     /* REQ_PSEND; REQ_RECV, REQ_PRECV: the source and tag posted */
    mpp_comm_t *comm;  /* held */
    uint64_t instance; /* REQ_COLL, REQ_PCOLL: the instance in progress */
    int active;        /* REQ_PCOLL: started, not completed */
    mpp_comm_t *made;  /* REQ_IDUP: the duplicate's entry, registered once the request completes */
    void *newcomm;     /* REQ_IDUP: where MPI writes its handle (MPI_Comm *, or MPI_Fint * for Fortran) */
    int fortran;
} ws_request_t;

static mpp_handlemap_t requests;

/* Requests are keyed as in mpp_reqset_t: mpp_request_pack(handle, serial) (MPI gives a
 * new request the handle of one just completed, maybe in another thread
 * before the completing thread has looked it up). */
static ws_request_t *track(const mpp_call_t *c, MPI_Request request, int kind, mpp_comm_t *comm, int dest, int tag,
                           uint64_t instance)
{
    int inserted;
    if (request == MPI_REQUEST_NULL || !c->new_request)
        return NULL;
    uint64_t key = mpp_request_pack(mpp_request_key(request), c->new_serial);
    ws_request_t *r = mpp_handlemap_put(&requests, key, &inserted);
    if (!r)
        return NULL;
    if (!inserted) { /* a handle MPI reused unseen */
        if (r->kind == REQ_PCOLL)
            mpp_ws_comm_end_locked(r->comm);
        mpp_comm_release(r->comm);
        mpp_comm_release(r->made);
    }
    mpp_comm_hold(comm);
    *r = (ws_request_t){kind, dest, tag, comm, instance, kind == REQ_COLL, NULL, NULL, 0};
    return r;
}

/* An entry just looked up (no second search), its communicators released. */
static void untrack_found(ws_request_t *r)
{
    mpp_comm_t *comm = r->comm, *made = r->made;
    if (r->kind == REQ_PCOLL)
        mpp_ws_comm_end_locked(comm);
    mpp_handlemap_remove_value(&requests, r);
    mpp_comm_release(comm);
    mpp_comm_release(made);
}

static void untrack(uint64_t key)
{
    ws_request_t *r = mpp_handlemap_get(&requests, key);
    if (r)
        untrack_found(r);
}

void mpp_ws_irecv(mpp_call_t *c, MPI_Comm comm, int source, int tag, MPI_Request request, int persistent)
{
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || !cm->id)
        return;
    mpp_ws_take();
    track(c, request, persistent ? REQ_PRECV : REQ_RECV, cm, source, tag, 0);
    mpp_ws_give();
}

/* The message a receive request received: the source and tag it posted
 * where they are not wildcards (MPICH's status of an MPI_Isendrecv names
 * an internal tag), the status's otherwise. */
static mpp_ws_envelope_t envelope_of(const ws_request_t *r, const MPI_Status *st)
{
    MPI_Status posted = *st;
    if (r->dest != MPI_ANY_SOURCE)
        posted.MPI_SOURCE = r->dest;
    if (r->tag != MPI_ANY_TAG)
        posted.MPI_TAG = r->tag;
    return mpp_ws_envelope(r->comm, &posted);
}

void mpp_ws_imrecv(mpp_call_t *c, MPI_Message message, MPI_Request request)
{
    if (message == MPI_MESSAGE_NULL || message == MPI_MESSAGE_NO_PROC)
        return;
    MPI_Comm comm;
    if (!mpp_ws_take_probe(message, &comm))
        return;
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || !cm->id)
        return;
    mpp_ws_take();
    track(c, request, REQ_RECV, cm, MPI_ANY_SOURCE, MPI_ANY_TAG, 0); /* its probe matched it: the status says */
    mpp_ws_give();
}

void mpp_ws_send_init(mpp_call_t *c, MPI_Comm comm, int dest, int tag, MPI_Request request)
{
    if (dest == MPI_PROC_NULL)
        return;
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || !cm->id)
        return;
    mpp_ws_take();
    track(c, request, REQ_PSEND, cm, dest, tag, 0);
    mpp_ws_give();
}

void mpp_ws_icollective(mpp_call_t *c, MPI_Comm comm, MPI_Request request, int persistent)
{
    mpp_comm_t *cm = mpp_comm_get(comm);
    if (!cm || cm->members < 2 || mpp_ws_unfollowed(cm))
        return;
    /* A persistent collective's instances are numbered on a communicator
     * of its own, named as a duplicate would be: its members initialize it
     * in one order but may start it in any (MPI-4.0, 6.13), so the k-th
     * instance of its communicator is not the same operation everywhere. */
    mpp_comm_t *own = persistent ? mpp_comm_duplicating(comm) : NULL;
    if (persistent && !own)
        return;
    mpp_ws_take();
    if (persistent) {
        track(c, request, REQ_PCOLL, own, 0, 0, UINT64_MAX);
    } else {
        track(c, request, REQ_COLL, cm, 0, 0, mpp_ws_begin_instance(cm, c, mpp_ws_aligned(c->t0), INT64_MIN));
    }
    int pending = mpp_wsx_pending_locked();
    mpp_ws_give_and_send();
    if (pending)
        mpp_wsx_progress_reductions();
    mpp_comm_release(own); /* the request holds it */
}

void mpp_ws_started(mpp_call_t *c, const mpp_reqset_t *set)
{
    mpp_ws_take();
    for (int i = 0; i < set->n; i++) {
        ws_request_t *r = set->keys[i] ? mpp_handlemap_get(&requests, set->keys[i]) : NULL;
        if (!r)
            continue;
        if (r->kind == REQ_PSEND) {
            mpp_ws_stats.messages += (uint64_t)mpp_wsx_record_send_locked(
                mpp_comm_world_rank(r->comm, r->dest), r->comm->channel, r->tag, mpp_ws_aligned(c->t0));
        } else if (r->kind == REQ_PCOLL) {
            if (MPP_UNLIKELY(mpp_check_level)) /* its creating call's values, for this instance */
                mpp_chk_coll_started(c, set->keys[i]);
            r->instance = mpp_ws_begin_instance(r->comm, c, mpp_ws_aligned(c->t0), INT64_MIN);
            r->active = 1;
        }
    }
    mpp_ws_give_and_send();
}

/* Per thread: which statuses of a completion received a message (tested
 * before the lock is taken), and the duplicates whose MPI_Comm_idup
 * completed (registered after it is given). */
static __thread unsigned char *scratch_messages __attribute__((tls_model("initial-exec")));
static __thread int scratch_messages_count __attribute__((tls_model("initial-exec")));

typedef struct {
    mpp_comm_t *made;
    void *newcomm;
    int fortran;
} made_comm_t;

static __thread made_comm_t *made_list __attribute__((tls_model("initial-exec")));
static __thread int made_count __attribute__((tls_model("initial-exec")));
static __thread int made_capacity __attribute__((tls_model("initial-exec")));

/* A thread ends (thread_state.h): its buffers go (its list of duplicates
 * is empty between calls). */
static void release_scratch(void)
{
    free(scratch_messages);
    free(made_list);
    scratch_messages = NULL;
    made_list = NULL;
    scratch_messages_count = made_count = made_capacity = 0;
}

/* Which statuses of a completion received a message: with MPICH read in
 * the loop, for its receives only (the status says it itself); elsewhere
 * tested before the lock is taken (it may ask MPI), into `messages`. */
static inline int received_message(const unsigned char *messages, const MPI_Status *statuses, int j)
{
#if defined(MPICH_VERSION)
    (void)messages;
    return statuses != MPI_STATUSES_IGNORE && mpp_ws_is_message(&statuses[j]);
#else
    (void)statuses;
    return messages && messages[j];
#endif
}

static const unsigned char *messages_of(int n, const MPI_Status *statuses)
{
#if defined(MPICH_VERSION)
    n = 0; /* received_message reads the statuses */
#endif
    if (statuses == MPI_STATUSES_IGNORE || n <= 0)
        return NULL;
    if (n > scratch_messages_count) {
        mpp_thread_at_end(release_scratch); /* (growth only: warm-up) */
        unsigned char *grown = realloc(scratch_messages, (size_t)n);
        if (!grown)
            return NULL;
        scratch_messages = grown;
        scratch_messages_count = n;
    }
    for (int j = 0; j < n; j++)
        scratch_messages[j] = (unsigned char)mpp_ws_is_message(&statuses[j]);
    return scratch_messages;
}

static void completed_idup(ws_request_t *r)
{
    if (!r->made)
        return;
    if (made_count == made_capacity) {
        int cap = made_capacity ? 2 * made_capacity : 8;
        mpp_thread_at_end(release_scratch);
        made_comm_t *grown = realloc(made_list, (size_t)cap * sizeof *grown);
        if (!grown)
            return; /* the duplicate stays unanalysed (untrack releases it) */
        made_list = grown;
        made_capacity = cap;
    }
    made_list[made_count++] = (made_comm_t){r->made, r->newcomm, r->fortran};
    r->made = NULL;
}

/* The duplicates exist now: registered under the handles MPI wrote. */
static void register_made(void)
{
    for (int i = 0; i < made_count; i++) {
        made_comm_t *m = &made_list[i];
        MPI_Comm handle = m->fortran ? PMPI_Comm_f2c(*(const MPI_Fint *)m->newcomm) : *(const MPI_Comm *)m->newcomm;
        mpp_comm_register(m->made, handle);
    }
    made_count = 0;
}

void mpp_ws_completed(mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which, const MPI_Status *statuses)
{
    /* one message received: no event; a second one opens it (one event:
     * the latest sender counts; its time is the call's SendRecv part, as
     * it may complete collectives too) */
    int event = -1, received = 0;
    mpp_ws_envelope_t first = {0, -1, 0};
    const unsigned char *messages = messages_of(n, statuses);
    mpp_ws_take();
    for (int j = 0; j < n; j++) {
        int i = which ? which[j] : j;
        if (i < 0 || i >= set->n || !set->keys[i])
            continue;
        uint64_t key = set->keys[i];
        ws_request_t *r = mpp_handlemap_get(&requests, key);
        if (!r)
            continue;
        if ((r->kind == REQ_RECV || r->kind == REQ_PRECV) && received_message(messages, statuses, j)) {
            mpp_ws_envelope_t m = envelope_of(r, &statuses[j]);
            if (received++ == 0) {
                first = m;
            } else {
                if (event < 0) {
                    event = mpp_ws_open_event(c, mpp_call_ticks_of(c, MPP_CAT_SENDRECV, MPP_CAT_SENDRECV));
                    mpp_ws_receive(event, first);
                }
                mpp_ws_receive(event, m);
            }
        } else if (r->kind == REQ_COLL || (r->kind == REQ_PCOLL && r->active)) {
            mpp_ws_end_instance(r->comm, r->instance, mpp_ws_aligned(c->t1));
            r->active = 0;
        } else if (r->kind == REQ_IDUP) {
            completed_idup(r);
        }
        if (r->kind == REQ_RECV || r->kind == REQ_COLL || r->kind == REQ_IDUP)
            untrack_found(r);
    }
    if (event >= 0)
        mpp_p2p_event_close(&mpp_ws_matcher, event);
    else if (received == 1)
        mpp_ws_receive_one(c, first, mpp_call_ticks_of(c, MPP_CAT_SENDRECV, MPP_CAT_SENDRECV));
    int due = mpp_ws_due_locked();
    mpp_ws_give();
    if (made_count)
        register_made();
    if (due)
        mpp_ws_maybe_progress(due);
}

void mpp_ws_freed(const mpp_reqset_t *set)
{
    mpp_ws_take();
    for (int i = 0; i < set->n; i++) {
        if (set->keys[i])
            untrack(set->keys[i]);
        if (MPP_UNLIKELY(mpp_check_level) && set->keys[i])
            mpp_chk_coll_freed(set->keys[i]);
    }
    int pending = mpp_wsx_pending_locked(); /* a persistent collective's last reductions */
    mpp_ws_give_and_send();
    if (pending)
        mpp_wsx_progress_reductions();
}

void mpp_ws_comm_idup(mpp_call_t *c, MPI_Comm parent, void *newcomm, int fortran, MPI_Request request)
{
    mpp_comm_t *made = mpp_comm_duplicating(parent);
    if (!made)
        return;
    mpp_ws_take();
    ws_request_t *r = track(c, request, REQ_IDUP, NULL, 0, 0, 0);
    if (r) {
        r->made = made;
        r->newcomm = newcomm;
        r->fortran = fortran;
    }
    mpp_ws_give();
    if (!r)
        mpp_comm_release(made);
}

struct each_comm {
    void (*fn)(mpp_comm_t *, void *);
    void *arg;
};

static void each_pcoll(uint64_t key, void *value, void *arg)
{
    (void)key;
    ws_request_t *r = value;
    struct each_comm *e = arg;
    if (r->kind == REQ_PCOLL && r->comm)
        e->fn(r->comm, e->arg);
}

void mpp_ws_requests_each_comm(void (*fn)(mpp_comm_t *, void *), void *arg)
{
    struct each_comm e = {fn, arg};
    mpp_handlemap_each(&requests, each_pcoll, &e);
}

void mpp_ws_requests_start(void) { mpp_handlemap_init(&requests, sizeof(ws_request_t)); }

static void release_request(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    ws_request_t *r = value;
    mpp_comm_release(r->comm);
    mpp_comm_release(r->made);
}

void mpp_ws_requests_free(void)
{
    mpp_handlemap_each(&requests, release_request, NULL);
    mpp_handlemap_free(&requests);
}
