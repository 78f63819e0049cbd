#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "check/collcheck.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "intercept/check/collectives.h"
#include "intercept/check/run.h"
#include "intercept/check/signatures.h"
#include "intercept/comms.h"
#include "intercept/handle_keys.h"
#include "util/handlemap.h"

enum { MAX_ROWS = 2 * MPP_CC_NVALUES };

static int nvalues; /* values per instance: MPP_CC_BASIC_VALUES, or all of them at full */
static int full;

/* The values of the call just made, until its instance takes them (a
 * call that makes none leaves them to no other: they name their call). */
typedef struct {
    const mpp_call_t *call;
    uint64_t t0;
    int taken; /* by its instance (trace mode may read them after) */
    int64_t rows[MAX_ROWS];
} stash_t;
static __thread stash_t stash __attribute__((tls_model("initial-exec")));

/* Persistent collectives: request key -> rows; nonblocking and started
 * persistent ones not completed yet: request key -> their call's stack. */
static mpp_handlemap_t persistent, running;
static pthread_mutex_t persistent_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
    uint32_t fid;
    int depth;
    const uintptr_t *frames;
} site_t;

/* Call c's request runs (lock held). */
static void run_request(const mpp_call_t *c, uint64_t key)
{
    mpp_request_origin_t o = {0};
    int inserted;
    if (!c->cell)
        return; /* a paused call: no stack to name */
    mpp_call_origin_frames(c, &o);
    site_t *s = o.frames ? mpp_handlemap_put(&running, key, &inserted) : NULL;
    if (s)
        *s = (site_t){c->fid, o.depth, o.frames};
}

int mpp_chk_coll_start(int level)
{
    full = (level & MPP_CHECK_LEVEL) >= MPP_CHECK_FULL;
    nvalues = (level & MPP_CHECK_LEVEL) == MPP_CHECK_OFF ? 0 : full ? MPP_CC_NVALUES : MPP_CC_BASIC_VALUES;
    mpp_handlemap_init(&persistent, sizeof(int64_t) * MAX_ROWS);
    mpp_handlemap_init(&running, sizeof(site_t));
    if (nvalues)
        mpp_chk_signatures_start();
    return 2 * nvalues;
}

static void unfinished(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    const site_t *s = value;
    mpp_check_report_at(MPP_FIND_UNFINISHED_COLLECTIVE, -1, s->fid, s->frames, s->depth, -1, 0, 0,
                        "this process never completed its part (no wait or test completed the request by "
                        "MPI_Finalize)");
}

void mpp_chk_coll_end(void)
{
    if (nvalues)
        mpp_handlemap_each(&running, unfinished, NULL);
    if (nvalues)
        mpp_chk_signatures_end();
    mpp_handlemap_free(&persistent);
    mpp_handlemap_free(&running);
    nvalues = 0;
}

/* count x type as a size and, at full, a signature. */
static void give_part(mpp_cc_values_t *v, int64_t count, MPI_Datatype type)
{
    if (!type || type == MPI_DATATYPE_NULL || count < 0)
        return;
    int64_t size = mpp_type_size_known(type);
    if (size < 0)
        return;
    mpp_cc_give(v, MPP_CC_SIZE, count * size);
    if (!full)
        return;
    mpp_chk_sig_t s = mpp_chk_signature(type, count);
    if (s.sig.basic != -2 && s.sig.basic != MPP_SIG_ANY) /* untyped data matches any */
        mpp_cc_give(v, MPP_CC_SIGNATURE, mpp_cc_hash_value(s.sig.hash));
}

static int64_t sum_counts(const mpp_chk_coll_t *a, int n)
{
    int64_t sum = 0;
    for (int i = 0; i < n; i++)
        sum += a->recvcounts ? a->recvcounts[i] : a->recvcounts_c ? (int64_t)a->recvcounts_c[i] : 0;
    return sum;
}

/* What the standard demands equal on every member, by operation; nothing
 * where it is not cheaply comparable (the v and w forms but Allgatherv,
 * neighbourhood collectives). */
