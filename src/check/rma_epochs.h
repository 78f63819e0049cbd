/* The epochs of a process's RMA windows (correctness.md: rma-epoch), by
 * window handle key: which targets the process may access now (a fence
 * opened an epoch for all until a fence with MPI_MODE_NOSUCCEED; a lock
 * per target; lock_all; start), whether an exposure epoch (post) is open,
 * and the call that opened each kind of epoch, to name at MPI_Win_free or
 * MPI_Finalize.  A window whose creation was not seen is not here, and one
 * whose epoch calls went by unseen is `blind`: neither is ever reported.
 * About 170 bytes a window and two bits a process of its group (at full,
 * four bytes more: its MPI_COMM_WORLD rank).  No MPI,
 * no lock: the caller's (intercept/check/rma.c). */
#ifndef MPP_CHECK_RMA_EPOCHS_H
#define MPP_CHECK_RMA_EPOCHS_H

#include <stddef.h>
#include <stdint.h>

#include "util/handlemap.h"

/* The epochs a window may have open, each with the call that opened it. */
enum { MPP_EPOCH_LOCK, MPP_EPOCH_LOCK_ALL, MPP_EPOCH_START, MPP_EPOCH_POST, MPP_NEPOCHS };

typedef struct {
    uint32_t fid;
    int depth;
    const uintptr_t *frames; /* [depth]: its cell's copy, kept for the run (NULL: none) */
} mpp_epoch_site_t;

typedef struct {
    uint32_t size;             /* processes in the window's group */
    uint32_t serial;           /* this window's number in the process (keys of its pending origin buffers) */
    uint8_t fence;             /* a fence without MPI_MODE_NOSUCCEED: every target accessible */
    uint8_t open[MPP_NEPOCHS]; /* [MPP_EPOCH_LOCK]: some target locked */
    uint8_t blind;             /* an epoch call went by unseen: the state is not known */
    uint32_t nlocked;          /* targets locked */
    uint64_t *locked;          /* [words]: bit per target */
    uint64_t *pending;         /* [words]: targets with origin buffers pending (MPIPROF_CHECK=full) */
    uint64_t *requests;        /* [2 * nrequests]: the R-forms' request handles and targets (full) */
    uint32_t nrequests, request_capacity;
    mpp_epoch_site_t site[MPP_NEPOCHS];
    /* rma-conflict between origins (full): the window's name every member
     * gave it (0: none), the fences so far (the fence epoch's number),
     * each member's MPI_COMM_WORLD rank (NULL: the identity) */
    uint64_t id, fences;
    int32_t rank; /* this process's in the window's group */
    int32_t *world;
    /* ... and of general active target (PSCW): the targets of the open
     * start's group (bits), the access epochs begun to each target, the
     * exposure epochs this process posted */
    uint64_t *started;
    uint32_t *accesses;
    uint64_t exposures;
} mpp_epoch_win_t;

typedef struct {
    mpp_handlemap_t map; /* window key -> mpp_epoch_win_t */
    uint32_t serial;
} mpp_epochs_t;

void mpp_epochs_init(mpp_epochs_t *e);
void mpp_epochs_free(mpp_epochs_t *e);
/* A window created with `size` processes (a handle MPI gives again
 * replaces the old state); NULL when memory ran out. */
mpp_epoch_win_t *mpp_epochs_add(mpp_epochs_t *e, uint64_t key, uint32_t size);
/* Its state, NULL when not followed.  Valid until the next add or remove. */
static inline mpp_epoch_win_t *mpp_epochs_get(mpp_epochs_t *e, uint64_t key)
{
    return e->map.count ? (mpp_epoch_win_t *)mpp_handlemap_get(&e->map, key) : NULL;
}
void mpp_epochs_remove(mpp_epochs_t *e, uint64_t key);
/* Every window's state (no add or remove meanwhile). */
void mpp_epochs_each(mpp_epochs_t *e, void (*fn)(mpp_epoch_win_t *w, void *arg), void *arg);

static inline int mpp_epoch_bit(const uint64_t *bits, uint32_t size, int rank)
{
    return rank >= 0 && (uint32_t)rank < size && ((bits[rank >> 6] >> (rank & 63)) & 1);
}
/* Set (on) or clear the bit of rank; its previous value. */
int mpp_epoch_set_bit(uint64_t *bits, uint32_t size, int rank, int on);

/* Whether the process may access target `rank` of w now (blind: yes). */
static inline int mpp_epoch_can_access(const mpp_epoch_win_t *w, int rank)
{
    return w->blind || w->fence || w->open[MPP_EPOCH_LOCK_ALL] || w->open[MPP_EPOCH_START] ||
           mpp_epoch_bit(w->locked, w->size, rank);
}
/* Whether a passive-target epoch (a lock, lock_all) is open. */
static inline int mpp_epoch_passive(const mpp_epoch_win_t *w)
{
    return w->blind || w->open[MPP_EPOCH_LOCK] || w->open[MPP_EPOCH_LOCK_ALL];
}
/* The first epoch still open at the window's end (lock, lock_all, start,
 * post), -1 when none (a fence's is not one: the last fence need not say
 * MPI_MODE_NOSUCCEED). */
int mpp_epoch_left_open(const mpp_epoch_win_t *w);

#endif
