/* Characteristics of characteristics.md computed from reduced data: pure
 * functions, no MPI, unit-tested on hand-made data. */
#ifndef MPP_CHARACTERISTICS_H
#define MPP_CHARACTERISTICS_H

#include "records/profile.h"
#include "records/reduced.h"

/* Main characteristics, in protocol order. */
typedef enum {
    MPP_M_KEFF = 0,
    MPP_M_EXEC,
    MPP_M_PROCESSORS,
    MPP_M_TOTAL,
    MPP_M_PRODUCTIVE,
    MPP_M_CPU,
    MPP_M_SYS,
    MPP_M_IO,
    MPP_M_LOST,
    MPP_M_INSUFFICIENT,
    MPP_M_COMM,
    MPP_M_SENDRECV,
    MPP_M_REALSYNC,
    MPP_M_COLLECTIVE,
    MPP_M_SYSTEM,
    MPP_M_IDLE,
    MPP_M_IMBALANCE,
    MPP_M_POTSYNC,
    MPP_M_VARIATION,
    MPP_M_OVERLAP,
    MPP_NMAIN
} mpp_main_t;

/* Characteristics that have a per-process value, in protocol order. */
typedef enum {
    MPP_P_EXEC = 0,
    MPP_P_PRODUCTIVE,
    MPP_P_LOST,
    MPP_P_INSUFFICIENT,
    MPP_P_COMM,
    MPP_P_SENDRECV,
    MPP_P_REALSYNC,
    MPP_P_COLLECTIVE,
    MPP_P_SYSTEM,
    MPP_P_IDLE,
    MPP_P_IMBALANCE,
    MPP_P_POTSYNC,
    MPP_P_VARIATION,
    MPP_P_OVERLAP,
    MPP_NPP
} mpp_per_process_t;

typedef struct {
    const char *label;    /* text protocol */
    const char *json_key; /* JSON protocol */
} mpp_name_t;

extern const mpp_name_t mpp_main_names[MPP_NMAIN];
extern const mpp_name_t mpp_per_process_names[MPP_NPP];

typedef struct {
    double min, max, mean;
    int min_rank, max_rank;
} mpp_comparison_t;

typedef struct {
    double main[MPP_NMAIN];        /* NaN: n/a */
    mpp_comparison_t cmp[MPP_NPP]; /* mean NaN: n/a */
    double *by_process;            /* [nselected * MPP_NPP]; NaN: n/a or not entered */
} mpp_interval_result_t;

/* Overlap, computed when the model runs, is n/a only with
 * MPIPROF_PREDICT=off; Real sync, Potential sync and Time variation only
 * with MPIPROF_WAITSTATES=off, and always in the predicted
 * characteristics (the model has no waiting). */
extern const char mpp_overlap_off_reason[];
extern const char mpp_predicted_waits_reason[];
extern const char mpp_partial_waits_reason[];
/* CPU and Sys are n/a (NaN) in a result whose productive time outside
 * MPI-IO is not 0 while getrusage counted no CPU time. */
extern const char mpp_split_unmeasured_reason[];

/* Per-process quantities of one interval on one process, given the number of
 * processes that executed the interval (for insufficient parallelism). */
void mpp_process_quantities(const mpp_local_interval_t *in, int processes, double q[MPP_NQ]);

/* Predicted characteristics (characteristics.md): per process p of an
 * interval, with s(p) its relative core speed,
 *   work(p)           = C(p) s(p)          (C: computation time, MPP_Q_COMPUTE)
 *   C'(p)             = mean_q work(q) / s(p)
 *   insufficient'(p)  = mean_q (insufficient(q) s(q)) / s(p), at most C'(p) + I/O(p)
 *   MPI'(p)           = the predicted time of its MPI calls by category (pcat:
 *                       the model's, less Overlap; measured where there is no
 *                       model; I/O measured)
 *   T_exec'(p)        = C'(p) + MPI'(p)
 * and everything else follows from these as from the real quantities.
 * mpp_process_work gives work(p) and insufficient(q) s(q), whose sums over
 * processes the reduction makes before the predicted quantities. */
void mpp_process_work(const double q[MPP_NQ], double speed, double *work, double *insufficient_work);
void mpp_predicted_quantities(const double q[MPP_NQ], const double pcat[MPP_NCAT], double speed, double mean_work,
                              double mean_insufficient_work, double out[MPP_NQ]);

/* Main, comparative and by-process characteristics of one reduced interval.
 * result->by_process is allocated (nselected * MPP_NPP). */
int mpp_characteristics(const mpp_reduced_interval_t *in, int nselected, mpp_interval_result_t *result);
/* The same from the predicted quantities (in->predicted must be set). */
int mpp_characteristics_predicted(const mpp_reduced_interval_t *in, int nselected, mpp_interval_result_t *result);

#endif
