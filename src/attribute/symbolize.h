/* Resolution of return addresses to source positions, at MPI_Finalize only
 * and once per distinct address (elfutils libdw). */
#ifndef MPP_SYMBOLIZE_H
#define MPP_SYMBOLIZE_H

#include <stdint.h>

typedef struct mpp_symbolizer mpp_symbolizer_t;

mpp_symbolizer_t *mpp_symbolizer_open(void);
void mpp_symbolizer_close(mpp_symbolizer_t *s);
/* The frame record (see srckey.h) of a return address; owned by s. */
const char *mpp_symbolize(mpp_symbolizer_t *s, uintptr_t return_address);

#endif
