/* The functions inlined at a code address, from the DWARF of its module
 * (elfutils libdw): the inlined-subroutine entries whose ranges hold the
 * address, innermost first, each with the file and line of its call in
 * the function around it.  At symbolization only (MPI_Finalize). */
#ifndef MPP_INLINES_H
#define MPP_INLINES_H

#include <elfutils/libdwfl.h>

typedef struct {
    const char *name;      /* linkage name if any (mangled), else name; owned by libdw */
    const char *call_file; /* where the function around it calls it; owned by libdw */
    int call_line;
} mpp_inline_level_t;

/* The scopes' indexes, kept from one address to the next. */
typedef struct mpp_inlines mpp_inlines_t;

mpp_inlines_t *mpp_inlines_open(void);
void mpp_inlines_close(mpp_inlines_t *x);

/* The inlined levels at pc (an address of the process) in module, at most
 * max, into levels[0..]: levels[0] the innermost.  0 when pc is in no
 * inlined code, the module has no DWARF, memory ran out, or an entry lacks
 * its name or call position (the frame is then resolved as if nothing
 * were inlined). */
int mpp_inline_levels(mpp_inlines_t *x, Dwfl_Module *module, Dwarf_Addr pc, mpp_inline_level_t *levels, int max);

#endif
