#include <ctype.h>
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "attribute/frame_rules.h"

/* DWARF register numbers of x86-64 (System V psABI). */
enum { REG_BP = 6, REG_SP = 7, REG_RA = 16 };
#define RETURN_ADDRESS_SLOT (-8) /* the return address is just below the CFA */

/* --- the cache: open addressing, published entries never change --- */

enum { IMPLEMENTS_UNASKED = -3 };

typedef struct {
    _Atomic uintptr_t pc; /* 0: empty; set last, after the rest */
    mpp_step_rule_t rule;
    _Atomic int32_t implements; /* mpp_frame_implements; IMPLEMENTS_UNASKED until asked */
} entry_t;

typedef struct cache {
    size_t capacity; /* power of two */
    size_t count;
    struct cache *older; /* replaced tables: readers may still be in them */
    entry_t entries[];
} cache_t;

static cache_t *_Atomic current;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int forked;
static int mode;
static int (*fid_of)(const char *);
static uint64_t resolved;

static size_t slot_of(uintptr_t pc, size_t capacity)
{
    return (size_t)(((uint64_t)pc * 0x9E3779B97F4A7C15ull) >> 17) & (capacity - 1);
}

static entry_t *find(cache_t *c, uintptr_t pc)
{
    if (!c)
        return NULL;
    for (size_t i = slot_of(pc, c->capacity);; i = (i + 1) & (c->capacity - 1)) {
        uintptr_t k = atomic_load_explicit(&c->entries[i].pc, memory_order_acquire);
        if (k == pc)
            return &c->entries[i];
        if (!k)
            return NULL;
    }
}

static cache_t *new_cache(size_t capacity)
{
    cache_t *c = calloc(1, sizeof *c + capacity * sizeof(entry_t));
    if (c)
        c->capacity = capacity;
    return c;
}

static void put(cache_t *c, uintptr_t pc, mpp_step_rule_t rule, int32_t implements)
{
    size_t i = slot_of(pc, c->capacity);
    while (atomic_load_explicit(&c->entries[i].pc, memory_order_relaxed))
        i = (i + 1) & (c->capacity - 1);
    c->entries[i].rule = rule;
    atomic_store_explicit(&c->entries[i].implements, implements, memory_order_relaxed);
    atomic_store_explicit(&c->entries[i].pc, pc, memory_order_release);
    c->count++;
}

/* Under the lock: an entry for pc (NULL when memory ran out).  The table
 * stays at most half full; a grown one replaces it for new readers. */
static entry_t *insert(uintptr_t pc, mpp_step_rule_t rule)
{
    cache_t *c = atomic_load_explicit(&current, memory_order_relaxed);
    if (!c || (c->count + 1) * 2 > c->capacity) {
        cache_t *grown = new_cache(c ? 2 * c->capacity : 1024);
        if (!grown)
            return NULL;
        for (size_t i = 0; c && i < c->capacity; i++) {
            uintptr_t k = atomic_load_explicit(&c->entries[i].pc, memory_order_relaxed);
            if (k)
                put(grown, k, c->entries[i].rule, atomic_load(&c->entries[i].implements));
        }
        grown->older = c;
        atomic_store_explicit(&current, grown, memory_order_release);
        c = grown;
    }
    put(c, pc, rule, IMPLEMENTS_UNASKED);
    return find(c, pc);
}

/* --- executable code: the loaded modules' executable segments --- */

typedef struct {
    uintptr_t lo, hi;
} range_t;

static range_t *ranges;
static size_t nranges, ranges_capacity;
static unsigned long long loads_seen = ~0ull; /* dlpi_adds + dlpi_subs when collected */

static int add_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)arg;
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
        loads_seen = info->dlpi_adds + info->dlpi_subs;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
            continue;
        if (nranges == ranges_capacity) {
            size_t cap = ranges_capacity ? 2 * ranges_capacity : 64;
            range_t *grown = realloc(ranges, cap * sizeof *grown);
            if (!grown)
                return 1;
            ranges = grown;
            ranges_capacity = cap;
        }
        ranges[nranges].lo = info->dlpi_addr + ph->p_vaddr;
        ranges[nranges].hi = ranges[nranges].lo + ph->p_memsz;
        nranges++;
    }
    return 0;
}

