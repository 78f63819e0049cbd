/* Call-site capture: the return addresses that identify an SRC point. */
#ifndef MPP_CALLSITE_H
#define MPP_CALLSITE_H

#include <stdint.h>

#include "mpp_common.h"

/* Find the code of the MPI library, its Fortran bindings and mpiprof itself:
 * frames there are skipped.  `unwind` is MPP_UNWIND_*. */
void mpp_callsite_init(int depth, int unwind);

extern uintptr_t mpp_skipped_lo, mpp_skipped_hi;
extern int mpp_callsite_always_dwarf;
int mpp_callsite_in_skipped_slow(uintptr_t pc);
void mpp_callsite_capture_dwarf(uintptr_t *frames);

/* Is pc in the MPI library, its bindings or mpiprof?  The program's own
 * code usually lies outside the libraries' whole span: one compare. */
static inline int mpp_callsite_in_skipped(uintptr_t pc)
{
    if (MPP_LIKELY(pc - mpp_skipped_lo >= mpp_skipped_hi - mpp_skipped_lo))
        return 0;
    return mpp_callsite_in_skipped_slow(pc);
}

/* The next frame of a frame-pointer walk from fp, or NULL where the walk
 * must stop: a frame pointer must point further up this thread's stack,
 * aligned, to a frame with a return address. */
static inline const uintptr_t *mpp_callsite_next_frame(const uintptr_t *fp, uintptr_t stack_lo, uintptr_t stack_hi)
{
    const uintptr_t *next = (const uintptr_t *)fp[0];
    if (next <= fp || (uintptr_t)next + 16 > stack_hi || (uintptr_t)next < stack_lo || ((uintptr_t)next & 7) ||
        !next[1])
        return NULL;
    return next;
}

/* Fill frames[0..depth-1] (zero-padded) for a call whose wrapper has the
 * given return and frame addresses.  Frame pointers are walked within the
 * thread's stack bounds, so a binary without frame pointers gives short or
 * wrong deeper frames but never a crash; calls through the MPI Fortran
 * bindings (return address inside MPI) use the DWARF unwinder. */
static inline __attribute__((always_inline)) void
mpp_callsite_capture(uintptr_t *frames, int depth, void *return_address, void *frame_address,
                     uintptr_t stack_lo, uintptr_t stack_hi)
{
    uintptr_t pc = (uintptr_t)return_address;
    if (MPP_UNLIKELY(mpp_callsite_always_dwarf || mpp_callsite_in_skipped(pc))) {
        mpp_callsite_capture_dwarf(frames);
        return;
    }
    frames[0] = pc;
    const uintptr_t *fp = (const uintptr_t *)frame_address;
    int i = 1;
    for (; i < depth && (fp = mpp_callsite_next_frame(fp, stack_lo, stack_hi)) != NULL; i++)
        frames[i] = fp[1];
    for (; i < depth; i++)
        frames[i] = 0;
}

/* Whether mpp_callsite_capture would give exactly `frames`, known to come
 * from an earlier capture (so frames[0] == the return address means the
 * frame-pointer walk, not DWARF, produced them): the hot path's test of the
 * previous call's cell, without writing the frames anywhere. */
static inline __attribute__((always_inline)) int
mpp_callsite_matches(const uintptr_t *frames, int depth, void *return_address, void *frame_address,
                     uintptr_t stack_lo, uintptr_t stack_hi)
{
    if (frames[0] != (uintptr_t)return_address)
        return 0;
    if (depth == 1)
        return 1;
    const uintptr_t *fp = (const uintptr_t *)frame_address;
    int i = 1;
    for (; i < depth && (fp = mpp_callsite_next_frame(fp, stack_lo, stack_hi)) != NULL; i++)
        if (frames[i] != fp[1])
            return 0;
    for (; i < depth; i++)
        if (frames[i])
            return 0;
    return 1;
}

int mpp_callsite_depth(void);

#endif
