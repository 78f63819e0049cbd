#include <link.h>
#include <string.h>
#include <unwind.h>

#include "callsite.h"
#include "config.h"

#define MAX_SKIPPED 16

static struct { uintptr_t lo, hi; } skipped[MAX_SKIPPED];
static int nskipped;
uintptr_t mpp_skipped_lo = UINTPTR_MAX, mpp_skipped_hi; /* bounding range of all of them */
int mpp_callsite_always_dwarf;
static int depth = 1;

int mpp_callsite_depth(void) { return depth; }

/* libmpi*, libmpich*, libpmpi*, libfmpich*: the MPI library and its
 * language bindings; libmpiprof: ourselves. */
static int is_skipped_module(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return !strncmp(base, "libmpi", 6) || !strncmp(base, "libpmpi", 7) ||
           !strncmp(base, "libfmpich", 9);
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

void mpp_callsite_init(int d, int unwind)
{
    depth = d < 1 ? 1 : d > MPP_MAX_DEPTH ? MPP_MAX_DEPTH : d;
    mpp_callsite_always_dwarf = unwind == MPP_UNWIND_DWARF;
    nskipped = 0;
    mpp_skipped_lo = UINTPTR_MAX;
    mpp_skipped_hi = 0;
    dl_iterate_phdr(collect_module, NULL);
}

int mpp_callsite_in_skipped_slow(uintptr_t pc)
{
    for (int i = 0; i < nskipped; i++)
        if (pc - skipped[i].lo < skipped[i].hi - skipped[i].lo)
            return 1;
    return 0;
}

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

/* Calls through the MPI Fortran bindings, or MPIPROF_UNWIND=dwarf. */
void mpp_callsite_capture_dwarf(uintptr_t *frames)
{
    for (int k = 0; k < depth; k++)
        frames[k] = 0;
    capture_dwarf(frames);
}