static int by_lo(const void *a, const void *b)
{
    const range_t *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void collect_ranges(void)
{
    nranges = 0;
    dl_iterate_phdr(add_module, NULL);
    qsort(ranges, nranges, sizeof *ranges, by_lo);
}

static int in_ranges(uintptr_t pc)
{
    size_t lo = 0, hi = nranges;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pc < ranges[mid].lo)
            hi = mid;
        else if (pc >= ranges[mid].hi)
            lo = mid + 1;
        else
            return 1;
    }
    return 0;
}

/* Modules loaded or unloaded since the ranges were collected? */
static int loads_changed(struct dl_phdr_info *info, size_t size, void *arg)
{
    int *changed = arg;
    *changed = size < offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs ||
               info->dlpi_adds + info->dlpi_subs != loads_seen;
    return 1; /* the counters are the same in every entry: the first is enough */
}

static int executable(uintptr_t pc)
{
    if (in_ranges(pc))
        return 1;
    if (forked)
        return 0;
    int changed = 0;
    dl_iterate_phdr(loads_changed, &changed);
    if (!changed)
        return 0;
    collect_ranges();
    return in_ranges(pc);
}

/* --- the CFI, through libdw --- */

static char *debuginfo_path;
static const Dwfl_Callbacks callbacks = {
    .find_elf = dwfl_linux_proc_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .debuginfo_path = &debuginfo_path,
};
static Dwfl *dwfl;
static unsigned long long loads_reported = ~0ull;

typedef struct {
    uintptr_t pc;
    const char *name;
    uintptr_t bias;
    int found;
} module_search_t;

static int find_module(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    module_search_t *s = arg;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && s->pc - lo < ph->p_memsz) {
            s->name = info->dlpi_name;
            s->bias = info->dlpi_addr;
            s->found = 1;
            return 1;
        }
    }
    return 0;
}

/* Report the one loaded module pc is in, from its file: the rules of a
 * walk need the modules of its frames only, and reporting all of them
 * (dwfl_linux_proc_report: every file of /proc/self/maps opened) took
 * about 1 ms of MPI_Init in an MPI process's 50 or so.  NULL when the
 * module has no file of its own (the vDSO). */
static Dwfl_Module *report_module(uintptr_t pc)
{
    module_search_t s = {pc, NULL, 0, 0};
    dl_iterate_phdr(find_module, &s);
    if (!s.found)
        return NULL;
    char exe[4096];
    const char *file = s.name;
    if (!file || !*file) { /* the program */
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return NULL;
        exe[n] = '\0';
        file = exe;
    }
    if (file[0] != '/')
        return NULL;
    return dwfl_report_elf(dwfl, file, file, -1, s.bias, false);
}

/* The module of pc, reported when first needed; all reported again when a
 * module was loaded or unloaded since (dlopen, dlclose). */
static Dwfl_Module *module_of(uintptr_t pc)
{
    if (!dwfl) {
        dwfl = dwfl_begin(&callbacks);
        if (!dwfl)
            return NULL;
    }
    int same_loads = loads_reported == loads_seen;
    Dwfl_Module *m = same_loads ? dwfl_addrmodule(dwfl, pc) : NULL;
    if (m || (forked && !same_loads))
        return m;
    if (same_loads)
        dwfl_report_begin_add(dwfl); /* keeps the modules reported */
    else
        dwfl_report_begin(dwfl); /* drops those not reported again */
    int bad = 0;
    if (!report_module(pc) && !forked) {
        dwfl_report_begin(dwfl);
        bad = dwfl_linux_proc_report(dwfl, getpid()) != 0;
    }
    bad |= dwfl_report_end(dwfl, NULL, NULL) != 0;
    loads_reported = loads_seen;
    return bad ? NULL : dwfl_addrmodule(dwfl, pc);
}

static int64_t signed_number(Dwarf_Word w) { return (int64_t)w; }

