/* The process data of a partial protocol (src/write/process_data.c): a
 * process's profile as JSON, written into its partial protocol and read
 * back by mpiprof-merge. */
#ifndef MPP_PROCESS_DATA_H
#define MPP_PROCESS_DATA_H

#include <jansson.h>
#include <stdio.h>

#include "analyze/model.h"
#include "context/config.h"
#include "context/runinfo.h"
#include "records/interval.h"
#include "records/matrix.h"
#include "records/partial.h"
#include "records/profile.h"

/* A process's own profile, for its partial protocol's process data: all
 * that mpiprof-merge needs of it, so that it reads no other part. */
struct mpp_process_data {
    int rank;
    const char *hostname;
    const mpp_local_profile_t *profile;
    const char *const *warnings; /* its own, as the reduction took them */
    int nwarnings;
    const mpp_run_info_t *run;
    const mpp_config_t *config;
    const mpp_process_end_t *end;
    /* its row of the communication matrix (from: its rank), npairs -1
     * when it did not count (MPIPROF_MATRIX=off, no memory) */
    const mpp_pair_t *pairs;
    int npairs;
    double matrix_not_counted; /* its point-to-point calls in no pair (no memory, ranks unknown) */
};

/* JSON text that may not be UTF-8 (json.c): invalid bytes become '?'. */
json_t *mpp_json_text(const char *s);

/* A process's end (partial.h) as JSON, and back (0, or -1 when malformed). */
json_t *mpp_process_end_json(const mpp_process_end_t *end);
int mpp_process_end_parse(const json_t *o, mpp_process_end_t *end);

/* The "process" object; `model` NULL when the model did not run. */
json_t *mpp_process_data_json(const mpp_process_data_t *pd, const mpp_model_setup_t *model);
/* The same, as the text protocol's last section. */
void mpp_write_process_data_text(FILE *out, const mpp_process_data_t *pd, const mpp_model_setup_t *model);

/* A process's profile read back: `profile` is ready for the reduction
 * (exchange.h), everything it points to is owned here. */
typedef struct {
    int rank;
    char *hostname;
    mpp_run_info_t run;
    mpp_config_t config;
    mpp_process_end_t end;
    mpp_local_profile_t profile;
    mpp_interval_t *infos; /* executions of each interval */
    mpp_model_setup_t model;
    char **warnings;
    int nwarnings;
    char *machine_na, *binding, *node_type, *node_allowed, *node_error, *counters_na;
    mpp_pair_t *pairs; /* its matrix row; npairs -1: none (not counted, or an earlier mpiprof's) */
    int npairs;
    double matrix_not_counted;
} mpp_parsed_process_t;

/* 0, or -1 with the reason in why. */
int mpp_process_data_parse(const json_t *process, mpp_parsed_process_t *out, char *why, size_t why_size);
/* The same from a text protocol's process data section (its lines from
 * the section's title on). */
json_t *mpp_process_data_from_lines(char *const *lines, int n, char *why, size_t why_size);
void mpp_parsed_process_free(mpp_parsed_process_t *p);

#endif
