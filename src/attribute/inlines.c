/* The scopes holding an address are found by descending from its
 * compilation unit into the child whose ranges hold it, down to the
 * innermost; every inlined-subroutine entry on the way is a level.
 * dwarf_getscopes' own result stops at the innermost inlined entry and
 * continues with the abstract definition, losing the levels between, and
 * dwarf_getscopes_die walks the whole unit for each address.  Each scope
 * descended into gets an index of its children's address ranges, sorted,
 * made once: a unit of 10^4 functions or a function of 10^4 inlined calls
 * costs one pass over its children, then a binary search per address. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdint.h>
#include <stdlib.h>

#include "attribute/inlines.h"
#include "util/handlemap.h"

/* Descents deeper than this are not followed (nesting of blocks and
 * inlined calls in real code stays far below). */
#define MAX_NESTING 64

typedef struct {
    Dwarf_Addr lo, hi;
    Dwarf_Die die;
} code_range_t;

typedef struct {
    code_range_t *ranges;
    size_t count, capacity;
    int failed;
} scope_index_t;

struct mpp_inlines {
    mpp_handlemap_t scopes; /* a scope DIE's address in the debug data -> scope_index_t */
};

mpp_inlines_t *mpp_inlines_open(void)
{
    mpp_inlines_t *x = calloc(1, sizeof *x);
    if (x)
        mpp_handlemap_init(&x->scopes, sizeof(scope_index_t));
    return x;
}

static void free_index(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    free(((scope_index_t *)value)->ranges);
}

void mpp_inlines_close(mpp_inlines_t *x)
{
    if (!x)
        return;
    mpp_handlemap_each(&x->scopes, free_index, NULL);
    mpp_handlemap_free(&x->scopes);
    free(x);
}

static const char *name_of(Dwarf_Die *die)
{
    Dwarf_Attribute attr;
    const char *name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &attr));
    if (!name)
        name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &attr));
    if (!name)
        name = dwarf_diename(die); /* follows abstract_origin and specification too */
    return name;
}

/* Tags of the scopes code is in. */
static int holds_code(int tag)
{
    switch (tag) {
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_lexical_block:
    case DW_TAG_try_block:
    case DW_TAG_catch_block:
    case DW_TAG_with_stmt:
        return 1;
    default:
        return 0;
    }
}

/* Tags around definitions at a unit's level: a C++ namespace (Clang puts
 * definitions there), a Fortran module, a class. */
static int holds_definitions(int tag)
{
    return tag == DW_TAG_namespace || tag == DW_TAG_module || tag == DW_TAG_class_type ||
           tag == DW_TAG_structure_type || tag == DW_TAG_union_type;
}

static void add_ranges(scope_index_t *ix, Dwarf_Die *die)
{
    Dwarf_Addr base, lo, hi;
    for (ptrdiff_t at = 0; !ix->failed && (at = dwarf_ranges(die, at, &base, &lo, &hi)) > 0;) {
        if (ix->count == ix->capacity) {
            size_t capacity = ix->capacity ? 2 * ix->capacity : 16;
            code_range_t *grown = realloc(ix->ranges, capacity * sizeof *grown);
            if (!grown) {
                ix->failed = 1;
                return;
            }
            ix->ranges = grown;
            ix->capacity = capacity;
        }
        ix->ranges[ix->count++] = (code_range_t){lo, hi, *die};
    }
}

/* The children of parent that hold code, and at a unit's level those
 * inside namespaces, modules and classes. */
static void collect(scope_index_t *ix, Dwarf_Die *parent, int unit, int nesting)
{
    Dwarf_Die child;
    if (nesting > MAX_NESTING || dwarf_child(parent, &child) != 0)
        return;
    do {
        int tag = dwarf_tag(&child);
        if (holds_code(tag))
            add_ranges(ix, &child);
        else if (unit && holds_definitions(tag))
            collect(ix, &child, unit, nesting + 1);
    } while (!ix->failed && dwarf_siblingof(&child, &child) == 0);
}

static int by_lo(const void *a, const void *b)
{
    const code_range_t *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The child of parent whose ranges hold pc (a code scope), into *child. */
static int child_holding(mpp_inlines_t *x, Dwarf_Die *parent, Dwarf_Addr pc, int unit, Dwarf_Die *child)
{
    int inserted;
    scope_index_t *ix = mpp_handlemap_put(&x->scopes, (uint64_t)(uintptr_t)parent->addr, &inserted);
    if (!ix)
        return 0;
    if (inserted) {
        collect(ix, parent, unit, 0);
        if (ix->count > 1)
            qsort(ix->ranges, ix->count, sizeof *ix->ranges, by_lo);
    }
    if (ix->failed || !ix->count || pc < ix->ranges[0].lo)
        return 0;
    size_t lo = 0, hi = ix->count; /* the last range starting at or below pc */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (ix->ranges[mid].lo <= pc)
            lo = mid;
        else
            hi = mid;
    }
    /* ranges of siblings do not overlap; a nested or empty one is passed */
    for (size_t i = lo + 1; i-- > 0;)
        if (pc >= ix->ranges[i].lo && pc < ix->ranges[i].hi) {
            *child = ix->ranges[i].die;
            return 1;
        }
    return 0;
}

int mpp_inline_levels(mpp_inlines_t *x, Dwfl_Module *module, Dwarf_Addr pc, mpp_inline_level_t *levels, int max)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(module, pc, &bias);
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    if (!x || !cu || dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
        return 0;
    Dwarf_Die dies[MAX_NESTING], *die = cu;
    int n = 0, inlined[MAX_NESTING], nesting = 0;
    while (nesting < MAX_NESTING && child_holding(x, die, pc - bias, die == cu, &dies[nesting])) {
        die = &dies[nesting];
        if (dwarf_tag(die) == DW_TAG_inlined_subroutine)
            inlined[n++] = nesting;
        nesting++;
    }
    if (n > max)
        return 0; /* the outer levels' positions would be missing */
    /* innermost first; each level's call position is in the one around it */
    int count = 0;
    for (int k = n - 1; k >= 0; k--, count++) {
        Dwarf_Die *d = &dies[inlined[k]];
        Dwarf_Attribute attr;
        Dwarf_Word file = 0, line = 0;
        const char *name = name_of(d);
        if (!name || dwarf_formudata(dwarf_attr(d, DW_AT_call_file, &attr), &file) != 0 ||
            dwarf_formudata(dwarf_attr(d, DW_AT_call_line, &attr), &line) != 0 || line == 0 || line > INT32_MAX ||
            file >= nfiles)
            return 0;
        const char *call_file = dwarf_filesrc(files, file, NULL, NULL);
        if (!call_file)
            return 0;
        levels[count] = (mpp_inline_level_t){name, call_file, (int)line};
    }
    return count;
}