static void sizes_of(const mpp_chk_coll_t *a, MPI_Comm comm, mpp_cc_values_t *v)
{
    int rank = -1, size = 0, root = a->has_root && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS && rank == a->root;
    switch (a->operation) {
    case MPP_FN_MPI_Bcast:
    case MPP_FN_MPI_Reduce:
    case MPP_FN_MPI_Allreduce:
    case MPP_FN_MPI_Scan:
    case MPP_FN_MPI_Exscan:
    case MPP_FN_MPI_Reduce_scatter_block:
        give_part(v, a->count, a->type);
        break;
    case MPP_FN_MPI_Reduce_scatter:
        if (PMPI_Comm_size(comm, &size) == MPI_SUCCESS)
            give_part(v, sum_counts(a, size), a->type);
        break;
    case MPP_FN_MPI_Allgatherv:
        if (PMPI_Comm_size(comm, &size) == MPI_SUCCESS)
            give_part(v, sum_counts(a, size), a->recvtype);
        break;
    case MPP_FN_MPI_Allgather:
    case MPP_FN_MPI_Alltoall:
        if (a->sendbuf != MPI_IN_PLACE)
            give_part(v, a->sendcount, a->sendtype);
        give_part(v, a->recvcount, a->recvtype);
        break;
    case MPP_FN_MPI_Gather: /* the root takes recvcount from each; its own send, unless in place */
        if (root)
            give_part(v, a->recvcount, a->recvtype);
        if (!root || a->sendbuf != MPI_IN_PLACE)
            give_part(v, a->sendcount, a->sendtype);
        break;
    case MPP_FN_MPI_Scatter:
        if (root)
            give_part(v, a->sendcount, a->sendtype);
        if (!root || a->recvbuf != MPI_IN_PLACE)
            give_part(v, a->recvcount, a->recvtype);
        break;
    default:
        break;
    }
}

static void values_of(const mpp_chk_coll_t *a, MPI_Comm comm, mpp_cc_values_t *v)
{
    mpp_cc_clear(v);
    mpp_cc_give(v, MPP_CC_OPERATION, (int64_t)a->operation);
    mpp_comm_t *cm = mpp_comm_get(comm);
    int inter = cm ? cm->inter : 1;
    if (inter)
        return; /* roots and sizes follow the two groups' rules there: only the operation is compared */
    if (a->has_root)
        mpp_cc_give(v, MPP_CC_ROOT, a->root);
    int op = a->op ? mpp_chk_op_id(a->op) : 0;
    if (op) /* a user's operation: nothing to compare (its function may be the same) */
        mpp_cc_give(v, MPP_CC_REDUCTION, op);
    sizes_of(a, comm, v);
}

/* MPICH gives a nonblocking collective it completed at once (on one
 * process) a builtin request handle, shared by all such: complete, never
 * running, and its completion names only the last one made with it. */
static int completed_at_once(uint64_t key)
{
#if defined(MPICH_VERSION) && MPP_REQUEST_HANDLE_BITS == 32
    return ((uint32_t)key >> 30) == 1; /* MPICH's HANDLE_KIND_BUILTIN */
#else
    (void)key;
    return 0;
#endif
}

void mpp_chk_collective(const mpp_call_t *c, MPI_Comm comm, const mpp_chk_coll_t *a)
{
    if (!nvalues)
        return;
    mpp_cc_values_t v;
    values_of(a, comm, &v);
    mpp_cc_to_rows(&v, nvalues, stash.rows);
    stash.call = c;
    stash.t0 = c->t0;
    stash.taken = 0;
    if (a->nonblocking && c->new_request && !completed_at_once(c->new_request)) {
        pthread_mutex_lock(&persistent_lock);
        run_request(c, mpp_request_pack(c->new_request, c->new_serial));
        pthread_mutex_unlock(&persistent_lock);
    }
}

void mpp_chk_collective_init(const mpp_call_t *c, MPI_Comm comm, MPI_Request request, const mpp_chk_coll_t *a)
{
    if (!nvalues || request == MPI_REQUEST_NULL || !c->new_request)
        return;
    mpp_cc_values_t v;
    values_of(a, comm, &v);
    int inserted;
    pthread_mutex_lock(&persistent_lock);
    int64_t *rows =
        mpp_handlemap_put(&persistent, mpp_request_pack(mpp_request_key(request), c->new_serial), &inserted);
    if (rows)
        mpp_cc_to_rows(&v, nvalues, rows);
    pthread_mutex_unlock(&persistent_lock);
}

void mpp_chk_coll_rows_of(const mpp_call_t *c, int64_t *rows)
{
    if (stash.call == c && stash.t0 == c->t0 && !stash.taken) {
        memcpy(rows, stash.rows, (size_t)(2 * nvalues) * sizeof *rows);
        stash.taken = 1;
        return;
    }
    for (int k = 0; k < 2 * nvalues; k++)
        rows[k] = INT64_MIN;
}

