/* Call-site capture by frame pointers and the hot path's test of the
 * previous call's frames (include/private/callsite.h), on synthetic stacks:
 * mpp_callsite_matches must say yes exactly when mpp_callsite_capture would
 * give the same frames. */
#include <stdint.h>
#include <string.h>

#include "callsite.h"
#include "suites.h"

/* The library's globals the inline capture reads, set here so that no
 * return address counts as MPI's own code (the DWARF path is never taken;
 * the MPI tests cover it). */
uintptr_t mpp_skipped_lo = 1, mpp_skipped_hi = 1;
int mpp_callsite_always_dwarf;
int mpp_callsite_in_skipped_slow(uintptr_t pc) { return (void)pc, 0; }
void mpp_callsite_capture_dwarf(uintptr_t *frames) { ck_abort_msg("DWARF path taken (frames %p)", (void *)frames); }

/* A fake stack: NFRAMES frames of two words (saved frame pointer, return
 * address), each linked to the next one up. */
#define NFRAMES 24
static uintptr_t stack[NFRAMES * 2 + 2];
static uintptr_t lo, hi;

static void *chain(int length)
{
    memset(stack, 0, sizeof stack);
    for (int i = 0; i < NFRAMES; i++) {
        stack[2 * i] = i + 1 < length ? (uintptr_t)&stack[2 * (i + 1)] : 0;
        stack[2 * i + 1] = 0x400000 + 0x10 * (uintptr_t)i;
    }
    lo = (uintptr_t)stack;
    hi = (uintptr_t)(stack + sizeof stack / sizeof *stack);
    return stack;
}

#define RA ((void *)0x3ff000)

START_TEST(test_callsite_matches_own_capture)
{
    for (int length = 1; length <= NFRAMES; length += 3)
        for (int depth = 1; depth <= MPP_MAX_DEPTH; depth++) {
            void *fp = chain(length);
            uintptr_t frames[MPP_MAX_DEPTH];
            mpp_callsite_capture(frames, depth, RA, fp, lo, hi);
            ck_assert_uint_eq(frames[0], (uintptr_t)RA);
            ck_assert_int_eq(mpp_callsite_matches(frames, depth, RA, fp, lo, hi), 1);
            /* any other frame within the depth: no */
            for (int i = 0; i < depth; i++) {
                uintptr_t keep = frames[i];
                frames[i] ^= 0x8;
                ck_assert_msg(!mpp_callsite_matches(frames, depth, RA, fp, lo, hi),
                              "length %d depth %d: frame %d changed still matches", length, depth, i);
                frames[i] = keep;
            }
            /* another return address: no */
            ck_assert_int_eq(mpp_callsite_matches(frames, depth, (void *)0x3ff008, fp, lo, hi), 0);
        }
}
END_TEST

START_TEST(test_callsite_matches_where_walk_stops)
{
    uintptr_t frames[MPP_MAX_DEPTH];
    void *fp = chain(NFRAMES);
    /* the chain leaves the stack bounds after frame 2: zeros after it */
    stack[2 * 2] = hi + 64;
    mpp_callsite_capture(frames, 6, RA, fp, lo, hi);
    ck_assert_uint_ne(frames[2], 0);
    ck_assert_uint_eq(frames[3], 0);
    ck_assert_int_eq(mpp_callsite_matches(frames, 6, RA, fp, lo, hi), 1);
    frames[4] = 0x400040; /* a frame the walk would not give */
    ck_assert_int_eq(mpp_callsite_matches(frames, 6, RA, fp, lo, hi), 0);
    /* a frame pointer pointing down the stack, a misaligned one, a zero return address */
    uintptr_t bad[3] = {(uintptr_t)&stack[0], (uintptr_t)&stack[2 * 3] + 1, 0};
    for (int k = 0; k < 3; k++) {
        fp = chain(NFRAMES);
        if (k < 2)
            stack[2 * 1] = bad[k];
        else
            stack[2 * 2 + 1] = 0;
        mpp_callsite_capture(frames, 5, RA, fp, lo, hi);
        ck_assert_uint_eq(frames[2], 0);
        ck_assert_int_eq(mpp_callsite_matches(frames, 5, RA, fp, lo, hi), 1);
        /* the same frames, had the walk gone on: no longer what it gives */
        chain(NFRAMES);
        ck_assert_int_eq(mpp_callsite_matches(frames, 5, RA, fp, lo, hi), 0);
    }
}
END_TEST

Suite *callsite_suite(void)
{
    Suite *s = suite_create("callsite");
    TCase *tc = tcase_create("frame_pointers");
    tcase_add_test(tc, test_callsite_matches_own_capture);
    tcase_add_test(tc, test_callsite_matches_where_walk_stops);
    suite_add_tcase(s, tc);
    return s;
}