static int fits(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

/* The CFA of the frame: register + offset, or read there (deref). */
static int decode_cfa(Dwarf_Frame *f, mpp_step_rule_t *r)
{
    Dwarf_Op *ops = NULL;
    size_t n = 0;
    if (dwarf_frame_cfa(f, &ops, &n) != 0 || n < 1 || n > 2)
        return -1;
    unsigned reg;
    int64_t offset;
    if (ops[0].atom == DW_OP_bregx)
        reg = (unsigned)ops[0].number, offset = signed_number(ops[0].number2);
    else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)
        reg = ops[0].atom - DW_OP_breg0, offset = signed_number(ops[0].number);
    else
        return -1;
    if (!fits(offset, INT32_MIN, INT32_MAX))
        return -1;
    r->cfa_offset = (int32_t)offset;
    if (n == 1 && reg == REG_SP)
        r->kind = MPP_STEP_CFA_SP;
    else if (n == 1 && reg == REG_BP)
        r->kind = MPP_STEP_CFA_BP;
    else if (n == 2 && reg == REG_BP && ops[1].atom == DW_OP_deref)
        r->kind = MPP_STEP_CFA_AT_BP;
    else
        return -1;
    return 0;
}

/* Where a register of the caller is: -1 unusual; 0 with *where MPP_BP_*
 * and *offset.  libdw gives a saved register as the expression
 * "CFA; plus offset" and the DWARF expression form as "CFA; the
 * expression" (the CFA pushed first, as DWARF says). */
static int decode_register(Dwarf_Frame *f, int regno, int *where, int64_t *offset)
{
    Dwarf_Op mem[3], *ops = NULL;
    size_t n = 0;
    *offset = 0;
    if (dwarf_frame_register(f, regno, mem, &ops, &n) != 0)
        return -1;
    if (n == 0) {
        *where = ops ? MPP_BP_LOST /* undefined */ : MPP_BP_SAME;
        return 0;
    }
    if (ops[0].atom != DW_OP_call_frame_cfa)
        return -1;
    if (n == 1) {
        *where = MPP_BP_AT_CFA;
        return 0;
    }
    if (n == 2 && ops[1].atom == DW_OP_plus_uconst) {
        *where = MPP_BP_AT_CFA, *offset = signed_number(ops[1].number);
        return 0;
    }
    if (n == 2 && ops[1].atom == DW_OP_breg0 + REG_BP) {
        *where = MPP_BP_AT_BP, *offset = signed_number(ops[1].number);
        return 0;
    }
    return -1;
}

static mpp_step_rule_t decode(Dwarf_Frame *f)
{
    mpp_step_rule_t r = {0, 0, MPP_STEP_END, MPP_BP_SAME};
    bool signal_frame = false;
    int where;
    int64_t offset;
    if (dwarf_frame_info(f, NULL, NULL, &signal_frame) != REG_RA || signal_frame)
        return r;
    /* the return address just below the CFA; undefined in the outermost frame */
    if (decode_register(f, REG_RA, &where, &offset) != 0 || where != MPP_BP_AT_CFA || offset != RETURN_ADDRESS_SLOT)
        return r;
    mpp_step_rule_t step = r;
    if (decode_cfa(f, &step) != 0)
        return r;
    if (decode_register(f, REG_BP, &where, &offset) != 0 || !fits(offset, INT16_MIN, INT16_MAX))
        where = MPP_BP_LOST, offset = 0;
    step.bp = (uint8_t)where;
    step.bp_offset = (int16_t)offset;
    return step;
}

/* The rule at return address pc by the CFI of its module: .eh_frame (what
 * the C++ runtime unwinds with, present in nearly every binary), else
 * .debug_frame. */
static mpp_step_rule_t rule_from_cfi(uintptr_t pc)
{
    mpp_step_rule_t end = {0, 0, MPP_STEP_END, MPP_BP_SAME};
    Dwfl_Module *m = module_of(pc - 1);
    if (!m)
        return end;
    for (int k = 0; k < 2; k++) {
        Dwarf_Addr bias = 0;
        Dwarf_CFI *cfi = k == 0 ? dwfl_module_eh_cfi(m, &bias) : dwfl_module_dwarf_cfi(m, &bias);
        Dwarf_Frame *f = NULL;
        /* a return address follows the call: its rule is the call's */
        if (!cfi || dwarf_cfi_addrframe(cfi, pc - 1 - bias, &f) != 0)
            continue;
        mpp_step_rule_t r = decode(f);
        free(f);
        return r;
    }
    return end;
}

static mpp_step_rule_t resolve(uintptr_t pc)
{
    mpp_step_rule_t invalid = {0, 0, MPP_STEP_INVALID, MPP_BP_SAME};
    if (!executable(pc))
        return invalid;
    return mode == MPP_FRAME_RULES_FP ? mpp_step_frame_pointer() : rule_from_cfi(pc);
}

