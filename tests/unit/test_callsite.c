/* Call-site capture (src/attribute/callsite.h, frame_rules.h,
 * frame_step.h): on real stacks of code built with and without frame
 * pointers, a capture must give the frames the DWARF unwinder gives, and
 * the hot path's match must say yes exactly when the capture would give the
 * same frames; on synthetic stacks, every read stays within the bounds. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <unwind.h>

#include "attribute/callsite.h"
#include "attribute/frame_rules.h"
#include "context/config.h"
#include "suites.h"

/* --- synthetic stacks: frames of two words (saved frame pointer, return
 * address), each linked to the next one up, walked by frame-pointer rules */

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

/* What a walk by frame-pointer rules gives from fp: the frames and rules a
 * capture would store. */
static void fp_walk(void *fp, int depth, uintptr_t *frames, mpp_step_rule_t *steps)
{
    const uintptr_t *f = fp;
    mpp_frame_regs_t r = {(uintptr_t)RA, (uintptr_t)(f + 2), f[0]};
    int n = 0;
    do {
        frames[n] = r.pc;
        steps[n] = mpp_step_frame_pointer();
        n++;
    } while (n < depth && mpp_frame_step(&r, mpp_step_frame_pointer(), lo, hi));
    for (int i = n; i < depth; i++)
        frames[i] = 0, steps[i] = (mpp_step_rule_t){0, 0, MPP_STEP_UNKNOWN, 0};
}

START_TEST(test_callsite_matches_own_walk)
{
    for (int length = 1; length <= NFRAMES; length += 3)
        for (int depth = 1; depth <= MPP_MAX_DEPTH; depth++) {
            void *fp = chain(length);
            uintptr_t frames[MPP_MAX_DEPTH];
            mpp_step_rule_t steps[MPP_MAX_DEPTH];
            fp_walk(fp, depth, frames, steps);
            ck_assert_uint_eq(frames[0], (uintptr_t)RA);
            if (depth > 1 && length > 1)
                ck_assert_uint_eq(frames[1], 0x400010);
            ck_assert_int_eq(mpp_callsite_matches(frames, steps, depth, RA, fp, lo, hi), 1);
            for (int i = 0; i < depth; i++) { /* any other frame within the depth: no */
                uintptr_t keep = frames[i];
                frames[i] ^= 0x8;
                ck_assert_msg(!mpp_callsite_matches(frames, steps, depth, RA, fp, lo, hi),
                              "length %d depth %d: frame %d changed still matches", length, depth, i);
                frames[i] = keep;
            }
            ck_assert_int_eq(mpp_callsite_matches(frames, steps, depth, (void *)0x3ff008, fp, lo, hi), 0);
        }
}
END_TEST

START_TEST(test_callsite_matches_where_walk_stops)
{
    uintptr_t frames[MPP_MAX_DEPTH];
    mpp_step_rule_t steps[MPP_MAX_DEPTH];
    void *fp = chain(NFRAMES);
    stack[2 * 2] = hi + 64; /* the chain leaves the stack after frame 2 */
    fp_walk(fp, 6, frames, steps);
    ck_assert_uint_ne(frames[2], 0);
    ck_assert_uint_eq(frames[3], 0);
    ck_assert_int_eq(mpp_callsite_matches(frames, steps, 6, RA, fp, lo, hi), 1);
    frames[4] = 0x400040; /* a frame the walk would not give */
    ck_assert_int_eq(mpp_callsite_matches(frames, steps, 6, RA, fp, lo, hi), 0);
    /* a frame pointer pointing down the stack, a misaligned one, a zero
     * return address, a value such as a dead stack's fill pattern */
    uintptr_t bad[4] = {(uintptr_t)&stack[0], (uintptr_t)&stack[2 * 3] + 1, 0, (uintptr_t)0x1a1a1a1a1a1a1a1aull};
    for (int k = 0; k < 4; k++) {
        fp = chain(NFRAMES);
        if (k != 2)
            stack[2 * 1] = bad[k];
        else
            stack[2 * 2 + 1] = 0;
        fp_walk(fp, 5, frames, steps);
        ck_assert_uint_eq(frames[2], 0);
        ck_assert_int_eq(mpp_callsite_matches(frames, steps, 5, RA, fp, lo, hi), 1);
        chain(NFRAMES); /* the same frames, had the walk gone on: no longer what it gives */
        ck_assert_int_eq(mpp_callsite_matches(frames, steps, 5, RA, fp, lo, hi), 0);
    }
    /* a capture the fast match cannot repeat: only its first frame counts at depth 1 */
    fp = chain(NFRAMES);
    fp_walk(fp, 4, frames, steps);
    memset(steps, 0, sizeof steps);
    ck_assert_int_eq(mpp_callsite_matches(frames, steps, 4, RA, fp, lo, hi), 0);
    ck_assert_int_eq(mpp_callsite_matches(frames, steps, 1, RA, fp, lo, hi), 1);
}
END_TEST

