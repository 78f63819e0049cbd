/* The communicators a process uses, as the wait-state analysis needs them:
 * an id every member derives by itself (commids.h: no communication, so
 * that a receiver and a sender name the same channel), the MPI_COMM_WORLD
 * ranks of the peers, this process's place in the tree of the members that
 * reduces its collective instants (treereduce.h), and the state of its
 * collective instances.  Entries are looked up by handle; MPI reuses
 * handles, so an entry leaves the registry when its communicator is freed
 * (and lives on while requests still refer to it).  Only local MPI queries
 * (sizes, groups, rank translation) are made here, never with a lock held. */
#ifndef MPP_COMMS_H
#define MPP_COMMS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "accumulate/waitstates/commids.h"
#include "accumulate/waitstates/treereduce.h"
#include "intercept/world.h"

struct mpp_coll_ring;

typedef struct mpp_comm {
    MPI_Comm handle;
    uint64_t id;      /* commids.h; MPP_COMM_ID_NONE: not analysed */
    uint32_t channel; /* its name in send records */
    int inter;
    int size;             /* of the local group */
    int peers;            /* ranks a point-to-point call names: the remote group's size for intercommunicators */
    int members;          /* every process taking part in its collectives */
    int *world;           /* [peers] MPI_COMM_WORLD rank of each peer; NULL: the identity */
    int *local;           /* intercommunicators: [size] world ranks of the local group */
    mpp_tree_t tree;      /* this process's place among the members (id set, members > 1) */
    uint64_t constructed; /* constructor calls made on it so far (commids.h) */
    int freed;            /* MPI_Comm_free was called: no more instances (wait-state lock) */
    struct mpp_coll_ring *coll; /* collective instances (NULL until the first) */
    int refs;                   /* 1 for the registry while the handle is alive, 1 per request */
} mpp_comm_t;

void mpp_comms_start(int thread_multiple);
/* Every entry left, for MPI_Finalize (no other thread makes MPI calls then). */
void mpp_comms_each(void (*fn)(mpp_comm_t *, void *), void *arg);
void mpp_comms_stop(void);

/* The entry of a handle, registered without an id if no constructor hook
 * saw it; NULL for MPI_COMM_NULL or out of memory.  The world's (world.h)
 * inline: most calls name it, and every hook looks its communicator up. */
extern mpp_comm_t *mpp_comm_world_entry;
mpp_comm_t *mpp_comm_get_slow(MPI_Comm comm);
static inline mpp_comm_t *mpp_comm_get(MPI_Comm comm)
{
    if (comm == mpp_world())
        return mpp_comm_world_entry;
    return mpp_comm_get_slow(comm);
}
/* A constructor collective over `parent` returned comm (MPI_COMM_NULL on a
 * member left out, which counts the call all the same). */
void mpp_comm_created(MPI_Comm parent, MPI_Comm comm);
/* A constructor only the new communicator's members call: its parent
 * (MPI_COMM_NULL: none), integer tag (-1: none), string tag (NULL: none). */
void mpp_comm_created_by_group(MPI_Comm parent, int tag, const char *stringtag, size_t len, MPI_Comm comm);
/* MPI_Comm_idup of parent: the entry of the duplicate, not registered
 * until its request completes (mpp_comm_register); NULL if parent is not
 * known or memory ran out. */
mpp_comm_t *mpp_comm_duplicating(MPI_Comm parent);
/* The communicator of c exists now as handle: c (and the caller's
 * reference) goes to the registry. */
void mpp_comm_register(mpp_comm_t *c, MPI_Comm handle);
/* The communicator is being freed: its entry leaves the registry; returned
 * with a reference the caller releases after use (NULL if none). */
mpp_comm_t *mpp_comm_unregister(MPI_Comm comm);
void mpp_comm_hold_other(mpp_comm_t *c);
void mpp_comm_release_other(mpp_comm_t *c);
/* A reference more or less (NULL: none); the world's entry lives until
 * the end, so its references are not counted (no call for the requests
 * on MPI_COMM_WORLD). */
static inline void mpp_comm_hold(mpp_comm_t *c)
{
    if (c && c != mpp_comm_world_entry)
        mpp_comm_hold_other(c);
}
static inline void mpp_comm_release(mpp_comm_t *c)
{
    if (c && c != mpp_comm_world_entry)
        mpp_comm_release_other(c);
}

static inline int mpp_comm_world_rank(const mpp_comm_t *c, int rank)
{
    if (rank < 0 || rank >= c->peers)
        return -1;
    return c->world ? c->world[rank] : rank;
}

#endif
