#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/counter_stats.h"

/* Presets first, then the Linux perf names PAPI's perf_event component
 * knows for the same thing. */
const mpp_counter_rate_t mpp_counter_rates[] = {
    {"IPC (instructions per cycle)",
     "ipc",
     {"PAPI_TOT_INS", "perf::INSTRUCTIONS", "perf::PERF_COUNT_HW_INSTRUCTIONS", "INSTRUCTIONS_RETIRED", NULL},
     {"PAPI_TOT_CYC", "perf::CYCLES", "perf::CPU-CYCLES", "perf::PERF_COUNT_HW_CPU_CYCLES", NULL}},
    {"L1 data cache miss ratio", "l1_data_miss_ratio", {"PAPI_L1_DCM", NULL}, {"PAPI_L1_DCA", NULL}},
    {"L2 data cache miss ratio", "l2_data_miss_ratio", {"PAPI_L2_DCM", NULL}, {"PAPI_L2_DCA", NULL}},
    {"L2 cache miss ratio", "l2_miss_ratio", {"PAPI_L2_TCM", NULL}, {"PAPI_L2_TCA", NULL}},
    {"L3 cache miss ratio", "l3_miss_ratio", {"PAPI_L3_TCM", NULL}, {"PAPI_L3_TCA", NULL}},
    {"Last-level cache miss ratio",
     "llc_miss_ratio",
     {"perf::CACHE-MISSES", "perf::PERF_COUNT_HW_CACHE_MISSES", NULL},
     {"perf::CACHE-REFERENCES", "perf::PERF_COUNT_HW_CACHE_REFERENCES", NULL}},
    {"Branch misprediction ratio",
     "branch_miss_ratio",
     {"PAPI_BR_MSP", "perf::BRANCH-MISSES", "perf::PERF_COUNT_HW_BRANCH_MISSES", NULL},
     {"PAPI_BR_CN", "PAPI_BR_INS", "perf::BRANCH-INSTRUCTIONS", "perf::PERF_COUNT_HW_BRANCH_INSTRUCTIONS", NULL}},
    {"Floating-point operations per second", "flops", {"PAPI_FP_OPS", NULL}, {NULL}},
    {"Double-precision operations per second", "dp_ops_per_second", {"PAPI_DP_OPS", NULL}, {NULL}},
    {"Single-precision operations per second", "sp_ops_per_second", {"PAPI_SP_OPS", NULL}, {NULL}},
    {"Instructions per second",
     "instructions_per_second",
     {"PAPI_TOT_INS", "perf::INSTRUCTIONS", "perf::PERF_COUNT_HW_INSTRUCTIONS", "INSTRUCTIONS_RETIRED", NULL},
     {NULL}},
};
const int mpp_ncounter_rates = (int)(sizeof mpp_counter_rates / sizeof *mpp_counter_rates);

static int find_first(char *const *names, int n, const char *const *alternatives)
{
    for (int a = 0; alternatives[a]; a++)
        for (int e = 0; e < n; e++)
            if (!strcmp(names[e], alternatives[a]))
                return e;
    return -1;
}

int mpp_counter_rates_select(char *const *names, int nevents, mpp_rate_use_t *out)
{
    int n = 0;
    for (int r = 0; r < mpp_ncounter_rates; r++) {
        const mpp_counter_rate_t *rate = &mpp_counter_rates[r];
        int num = find_first(names, nevents, rate->numerator);
        int den = rate->denominator[0] ? find_first(names, nevents, rate->denominator) : -1;
        if (num < 0 || (rate->denominator[0] && den < 0))
            continue;
        out[n++] = (mpp_rate_use_t){r, num, den};
    }
    return n;
}

char *mpp_counter_rate_formula(const mpp_rate_use_t *use, char *const *names)
{
    char *text = NULL;
    if (asprintf(&text, "%s / %s", names[use->numerator],
                 use->denominator >= 0 ? names[use->denominator] : "execution time") < 0)
        return NULL;
    return text;
}

void mpp_counter_row(const double *values, const int *map, int nlocal, int nglobal, const mpp_rate_use_t *rates,
                     int nrates, double exec, double *row)
{
    for (int k = 0; k < nglobal * MPP_HW_NV + nrates; k++)
        row[k] = NAN;
    for (int l = 0; l < nlocal; l++) {
        if (map[l] < 0 || map[l] >= nglobal)
            continue;
        for (int v = 0; v < MPP_HW_NV; v++)
            row[map[l] * MPP_HW_NV + v] = values[l * MPP_HW_NV + v];
    }
    for (int r = 0; r < nrates; r++) {
        double num = row[rates[r].numerator * MPP_HW_NV + MPP_HW_TOTAL];
        double den = rates[r].denominator >= 0 ? row[rates[r].denominator * MPP_HW_NV + MPP_HW_TOTAL] : exec;
        /* NaN stays NaN; x/0 is no rate */
        row[nglobal * MPP_HW_NV + r] = !isnan(num) && !isnan(den) && den > 0 ? num / den : NAN;
    }
}

double mpp_counter_rate_overall(const mpp_rate_use_t *use, const mpp_stat_t *hw, double exec_time)
{
    const mpp_stat_t *num = &hw[use->numerator * MPP_HW_NV + MPP_HW_TOTAL];
    double den;
    if (use->denominator >= 0) {
        const mpp_stat_t *d = &hw[use->denominator * MPP_HW_NV + MPP_HW_TOTAL];
        if (!d->count)
            return NAN;
        den = d->sum;
    } else {
        den = exec_time;
    }
    if (!num->count || isnan(den) || den <= 0)
        return NAN;
    return num->sum / den;
}