/* The walk noted for a frame (mpp_callsite_matches_noted) says what a
 * walk would: yes from the same frame with the same words, and no as soon
 * as any word the walk read changed (a caller further up replaced, a
 * frame pointer moved), or a frame the cell does not have; other frames
 * walk again. */
START_TEST(test_callsite_matches_noted)
{
    for (int depth = 1; depth <= 6; depth++) {
        uintptr_t frames[MPP_MAX_DEPTH];
        mpp_step_rule_t steps[MPP_MAX_DEPTH];
        mpp_walk_t walk = {0};
        void *fp = chain(NFRAMES);
        fp_walk(fp, depth, frames, steps);
        ck_assert_int_eq(mpp_callsite_matches_noted(&walk, frames, steps, depth, RA, fp, lo, hi), 1);
        if (depth > 1) {
            ck_assert_uint_eq(walk.frame, (uintptr_t)fp);
            ck_assert_int_eq(walk.n, 2 * depth - 1); /* the first frame pointer, then one pair per step */
        }
        ck_assert_int_eq(mpp_callsite_matches_noted(&walk, frames, steps, depth, RA, fp, lo, hi), 1);
        for (int w = 0; w < 2 * depth; w++) { /* every word the walk reads, and the one above */
            uintptr_t keep = stack[w];
            stack[w] ^= 0x10;
            int walked = mpp_callsite_matches(frames, steps, depth, RA, fp, lo, hi);
            ck_assert_msg(mpp_callsite_matches_noted(&walk, frames, steps, depth, RA, fp, lo, hi) == walked,
                          "depth %d: word %d changed: noted and walked disagree", depth, w);
            stack[w] = keep;
            ck_assert_int_eq(mpp_callsite_matches_noted(&walk, frames, steps, depth, RA, fp, lo, hi), 1);
        }
        /* a frame one level up: what its walk gives, noted anew */
        void *up = &stack[2];
        ck_assert_int_eq(mpp_callsite_matches_noted(&walk, frames, steps, depth, RA, up, lo, hi),
                         mpp_callsite_matches(frames, steps, depth, RA, up, lo, hi));
        ck_assert_int_eq(mpp_callsite_matches_noted(&walk, frames, steps, depth, (void *)0x3ff008, fp, lo, hi), 0);
    }
}
END_TEST

