/* Start and end of profiling, shared by the C and Fortran entry points of
 * MPI_Init, MPI_Init_thread and MPI_Finalize, and the state the public API
 * asks about. */
#ifndef MPP_LIFECYCLE_H
#define MPP_LIFECYCLE_H

#include <stdint.h>

enum { MPP_LIFE_BEFORE = 0, MPP_LIFE_ACTIVE, MPP_LIFE_AFTER, MPP_LIFE_DISABLED };

/* After the MPI library initialized: `provided` thread level, and the
 * wrapper's return/frame addresses (MPI_Init's call site). */
void mpp_lifecycle_start(int provided, void *return_address, void *frame_address);
/* Before the MPI library finalizes: reduce, analyze, write.  The
 * wrapper's return and frame addresses: MPI_Finalize's call site, which a
 * hang dump of a process stuck in MPI_Finalize names. */
void mpp_lifecycle_finish(void *return_address, void *frame_address);
/* After the MPI library finalized. */
void mpp_lifecycle_finalized(void);
int mpp_lifecycle_state(void);
int mpp_lifecycle_quiet(void);

/* Interval marks of MPI_Pcontrol (api.c). */
void mpp_api_begin(const char *name, uintptr_t site);
void mpp_api_end(const char *name, uintptr_t site);

#endif
