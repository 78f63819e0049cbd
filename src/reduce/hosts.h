/* Which processes share a host, for the profiler's splits by node (the
 * calibration's nodes, calibrate.c; the communication matrix's,
 * matrix_mpi.c): a colour per host name, and whether every process has
 * the same one, so that a job on one node splits no communicator (an MPI
 * collective of its own). */
#ifndef MPP_REDUCE_HOSTS_H
#define MPP_REDUCE_HOSTS_H

#include <mpi.h>

/* The host name's colour for MPI_Comm_split: FNV-1a, never negative. */
int mpp_host_colour(const char *host);
/* Collective over comm: every process's colour is `colour`'s (the least
 * colour and the least negated one tell, in one reduction). */
int mpp_one_host(MPI_Comm comm, int colour);

#endif