START_TEST(test_frame_step_rules)
{
    /* CFA = sp + 24, caller's bp saved at CFA - 16; then CFA = *(bp - 8) (a
     * realigned stack) with bp saved at bp + 0 */
    uintptr_t s[16] = {0};
    lo = (uintptr_t)s;
    hi = (uintptr_t)(s + 16);
    s[1] = (uintptr_t)&s[6];  /* saved bp, at CFA - 16 */
    s[2] = 0x401000;          /* return address, at CFA - 8 */
    s[5] = (uintptr_t)&s[10]; /* *(bp - 8): the next CFA */
    s[6] = (uintptr_t)&s[12]; /* bp + 0: the next saved bp */
    s[9] = 0x402000;          /* return address below that CFA */
    mpp_frame_regs_t r = {0x400000, (uintptr_t)&s[0], 0};
    mpp_step_rule_t sp_rule = {24, -16, MPP_STEP_CFA_SP, MPP_BP_AT_CFA};
    ck_assert_int_eq(mpp_frame_step(&r, sp_rule, lo, hi), 1);
    ck_assert_uint_eq(r.pc, 0x401000);
    ck_assert_uint_eq(r.sp, (uintptr_t)&s[3]);
    ck_assert_uint_eq(r.bp, (uintptr_t)&s[6]);
    mpp_step_rule_t realigned = {-8, 0, MPP_STEP_CFA_AT_BP, MPP_BP_AT_BP};
    ck_assert_int_eq(mpp_frame_step(&r, realigned, lo, hi), 1);
    ck_assert_uint_eq(r.pc, 0x402000);
    ck_assert_uint_eq(r.sp, (uintptr_t)&s[10]);
    ck_assert_uint_eq(r.bp, (uintptr_t)&s[12]);
    /* no step down the stack, out of it, or by a rule that ends the walk */
    mpp_frame_regs_t keep = r;
    mpp_step_rule_t down = {-32, 0, MPP_STEP_CFA_SP, MPP_BP_SAME};
    mpp_step_rule_t out = {4096, 0, MPP_STEP_CFA_SP, MPP_BP_SAME};
    mpp_step_rule_t lost_bp = {16, 0, MPP_STEP_CFA_BP, MPP_BP_SAME};
    mpp_step_rule_t end = {0, 0, MPP_STEP_END, MPP_BP_SAME};
    ck_assert_int_eq(mpp_frame_step(&r, down, lo, hi), 0);
    ck_assert_int_eq(mpp_frame_step(&r, out, lo, hi), 0);
    ck_assert_int_eq(mpp_frame_step(&r, end, lo, hi), 0);
    r.bp = (uintptr_t)0x1a1a1a1a1a1a1a1aull;
    ck_assert_int_eq(mpp_frame_step(&r, lost_bp, lo, hi), 0);
    ck_assert_int_eq(mpp_frame_step(&r, realigned, lo, hi), 0);
    r.bp = keep.bp;
    ck_assert_uint_eq(r.pc, keep.pc);
    ck_assert_uint_eq(r.sp, keep.sp);
}
END_TEST

/* --- real stacks --- */

static int fid_of_test_name(const char *name)
{
    static const char *const names[] = {"mpi_file_open", "mpi_file_close", "mpi_send"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(name, names[i]))
            return i + 1;
    return -1;
}

static void setup(void) { mpp_callsite_init(MPP_MAX_DEPTH, MPP_UNWIND_AUTO, fid_of_test_name); }

typedef struct {
    uintptr_t frames[MPP_MAX_DEPTH];
    mpp_step_rule_t steps[MPP_MAX_DEPTH];
    uintptr_t unwound[MPP_MAX_DEPTH + 1];
    int nunwound, matched, mismatched;
} probe_t;

static probe_t probe_result;

static _Unwind_Reason_Code unwind_step(struct _Unwind_Context *ctx, void *arg)
{
    probe_t *p = arg;
    if (p->nunwound == MPP_MAX_DEPTH + 1)
        return _URC_END_OF_STACK;
    p->unwound[p->nunwound++] = _Unwind_GetIP(ctx);
    return _URC_NO_REASON;
}

/* An MPI wrapper's stand-in: captures its caller's stack as a wrapper does,
 * asks the hot path's match, and has the DWARF unwinder walk the same stack. */