static entry_t *lookup(uintptr_t pc)
{
    entry_t *e = find(atomic_load_explicit(&current, memory_order_acquire), pc);
    if (MPP_LIKELY(e != NULL) || !pc)
        return e;
    if (forked ? pthread_mutex_trylock(&lock) != 0 : pthread_mutex_lock(&lock) != 0)
        return NULL;
    e = find(atomic_load_explicit(&current, memory_order_relaxed), pc);
    if (!e) {
        e = insert(pc, resolve(pc));
        resolved++;
    }
    pthread_mutex_unlock(&lock);
    return e;
}

mpp_step_rule_t mpp_frame_rule(uintptr_t pc)
{
    entry_t *e = lookup(pc);
    if (e)
        return e->rule;
    mpp_step_rule_t end = {0, 0, pc ? MPP_STEP_END : MPP_STEP_INVALID, MPP_BP_SAME};
    return end;
}

/* "mpi_file_open" of mpi_file_open_, mpi_file_open__, MPI_FILE_OPEN,
 * pmpi_file_open_, mpi_file_open_f08_, pmpir_file_open_f08ts_ ...; "" when
 * the name is not an MPI entry point's. */
static void mpi_name(const char *symbol, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    if (!strncasecmp(symbol, "pmpi", 4))
        symbol++;
    if (strncasecmp(symbol, "mpi_", 4) && strncasecmp(symbol, "mpix_", 5) && strncasecmp(symbol, "mpir_", 5))
        return;
    if (!strncasecmp(symbol, "mpir_", 5)) /* MPICH's f08 glue: pmpir_send_f08ts_ */
        symbol += 4, out[n++] = 'm', out[n++] = 'p', out[n++] = 'i';
    for (; *symbol && n + 1 < size; symbol++)
        out[n++] = (char)tolower((unsigned char)*symbol);
    while (n && out[n - 1] == '_')
        n--;
    out[n] = '\0';
    static const char *const suffixes[] = {"_f08ts", "_f08", "_cdesc"};
    for (size_t s = 0; s < sizeof suffixes / sizeof *suffixes; s++) {
        size_t k = strlen(suffixes[s]);
        if (n > k && !strcmp(out + n - k, suffixes[s]))
            out[n -= k] = '\0';
    }
}

int mpp_frame_implements(uintptr_t pc)
{
    entry_t *e = lookup(pc);
    if (!e)
        return MPP_IMPLEMENTS_UNKNOWN;
    int32_t known = atomic_load_explicit(&e->implements, memory_order_relaxed);
    if (known != IMPLEMENTS_UNASKED)
        return known;
    if (forked ? pthread_mutex_trylock(&lock) != 0 : pthread_mutex_lock(&lock) != 0)
        return MPP_IMPLEMENTS_UNKNOWN;
    int fid = MPP_IMPLEMENTS_UNKNOWN;
    Dwfl_Module *m = e->rule.kind != MPP_STEP_INVALID ? module_of(pc - 1) : NULL;
    const char *symbol = m ? dwfl_module_addrname(m, pc - 1) : NULL;
    char name[128];
    if (symbol && *symbol && fid_of) {
        mpi_name(symbol, name, sizeof name);
        fid = name[0] ? fid_of(name) : -1;
        if (fid < 0)
            fid = MPP_IMPLEMENTS_NONE;
    }
    atomic_store_explicit(&e->implements, fid, memory_order_relaxed);
    pthread_mutex_unlock(&lock);
    return fid;
}

void mpp_frame_rules_start(int m, int (*fid_of_name)(const char *name))
{
    pthread_mutex_lock(&lock);
    mode = m;
    fid_of = fid_of_name;
    forked = 0;
    /* rules of an earlier mode must not be used */
    cache_t *c = atomic_load_explicit(&current, memory_order_relaxed);
    if (c && c->count) {
        cache_t *fresh = new_cache(c->capacity);
        if (fresh) {
            fresh->older = c;
            atomic_store_explicit(&current, fresh, memory_order_release);
        }
    }
    collect_ranges();
    pthread_mutex_unlock(&lock);
}

void mpp_frame_rules_forked(void) { forked = 1; }

void mpp_frame_rules_stats(uint64_t *rules, uint64_t *misses)
{
    cache_t *c = atomic_load_explicit(&current, memory_order_acquire);
    *rules = c ? c->count : 0;
    *misses = resolved;
}
