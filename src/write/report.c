/* From reduced data to the protocol files: the characteristics of every
 * interval, the Warnings (every process's, this one's, and why what is
 * n/a is n/a), Machine and Placement, then both writers.  Shared by
 * MPI_Finalize, the partial protocols and mpiprof-merge. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/characteristics.h"
#include "util/warnings.h"
#include "write/io_figures.h"
#include "write/report.h"

/* What the protocol is written from besides the reduced data, and what
 * it keeps until then. */
typedef struct {
    mpp_interval_result_t *results, *predicted; /* predicted: NULL without the model */
    mpp_machine_summary_t machine;
    char *machine_na, *counters_na;
    char model_na[MPP_MODEL_LINE + 96];
    char matrix_na[160];
    const char **warnings; /* NULL when memory ran out */
    int nwarnings;
} parts_t;

/* Interval 0 begins where MPI_Init was called (on rank 0). */
static void place_interval_zero(mpp_reduced_t *rd, const mpp_run_info_t *run)
{
    if (rd->nintervals > 0) {
        free(rd->intervals[0].file);
        rd->intervals[0].file = strdup(run->init_file[0] ? run->init_file : "?");
        rd->intervals[0].line = run->init_line;
    }
}

/* The characteristics of every interval, and the predicted ones when the
 * model ran (left out, with a warning, when memory runs out for them);
 * -1 (warned) when memory ran out for the characteristics. */
static int characterize(mpp_reduced_t *rd, parts_t *w)
{
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
    w->results = results, w->predicted = predicted;
    return 0;
}

/* Machine and Placement, and why they and the hardware counters are n/a. */
static void summarize_context(const mpp_reduced_t *rd, parts_t *w)
{
    if (mpp_machine_summarize(rd->machine, &w->machine) != 0)
        mpp_warn("out of memory while summarizing Machine and Placement; they may be incomplete");
    if (w->machine.na_reason &&
        asprintf(&w->machine_na, "Machine and Placement are n/a: %s", w->machine.na_reason) < 0)
        w->machine_na = NULL;
    if (!rd->counters || rd->counters->na_reason)
        if (asprintf(&w->counters_na, "Hardware counters are n/a: %s",
                     rd->counters ? rd->counters->na_reason : "they were not collected") < 0)
            w->counters_na = NULL;
}

/* Why Overlap and the predicted characteristics are n/a, or what the
 * predicted ones leave out (in `buf` when it must be made). */
static const char *model_reason(const mpp_report_input_t *in, char *buf, size_t size)
{
    if (!in->model || !in->model->enabled)
        return in->model_na ? in->model_na : mpp_overlap_off_reason;
    if (!mpp_model_usable(in->model)) {
        char reason[MPP_MODEL_LINE];
        mpp_model_na_reason(in->model, reason, sizeof reason);
        snprintf(buf, size, "Overlap and the predicted characteristics are n/a: %s", reason);
        return buf;
    }
    return mpp_predicted_waits_reason;
}

/* Warnings: those of every process (merged by the reduction), those raised
 * here since, placement, and why characteristics and context are n/a. */
static void gather_warnings(const mpp_reduced_t *rd, const mpp_report_input_t *in, parts_t *w)
{
    const char **all =
        calloc((size_t)rd->nwarnings + MPP_MAX_WARNINGS + MPP_NMAIN + (size_t)w->machine.nwarnings + 6, sizeof *all);
    int n = 0;
    for (int k = 0; all && k < rd->nwarnings; k++)
        all[n++] = rd->warnings[k];
    for (size_t k = in->warnings_from; all && k < mpp_warnings_count(); k++)
        all[n++] = mpp_warning_text(k);
    for (int k = 0; all && k < w->machine.nwarnings; k++)
        all[n++] = w->machine.warnings[k];
    if (all && w->machine_na)
        all[n++] = w->machine_na;
    if (all && w->counters_na)
        all[n++] = w->counters_na;
    if (all && in->waitstates_na)
        all[n++] = in->waitstates_na;
    if (all && in->matrix_na) {
        snprintf(w->matrix_na, sizeof w->matrix_na, "The communication matrix is n/a: %s", in->matrix_na);
        all[n++] = w->matrix_na;
    }
    int split_na = 0;
    for (int i = 0; i < rd->nintervals; i++)
        split_na |= isnan(w->results[i].main[MPP_M_CPU]) || (w->predicted && isnan(w->predicted[i].main[MPP_M_CPU]));
    if (all && split_na)
        all[n++] = mpp_split_unmeasured_reason;
    if (all)
        all[n++] = model_reason(in, w->model_na, sizeof w->model_na);
    w->warnings = all, w->nwarnings = n;
}

static void parts_free(const mpp_reduced_t *rd, parts_t *w)
{
    for (int i = 0; i < rd->nintervals; i++) {
        free(w->results[i].by_process);
        if (w->predicted)
            free(w->predicted[i].by_process);
    }
    free(w->results);
    free(w->predicted);
    free(w->warnings);
    mpp_machine_summary_free(&w->machine);
    free(w->machine_na);
    free(w->counters_na);
}

int mpp_report_write(mpp_reduced_t *rd, const mpp_report_input_t *in, const char *path, int format)
{
    mpp_run_info_t *run = in->run;
    place_interval_zero(rd, run);
    mpp_mark_io_srcs(rd);
    parts_t w;
    memset(&w, 0, sizeof w);
    if (characterize(rd, &w) != 0)
        return -1;
    summarize_context(rd, &w);
    gather_warnings(rd, in, &w);

    mpp_now_iso8601(run->written, sizeof run->written);
    mpp_report_t report = {.run = run,
                           .config = in->config,
                           .reduced = rd,
                           .results = w.results,
                           .predicted = w.predicted,
                           .model = in->model,
                           .warnings = w.warnings,
                           .nwarnings = w.nwarnings,
                           .machine = &w.machine,
                           .partial = in->partial,
                           .matrix_na = in->matrix_na};
    /* the digest once, for every writer (NULL: each makes its own, or says n/a) */
    mpp_digest_t digest;
    int have_digest = mpp_digest(rd, &w.results[0], w.nwarnings, &digest) == 0;
    report.digest = have_digest ? &digest : NULL;
    int rc = path && w.warnings ? mpp_write_protocol(&report, path, format) : -1;
    if (rc == 0 && in->written)
        in->written(in->written_ctx, &report);
    if (have_digest)
        mpp_digest_free(&digest);
    parts_free(rd, &w);
    return rc;
}
