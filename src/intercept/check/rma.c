/* rma-epoch (MPIPROF_CHECK=basic): the epochs of the process's windows
 * (check/rma_epochs.h) followed through the calls of the @check rma-*
 * roles; a call that needs an epoch not open, or closes one never opened,
 * is reported before it reaches MPI (which may abort on it), and its
 * error is then not an mpi-error of its own.  At full, the origin buffers
 * of the one-sided operations are pending in the buffer checks until
 * their epoch closes, a flush, or their request completes (rma-conflict:
 * buffers.c), and the target bytes of those of a fence epoch go to their
 * target to be compared with other origins' (rma-conflict: rma_between.c). */
#include <stdio.h>
#include <stdlib.h>

#include "check/rma_epochs.h"
#include "gen/function_table.h"
#include "intercept/check/argcheck.h"
#include "intercept/check/local.h"
#include "intercept/check/run.h"
#include "intercept/handle_keys.h"
#include "util/common.h"
#include "util/mt_lock.h"

static mpp_epochs_t epochs;
static int started, full;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;

static const char *const epoch_calls[MPP_NEPOCHS] = {"MPI_Win_lock", "MPI_Win_lock_all", "MPI_Win_start",
                                                     "MPI_Win_post"};

void mpp_check_rma_start(int locking)
{
    lock.on = locking; /* before the lock is taken: given back as taken */
    mpp_mt_take(&lock);
    if (started)
        mpp_epochs_free(&epochs);
    mpp_epochs_init(&epochs);
    full = (mpp_check_level & MPP_CHECK_LEVEL) >= MPP_CHECK_FULL;
    started = 1;
    mpp_mt_give(&lock);
    mpp_rma_between_start(locking);
}

static mpp_epoch_win_t *window(MPI_Win win) { return started ? mpp_epochs_get(&epochs, MPP_HANDLE_KEY(win)) : NULL; }

/* Request handles of the R-forms a window keeps at most (32 KiB): past
 * them their origin buffers are not followed. */
#define MAX_REQUESTS 2048

/* The origin buffers of w's operations to `rank` (-1: all) are no longer
 * pending (full). */
static void release(mpp_epoch_win_t *w, int rank)
{
    if (!full)
        return;
    for (uint32_t i = 0; i < (w->size + 63) / 64; i++)
        for (uint64_t bits = w->pending[i]; bits; bits &= bits - 1) {
            int r = (int)(i * 64 + (uint32_t)__builtin_ctzll(bits));
            if (rank < 0 || r == rank)
                mpp_chk_rma_release(MPP_RMA_PENDING_KEY(w->serial, r));
        }
    if (rank < 0)
        for (uint32_t i = 0; i < (w->size + 63) / 64; i++)
            w->pending[i] = 0;
    else
        mpp_epoch_set_bit(w->pending, w->size, rank, 0);
    /* the R-forms' too (a handle MPI gave again since: a finding missed, never a false one) */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < w->nrequests; i++) {
        if (rank < 0 || (int)w->requests[2 * i + 1] == rank) {
            mpp_chk_rma_release(w->requests[2 * i]);
        } else {
            w->requests[2 * kept] = w->requests[2 * i];
            w->requests[2 * kept++ + 1] = w->requests[2 * i + 1];
        }
    }
    w->nrequests = kept;
}

uint64_t mpp_check_rma_pending(MPI_Win win, int rank, uint64_t request)
{
    uint64_t key = 0;
    mpp_mt_take(&lock);
    mpp_epoch_win_t *w = window(win);
    if (full && w && !w->blind && rank >= 0 && (uint32_t)rank < w->size) {
        if (!request) {
            mpp_epoch_set_bit(w->pending, w->size, rank, 1);
            key = MPP_RMA_PENDING_KEY(w->serial, rank);
        } else if (w->nrequests < MAX_REQUESTS) {
            size_t capacity = w->request_capacity;
            if (mpp_grow((void **)&w->requests, &capacity, 2 * (size_t)(w->nrequests + 1), sizeof *w->requests, 16) ==
                0) {
                w->request_capacity = (uint32_t)capacity;
                w->requests[2 * w->nrequests] = request;
                w->requests[2 * w->nrequests++ + 1] = (uint64_t)rank;
                key = request;
            }
        }
    }
    mpp_mt_give(&lock);
    return key;
}

void mpp_check_rma_new(MPI_Win win, MPI_Comm comm)
{
    int size = 0;
    if (win == MPI_WIN_NULL || comm == MPI_COMM_NULL || PMPI_Comm_size(comm, &size) != MPI_SUCCESS || size <= 0)
        return;
    int32_t *world = NULL;
    int rank = -1;
    uint64_t id = full && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS
                      ? mpp_rma_between_new(win, comm, (uint32_t)size, &world)
                      : 0;
    mpp_mt_take(&lock);
    mpp_epoch_win_t *w = started ? mpp_epochs_add(&epochs, MPP_HANDLE_KEY(win), (uint32_t)size) : NULL;
    size_t words = ((size_t)size + 63) / 64;
    uint64_t *pscw = id ? calloc(1, words * sizeof(uint64_t) + (size_t)size * sizeof(uint32_t)) : NULL;
    if (w && (!id || pscw)) {
        w->id = id;
        w->rank = rank;
        w->world = world;
        w->started = pscw;
        w->accesses = pscw ? (uint32_t *)(pscw + words) : NULL;
    } else {
        free(world);
        free(pscw);
    }
    mpp_mt_give(&lock);
}

