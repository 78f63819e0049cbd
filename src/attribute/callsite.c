#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/resource.h>
#include <unistd.h>
#include <unwind.h>

#include "attribute/callsite.h"
#include "attribute/frame_rules.h"
#include "context/config.h"

#define MAX_SKIPPED 16
/* Frames a capture may step through, skipped ones included: a stack that
 * seems deeper is corrupt, or recursive beyond interest. */
#define MAX_STEPS (MPP_MAX_DEPTH + 64)

static struct {
    uintptr_t lo, hi;
} skipped[MAX_SKIPPED];
static int nskipped;
uintptr_t mpp_skipped_lo = UINTPTR_MAX, mpp_skipped_hi; /* bounding range of all of them */
int mpp_callsite_always_dwarf;
static int depth = 1;

int mpp_callsite_depth(void) { return depth; }

extern void *__libc_stack_end; /* the C library's: the initial thread's stack pointer at the start */

/* The initial thread's stack as the C library's pthread_getattr_np gives
 * it, without its read of /proc/self/maps (about 0.5 ms in MPI_Init, whose
 * libraries make the maps long).  The top is the end of __libc_stack_end's
 * page; the bottom is RLIMIT_STACK below the end of the stack's mapping,
 * which ends at the page after the program's file name (AT_EXECFN: the
 * highest string the kernel puts there, maybe in __libc_stack_end's page),
 * taken a page higher so that the bottom is never below the C library's.
 * The C library also stops at the mapping below: with a limit up to
 * 128 MiB the kernel keeps mappings farther away (mmap_base's gap).  0
 * where this does not hold (a larger or no limit, another thread, a stack
 * without the caller's frame): the C library is asked. */
int mpp_initial_stack_bounds(uintptr_t *lo, uintptr_t *hi)
{
    struct rlimit limit;
    const char *name = (const char *)getauxval(AT_EXECFN);
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), top = ((uintptr_t)__libc_stack_end & -page) + page;
    if (gettid() != getpid() || !name || name < (const char *)__libc_stack_end ||
        getrlimit(RLIMIT_STACK, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > (rlim_t)128 << 20)
        return 0;
    uintptr_t end = (((uintptr_t)name + strlen(name) + 1 + page - 1) & -page) + page;
    uintptr_t above = end - top; /* the arguments and the environment */
    if (above >= limit.rlim_cur)
        return 0;
    uintptr_t size = ((uintptr_t)limit.rlim_cur - above) & -page;
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (size >= top || here >= top || here < top - size)
        return 0;
    *lo = top - size;
    *hi = top;
    return 1;
}

void mpp_stack_bounds(uintptr_t *lo, uintptr_t *hi)
{
    if (mpp_initial_stack_bounds(lo, hi))
        return;
    pthread_attr_t attr;
    void *addr;
    size_t size;
    *lo = *hi = 0; /* unknown: no walk goes anywhere */
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        *lo = (uintptr_t)addr;
        *hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&attr);
}

/* libmpi*, libmpich*, libpmpi*, libfmpich*: the MPI library and its
 * language bindings; libmpiprof: ourselves. */
static int is_skipped_module(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return !strncmp(base, "libmpi", 6) || !strncmp(base, "libpmpi", 7) || !strncmp(base, "libfmpich", 9);
}

static int collect_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    if (!info->dlpi_name || !is_skipped_module(info->dlpi_name))
        return 0;
    for (int i = 0; i < info->dlpi_phnum && nskipped < MAX_SKIPPED; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X)) {
            skipped[nskipped].lo = info->dlpi_addr + ph->p_vaddr;
            skipped[nskipped].hi = skipped[nskipped].lo + ph->p_memsz;
            if (skipped[nskipped].lo < mpp_skipped_lo)
                mpp_skipped_lo = skipped[nskipped].lo;
            if (skipped[nskipped].hi > mpp_skipped_hi)
                mpp_skipped_hi = skipped[nskipped].hi;
            nskipped++;
        }
    }
    return 0;
}

void mpp_callsite_init(int d, int unwind, int (*fid_of_name)(const char *name))
{
    depth = d < 1 ? 1 : d > MPP_MAX_DEPTH ? MPP_MAX_DEPTH : d;
    mpp_callsite_always_dwarf = unwind == MPP_UNWIND_DWARF;
    nskipped = 0;
    mpp_skipped_lo = UINTPTR_MAX;
    mpp_skipped_hi = 0;
    dl_iterate_phdr(collect_module, NULL);
    mpp_frame_rules_start(unwind == MPP_UNWIND_FP ? MPP_FRAME_RULES_FP : MPP_FRAME_RULES_CFI, fid_of_name);
}

int mpp_callsite_in_skipped_slow(uintptr_t pc)
{
    for (int i = 0; i < nskipped; i++)
        if (pc - skipped[i].lo < skipped[i].hi - skipped[i].lo)
            return 1;
    return 0;
}

