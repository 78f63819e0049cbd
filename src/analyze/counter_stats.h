/* Hardware-counter values of an interval as the protocol gives them: per
 * event the total, inside-MPI and outside-MPI counts of each process,
 * reduced like the other per-process quantities (sum, min and max with the
 * rank, by process for the selected processes), and derived rates (IPC,
 * miss ratios, operations per second) when the events they need were
 * counted.  Pure functions, no MPI, no PAPI: src/reduce/ calls
 * mpp_counter_row on every process, the writers mpp_counter_rate_overall. */
#ifndef MPP_COUNTER_STATS_H
#define MPP_COUNTER_STATS_H

#include "records/reduced.h"

/* A derived rate: numerator / denominator, each the first of its
 * alternatives that was counted; no denominator: per second of the
 * interval's execution time. */
typedef struct {
    const char *label;    /* text protocol */
    const char *json_key; /* JSON protocol */
    const char *numerator[5];
    const char *denominator[5]; /* {NULL}: per second */
} mpp_counter_rate_t;

extern const mpp_counter_rate_t mpp_counter_rates[];
extern const int mpp_ncounter_rates;

/* The rates the events `names` allow, in table order, with their operands
 * (indexes into names).  `out` has room for mpp_ncounter_rates. */
int mpp_counter_rates_select(char *const *names, int nevents, mpp_rate_use_t *out);

/* "PAPI_TOT_INS / PAPI_TOT_CYC", "PAPI_FP_OPS / execution time" (allocated). */
char *mpp_counter_rate_formula(const mpp_rate_use_t *use, char *const *names);

/* One process's row of one interval on the global index:
 *   values   its counts, values[l * MPP_HW_NV + v] for its l-th event (NaN:
 *            not measured, e.g. the inside/outside split when it is off)
 *   map      global index of its l-th event (-1: not in the global list)
 *   exec     its execution time of the interval (for per-second rates)
 * row gets nglobal * MPP_HW_NV event values then one value per rate, NaN
 * where the process has none (a rate whose denominator is 0 is NaN). */
void mpp_counter_row(const double *values, const int *map, int nlocal, int nglobal, const mpp_rate_use_t *rates,
                     int nrates, double exec, double *row);

/* A rate over all processes of an interval: sum of the numerator over sum of
 * the denominator (or over the interval's execution time).  NaN when it
 * cannot be computed.  hw: the interval's statistics (mpp_hw_width). */
double mpp_counter_rate_overall(const mpp_rate_use_t *use, const mpp_stat_t *hw, double exec_time);

#endif
