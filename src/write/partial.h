/* Partial protocols (protocol.md, Rules): when a process ends without
 * MPI_Finalize it writes what it has, as a protocol of itself alone marked
 * partial, at <protocol path>.partial.<rank>; mpiprof-merge makes one
 * protocol of several.  This is what the writers say about it: how each
 * process present ended, and, in a process's own partial protocol, its
 * profile as the reduction takes it (the process data, mpiprof-merge's
 * input).  No MPI here. */
#ifndef MPP_PARTIAL_H
#define MPP_PARTIAL_H

#include <stddef.h>

#include "records/partial.h"

/* Keywords of the kinds (JSON "end"), and of the text. */
extern const char *const mpp_end_names[MPP_NEND];

/* "signal SIGSEGV (Segmentation fault, address 0x10) in MPI_Send (for
 * 0.000012 s) at SRC 3: x.c:40 (main)": one line per process, the same in
 * both writers. */
void mpp_end_describe(const mpp_process_end_t *end, char *out, size_t size);

/* "0-3,7": ranks of a sorted list, or those of 0..nprocs-1 not in it
 * (`missing`).  Allocated. */
char *mpp_rank_ranges(const mpp_process_end_t *ends, int nends, int nprocs, int missing);

#endif