/* The ranks in win's group of group's members (n of them, into ranks[]
 * the caller frees); -1 when MPI does not say. */
static int group_ranks(MPI_Win win, MPI_Group group, int **ranks)
{
    MPI_Group all;
    int n = 0, *in = NULL;
    *ranks = NULL;
    if (PMPI_Group_size(group, &n) != MPI_SUCCESS || n <= 0 || PMPI_Win_get_group(win, &all) != MPI_SUCCESS)
        return -1;
    if ((in = malloc((size_t)n * sizeof *in)) && (*ranks = malloc((size_t)n * sizeof **ranks))) {
        for (int i = 0; i < n; i++)
            in[i] = i;
        if (PMPI_Group_translate_ranks(group, n, in, all, *ranks) != MPI_SUCCESS)
            n = -1;
    } else {
        n = -1;
    }
    free(in);
    PMPI_Group_free(&all);
    if (n < 0) {
        free(*ranks);
        *ranks = NULL;
    }
    return n;
}

void mpp_check_rma_group(MPI_Win win, int event, MPI_Group group)
{
    int *ranks, n = group_ranks(win, group, &ranks);
    uint64_t id = 0, exposure = 0;
    mpp_mt_take(&lock);
    mpp_epoch_win_t *w = window(win);
    if (w && w->id && w->started) {
        if (event == MPP_RMA_START) /* the targets of this access epoch, and its number at each */
            for (uint32_t i = 0; i < (w->size + 63) / 64; i++)
                w->started[i] = 0;
        for (int i = 0; i < n; i++)
            if (event == MPP_RMA_START && ranks[i] >= 0 && (uint32_t)ranks[i] < w->size) {
                mpp_epoch_set_bit(w->started, w->size, ranks[i], 1);
                w->accesses[ranks[i]]++;
            }
        if (event == MPP_RMA_POST) {
            id = w->id;
            exposure = ++w->exposures;
        }
    }
    mpp_mt_give(&lock);
    if (id && n > 0) /* the target: which of its exposure epochs each origin's next access epoch is */
        mpp_rma_between_posted(id, ranks, n, exposure);
    free(ranks);
}

void mpp_check_rma_access(const mpp_call_t *c, MPI_Win win, int rank, MPI_Aint disp, int64_t count, MPI_Datatype type,
                          int kind)
{
    uint64_t id = 0, epoch = 0;
    int target = -1, me = -1;
    mpp_mt_take(&lock);
    const mpp_epoch_win_t *w = window(win);
    /* a fence epoch, or a start's to that target, alone: no lock or lock_all open */
    if (w && w->id && !w->blind && !w->open[MPP_EPOCH_LOCK] && !w->open[MPP_EPOCH_LOCK_ALL] && rank >= 0 &&
        (uint32_t)rank < w->size) {
        if (w->open[MPP_EPOCH_START] && mpp_epoch_bit(w->started, w->size, rank)) {
            id = w->id;
            epoch = MPP_RMA_EPOCH_PSCW | w->accesses[rank];
            me = w->rank;
        } else if (w->fence && !w->open[MPP_EPOCH_START]) {
            id = w->id;
            epoch = w->fences;
        }
        target = w->world ? w->world[rank] : rank;
    }
    mpp_mt_give(&lock);
    if (id && target >= 0) /* outside the lock: the record goes by the wait states' exchange, under its own */
        mpp_rma_between_access(c, id, epoch, me, target, disp, count, type, kind);
}

/* What the call would do wrong to w's epochs (into `what`), and the call
 * that opened the epoch it involves (*other, fid 0: none). */
static int misuse(const mpp_epoch_win_t *w, int event, int rank, char *what, size_t size, mpp_epoch_site_t *other)
{
    int k;
    switch (event) {
    case MPP_RMA_OP:
        if (rank == MPI_PROC_NULL || rank < 0 || (uint32_t)rank >= w->size || mpp_epoch_can_access(w, rank))
            return 0;
        return snprintf(what, size,
                        "no access epoch to rank %d is open (no fence, lock, lock_all or start before it)", rank);
    case MPP_RMA_UNLOCK:
        if (rank < 0 || (uint32_t)rank >= w->size || mpp_epoch_bit(w->locked, w->size, rank))
            return 0;
        return snprintf(what, size, "rank %d is not locked by this process (no MPI_Win_lock before it)", rank);
    case MPP_RMA_UNLOCK_ALL:
        return w->open[MPP_EPOCH_LOCK_ALL] ? 0 : snprintf(what, size, "no MPI_Win_lock_all before it");
    case MPP_RMA_COMPLETE:
        return w->open[MPP_EPOCH_START] ? 0 : snprintf(what, size, "no MPI_Win_start before it");
    case MPP_RMA_WAIT:
    case MPP_RMA_TEST:
        return w->open[MPP_EPOCH_POST] ? 0 : snprintf(what, size, "no MPI_Win_post before it");
    case MPP_RMA_FLUSH:
        return mpp_epoch_passive(w) ? 0
                                    : snprintf(what, size, "outside a passive-target epoch (no lock or lock_all)");
    case MPP_RMA_FREE:
        if ((k = mpp_epoch_left_open(w)) < 0)
            return 0;
        *other = w->site[k];
        return snprintf(what, size, "the window is freed with the epoch of %s still open", epoch_calls[k]);
    default:
        return 0;
    }
}