int mpp_chk_coll_rows_traced(const mpp_call_t *c, int64_t *rows)
{
    for (int k = 0; k < MAX_ROWS; k++)
        rows[k] = INT64_MIN;
    if (!nvalues || stash.call != c || stash.t0 != c->t0)
        return 0;
    memcpy(rows, stash.rows, (size_t)(2 * nvalues) * sizeof *rows);
    return 1;
}

int mpp_chk_coll_rows_of_request(uint64_t key, int64_t *rows)
{
    for (int k = 0; k < MAX_ROWS; k++)
        rows[k] = INT64_MIN;
    pthread_mutex_lock(&persistent_lock);
    const int64_t *kept = nvalues ? mpp_handlemap_get(&persistent, key) : NULL;
    if (kept)
        memcpy(rows, kept, (size_t)(2 * nvalues) * sizeof *rows);
    pthread_mutex_unlock(&persistent_lock);
    return kept != NULL;
}

void mpp_chk_coll_started(const mpp_call_t *c, uint64_t key)
{
    pthread_mutex_lock(&persistent_lock);
    const int64_t *rows = nvalues ? mpp_handlemap_get(&persistent, key) : NULL;
    if (rows) {
        memcpy(stash.rows, rows, (size_t)(2 * nvalues) * sizeof *rows);
        stash.call = c;
        stash.t0 = c->t0;
        stash.taken = 0;
        run_request(c, key);
    }
    pthread_mutex_unlock(&persistent_lock);
}

void mpp_chk_coll_completed(const mpp_reqset_t *set, int n, const int *which)
{
    if (!nvalues)
        return;
    pthread_mutex_lock(&persistent_lock);
    for (int j = 0; j < n && running.count; j++) {
        int i = which ? which[j] : j;
        if (i >= 0 && i < set->n && set->keys[i])
            mpp_handlemap_remove(&running, set->keys[i], NULL);
    }
    pthread_mutex_unlock(&persistent_lock);
}

void mpp_chk_coll_freed_set(const mpp_reqset_t *set) { mpp_chk_coll_completed(set, set->n, NULL); }

void mpp_chk_coll_freed(uint64_t key)
{
    if (!nvalues)
        return;
    pthread_mutex_lock(&persistent_lock);
    mpp_handlemap_remove(&persistent, key, NULL);
    pthread_mutex_unlock(&persistent_lock);
}

/* (the words are mpiprof-analyze's too: check/collcheck.h) */
static const char *fname(int64_t fid)
{
    return fid >= 0 && fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "an unknown operation";
}

void mpp_chk_coll_results(int n, int rows, const int64_t *own, const int64_t *max,
                          const mpp_request_origin_t *origins)
{
    int values = rows / 2 < nvalues ? rows / 2 : nvalues;
    for (int j = 0; j < n; j++) {
        const mpp_request_origin_t *o = &origins[j];
        if (!o->thread || !o->frames || o->depth <= 0)
            continue; /* no call site kept (a paused call) */
        mpp_cc_values_t mine, all;
        int kinds[MPP_CC_NVALUES], which[MPP_CC_NVALUES];
        mpp_cc_from_rows(own + j, (size_t)n, values, &mine);
        mpp_cc_from_rows(max + j, (size_t)n, values, &all);
        int found = mpp_cc_verdicts(&mine, &all, values, kinds, which);
        for (int k = 0; k < found; k++) {
            char detail[200];
            mpp_cc_describe(which[k], &mine, &all, fname, detail, sizeof detail);
            mpp_check_report_at(kinds[k], -1, o->fid, o->frames, o->depth, -1, 0, 0, "%s", detail);
        }
    }
}

void mpp_chk_coll_counts(uint64_t least, uint64_t most, uint64_t own, int members, const mpp_request_origin_t *at,
                         uint64_t index)
{
    if (least == most || own == least || !at || !at->thread || !at->frames || at->depth <= 0)
        return;
    char which[96];
    if (index == least)
        snprintf(which, sizeof which, "its call %llu (here) and those after it", (unsigned long long)index + 1);
    else /* the first beyond was reduced already: the first still known */
        snprintf(which, sizeof which, "its calls from %llu on (this is call %llu)", (unsigned long long)least + 1,
                 (unsigned long long)index + 1);
    mpp_check_report_at(MPP_FIND_INCOMPLETE_COLLECTIVE, -1, at->fid, at->frames, at->depth, -1, 0, 0,
                        "the %d members of this communicator made %llu to %llu collective calls on it, this process "
                        "%llu: %s were not entered by every member",
                        members, (unsigned long long)least, (unsigned long long)most, (unsigned long long)own, which);
}
