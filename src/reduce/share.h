/* Settings rank 0 decides for every process, at MPI_Init (part of the
 * reduce stage, the only one with the profiler's own MPI calls).  Both are
 * collective over comm. */
#ifndef MPP_SHARE_H
#define MPP_SHARE_H

#include <stddef.h>

#include <mpi.h>

/* Rank 0's value. */
int mpp_share_int(MPI_Comm comm, int value);
/* Rank 0's text (NUL-terminated, cut to size - 1) into text on every process. */
void mpp_share_text(MPI_Comm comm, char *text, size_t size);

#endif
