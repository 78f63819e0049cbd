/* Communicator ids every member derives by itself, with no communication
 * (the wait-state analysis names a communicator by its id in the messages
 * of its own communicator).  Pure: no MPI.
 *
 * A constructor collective over a parent communicator (MPI_Comm_dup,
 * _split, _create, MPI_Cart_create, MPI_Intercomm_merge, MPI_Comm_idup, ...)
 * is the k-th such call on that parent on every member, since collective
 * calls on a communicator are made in one order everywhere: the new id
 * hashes the parent's id, k and the new communicator's members (which tell
 * apart the parts of a split).  A constructor only the new members call
 * (MPI_Comm_create_group, MPI_Comm_create_from_group, MPI_Intercomm_create
 * and _create_from_groups) hashes its members, its tag and the parent's id
 * if it has one into a key, and is the k-th call with that key on every
 * member.  Members are MPI_COMM_WORLD ranks; an intercommunicator's two
 * groups go in a canonical order (the one with the lowest world rank
 * first), so that both sides hash the same.
 *
 * Ids are 64-bit hashes: two communicators sharing a process collide with
 * a probability of about n^2 / 2^65 for n communicators.  The send records
 * of the point-to-point stream carry a 32-bit fold (mpp_commid_channel). */
#ifndef MPP_COMMIDS_H
#define MPP_COMMIDS_H

#include <stddef.h>
#include <stdint.h>

enum {
    MPP_COMM_ID_NONE = 0, /* not analysed: created where no hook saw it, or with processes outside MPI_COMM_WORLD */
    MPP_COMM_ID_WORLD = 1,
    MPP_COMM_ID_SELF = 2,
    MPP_COMM_ID_CONTROL = 3, /* the profiler's own rounds at MPI_Finalize */
    MPP_COMM_ID_RMA = 4,     /* no communicator: the checks' records of one-sided accesses (check/rma_between.c) */
    MPP_COMM_ID_FIRST = 16   /* derived ids are never below */
};

/* A group of MPI_COMM_WORLD ranks: ranks[n], or (ranks NULL) 0..n-1. */
typedef struct {
    const int *ranks;
    int n;
} mpp_rankset_t;

/* The id of the seq-th (from 0) constructor call on a parent of id
 * `parent`, making a communicator of groups local and remote (remote.n 0:
 * an intracommunicator).  MPP_COMM_ID_NONE if the parent has none or a
 * member is outside MPI_COMM_WORLD (a rank < 0). */
uint64_t mpp_commid_child(uint64_t parent, uint64_t seq, mpp_rankset_t local, mpp_rankset_t remote);

/* The key of a constructor only its members call: the parent's id
 * (MPP_COMM_ID_NONE when the constructor has no parent), its integer tag
 * (-1: none), its string tag (NULL: none; trailing blanks, as Fortran pads
 * them, do not count), the groups.  0 when an id cannot be derived (a
 * member outside MPI_COMM_WORLD, or a parent without an id). */
uint64_t mpp_commid_group_key(uint64_t parent, int has_parent, int tag, const char *stringtag, size_t len,
                              mpp_rankset_t local, mpp_rankset_t remote);
/* The id of the seq-th call with that key. */
uint64_t mpp_commid_from_key(uint64_t key, uint64_t seq);

/* The 32-bit name of a communicator in point-to-point send records (never 0). */
static inline uint32_t mpp_commid_channel(uint64_t id)
{
    uint32_t c = (uint32_t)(id ^ (id >> 32));
    return id < MPP_COMM_ID_FIRST ? (uint32_t)id : (c < MPP_COMM_ID_FIRST ? c + MPP_COMM_ID_FIRST : c);
}

/* Members of both groups, sorted, in out[local.n + remote.n]. */
void mpp_commid_members(mpp_rankset_t local, mpp_rankset_t remote, int *out);

#endif
