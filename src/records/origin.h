/* Where a call's cell is, to find it again later: what a request, a
 * receive waiting for its sender's record and a collective instance keep
 * of the call that made them (attribute/thread_state.h fills it, the
 * wait-state bookkeeping of accumulate/ hands it back). */
#ifndef MPP_RECORDS_ORIGIN_H
#define MPP_RECORDS_ORIGIN_H

#include <stddef.h>
#include <stdint.h>

/* The cell of the call that started a request, found again when the
 * request completes.  Cells move when their thread's table grows, so a
 * request keeps the cell's slot with the table generation it is valid for
 * (the fast path), its hash, fid and interval (to find it again in the same
 * thread's grown table), and, when another thread may complete it
 * (mpp_requests_keep_frames), its frames, to look the cell up by its key in
 * the completing thread's own table (tables are per thread, never shared).
 * The frames are a pointer to a copy that never moves (thread_state.h,
 * mpp_call_origin_frames): an origin is 56 bytes, and every receive waiting
 * for its sender's record, every collective instance and every outstanding
 * request keeps one. */
typedef struct {
    void *thread;        /* mpp_thread_t of the starting call; NULL: no cell */
    uint64_t generation; /* of that thread's table when `slot` was read */
    uint64_t slot;
    uint64_t hash;
    uint32_t fid, interval;
    int depth;               /* frames kept (0: none) */
    const uintptr_t *frames; /* [depth], for the run's length; NULL when none are kept */
} mpp_request_origin_t;

/* A copy of an origin, with its frames when `frames` (else none). */
static inline void mpp_origin_copy_frames(mpp_request_origin_t *to, const mpp_request_origin_t *from, int frames)
{
    *to = *from;
    if (!frames || !from->frames || from->depth <= 0) {
        to->depth = 0;
        to->frames = NULL;
    }
}

/* ... with its frames. */
static inline void mpp_origin_copy(mpp_request_origin_t *to, const mpp_request_origin_t *from)
{
    mpp_origin_copy_frames(to, from, 1);
}

#endif
