/* From reduced data to the protocol files (src/write/report.c), for
 * MPI_Finalize, partial protocols and mpiprof-merge alike. */
#ifndef MPP_REPORT_H
#define MPP_REPORT_H

#include "write/writer.h"

typedef struct {
    mpp_run_info_t *run; /* Protocol written is set here */
    const mpp_config_t *config;
    const mpp_model_setup_t *model; /* the Prediction model (NULL: did not run) */
    size_t warnings_from;           /* this process's warnings (warnings.h) from this one on are added:
                                       those raised since the reduction took them */
    const mpp_partial_t *partial;   /* NULL: a complete protocol */
    const char *waitstates_na;      /* why the wait states are n/a (NULL: they were analysed) */
    const char *model_na;           /* why Overlap and the predicted characteristics are n/a when the
                                       model did not run (NULL: MPIPROF_PREDICT=off) */
    const char *matrix_na;          /* why MPI_Finalize's protocol has no communication matrix (NULL: it
                                       has one, or the protocol is of a kind that never has one) */
    /* Called once the files are written (the stderr lines of MPI_Finalize). */
    void (*written)(void *ctx, const mpp_report_t *report);
    void *written_ctx;
} mpp_report_input_t;

/* Characteristics, Warnings, Machine and Placement of `rd`, written at
 * `path` (NULL: nowhere) in `format` (config.h).  0, or -1 (warned). */
int mpp_report_write(mpp_reduced_t *rd, const mpp_report_input_t *in, const char *path, int format);

#endif
