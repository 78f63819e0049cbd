/* A process that ends without MPI_Finalize writes its partial protocol
 * (partial.h): on a fatal or job-control signal, at MPI_Abort, at exit()
 * or return from main (src/intercept/faults.c).  Installed at MPI_Init,
 * removed at MPI_Finalize. */
#ifndef MPP_FAULTS_H
#define MPP_FAULTS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "records/partial.h"

struct mpp_call;

/* What the partial protocol needs of the profile being collected (the
 * lifecycle's, lifecycle.h), given at start: whether a partial protocol
 * can be written now (profiling, no protocol written yet); whether the
 * process ended inside call c, the call that ends the profile; collection
 * stopped at `end`; the partial protocol written (its path in `written`);
 * the end as correctness findings (intercept/check/ends.h; NULL: none),
 * before it is written: whether by a signal from outside, inside MPI call
 * fid or not. */
typedef struct {
    int (*possible)(void);
    int (*ending_call)(const struct mpp_call *c);
    void (*stop)(uint64_t end, int read_counters);
    int (*write)(mpp_process_end_t *end, uint32_t fid, const uintptr_t *frames, int counters_read, char *written,
                 size_t size);
    void (*ended)(const mpp_process_end_t *end, int job_control, uint32_t fid, const uintptr_t *frames, int in_call);
} mpp_faults_profile_t;

void mpp_faults_start(int rank, int nprocs, int quiet, const mpp_faults_profile_t *profile);
void mpp_faults_stop(void);
/* MPI's fatal error in call `in` (the thread's current call; NULL: none),
 * before PMPI_Abort(comm, errorcode): the partial protocol, as for
 * MPI_Abort (intercept/check/errors.h). */
void mpp_faults_abort(MPI_Comm comm, int errorcode, struct mpp_call *in);

#endif