void mpp_check_rma_before(mpp_call_t *c, int event, MPI_Win win, int rank)
{
    char what[160];
    mpp_epoch_site_t other = {0};
    mpp_mt_take(&lock);
    mpp_epoch_win_t *w = window(win);
    int bad = w && !w->blind && misuse(w, event, rank, what, sizeof what, &other) > 0;
    mpp_mt_give(&lock);
    if (!bad)
        return;
    c->cell = NULL; /* before mpp_call_end: the stack from the wrapper's frame */
    mpp_check_report(c, MPP_FIND_RMA_EPOCH, -1, other.fid, other.depth > 0 ? other.frames[0] : 0, "%s", what);
    mpp_check_note_invalid(c);
}

static void opened(mpp_epoch_win_t *w, int k, const mpp_call_t *c)
{
    w->open[k] = 1;
    mpp_request_origin_t o = {0};
    if (c->cell)
        mpp_call_origin_frames(c, &o);
    w->site[k] = (mpp_epoch_site_t){c->fid, o.depth, o.frames};
}

void mpp_check_rma_after(const mpp_call_t *c, int event, MPI_Win win, int rank, int arg)
{
    mpp_mt_take(&lock);
    mpp_epoch_win_t *w = window(win);
    switch (w ? event : -1) {
    case MPP_RMA_FENCE: /* (MPI_MODE_NOPRECEDE and the others: assertions only) */
        w->fence = !(arg & MPI_MODE_NOSUCCEED);
        w->fences++;
        release(w, -1);
        break;
    case MPP_RMA_START:
        opened(w, MPP_EPOCH_START, c);
        break;
    case MPP_RMA_COMPLETE:
        w->open[MPP_EPOCH_START] = 0;
        release(w, -1);
        break;
    case MPP_RMA_POST:
        opened(w, MPP_EPOCH_POST, c);
        break;
    case MPP_RMA_TEST:
    case MPP_RMA_WAIT:
        if (event == MPP_RMA_WAIT || arg)
            w->open[MPP_EPOCH_POST] = 0;
        break;
    case MPP_RMA_LOCK:
        if (!mpp_epoch_set_bit(w->locked, w->size, rank, 1) && rank >= 0 && (uint32_t)rank < w->size)
            w->nlocked++;
        opened(w, MPP_EPOCH_LOCK, c);
        break;
    case MPP_RMA_UNLOCK:
        if (mpp_epoch_set_bit(w->locked, w->size, rank, 0))
            w->nlocked--;
        w->open[MPP_EPOCH_LOCK] = w->nlocked > 0;
        release(w, rank);
        break;
    case MPP_RMA_LOCK_ALL:
        opened(w, MPP_EPOCH_LOCK_ALL, c);
        break;
    case MPP_RMA_UNLOCK_ALL:
        w->open[MPP_EPOCH_LOCK_ALL] = 0;
        release(w, -1);
        break;
    case MPP_RMA_FLUSH: /* (flush_local too: the origin buffers are free again) */
        release(w, rank);
        break;
    case MPP_RMA_FREE:
        release(w, -1);
        mpp_epochs_remove(&epochs, MPP_HANDLE_KEY(win));
        break;
    default:
        break;
    }
    mpp_mt_give(&lock);
}

void mpp_check_rma_unseen(MPI_Win win, int frees)
{
    mpp_mt_take(&lock);
    mpp_epoch_win_t *w = window(win);
    if (w) {
        release(w, -1);
        w->blind = 1;
        if (frees)
            mpp_epochs_remove(&epochs, MPP_HANDLE_KEY(win));
    }
    mpp_mt_give(&lock);
}

static void report_open(mpp_epoch_win_t *w, void *arg)
{
    (void)arg;
    int k = mpp_epoch_left_open(w);
    if (k >= 0)
        mpp_check_report_at(MPP_FIND_RMA_EPOCH, -1, w->site[k].fid, w->site[k].frames, w->site[k].depth, -1, 0, 0,
                            "MPI_Finalize with the epoch of %s still open", epoch_calls[k]);
}

void mpp_check_rma_end(int finalize)
{
    mpp_mt_take(&lock);
    if (started && finalize)
        mpp_epochs_each(&epochs, report_open, NULL);
    if (started)
        mpp_epochs_free(&epochs);
    started = 0;
    mpp_mt_give(&lock);
    mpp_rma_between_end(finalize);
}