static void __attribute__((noinline)) probe(void)
{
    probe_t *p = &probe_result;
    uintptr_t slo, shi;
    mpp_stack_bounds(&slo, &shi);
    memset(p, 0, sizeof *p);
    mpp_callsite_capture(p->frames, p->steps, MPP_MAX_DEPTH, __builtin_return_address(0), __builtin_frame_address(0),
                         slo, shi);
    p->matched = mpp_callsite_matches(p->frames, p->steps, MPP_MAX_DEPTH, __builtin_return_address(0),
                                      __builtin_frame_address(0), slo, shi);
    p->frames[3] ^= 0x10;
    p->mismatched = !mpp_callsite_matches(p->frames, p->steps, MPP_MAX_DEPTH, __builtin_return_address(0),
                                          __builtin_frame_address(0), slo, shi);
    p->frames[3] ^= 0x10;
    _Unwind_Backtrace(unwind_step, p); /* its first frame is probe's own */
}

static volatile uintptr_t sink;

/* Functions without frame pointers that keep a garbage value in the frame
 * pointer register across their calls, as optimized code does. */
#define NO_FP __attribute__((noinline, optimize("omit-frame-pointer")))
NO_FP static void inner_no_fp(int n)
{
    register uintptr_t garbage __asm__("rbp") = (uintptr_t)0x1a1a1a1a1a1a1a1aull + (uintptr_t)n;
    volatile char pad[512];
    pad[n & 511] = 1;
    __asm__ volatile("" : "+r"(garbage));
    probe();
    __asm__ volatile("" : "+r"(garbage));
    sink = garbage + (uintptr_t)pad[n & 511];
}

static void __attribute__((noinline)) middle_with_fp(int n)
{
    volatile char pad[64];
    pad[n & 63] = 2;
    inner_no_fp(n + pad[n & 63]);
    sink += 1;
}

NO_FP static void outer_no_fp(int n)
{
    register uintptr_t garbage __asm__("rbp") = (uintptr_t)&n + ((uintptr_t)1 << 40); /* above the stack */
    volatile double big[3000];                                                        /* a large frame */
    big[n % 3000] = n;
    __asm__ volatile("" : "+r"(garbage));
    middle_with_fp((int)big[n % 3000]);
    __asm__ volatile("" : "+r"(garbage));
    sink += garbage;
}

static int compare_and_probe(const void *a, const void *b)
{
    static int probed;
    if (!probed++)
        probe();
    return *(const int *)a - *(const int *)b;
}

static void check_probe_agrees(const char *what)
{
    probe_t *p = &probe_result;
    ck_assert_msg(p->nunwound > 4, "%s: the DWARF unwinder gave %d frames", what, p->nunwound);
    int n = 0;
    while (n < MPP_MAX_DEPTH && p->frames[n])
        n++;
    ck_assert_msg(n >= 4, "%s: the capture gave %d frames", what, n);
    for (int i = 0; i < n && i + 1 < p->nunwound; i++)
        ck_assert_msg(p->frames[i] == p->unwound[i + 1], "%s: frame %d is %#lx, the DWARF unwinder says %#lx", what,
                      i, (unsigned long)p->frames[i], (unsigned long)p->unwound[i + 1]);
    ck_assert_msg(p->matched, "%s: the fast match does not repeat the capture", what);
    ck_assert_msg(p->mismatched, "%s: the fast match accepts a changed frame", what);
}

START_TEST(test_callsite_capture_without_frame_pointers)
{
    outer_no_fp(7);
    check_probe_agrees("frames without frame pointers");
}
END_TEST

START_TEST(test_callsite_capture_through_libc)
{
    /* qsort's frames are the C library's (built without frame pointers on
     * most distributions) */
    int values[] = {3, 1, 2, 5, 4};
    qsort(values, 5, sizeof *values, compare_and_probe);
    check_probe_agrees("through qsort");
}
END_TEST

