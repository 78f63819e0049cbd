/* One step of a call-stack walk: from a frame, whose return address is
 * known, to its caller's frame, by the unwind rule of the code at that
 * return address (frame_rules.h reads it once from the code's DWARF call
 * frame information and caches it).  Compilers describe ordinary functions
 * with a few forms of rule, and only those are kept: the canonical frame
 * address (CFA, the stack pointer before the call) is the stack pointer or
 * the frame pointer plus an offset, or read at the frame pointer plus an
 * offset (a stack realigned on entry); the return address is just below the
 * CFA; the caller's frame pointer is unchanged or saved at an offset from
 * the CFA or the frame pointer.  Anything else ends the walk.
 *
 * Every address read is checked against the thread's stack bounds first, and
 * each step must move up the stack, so a wrong rule or a corrupt stack ends
 * the walk, never the process.  Pure: no system call, no allocation. */
#ifndef MPP_FRAME_STEP_H
#define MPP_FRAME_STEP_H

#include <stdint.h>

#include "util/common.h"

enum {
    MPP_STEP_UNKNOWN = 0, /* not known (an empty cache slot; a capture the fast match cannot repeat) */
    MPP_STEP_INVALID,     /* not a return address: outside the program's executable code */
    MPP_STEP_END,         /* code whose caller cannot be found: the outermost frame, no or unusual CFI */
    MPP_STEP_CFA_SP,      /* CFA = stack pointer + cfa_offset */
    MPP_STEP_CFA_BP,      /* CFA = frame pointer + cfa_offset */
    MPP_STEP_CFA_AT_BP,   /* CFA = *(frame pointer + cfa_offset) */
};

/* Where the caller's frame pointer is. */
enum {
    MPP_BP_SAME = 0, /* unchanged by this frame */
    MPP_BP_AT_CFA,   /* saved at CFA + bp_offset */
    MPP_BP_AT_BP,    /* saved at frame pointer + bp_offset */
    MPP_BP_LOST,     /* not recoverable: a later frame-pointer-based rule ends the walk */
};

typedef struct {
    int32_t cfa_offset;
    int16_t bp_offset;
    uint8_t kind; /* MPP_STEP_* */
    uint8_t bp;   /* MPP_BP_* */
} mpp_step_rule_t;

/* The registers a walk needs: program counter (a return address above the
 * first frame), stack pointer at the call, frame pointer register. */
typedef struct {
    uintptr_t pc, sp, bp;
} mpp_frame_regs_t;

/* An aligned word wholly inside [lo, hi). */
MPP_ALWAYS_INLINE int mpp_stack_word(uintptr_t at, uintptr_t lo, uintptr_t hi)
{
    return at >= lo && at <= hi - sizeof(uintptr_t) && !(at & (sizeof(uintptr_t) - 1));
}

/* The stack words a walk read, where and what (mpp_frame_step_read):
 * a walk from the same frame that finds the same words there reads the
 * same again and gives the same frames (callsite.h, mpp_walk_same). */
#define MPP_WALK_WORDS 12 /* a multiple of 4 (mpp_walk_t.compared) */
typedef struct {
    uintptr_t frame;                /* the first frame's address (0: nothing recorded) */
    int n;                          /* words read; -1: more than MPP_WALK_WORDS, or too far */
    int compared;                   /* n rounded up to 4, the words after n copies of the first
                                     * (callsite.h: the compare is unrolled by four, with no branch) */
    int16_t at[MPP_WALK_WORDS];     /* each one's address, in words from `frame` */
    uintptr_t word[MPP_WALK_WORDS]; /* and what it held */
} mpp_walk_t;

/* The word at `at` (in bounds), noted in walk when it is not NULL. */
MPP_ALWAYS_INLINE uintptr_t mpp_walk_read(mpp_walk_t *walk, uintptr_t at)
{
    uintptr_t v = *(const uintptr_t *)at;
    if (walk && walk->n >= 0) {
        intptr_t words = ((intptr_t)at - (intptr_t)walk->frame) / (intptr_t)sizeof(uintptr_t);
        if (walk->n < MPP_WALK_WORDS && words >= INT16_MIN && words <= INT16_MAX) {
            walk->at[walk->n] = (int16_t)words;
            walk->word[walk->n++] = v;
        } else {
            walk->n = -1;
        }
    }
    return v;
}

/* Step r from its frame to the caller's by rule: 1, or 0 where the walk
 * ends (r unchanged then).  The caller's pc may be 0 (the outermost frame):
 * 0 too.  The words it reads go to walk (NULL: none). */
MPP_ALWAYS_INLINE int mpp_frame_step_read(mpp_frame_regs_t *r, mpp_step_rule_t rule, uintptr_t lo, uintptr_t hi,
                                          mpp_walk_t *walk)
{
    uintptr_t cfa;
    if (MPP_LIKELY(rule.kind == MPP_STEP_CFA_SP)) {
        cfa = r->sp + (uintptr_t)(intptr_t)rule.cfa_offset;
    } else if (rule.kind == MPP_STEP_CFA_BP) {
        cfa = r->bp + (uintptr_t)(intptr_t)rule.cfa_offset;
    } else if (rule.kind == MPP_STEP_CFA_AT_BP) {
        uintptr_t at = r->bp + (uintptr_t)(intptr_t)rule.cfa_offset;
        if (!mpp_stack_word(at, lo, hi))
            return 0;
        cfa = mpp_walk_read(walk, at);
    } else {
        return 0;
    }
    /* the caller's frame lies above this one; its return address below the CFA */
    if (cfa <= r->sp || !mpp_stack_word(cfa - sizeof(uintptr_t), lo, hi))
        return 0;
    uintptr_t bp = r->bp;
    if (rule.bp != MPP_BP_SAME) {
        if (rule.bp == MPP_BP_LOST) {
            bp = 0;
        } else {
            uintptr_t at = (rule.bp == MPP_BP_AT_CFA ? cfa : r->bp) + (uintptr_t)(intptr_t)rule.bp_offset;
            if (!mpp_stack_word(at, lo, hi))
                return 0;
            bp = mpp_walk_read(walk, at);
        }
    }
    uintptr_t pc = mpp_walk_read(walk, cfa - sizeof(uintptr_t));
    if (!pc)
        return 0;
    r->pc = pc;
    r->sp = cfa;
    r->bp = bp;
    return 1;
}

MPP_ALWAYS_INLINE int mpp_frame_step(mpp_frame_regs_t *r, mpp_step_rule_t rule, uintptr_t lo, uintptr_t hi)
{
    return mpp_frame_step_read(r, rule, lo, hi, NULL);
}

/* The rule of code compiled with frame pointers (push bp; mov sp, bp): what
 * MPIPROF_UNWIND=fp assumes of every frame. */
static inline mpp_step_rule_t mpp_step_frame_pointer(void)
{
    mpp_step_rule_t r = {16, -16, MPP_STEP_CFA_BP, MPP_BP_AT_CFA};
    return r;
}

#endif
