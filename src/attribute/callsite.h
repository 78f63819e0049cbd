/* Call-site capture: the return addresses that identify an SRC point.
 *
 * A capture walks the stack from the MPI wrapper's caller with each code
 * address's unwind rule (frame_rules.h: from its DWARF CFI, once per
 * address), so binaries and libraries built without frame pointers give
 * the same, right, frames as those built with them.  Frames in the MPI
 * library, its Fortran bindings and mpiprof are skipped.  Every stack read
 * is bounded by the thread's stack (frame_step.h) and every return address
 * must lie in executable code: a wrong rule or a corrupt stack shortens a
 * capture, it never crashes the program.
 *
 * The hot path does not capture: a table cell keeps the rules of its
 * frames, and mpp_callsite_matches walks the current stack with them,
 * comparing as it goes (no lookup, no hash). */
#ifndef MPP_CALLSITE_H
#define MPP_CALLSITE_H

#include <stdint.h>

#include "records/frame_step.h"
#include "util/common.h"

/* Find the code of the MPI library, its Fortran bindings and mpiprof itself
 * (frames there are skipped) and start the rule cache.  `unwind` is
 * MPP_UNWIND_*; `fid_of_name` as mpp_frame_rules_start's. */
void mpp_callsite_init(int depth, int unwind, int (*fid_of_name)(const char *name));

extern uintptr_t mpp_skipped_lo, mpp_skipped_hi;
extern int mpp_callsite_always_dwarf;
int mpp_callsite_in_skipped_slow(uintptr_t pc);

/* Is pc in the MPI library, its bindings or mpiprof?  The program's own
 * code usually lies outside the libraries' whole span: one compare. */
static inline int mpp_callsite_in_skipped(uintptr_t pc)
{
    if (MPP_LIKELY(pc - mpp_skipped_lo >= mpp_skipped_hi - mpp_skipped_lo))
        return 0;
    return mpp_callsite_in_skipped_slow(pc);
}

/* Fill frames[0..depth-1] (zero-padded) for a call whose wrapper has the
 * given return address and frame address (__builtin_frame_address(0): the
 * wrapper keeps a frame pointer), within the thread's stack [lo, hi).
 * steps[i] (may be NULL) gets the rule from frames[i] to frames[i+1], for
 * mpp_callsite_matches; all MPP_STEP_UNKNOWN when the fast match cannot
 * repeat the capture (frames were skipped after the first, or the DWARF
 * unwinder was used). */
void mpp_callsite_capture(uintptr_t *frames, mpp_step_rule_t *steps, int depth, void *return_address,
                          void *frame_address, uintptr_t lo, uintptr_t hi);

/* The same from a register set (a signal's interrupted context: regs.pc is
 * then the interrupted instruction + 1, read as a return address). */
void mpp_callsite_capture_regs(uintptr_t *frames, int depth, mpp_frame_regs_t regs, uintptr_t lo, uintptr_t hi);

/* Whether mpp_callsite_capture would give exactly `frames`, whose rules
 * `steps` an earlier capture gave: the hot path's test of a recent cell,
 * with no lookup.  A walk that ended where it ended then matches; a step
 * that cannot be repeated (MPP_STEP_UNKNOWN) does not. */
MPP_ALWAYS_INLINE int mpp_callsite_walk(const uintptr_t *frames, const mpp_step_rule_t *steps, int depth,
                                        void *return_address, void *frame_address, uintptr_t lo, uintptr_t hi,
                                        mpp_walk_t *walk)
{
    if (frames[0] != (uintptr_t)return_address)
        return 0;
    if (depth == 1)
        return 1;
    const uintptr_t *fp = (const uintptr_t *)frame_address;
    mpp_frame_regs_t r = {(uintptr_t)return_address, (uintptr_t)(fp + 2), mpp_walk_read(walk, (uintptr_t)fp)};
    for (int i = 1; i < depth; i++) {
        if (!mpp_frame_step_read(&r, steps[i - 1], lo, hi, walk)) {
            if (steps[i - 1].kind == MPP_STEP_UNKNOWN)
                return 0;
            for (; i < depth; i++) /* the walk ends here, as it did then */
                if (frames[i])
                    return 0;
            return 1;
        }
        if (r.pc != frames[i])
            return 0;
    }
    return 1;
}

MPP_ALWAYS_INLINE int mpp_callsite_matches(const uintptr_t *frames, const mpp_step_rule_t *steps, int depth,
                                           void *return_address, void *frame_address, uintptr_t lo, uintptr_t hi)
{
    return mpp_callsite_walk(frames, steps, depth, return_address, frame_address, lo, hi, NULL);
}

/* The same test when `walk` holds the words an earlier walk that matched
 * read: called from the same frame with the same words there, this walk
 * would read the same and match again (a wrapper's frame address and the
 * words its walk reads decide it wholly: the thread's stack bounds and
 * the cell's rules do not change).  A loop calls from one frame: a few
 * compares instead of a walk.  Otherwise the walk, whose words are then
 * noted for the next call (mpp_callsite_note). */
int mpp_callsite_note(mpp_walk_t *walk, const uintptr_t *frames, const mpp_step_rule_t *steps, int depth,
                      void *return_address, void *frame_address, uintptr_t lo, uintptr_t hi);

/* The stack words a walk noted from `frame_address` (walk->frame, which
 * the caller compared) are still there: four words at a time, their
 * differences or'ed (a third of a loop's instructions and one branch per
 * four words). */
MPP_ALWAYS_INLINE int mpp_callsite_noted_same(const mpp_walk_t *walk, void *frame_address)
{
    const uintptr_t *f = (const uintptr_t *)frame_address;
    uintptr_t differ = 0;
    for (int i = 0; i < walk->compared; i += 4)
        differ |= (f[walk->at[i]] ^ walk->word[i]) | (f[walk->at[i + 1]] ^ walk->word[i + 1]) |
                  (f[walk->at[i + 2]] ^ walk->word[i + 2]) | (f[walk->at[i + 3]] ^ walk->word[i + 3]);
    return !differ;
}

MPP_ALWAYS_INLINE int mpp_callsite_matches_noted(mpp_walk_t *walk, const uintptr_t *frames,
                                                 const mpp_step_rule_t *steps, int depth, void *return_address,
                                                 void *frame_address, uintptr_t lo, uintptr_t hi)
{
    if (depth == 1)
        return frames[0] == (uintptr_t)return_address;
    /* walk->frame is 0 unless walk->n words were noted */
    if (MPP_LIKELY(walk->frame == (uintptr_t)frame_address && frames[0] == (uintptr_t)return_address) &&
        MPP_LIKELY(mpp_callsite_noted_same(walk, frame_address)))
        return 1;
    return mpp_callsite_note(walk, frames, steps, depth, return_address, frame_address, lo, hi);
}

int mpp_callsite_depth(void);

/* The calling thread's stack, [lo, hi) (both 0 when unknown): every walk
 * of it stays inside. */
void mpp_stack_bounds(uintptr_t *lo, uintptr_t *hi);
/* Its way for the initial thread, without the C library's read of
 * /proc/self/maps: 1 and the bounds, or 0 where it does not apply (another
 * thread, a stack limit above 128 MiB or none). */
int mpp_initial_stack_bounds(uintptr_t *lo, uintptr_t *hi);

/* The caller at return_address is the MPI library or its bindings, and
 * the call of `fid` is not the one that library function implements (e.g.
 * MPI_File_c2f made by the Fortran binding of MPI_File_open): a call the
 * MPI library makes itself, not the program's. */
int mpp_callsite_library_call(uintptr_t return_address, uint32_t fid);

#endif
