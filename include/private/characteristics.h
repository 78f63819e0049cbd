/* Characteristics of characteristics.md computed from reduced data: pure
 * functions, no MPI, unit-tested on hand-made data. */
#ifndef MPP_CHARACTERISTICS_H
#define MPP_CHARACTERISTICS_H

#include "profile.h"
#include "reduced.h"

/* Main characteristics, in protocol order. */
typedef enum {
    MPP_M_KEFF = 0, MPP_M_EXEC, MPP_M_PROCESSORS, MPP_M_TOTAL, MPP_M_PRODUCTIVE,
    MPP_M_CPU, MPP_M_SYS, MPP_M_IO, MPP_M_LOST, MPP_M_INSUFFICIENT, MPP_M_COMM,
    MPP_M_SENDRECV, MPP_M_REALSYNC, MPP_M_COLLECTIVE, MPP_M_SYSTEM, MPP_M_IDLE,
    MPP_M_IMBALANCE, MPP_M_POTSYNC, MPP_M_VARIATION, MPP_M_OVERLAP, MPP_NMAIN
} mpp_main_t;

/* Characteristics that have a per-process value, in protocol order. */
typedef enum {
    MPP_P_EXEC = 0, MPP_P_PRODUCTIVE, MPP_P_LOST, MPP_P_INSUFFICIENT, MPP_P_COMM,
    MPP_P_SENDRECV, MPP_P_REALSYNC, MPP_P_COLLECTIVE, MPP_P_SYSTEM, MPP_P_IDLE,
    MPP_P_IMBALANCE, MPP_P_POTSYNC, MPP_P_VARIATION, MPP_P_OVERLAP, MPP_NPP
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
    double main[MPP_NMAIN];          /* NaN: n/a */
    mpp_comparison_t cmp[MPP_NPP];   /* mean NaN: n/a */
    double *by_process;              /* [nselected * MPP_NPP]; NaN: n/a or not entered */
} mpp_interval_result_t;

/* Why characteristics are n/a in this version (NULL when computed). */
const char *mpp_not_available_reason(mpp_main_t m);

/* Per-process quantities of one interval on one process, given the number of
 * processes that executed the interval (for insufficient parallelism). */
void mpp_process_quantities(const mpp_local_interval_t *in, int processes, double q[MPP_NQ]);

/* Main, comparative and by-process characteristics of one reduced interval.
 * result->by_process is allocated (nselected * MPP_NPP). */
int mpp_characteristics(const mpp_reduced_interval_t *in, int nselected, mpp_interval_result_t *result);

#endif
