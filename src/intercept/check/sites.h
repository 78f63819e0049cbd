/* Call sites that travel between processes: a return address as the
 * module it lies in (a hash of the file's name: the same program and
 * libraries have the same names on every process) and its offset there, so
 * that the process receiving it finds the same instruction in its own
 * address space, where its symbolizer resolves it (the other side of a
 * finding between processes). */
#ifndef MPP_CHECK_SITES_H
#define MPP_CHECK_SITES_H

#include <stdint.h>

typedef struct {
    uint32_t module; /* 0: none */
    uint64_t offset;
} mpp_chk_site_t;

/* The token of an address of this process ({0, 0} when in no module). */
mpp_chk_site_t mpp_chk_site_of(uintptr_t address);
/* The address of a token in this process (0: no such module here). */
uintptr_t mpp_chk_site_address(mpp_chk_site_t site);
/* Forget the modules (MPI_Finalize). */
void mpp_chk_sites_end(void);

#endif
