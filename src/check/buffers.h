/* The buffers of the nonblocking operations still pending in a process
 * (correctness.md: overlapping-buffers, send-buffer-modified), keyed by
 * their request's handle, with the question a call asks of them: does my
 * buffer share a byte with a pending operation's, where one of the two is
 * written?  A treap of the buffers' address ranges [lo, hi) ordered by lo,
 * each node knowing the largest hi below it, finds the ranges that meet a
 * buffer in O(log n + k); their bytes are then compared block by block
 * (check/layout.h).  About 80 bytes an operation (and `extra` bytes of the
 * caller's), allocated as the number pending grows, never per call once
 * it has peaked.  No MPI here, no lock: the caller's. */
#ifndef MPP_CHECK_BUFFERS_H
#define MPP_CHECK_BUFFERS_H

#include <stddef.h>
#include <stdint.h>

#include "check/layout.h"

enum {
    MPP_PENDING_WRITTEN = 1,    /* the operation writes the buffer (a receive) */
    MPP_PENDING_ACTIVE = 2,     /* in the tree: a persistent request's only while started */
    MPP_PENDING_PERSISTENT = 4, /* stays, inactive, when it completes */
};

typedef struct {
    uint64_t lo, hi, max; /* the buffer's range; the largest hi in this subtree */
    uint32_t left, right; /* the tree (0: none) */
    uint32_t next;        /* the next entry of the same handle (0: none); the free list's */
    uint16_t fid;         /* the operation's function (the caller's numbering) ... */
    uint8_t flags;        /* MPP_PENDING_* */
    uint8_t live;         /* in use */
    uint64_t handle;      /* its request */
    uint64_t site;        /* ... and its call's return address */
    mpp_span_t span;      /* its buffer (a reference on its layout) */
} mpp_pending_entry_t;

typedef struct mpp_pending mpp_pending_t;

/* `extra`: bytes the caller keeps with each entry (mpp_pending_extra). */
mpp_pending_t *mpp_pending_create(size_t extra);
void mpp_pending_destroy(mpp_pending_t *p);
/* Forget every entry. */
void mpp_pending_clear(mpp_pending_t *p);
/* An operation's buffer under `handle` (a request may have two: a
 * collective's send and receive buffers); MPP_PENDING_ACTIVE puts it in
 * the tree.  Takes a reference on its layout.  Its id, 0 when the buffer
 * has no bytes or memory ran out. */
uint32_t mpp_pending_add(mpp_pending_t *p, uint64_t handle, const mpp_span_t *s, unsigned flags, uint16_t fid,
                         uint64_t site);
mpp_pending_entry_t *mpp_pending_entry(mpp_pending_t *p, uint32_t id);
void *mpp_pending_extra(mpp_pending_t *p, uint32_t id);
/* The first entry of a handle (0: none); the others follow by `next`
 * (the first added first, the others in no set order). */
uint32_t mpp_pending_first(const mpp_pending_t *p, uint64_t handle);
/* Into the tree (on) or out of it. */
void mpp_pending_activate(mpp_pending_t *p, uint32_t id, int on);
/* Remove every entry of a handle, calling `each` (when not NULL) on each
 * one first. */
void mpp_pending_remove(mpp_pending_t *p, uint64_t handle, void (*each)(mpp_pending_t *, uint32_t, void *),
                        void *arg);
/* An active entry whose buffer shares a byte with s where one of the two
 * is written (`written`: s is); 0 when none among the first
 * `max_candidates` whose ranges meet s's (compared within `budget` blocks
 * each, an undecided comparison counting as none). */
uint32_t mpp_pending_conflict(mpp_pending_t *p, const mpp_span_t *s, int written, size_t max_candidates,
                              size_t budget);
/* The same among the entries `accept` takes (NULL: all). */
typedef int (*mpp_pending_accept_fn)(mpp_pending_t *p, uint32_t id, void *arg);
uint32_t mpp_pending_conflict_if(mpp_pending_t *p, const mpp_span_t *s, int written, size_t max_candidates,
                                 size_t budget, mpp_pending_accept_fn accept, void *arg);
/* Entries, and the bytes the structure holds. */
size_t mpp_pending_count(const mpp_pending_t *p);
size_t mpp_pending_bytes(const mpp_pending_t *p);

#endif