/* --- MPIPROF_UNWIND=dwarf: the toolchain's unwinder on every call --- */

struct unwind_state {
    uintptr_t *frames;
    int n;
};

static _Unwind_Reason_Code unwind_step(struct _Unwind_Context *ctx, void *arg)
{
    struct unwind_state *s = arg;
    uintptr_t pc = _Unwind_GetIP(ctx);
    if (!pc)
        return _URC_END_OF_STACK;
    if (mpp_callsite_in_skipped(pc))
        return _URC_NO_REASON; /* mpiprof, MPI, its bindings */
    s->frames[s->n++] = pc;
    return s->n == depth ? _URC_END_OF_STACK : _URC_NO_REASON;
}

static void __attribute__((noinline)) capture_dwarf(uintptr_t *frames)
{
    struct unwind_state s = {frames, 0};
    _Unwind_Backtrace(unwind_step, &s);
}

/* --- the walk by cached rules --- */

/* Walk from regs: the first `want` frames outside the skipped code into
 * frames (zero-padded) and, while no frame was skipped after the first
 * kept, the rules between them into steps. */
static void walk(uintptr_t *frames, mpp_step_rule_t *steps, int want, mpp_frame_regs_t r, uintptr_t lo, uintptr_t hi)
{
    int n = 0, repeatable = 1;
    for (int k = 0; k < MAX_STEPS && n < want; k++) {
        mpp_step_rule_t rule = mpp_frame_rule(r.pc);
        /* a value read from the stack that is not a return address: the
         * walk went wrong (the wrapper's own return address is kept) */
        if (rule.kind == MPP_STEP_INVALID && k > 0)
            break;
        if (mpp_callsite_in_skipped(r.pc)) {
            repeatable &= n == 0;
        } else {
            frames[n] = r.pc;
            if (steps)
                steps[n] = rule;
            n++;
        }
        if (!mpp_frame_step(&r, rule, lo, hi))
            break;
    }
    for (int i = n; i < want; i++)
        frames[i] = 0;
    if (steps) {
        for (int i = n; i < want; i++)
            steps[i] = (mpp_step_rule_t){0, 0, MPP_STEP_UNKNOWN, 0};
        if (!repeatable || n == 0)
            for (int i = 0; i < n; i++)
                steps[i] = (mpp_step_rule_t){0, 0, MPP_STEP_UNKNOWN, 0};
    }
}

void mpp_callsite_capture(uintptr_t *frames, mpp_step_rule_t *steps, int d, void *return_address, void *frame_address,
                          uintptr_t lo, uintptr_t hi)
{
    if (MPP_UNLIKELY(mpp_callsite_always_dwarf)) {
        for (int k = 0; k < d; k++) {
            frames[k] = 0;
            if (steps)
                steps[k] = (mpp_step_rule_t){0, 0, MPP_STEP_UNKNOWN, 0};
        }
        capture_dwarf(frames);
        return;
    }
    /* the wrapper keeps a frame pointer: its caller's stack pointer is just
     * above the saved frame pointer and return address */
    const uintptr_t *fp = (const uintptr_t *)frame_address;
    mpp_frame_regs_t r = {(uintptr_t)return_address, (uintptr_t)(fp + 2), 0};
    if (mpp_stack_word((uintptr_t)fp, lo, hi))
        r.bp = fp[0];
    walk(frames, steps, d, r, lo, hi);
}

void mpp_callsite_capture_regs(uintptr_t *frames, int d, mpp_frame_regs_t regs, uintptr_t lo, uintptr_t hi)
{
    walk(frames, NULL, d, regs, lo, hi);
}

int mpp_callsite_library_call(uintptr_t return_address, uint32_t fid)
{
    if (!mpp_callsite_in_skipped(return_address))
        return 0;
    int implements = mpp_frame_implements(return_address);
    return implements != MPP_IMPLEMENTS_UNKNOWN && implements != (int)fid;
}

_Static_assert(MPP_WALK_WORDS % 4 == 0, "the noted walk is compared four words at a time");

int mpp_callsite_note(mpp_walk_t *walk, const uintptr_t *frames, const mpp_step_rule_t *steps, int depth,
                      void *return_address, void *frame_address, uintptr_t lo, uintptr_t hi)
{
    mpp_walk_t now;
    now.frame = (uintptr_t)frame_address;
    now.n = 0;
    int same = mpp_callsite_walk(frames, steps, depth, return_address, frame_address, lo, hi, &now);
    if (same && now.n >= 0) {
        for (now.compared = now.n; now.compared % 4; now.compared++) { /* the first word again */
            now.at[now.compared] = now.at[0];
            now.word[now.compared] = now.word[0];
        }
        *walk = now;
    } else if (same) /* a walk too long to note: walked every time */
        walk->frame = 0;
    return same;
}
