/* From reduced data to the protocol files: the characteristics of every
 * interval, the Warnings (every process's, this one's, and why what is
 * n/a is n/a), Machine and Placement, then both writers.  Shared by
 * MPI_Finalize, the partial protocols and mpiprof-merge. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/characteristics.h"
#include "write/report.h"
#include "util/warnings.h"

int mpp_report_write(mpp_reduced_t *rd, const mpp_report_input_t *in, const char *path, int format)
{
    mpp_run_info_t *run = in->run;
    /* Interval 0 begins where MPI_Init was called (on rank 0). */
    if (rd->nintervals > 0) {
        free(rd->intervals[0].file);
        rd->intervals[0].file = strdup(run->init_file[0] ? run->init_file : "?");
        rd->intervals[0].line = run->init_line;
    }
    mpp_interval_result_t *results = calloc((size_t)rd->nintervals + 1, sizeof *results);
    mpp_interval_result_t *predicted = rd->predicted ? calloc((size_t)rd->nintervals + 1, sizeof *predicted) : NULL;
    if (!results) {
        free(predicted);
        mpp_warn("out of memory while writing the protocol; it is not written");
        return -1;
    }
    for (int i = 0; i < rd->nintervals; i++) {
        mpp_characteristics(&rd->intervals[i], rd->nselected, &results[i]);
        if (predicted && mpp_characteristics_predicted(&rd->intervals[i], rd->nselected, &predicted[i]) != 0) {
            mpp_warn("out of memory at MPI_Finalize: the predicted characteristics are left out of the protocol");
            for (int k = 0; k <= i; k++)
                free(predicted[k].by_process);
            free(predicted);
            predicted = NULL;
        }
    }

    mpp_machine_summary_t machine;
    if (mpp_machine_summarize(rd->machine, &machine) != 0)
        mpp_warn("out of memory while summarizing Machine and Placement; they may be incomplete");
    char *machine_na = NULL, *counters_na = NULL;
    if (machine.na_reason && asprintf(&machine_na, "Machine and Placement are n/a: %s", machine.na_reason) < 0)
        machine_na = NULL;
    if (!rd->counters || rd->counters->na_reason)
        if (asprintf(&counters_na, "Hardware counters are n/a: %s",
                     rd->counters ? rd->counters->na_reason : "they were not collected") < 0)
            counters_na = NULL;

    /* Warnings: those of every process (merged by the reduction), those raised
     * here since, placement, and why characteristics and context are n/a. */
    const char **all = calloc((size_t)rd->nwarnings + MPP_MAX_WARNINGS + MPP_NMAIN + (size_t)machine.nwarnings + 5,
                              sizeof *all);
    int n = 0;
    for (int w = 0; all && w < rd->nwarnings; w++)
        all[n++] = rd->warnings[w];
    for (size_t w = in->warnings_from; all && w < mpp_warnings_count(); w++)
        all[n++] = mpp_warning_text(w);
    for (int w = 0; all && w < machine.nwarnings; w++)
        all[n++] = machine.warnings[w];
    if (all && machine_na)
        all[n++] = machine_na;
    if (all && counters_na)
        all[n++] = counters_na;
    if (all && in->waitstates_na)
        all[n++] = in->waitstates_na;
    int split_na = 0;
    for (int i = 0; i < rd->nintervals; i++)
        split_na |= isnan(results[i].main[MPP_M_CPU]) ||
                    (predicted && isnan(predicted[i].main[MPP_M_CPU]));
    if (all && split_na)
        all[n++] = mpp_split_unmeasured_reason;
    char model_na[MPP_MODEL_LINE + 96];
    if (all && (!in->model || !in->model->enabled)) {
        all[n++] = in->model_na ? in->model_na : mpp_overlap_off_reason;
    } else if (all && !mpp_model_usable(in->model)) {
        char reason[MPP_MODEL_LINE];
        mpp_model_na_reason(in->model, reason, sizeof reason);
        snprintf(model_na, sizeof model_na, "Overlap and the predicted characteristics are n/a: %s", reason);
        all[n++] = model_na;
    } else if (all) {
        all[n++] = mpp_predicted_waits_reason;
    }

    mpp_now_iso8601(run->written, sizeof run->written);
    mpp_report_t report = {.run = run, .config = in->config, .reduced = rd, .results = results,
                           .predicted = predicted, .model = in->model, .warnings = all, .nwarnings = n,
                           .machine = &machine, .partial = in->partial};
    int rc = path && all ? mpp_write_protocol(&report, path, format) : -1;
    if (rc == 0 && in->written)
        in->written(in->written_ctx, &report);
    for (int i = 0; i < rd->nintervals; i++) {
        free(results[i].by_process);
        if (predicted)
            free(predicted[i].by_process);
    }
    free(results);
    free(predicted);
    free(all);
    mpp_machine_summary_free(&machine);
    free(machine_na);
    free(counters_na);
    return rc;
}
