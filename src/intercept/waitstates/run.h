/* The wait-state analysis over the run (MPIPROF_WAITSTATES): its start at
 * MPI_Init (rank 0's settings for every process, the clocks aligned), its
 * end at MPI_Finalize (the last batches, the clocks aligned again, the fine
 * threshold decided) and what the protocol says of it. */
#ifndef MPP_WAITSTATES_RUN_H
#define MPP_WAITSTATES_RUN_H

#include <mpi.h>

#include "context/runinfo.h"
#include "reduce/clocksync.h"

/* Collective over profiler_comm; run's Wait states line says why when off.
 * Returns whether the analysis is on (everywhere). */
int mpp_ws_run_start(MPI_Comm profiler_comm, mpp_run_info_t *run, int thread_multiple);
/* Collective over profiler_comm, at MPI_Finalize after the intervals closed. */
void mpp_ws_run_finish(MPI_Comm profiler_comm, const char *hostname);
/* The Clock and Wait states lines of run and their warnings (rank 0's;
 * the Clock line on every rank when the analysis is off). */
void mpp_ws_run_describe(int rank, mpp_run_info_t *run, const char *started_in, const char *ended_in);

int mpp_ws_run_on(void);
/* Why Real sync, Potential sync and Time variation are n/a; "" when on. */
const char *mpp_ws_run_off_reason(void);
/* MPI_Init's alignment (NULL when the analysis is off) and MPI_Finalize's. */
const mpp_clock_alignment_t *mpp_ws_run_alignment(void);
const mpp_clock_alignment_t *mpp_ws_run_final_alignment(void);

#endif
