/* The communicators a process uses, as the wait-state analysis needs them:
 * an id all members agree on (so that a receiver and a sender name the same
 * channel), the MPI_COMM_WORLD ranks of the peers, and the state of its
 * collective instances.  Entries are looked up by handle; MPI reuses
 * handles, so an entry leaves the registry when its communicator is freed
 * (and lives on while requests still refer to it). */
#ifndef MPP_COMMS_H
#define MPP_COMMS_H

#include <mpi.h>
#include <stdint.h>

struct mpp_coll_ring;

typedef struct mpp_comm {
    MPI_Comm handle;
    uint32_t id;          /* agreed by all members; 0: none (created where no hook ran) */
    int inter;
    int size;             /* of the local group */
    int peers;            /* ranks a point-to-point call names: the remote group's size for intercommunicators */
    int members;          /* every process taking part in its collectives */
    int *world;           /* [peers] MPI_COMM_WORLD rank of each peer; NULL: the identity */
    struct mpp_coll_ring *coll; /* collective instances (NULL until the first) */
    int refs;             /* 1 for the registry while the handle is alive, 1 per request */
} mpp_comm_t;

enum { MPP_COMM_ID_WORLD = 1, MPP_COMM_ID_SELF = 2, MPP_COMM_ID_FIRST = 16 };

void mpp_comms_start(int thread_multiple);
/* Every entry left, for MPI_Finalize: calls fn on each (registry lock held). */
void mpp_comms_each(void (*fn)(mpp_comm_t *, void *), void *arg);
void mpp_comms_stop(void);

/* The entry of a handle, registered without an id if no constructor hook
 * saw it; NULL for MPI_COMM_NULL or out of memory. */
mpp_comm_t *mpp_comm_get(MPI_Comm comm);
/* A constructor returned comm: agree on its id (collective over its
 * members, one MPI_Allreduce; two for an intercommunicator). */
void mpp_comm_created(MPI_Comm comm);
/* The communicator is being freed: its entry leaves the registry; returned
 * with a reference the caller releases after use (NULL if none). */
mpp_comm_t *mpp_comm_unregister(MPI_Comm comm);
void mpp_comm_hold(mpp_comm_t *c);
void mpp_comm_release(mpp_comm_t *c);

static inline int mpp_comm_world_rank(const mpp_comm_t *c, int rank)
{
    if (rank < 0 || rank >= c->peers)
        return -1;
    return c->world ? c->world[rank] : rank;
}

#endif
