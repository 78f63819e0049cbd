/* Reductions over a communicator's members by point-to-point messages on
 * the profiler's own communicator: the bookkeeping, pure (no MPI).  The
 * wait-state analysis reduces each batch of a communicator's collective
 * instants this way (maximum over members), so that it issues no
 * operation at all on the program's communicators and depends on no
 * collective algorithm of the MPI library.
 *
 * The members (MPI_COMM_WORLD ranks, sorted) form a binomial tree rooted at
 * the member at index id mod m, so that the roots of different
 * communicators' trees spread over the processes.  A member's part of a
 * reduction goes up once its own values and its children's parts are in;
 * the root has the result and sends it down; each member forwards it to
 * its children.  2 log2 m rounds; a member sends and receives at most
 * 2 (log2 m + 1) messages per reduction.
 *
 * Messages name their reduction (communicator id, sequence number on it):
 * a child's part may come before this member has made its own (it is kept
 * until then), the parts of several reductions interleave freely.  A part
 * whose length differs from this member's marks the reduction as
 * mismatched (the members did not agree on the batch: a collective the
 * profiler did not see somewhere); the mark travels with it, so that every
 * member drops it. */
#ifndef MPP_TREEREDUCE_H
#define MPP_TREEREDUCE_H

#include <stddef.h>
#include <stdint.h>

#include "util/handlemap.h"

enum { MPP_TREE_MAX_CHILDREN = 32 };

/* One member's place in a tree: world ranks of its parent (-1 at the root)
 * and children. */
typedef struct {
    int parent;
    int nchildren;
    int children[MPP_TREE_MAX_CHILDREN];
} mpp_tree_t;

/* Self's place in the tree of a communicator of id `id` whose m members
 * (world ranks) are sorted ascending.  -1 if self is not a member. */
int mpp_tree_place(mpp_tree_t *t, const int *members, int m, int self, uint64_t id);

enum { MPP_REDUCE_MAX = 0, MPP_REDUCE_SUM = 1 };

typedef struct mpp_reduction {
    uint64_t comm, seq;
    int n;                      /* values */
    int op;                     /* MPP_REDUCE_MAX or _SUM */
    int own;                    /* this member's values are in */
    int parts;                  /* children's parts in */
    int up;                     /* sent up, waiting for the result */
    int mismatch;               /* parts of different lengths: to be dropped */
    mpp_tree_t tree;            /* valid once own */
    int64_t *values;            /* [n]: the running reduction, then the result */
    void *user;                 /* the caller's, given with its own values */
    struct mpp_reduction *next; /* same hash */
} mpp_reduction_t;

typedef struct {
    mpp_handlemap_t index; /* hash of (comm, seq) -> first mpp_reduction_t * */
    size_t count;
} mpp_reductions_t;

/* What the caller does next with a reduction. */
typedef enum {
    MPP_REDUCTION_WAIT = 0, /* nothing: parts are missing */
    MPP_REDUCTION_SEND_UP,  /* send values[n] (and the mismatch mark) to tree.parent */
    MPP_REDUCTION_RESULT,   /* values[n] is the result: send it to the children, use it, remove the reduction */
    MPP_REDUCTION_ERROR     /* out of memory or not expected: the message is dropped */
} mpp_reduction_next_t;

void mpp_reductions_init(mpp_reductions_t *t);
/* Frees every reduction left (their user data is the caller's). */
void mpp_reductions_free(mpp_reductions_t *t);

/* This member's values of reduction (comm, seq) and its place in the tree. */
mpp_reduction_next_t mpp_reduction_own(mpp_reductions_t *t, uint64_t comm, uint64_t seq, int op, int n,
                                       const int64_t *values, const mpp_tree_t *tree, void *user,
                                       mpp_reduction_t **out);
/* A child's part (mismatch: the child's mark). */
mpp_reduction_next_t mpp_reduction_part(mpp_reductions_t *t, uint64_t comm, uint64_t seq, int op, int n,
                                        const int64_t *values, int mismatch, mpp_reduction_t **out);
/* The result from the parent. */
mpp_reduction_next_t mpp_reduction_result(mpp_reductions_t *t, uint64_t comm, uint64_t seq, int n,
                                          const int64_t *values, int mismatch, mpp_reduction_t **out);
/* Mark r as sent up. */
void mpp_reduction_sent_up(mpp_reduction_t *r);
/* Remove r (its user data is the caller's). */
void mpp_reduction_remove(mpp_reductions_t *t, mpp_reduction_t *r);
/* Every reduction left, e.g. at the end: fn may not add or remove. */
void mpp_reductions_each(mpp_reductions_t *t, void (*fn)(mpp_reduction_t *, void *), void *arg);

#endif
