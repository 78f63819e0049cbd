/* The scopes holding an address are found by descending from its
 * compilation unit into the one child whose ranges hold it, as
 * dwarf_getscopes does; its own result stops at the innermost inlined
 * entry and continues with the abstract definition, losing the levels
 * between, and dwarf_getscopes_die walks the whole unit for each address.
 * One descent keeps every level and visits only the children along the
 * way (siblings of the path), so 10^4 call sites stay cheap. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdint.h>

#include "attribute/inlines.h"

/* Descents deeper than this are not followed (nesting of blocks and
 * inlined calls in real code stays far below). */
#define MAX_NESTING 64

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

/* Tags of the scopes code is in (a definition itself sits at the unit's
 * level: in a namespace or class there is only its declaration). */
static int may_hold_code(int tag)
{
    switch (tag) {
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_lexical_block:
    case DW_TAG_try_block:
    case DW_TAG_catch_block:
    case DW_TAG_with_stmt:
    case DW_TAG_entry_point:
        return 1;
    default:
        return 0;
    }
}

/* The child of parent whose ranges hold pc (a code scope), into *child. */
static int child_holding(Dwarf_Die *parent, Dwarf_Addr pc, Dwarf_Die *child)
{
    if (dwarf_child(parent, child) != 0)
        return 0;
    do {
        if (may_hold_code(dwarf_tag(child)) && dwarf_haspc(child, pc) > 0)
            return 1;
    } while (dwarf_siblingof(child, child) == 0);
    return 0;
}

int mpp_inline_levels(Dwfl_Module *module, Dwarf_Addr pc, mpp_inline_level_t *levels, int max)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die *cu = dwfl_module_addrdie(module, pc, &bias);
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    if (!cu || dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
        return 0;
    Dwarf_Die dies[MAX_NESTING], *die = cu;
    int n = 0, inlined[MAX_NESTING], nesting = 0;
    while (nesting < MAX_NESTING && child_holding(die, pc - bias, &dies[nesting])) {
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
