/* The protocol writers: text and JSON from the same report (protocol.md).
 * Files are created under a temporary name and renamed into place. */
#ifndef MPP_WRITER_H
#define MPP_WRITER_H

#include <stdio.h>

#include "analyze/characteristics.h"
#include "analyze/digest.h"
#include "analyze/model.h"
#include "context/config.h"
#include "context/runinfo.h"
#include "records/machine.h"
#include "records/partial.h"
#include "records/reduced.h"

typedef struct {
    const mpp_run_info_t *run;
    const mpp_config_t *config;
    const mpp_reduced_t *reduced;
    const mpp_interval_result_t *results;   /* one per reduced interval */
    const mpp_interval_result_t *predicted; /* the same from the predicted quantities; NULL: n/a */
    const mpp_model_setup_t *model;         /* the Prediction model parameter; NULL: not run */
    const char *const *warnings;            /* every warning of the run */
    int nwarnings;
    const mpp_machine_summary_t *machine; /* Machine and Placement (NULL: not collected) */
    const mpp_partial_t *partial;         /* a partial protocol (partial.h); NULL: a complete one */
    const mpp_digest_t *digest;           /* computed once by mpp_report_write; NULL: each writer makes its own */
    const char *matrix_na;                /* why the matrix is n/a (NULL: the protocol's kind has none) */
} mpp_report_t;

/* Text shared by both writers, so that they say the same. */
/* Why Machine/Placement are n/a, NULL when they are given. */
const char *mpp_report_machine_na(const mpp_report_t *report);
/* The Hardware counters parameter: the first line (allocated), and whether
 * counts follow in the intervals. */
char *mpp_report_counters_line(const mpp_report_t *report, int *counted);
/* The Prediction model parameter's lines (MPP_MODEL_MAX_LINES at most):
 * the first follows the label, the others are indented under it. */
int mpp_report_model_lines(const mpp_report_t *report, char lines[][MPP_MODEL_LINE]);
/* The events' names, for mpp_counter_rate_formula (array allocated, names not). */
char **mpp_report_event_names(const mpp_reduced_counters_t *counters);

void mpp_write_text(FILE *out, const mpp_report_t *report);
/* The Correctness section (correctness.c): text, JSON, what the checks
 * of a level look at, and the SRC point of the protocol a key names (-1:
 * none). */
void mpp_write_correctness_text(FILE *out, const mpp_report_t *report);
struct json_t *mpp_correctness_json(const mpp_report_t *report);
const char *mpp_report_checks_text(int level);
int mpp_report_src_of_key(const mpp_reduced_t *rd, const char *key);
/* The Partial parameter of a partial protocol (partial.c), and its JSON
 * form (false for a complete protocol). */
void mpp_write_partial_text(FILE *out, const mpp_report_t *report);
struct json_t *mpp_partial_json(const mpp_report_t *report);
int mpp_write_json(FILE *out, const mpp_report_t *report);
/* The JSON protocol as a document (the caller owns it), and its file form. */
struct json_t *mpp_protocol_json(const mpp_report_t *report);
int mpp_dump_json(FILE *out, struct json_t *doc);

/* Expand the MPIPROF_OUTPUT template (%p %n %u %h %%) and make the path
 * usable: a missing or unwritable directory falls back to the working
 * directory, then /tmp; an existing file of `format` (the path, .json,
 * .html) gets a numbered suffix unless overwrite.  Every change is stated
 * in a warning.  Returns 0 or -1 (no usable place). */
int mpp_output_path(const char *template_text, const char *program, int nprocs, const char *hostname, int overwrite,
                    int format, char *out, size_t size);
/* %u: date, time and process id now; and the one every later expansion
 * uses (rank 0's at MPI_Init, so that every process's partial protocol
 * sits next to the protocol's path). */
void mpp_output_unique(char *out, size_t size);
void mpp_output_set_unique(const char *unique);

/* Write the protocol files of `format` (the MPP_FORMAT_* bits) at `path`
 * atomically: the text at path, the JSON at path.json, the page at
 * path.html. */
int mpp_write_protocol(const mpp_report_t *report, const char *path, int format);

/* Indexes of the cells of an interval by descending summed time (malloc'd). */
int *mpp_interval_cells_by_time(const mpp_report_t *report, int interval, int *n);

/* Headline numbers for the demo and rank 0's stderr line: the digest
 * (digest_out.c). */
void mpp_write_headline(FILE *out, const mpp_report_t *report);

/* The digest (analyze/digest.h) in the text protocol, right after its
 * title; in the JSON ("digest", "whole_run"); an SRC table summed over
 * intervals in the JSON; the whole run's table in the text (after
 * interval 0's SRC points). */
void mpp_write_digest_text(FILE *out, const mpp_report_t *report);
struct json_t *mpp_digest_json(const mpp_report_t *report);
struct json_t *mpp_src_totals_json(const mpp_report_t *report, const mpp_src_table_t *table, double lost);
void mpp_write_whole_run_text(FILE *out, const mpp_report_t *report);
/* The report's digest, or one made now (*made: free it with
 * mpp_digest_free and free()); NULL when memory ran out. */
const mpp_digest_t *mpp_report_digest(const mpp_report_t *report, mpp_digest_t **made);
/* Where SRC point s is, in one line: its first frame, and the frame that
 * tells it from the other SRC points of its function at that line. */
void mpp_report_site(const mpp_reduced_t *rd, const mpp_reduced_src_t *s, char *out, size_t size);

#endif
