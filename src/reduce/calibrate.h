/* Calibration of the communication model at MPI_Init (model.h): which
 * processes share a node, a ping-pong between two processes of one node
 * and, when there are several nodes, between two nodes, and a short compute
 * loop on every process for its relative core speed.  Collective over the
 * profiler's communicator; part of the reduce stage, the only one that
 * issues the profiler's own MPI calls.  Every process ends with the same
 * parameters (rank 0's MPIPROF_PREDICT and MPIPROF_MODEL are used by all). */
#ifndef MPP_CALIBRATE_H
#define MPP_CALIBRATE_H

#include <mpi.h>

#include "analyze/model.h"

typedef struct {
    mpp_model_setup_t setup;  /* what the protocol states (the same on every process) */
    double speed;             /* this process's relative core speed (mean 1) */
    double loop;              /* seconds of its fastest compute loop (at MPI_Init, then MPI_Finalize too) */
    unsigned char *same_node; /* [world size]: 1 when that rank runs on this process's node
                                 (allocated when there are several nodes, else NULL) */
    int world_size;
    int model_malformed; /* rank 0's MPIPROF_MODEL was malformed (warned; calibrated instead) */
} mpp_calibration_t;

/* `predict` and `model_text`: this process's MPIPROF_PREDICT and
 * MPIPROF_MODEL (rank 0's count).  Takes a few milliseconds on a quiet
 * node; more on a noisy one (calibrate.c). */
void mpp_calibrate(MPI_Comm comm, const char *hostname, int predict, const char *model_text, mpp_calibration_t *out);
/* MPI_Finalize: the same ping-pongs and compute loop again, the better of
 * each calibrated parameter kept (mpp_model_keep_better) and each
 * process's faster loop.  Collective. */
void mpp_calibrate_again(MPI_Comm comm, mpp_calibration_t *c);
void mpp_calibration_free(mpp_calibration_t *c);

#endif
