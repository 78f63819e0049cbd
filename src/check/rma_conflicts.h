/* rma-conflict between origins (correctness.md), at the target: the bytes
 * of its window that the one-sided operations of one fence epoch access,
 * as their origins' records tell them (intercept/check/rma.c), and the
 * question each new access asks: does another origin access one of these
 * bytes in the same epoch where the two conflict (a put with anything, a
 * get with an accumulate; two gets or two accumulates do not)?  An
 * origin's own accesses never conflict here (the order of one origin's
 * operations is its own business: its buffer reuse is the local half).
 *
 * The accesses of a (window, epoch) are a group, its byte ranges in
 * check/buffers.h's interval treap: O(log n + k) an access.  Records of
 * different origins arrive in any order, so the last MPP_RMA_GROUPS
 * groups are kept (the least recently used goes), each of at most
 * MPP_RMA_GROUP_ACCESSES accesses: about 120 bytes an access, 16 MB at
 * most.  An access past that is not compared (counted in `dropped`): a
 * finding missed, never a false one.  Pure: no MPI, no lock. */
#ifndef MPP_CHECK_RMA_CONFLICTS_H
#define MPP_CHECK_RMA_CONFLICTS_H

#include <stddef.h>
#include <stdint.h>

#include "check/buffers.h"

enum { MPP_RMA_READ = 1, MPP_RMA_WRITE = 2, MPP_RMA_ACCUMULATE = 3 };

/* An epoch number of general active target (PSCW): the origin's count
 * of its access epochs to the target, the target's of its exposure
 * epochs, as against a fence epoch's count of fences. */
#define MPP_RMA_EPOCH_PSCW (1ull << 63)

#define MPP_RMA_GROUPS 8
#define MPP_RMA_GROUP_ACCESSES 16384
#define MPP_RMA_LAYOUTS 16 /* range lengths and strides whose layouts are kept for the next */

/* Who made an access: its origin (MPI_COMM_WORLD rank), kind, function
 * and call site (a token, check/sites.h). */
typedef struct {
    int32_t origin;
    uint32_t kind;
    uint32_t fid, module;
    uint64_t offset;
} mpp_rma_access_t;

typedef struct {
    struct {
        uint64_t window, epoch, used; /* used 0: free */
        mpp_pending_t *accesses;
    } group[MPP_RMA_GROUPS];
    mpp_layout_t *layout[MPP_RMA_LAYOUTS]; /* contiguous, by length */
    uint64_t clock, dropped;
    unsigned next_layout;
} mpp_rma_conflicts_t;

void mpp_rma_conflicts_init(mpp_rma_conflicts_t *c);
void mpp_rma_conflicts_free(mpp_rma_conflicts_t *c);
/* An access to `reps` ranges of `len` bytes of `window` (the target's own
 * byte offsets), the first at lo, each `stride` bytes after the one
 * before (stride > len; reps 1: any), in epoch `epoch` (the caller's
 * number, never 0): 1 with the access of another origin it conflicts with
 * in *other (the first found), else 0. */
int mpp_rma_conflicts_add(mpp_rma_conflicts_t *c, uint64_t window, uint64_t epoch, uint64_t lo, uint64_t len,
                          int64_t stride, uint64_t reps, const mpp_rma_access_t *a, mpp_rma_access_t *other);
/* Whether two kinds conflict on a shared byte. */
static inline int mpp_rma_kinds_conflict(uint32_t a, uint32_t b)
{
    return !(a == MPP_RMA_READ && b == MPP_RMA_READ) && !(a == MPP_RMA_ACCUMULATE && b == MPP_RMA_ACCUMULATE);
}

#endif
