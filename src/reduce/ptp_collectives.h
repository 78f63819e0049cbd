/* The profiler's own collective operations on its own communicators (part
 * of the reduce stage), by point-to-point messages along binomial trees,
 * partial results combined by MPI_Reduce_local: they depend on no
 * collective algorithm of the MPI library, whatever the program selects
 * (MPICH's MPIR_CVAR_*_ALGORITHM variables apply to every communicator of
 * the process, and some of their values fail in MPICH 4.0.2 where the
 * program itself never goes).  Each is collective over comm, called by
 * one thread at a time (MPI_Init, MPI_Finalize); the data go in chunks
 * through static buffers, so that no allocation can fail halfway through
 * (every process must then still take part).  Ops must be commutative
 * (the profiler's are).  Blocking; 2 log2 P rounds per chunk. */
#ifndef MPP_PTP_COLLECTIVES_H
#define MPP_PTP_COLLECTIVES_H

#include <mpi.h>

int mpp_ptp_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm);
int mpp_ptp_reduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm);
int mpp_ptp_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm);
int mpp_ptp_barrier(MPI_Comm comm);

#endif
