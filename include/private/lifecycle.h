/* Start and end of profiling, shared by the C and Fortran entry points of
 * MPI_Init, MPI_Init_thread and MPI_Finalize. */
#ifndef MPP_LIFECYCLE_H
#define MPP_LIFECYCLE_H

/* After the MPI library initialized: `provided` thread level, and the
 * wrapper's return/frame addresses (MPI_Init's call site). */
void mpp_lifecycle_start(int provided, void *return_address, void *frame_address);
/* Before the MPI library finalizes: reduce, analyze, write. */
void mpp_lifecycle_finish(void);

#endif