START_TEST(test_callsite_capture_from_garbage_registers)
{
    /* a register set such as a signal handler reads: only what is inside
     * the stack is followed */
    uintptr_t slo, shi, frames[8];
    mpp_stack_bounds(&slo, &shi);
    volatile uintptr_t here[4] = {0};
    uintptr_t pcs[] = {(uintptr_t)qsort + 1, (uintptr_t)probe + 1, 0x10};
    uintptr_t bps[] = {0, (uintptr_t)0x1a1a1a1a1a1a1a1aull, (uintptr_t)here, UINTPTR_MAX - 7};
    for (size_t i = 0; i < MPP_ARRAY_LEN(pcs); i++)
        for (size_t j = 0; j < MPP_ARRAY_LEN(bps); j++) {
            mpp_frame_regs_t r = {pcs[i], (uintptr_t)here, bps[j]};
            mpp_callsite_capture_regs(frames, 8, r, slo, shi);
            ck_assert_uint_eq(frames[0], pcs[i]);
        }
}
END_TEST

START_TEST(test_frame_rules_invalid_addresses)
{
    void *heap = malloc(64);
    uintptr_t local = 0;
    uintptr_t bad[] = {(uintptr_t)heap, (uintptr_t)&local, (uintptr_t)0x1a1a1a1a1a1a1a1aull, 0x10,
                       (uintptr_t)0x55cf9b8baf20ull};
    for (size_t i = 0; i < MPP_ARRAY_LEN(bad); i++)
        ck_assert_msg(mpp_frame_rule(bad[i]).kind == MPP_STEP_INVALID, "%#lx taken for code", (unsigned long)bad[i]);
    free(heap);
    ck_assert_int_ge(mpp_frame_rule((uintptr_t)qsort + 8).kind, MPP_STEP_END);
    ck_assert_int_ge(mpp_frame_rule((uintptr_t)probe + 8).kind, MPP_STEP_END);
    /* MPIPROF_UNWIND=fp: code is taken for frame-pointer code, the rest is still no code */
    mpp_callsite_init(4, MPP_UNWIND_FP, fid_of_test_name);
    mpp_step_rule_t fp = mpp_frame_rule((uintptr_t)qsort + 8), expected = mpp_step_frame_pointer();
    ck_assert(fp.kind == expected.kind && fp.cfa_offset == expected.cfa_offset && fp.bp == expected.bp);
    ck_assert_int_eq(mpp_frame_rule((uintptr_t)heap).kind, MPP_STEP_INVALID);
}
END_TEST

/* The C library's bounds of the calling thread's stack (for the initial
 * thread: a read of /proc/self/maps). */
static void libc_bounds(uintptr_t *lo_out, uintptr_t *hi_out)
{
    pthread_attr_t attr;
    void *addr;
    size_t size;
    ck_assert_int_eq(pthread_getattr_np(pthread_self(), &attr), 0);
    ck_assert_int_eq(pthread_attr_getstack(&attr, &addr, &size), 0);
    pthread_attr_destroy(&attr);
    *lo_out = (uintptr_t)addr;
    *hi_out = (uintptr_t)addr + size;
}

START_TEST(test_stack_bounds_initial_thread)
{
    /* the thread that started the process (Check's fork keeps it: the
     * child's only thread is the one that forked from the initial one) */
    ck_assert_int_eq(gettid(), getpid());
    uintptr_t mine_lo, mine_hi, libc_lo, libc_hi, page = (uintptr_t)sysconf(_SC_PAGESIZE);
    struct rlimit limit;
    ck_assert_int_eq(getrlimit(RLIMIT_STACK, &limit), 0);
    /* computed without the C library's read of /proc/self/maps (about
     * 0.5 ms in MPI_Init, once the MPI library's modules are loaded) where
     * the limit allows it, as it does by default */
    int computed = mpp_initial_stack_bounds(&mine_lo, &mine_hi);
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur <= (rlim_t)128 << 20)
        ck_assert_msg(computed, "the initial thread's stack bounds were not computed (stack limit %llu)",
                      (unsigned long long)limit.rlim_cur);
    mpp_stack_bounds(&mine_lo, &mine_hi);
    libc_bounds(&libc_lo, &libc_hi);
    /* the same top, a bottom at most two pages above the C library's
     * (never below: a read there could fault) */
    ck_assert_uint_eq(mine_hi, libc_hi);
    ck_assert_uint_ge(mine_lo, libc_lo);
    ck_assert_uint_le(mine_lo - libc_lo, 2 * page);
    uintptr_t here =
        (uintptr_t)__builtin_frame_address(0); /* the real stack, whatever a sanitizer does with locals */
    ck_assert(here >= mine_lo && here < mine_hi);
}
END_TEST

static void *other_thread_bounds(void *arg)
{
    uintptr_t *b = arg, lo, hi;
    mpp_stack_bounds(&b[0], &b[1]);
    libc_bounds(&b[2], &b[3]);
    b[4] = (uintptr_t)mpp_initial_stack_bounds(&lo, &hi); /* not the initial thread's way */
    return NULL;
}

START_TEST(test_stack_bounds_other_thread)
{
    uintptr_t b[5];
    pthread_t t;
    ck_assert_int_eq(pthread_create(&t, NULL, other_thread_bounds, b), 0);
    pthread_join(t, NULL);
    ck_assert_uint_eq(b[0], b[2]);
    ck_assert_uint_eq(b[1], b[3]);
    ck_assert_uint_eq(b[4], 0);
}
END_TEST

/* Entry points named as the MPI library's bindings name theirs. */
void __attribute__((noinline, used)) mpi_file_open_(void) { sink++; }
void __attribute__((noinline, used)) MPI_FILE_CLOSE(void) { sink++; }
void __attribute__((noinline, used)) pmpir_send_f08ts_(void) { sink++; }
void __attribute__((noinline, used)) mpir_helper(void) { sink++; }

START_TEST(test_frame_implements)
{
    ck_assert_int_eq(mpp_frame_implements((uintptr_t)mpi_file_open_ + 1), 1);
    ck_assert_int_eq(mpp_frame_implements((uintptr_t)MPI_FILE_CLOSE + 1), 2);
    ck_assert_int_eq(mpp_frame_implements((uintptr_t)pmpir_send_f08ts_ + 1), 3);
    ck_assert_int_eq(mpp_frame_implements((uintptr_t)mpir_helper + 1), MPP_IMPLEMENTS_NONE);
    ck_assert_int_eq(mpp_frame_implements((uintptr_t)probe + 1), MPP_IMPLEMENTS_NONE);
    /* asked again: the cached answer */
    ck_assert_int_eq(mpp_frame_implements((uintptr_t)mpi_file_open_ + 1), 1);
}
END_TEST

Suite *callsite_suite(void)
{
    Suite *s = suite_create("callsite");
    TCase *tc = tcase_create("steps");
    tcase_add_test(tc, test_callsite_matches_own_walk);
    tcase_add_test(tc, test_callsite_matches_where_walk_stops);
    tcase_add_test(tc, test_callsite_matches_noted);
    tcase_add_test(tc, test_frame_step_rules);
    suite_add_tcase(s, tc);
    tc = tcase_create("real_stacks");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_callsite_capture_without_frame_pointers);
    tcase_add_test(tc, test_callsite_capture_through_libc);
    tcase_add_test(tc, test_callsite_capture_from_garbage_registers);
    tcase_add_test(tc, test_frame_rules_invalid_addresses);
    tcase_add_test(tc, test_frame_implements);
    tcase_add_test(tc, test_stack_bounds_initial_thread);
    tcase_add_test(tc, test_stack_bounds_other_thread);
    suite_add_tcase(s, tc);
    return s;
}
