/* The process data of a partial protocol: the profile of the process as
 * the reduction takes it (profile.h), so that mpiprof-merge reduces the
 * processes of several partial protocols exactly as MPI_Finalize would
 * have.  The characteristics cannot be reduced again instead: some depend
 * on the processes present (Insufficient parallelism, the predicted
 * computation time), and the Productive split is scaled.
 *
 * One JSON object, "process" in the JSON protocol; the text protocol ends
 * with the same as one JSON record per line (the header, then each
 * interval, then each cell), so both say the same.  Written here, read
 * back by mpp_process_data_parse; the field tables keep the two in step
 * (a number added to mpp_local_interval_t or mpp_local_cell_t travels once
 * listed there). */
#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check/finding_list.h"
#include "util/strmap.h"
#include "write/process_data.h"

typedef struct {
    const char *name;
    size_t offset;
    int n; /* doubles */
} field_t;

/* One field per entry, as the tables read. */
/* clang-format off */
#define IF(f, n) {#f, offsetof(mpp_local_interval_t, f), n}
static const field_t interval_fields[] = {IF(first_entry, 1), IF(exec, 1), IF(cpu, 1), IF(sys, 1),
                                          IF(seq, 1), IF(cat, MPP_NCAT), IF(pcat, MPP_NCAT), IF(overlap, 1)};
#undef IF
#define CF(f, n) {#f, offsetof(mpp_local_cell_t, f), n}
static const field_t cell_fields[] = {CF(time, 1), CF(cat, MPP_NCAT), CF(model, 1), CF(overlap, 1),
                                      CF(predicted, 1), CF(thread_time, MPP_THREAD_SLOTS), CF(rest_time, 1)};
#undef CF
/* clang-format on */

static json_t *number(double v) { return isnan(v) ? json_null() : json_real(v); }

static double number_of(const json_t *j) { return json_is_number(j) ? json_number_value(j) : NAN; }

static void put_fields(json_t *o, const void *base, const field_t *fields, size_t nfields)
{
    for (size_t f = 0; f < nfields; f++) {
        const double *v = (const double *)((const char *)base + fields[f].offset);
        if (fields[f].n == 1) {
            json_object_set_new(o, fields[f].name, number(v[0]));
            continue;
        }
        json_t *a = json_array();
        for (int k = 0; k < fields[f].n; k++)
            json_array_append_new(a, number(v[k]));
        json_object_set_new(o, fields[f].name, a);
    }
}

/* Absent numbers are 0, so that data written before a field existed still reads. */
static void get_fields(const json_t *o, void *base, const field_t *fields, size_t nfields)
{
    for (size_t f = 0; f < nfields; f++) {
        double *v = (double *)((char *)base + fields[f].offset);
        const json_t *j = json_object_get(o, fields[f].name);
        for (int k = 0; k < fields[f].n; k++) {
            const json_t *x = fields[f].n == 1 ? j : json_array_get(j, (size_t)k);
            v[k] = x ? number_of(x) : 0.0;
        }
    }
}

static json_t *strings(const char *const *list, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, mpp_json_text(list[i]));
    return a;
}

static json_t *model_json(const mpp_model_setup_t *s)
{
    if (!s)
        return json_null();
    json_t *lat = json_array(), *bw = json_array(), *src = json_array(), *pair = json_array(),
           *measured = json_array(), *at = json_array();
    for (int l = 0; l < MPP_NLINKS; l++) {
        json_array_append_new(lat, json_real(s->model.latency[l]));
        json_array_append_new(bw, json_real(s->model.bandwidth[l]));
        json_array_append_new(pair, json_pack("[i, i]", s->pair[l][0], s->pair[l][1]));
        for (int e = 0; e < MPP_NAT; e++)
            json_array_append_new(measured, json_pack("[f, f]", s->measured[l][e].small, s->measured[l][e].large));
    }
    for (int k = 0; k < MPP_NMP; k++) {
        json_array_append_new(src, json_integer(s->source[k]));
        json_array_append_new(at, json_integer(s->at[k]));
    }
    json_t *o = json_pack("{s:b, s:o, s:o, s:o, s:o, s:i, s:f, s:f, s:i, s:i, s:f, s:f}", "enabled", s->enabled,
                          "latency", lat, "bandwidth", bw, "source", src, "pair", pair, "nodes", s->nodes,
                          "speed_min", s->speed_min, "speed_max", s->speed_max, "speed_min_rank", s->speed_min_rank,
                          "speed_max_rank", s->speed_max_rank, "speed_loop", s->speed_loop, "seconds", s->seconds);
    /* the calibration's measurements (absent in data written before they were kept) */
    json_object_set_new(o, "measured", measured);
    json_object_set_new(o, "at", at);
    json_object_set_new(o, "implausible", json_integer(s->implausible));
    json_object_set_new(o, "shared_cpu", json_integer(s->shared_cpu));
    json_object_set_new(o, "seconds_finalize", json_real(s->seconds_finalize));
    return o;
}

static void model_parse(const json_t *o, mpp_model_setup_t *s)
{
    memset(s, 0, sizeof *s);
    if (!json_is_object(o))
        return;
    s->enabled = json_is_true(json_object_get(o, "enabled"));
    for (int l = 0; l < MPP_NLINKS; l++) {
        s->model.latency[l] = number_of(json_array_get(json_object_get(o, "latency"), (size_t)l));
        s->model.bandwidth[l] = number_of(json_array_get(json_object_get(o, "bandwidth"), (size_t)l));
        const json_t *pr = json_array_get(json_object_get(o, "pair"), (size_t)l);
        s->pair[l][0] = (int)json_integer_value(json_array_get(pr, 0));
        s->pair[l][1] = (int)json_integer_value(json_array_get(pr, 1));
    }
    for (int k = 0; k < MPP_NMP; k++) {
        s->source[k] = (int)json_integer_value(json_array_get(json_object_get(o, "source"), (size_t)k));
        s->at[k] = json_integer_value(json_array_get(json_object_get(o, "at"), (size_t)k)) == MPP_AT_FINALIZE;
    }
    for (int l = 0; l < MPP_NLINKS; l++)
        for (int e = 0; e < MPP_NAT; e++) {
            const json_t *m = json_array_get(json_object_get(o, "measured"), (size_t)(l * MPP_NAT + e));
            double small = number_of(json_array_get(m, 0)), large = number_of(json_array_get(m, 1));
            s->measured[l][e] = (mpp_pingpong_t){isnan(small) ? 0 : small, isnan(large) ? 0 : large};
        }
    s->implausible = (unsigned)json_integer_value(json_object_get(o, "implausible"));
    s->shared_cpu = (unsigned)json_integer_value(json_object_get(o, "shared_cpu"));
    double fin = number_of(json_object_get(o, "seconds_finalize"));
    s->seconds_finalize = isnan(fin) ? 0 : fin;
    s->nodes = (int)json_integer_value(json_object_get(o, "nodes"));
    s->speed_min = number_of(json_object_get(o, "speed_min"));
    s->speed_max = number_of(json_object_get(o, "speed_max"));
    s->speed_min_rank = (int)json_integer_value(json_object_get(o, "speed_min_rank"));
    s->speed_max_rank = (int)json_integer_value(json_object_get(o, "speed_max_rank"));
    s->speed_loop = number_of(json_object_get(o, "speed_loop"));
    s->seconds = number_of(json_object_get(o, "seconds"));
}

static json_t *optional_text(const char *s) { return s ? mpp_json_text(s) : json_null(); }

/* The run as this process saw it (runinfo.h): the merged protocol's Parameters. */
/* clang-format off */
#define RUN_TEXTS(X)                                                                                                   \
    X(program) X(program_name) X(cwd) X(started) X(finished) X(threads_level) X(mpi_library) X(mpi_standard)         \
        X(hostname) X(init_file) X(clock)
/* clang-format on */

static json_t *run_json(const mpp_run_info_t *run)
{
    json_t *o = json_object();
#define PUT(f) json_object_set_new(o, #f, mpp_json_text(run->f));
    RUN_TEXTS(PUT)
#undef PUT
    json_object_set_new(o, "nprocs", json_integer(run->nprocs));
    json_object_set_new(o, "init_line", json_integer(run->init_line));
    return o;
}

static void run_parse(const json_t *o, mpp_run_info_t *run)
{
    memset(run, 0, sizeof *run);
    const char *s;
#define GET(f)                                           \
    if ((s = json_string_value(json_object_get(o, #f)))) \
        snprintf(run->f, sizeof run->f, "%s", s);
    RUN_TEXTS(GET)
#undef GET
    run->nprocs = (int)json_integer_value(json_object_get(o, "nprocs"));
    run->init_line = (int)json_integer_value(json_object_get(o, "init_line"));
}

static json_t *config_json(const mpp_config_t *cfg)
{
    json_t *o = json_object();
    for (int i = 0; i < MPP_NVARS; i++) {
        char name[64];
        snprintf(name, sizeof name, "MPIPROF_%s", mpp_vars[i].name);
        json_object_set_new(
            o, name, json_pack("{s:o, s:b}", "value", mpp_json_text(cfg->text[i]), "default", cfg->is_default[i]));
    }
    return o;
}

/* The configuration read back through the parser, as if from the
 * environment, so that every field is what the process had. */
static __thread const json_t *config_source;

static const char *config_value(const char *name)
{
    const json_t *v = json_object_get(config_source, name);
    return json_is_true(json_object_get(v, "default")) ? NULL : json_string_value(json_object_get(v, "value"));
}

static void config_parse(const json_t *o, mpp_config_t *cfg)
{
    config_source = o;
    mpp_config_parse(cfg, config_value);
    config_source = NULL;
}

/* The process's correctness findings (records/finding.h): its own, so
 * that mpiprof-merge merges them as MPI_Finalize's reduction does. */
static json_t *findings_json(const mpp_finding_list_t *l)
{
    json_t *list = json_array();
    for (int i = 0; i < l->n; i++) {
        const mpp_finding_record_t *f = &l->items[i];
        json_array_append_new(
            list, json_pack("{s:s, s:i, s:o, s:o, s:I, s:i, s:o}", "kind", mpp_finding_kinds[f->kind].name,
                            "severity", f->severity, "src", mpp_json_text(f->src), "other", optional_text(f->other),
                            "count", (json_int_t)f->count, "peer", f->peer, "detail", mpp_json_text(f->detail)));
    }
    return json_pack("{s:i, s:I, s:o}", "level", l->level, "dropped", (json_int_t)l->dropped, "list", list);
}

/* ... and back: what is malformed is left out (a protocol written by an
 * older mpiprof has none: no check ran). */
static void findings_parse(const json_t *o, int rank, mpp_finding_list_t *l)
{
    *l = (mpp_finding_list_t){.level = json_is_integer(json_object_get(o, "level"))
                                           ? (int)json_integer_value(json_object_get(o, "level"))
                                           : MPP_CHECK_OFF};
    l->dropped = (uint64_t)json_integer_value(json_object_get(o, "dropped"));
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(o, "list"), i, v)
    {
        const json_t *other = json_object_get(v, "other");
        mpp_finding_record_t f = {
            .kind = mpp_finding_kind_of(json_string_value(json_object_get(v, "kind"))),
            .severity = json_integer_value(json_object_get(v, "severity")) ? MPP_FINDING_ERROR : MPP_FINDING_WARNING,
            .src = (char *)json_string_value(json_object_get(v, "src")),
            .other = json_is_string(other) ? (char *)json_string_value(other) : NULL,
            .count = (uint64_t)json_integer_value(json_object_get(v, "count")),
            .first_rank = rank,
            .last_rank = rank,
            .nprocs = 1,
            .peer = (int32_t)json_integer_value(json_object_get(v, "peer")),
            .detail = (char *)json_string_value(json_object_get(v, "detail")),
        };
        if (f.kind >= 0 && f.src && f.detail && f.count)
            mpp_finding_list_add(l, &f);
    }
}

/* The process's row of the communication matrix: [to, messages, bytes,
 * seconds] each; null when it did not count. */
static json_t *matrix_json(const mpp_process_data_t *pd)
{
    if (pd->npairs < 0)
        return json_null();
    json_t *rows = json_array();
    for (int i = 0; i < pd->npairs; i++) {
        const mpp_pair_t *p = &pd->pairs[i];
        json_array_append_new(rows, json_pack("[i, f, f, f]", (int)p->to, p->messages, p->bytes, p->time));
    }
    return rows;
}

static int matrix_parse(const json_t *rows, int rank, mpp_parsed_process_t *out)
{
    out->npairs = -1;
    if (!json_is_array(rows))
        return 0;
    size_t n = json_array_size(rows);
    out->pairs = malloc((n ? n : 1) * sizeof *out->pairs);
    if (!out->pairs)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const json_t *r = json_array_get(rows, i);
        if (json_array_size(r) != 4 || !json_is_integer(json_array_get(r, 0)))
            return -1;
        out->pairs[i] =
            (mpp_pair_t){rank, (int32_t)json_integer_value(json_array_get(r, 0)), number_of(json_array_get(r, 1)),
                         number_of(json_array_get(r, 2)), number_of(json_array_get(r, 3))};
    }
    out->npairs = (int)n;
    return 0;
}

json_t *mpp_process_data_json(const mpp_process_data_t *pd, const mpp_model_setup_t *model)
{
    const mpp_local_profile_t *lp = pd->profile;
    const mpp_local_context_t *ctx = &lp->context;
    int width = ctx->nevents * MPP_HW_NV;
    json_t *intervals = json_array(), *cells = json_array();
    for (int i = 0; i < lp->nintervals; i++) {
        const mpp_local_interval_t *in = &lp->intervals[i];
        json_t *o = json_pack("{s:i, s:o, s:I}", "interval", i, "key", mpp_json_text(in->key), "executions",
                              (json_int_t)in->info->executions);
        put_fields(o, in, interval_fields, MPP_ARRAY_LEN(interval_fields));
        json_t *hw = json_array();
        for (int k = 0; in->hw && k < width; k++)
            json_array_append_new(hw, number(in->hw[k]));
        json_object_set_new(o, "hw", in->hw ? hw : (json_decref(hw), json_null()));
        json_array_append_new(intervals, o);
    }
    for (int c = 0; c < lp->ncells; c++) {
        const mpp_local_cell_t *lc = &lp->cells[c];
        json_t *o = json_pack("{s:i, s:i, s:o, s:i, s:I, s:I, s:I}", "cell", c, "in", lc->interval, "src",
                              mpp_json_text(lc->src), "fid", (int)lc->fid, "calls", (json_int_t)lc->calls,
                              "bytes_sent", (json_int_t)lc->bytes_sent, "bytes_recv", (json_int_t)lc->bytes_recv);
        put_fields(o, lc, cell_fields, MPP_ARRAY_LEN(cell_fields));
        if (lc->nthreads) /* which threads called it (thread_time: their times) */
            json_object_set_new(o, "threads",
                                json_pack("{s:i, s:i, s:i}", "mask", (int)lc->thread_mask, "n", lc->nthreads, "rest",
                                          lc->rest_threads));
        json_array_append_new(cells, o);
    }
    json_t *node = ctx->node_error  ? json_pack("{s:o}", "error", mpp_json_text(ctx->node_error))
                   : ctx->node_type ? json_pack("{s:o, s:o}", "type", mpp_json_text(ctx->node_type), "allowed",
                                                optional_text(ctx->node_allowed))
                                    : json_null();
    json_t *o = json_object();
    json_object_set_new(o, "rank", json_integer(pd->rank));
    json_object_set_new(o, "host", mpp_json_text(pd->hostname));
    json_object_set_new(o, "predict", json_boolean(lp->predict));
    json_object_set_new(o, "thread_times", json_boolean(lp->thread_times));
    json_object_set_new(o, "speed", number(lp->speed));
    json_object_set_new(o, "model", model_json(model));
    json_object_set_new(o, "machine_na", optional_text(ctx->machine_na));
    json_object_set_new(o, "binding", optional_text(ctx->binding));
    json_object_set_new(o, "node", node);
    json_object_set_new(o, "counters_na", optional_text(ctx->counters_na));
    json_object_set_new(o, "events", strings((const char *const *)ctx->events, ctx->nevents));
    json_object_set_new(o, "facts", strings((const char *const *)ctx->facts, ctx->nfacts));
    json_object_set_new(o, "warnings", strings(pd->warnings, pd->nwarnings));
    json_object_set_new(o, "findings", findings_json(&lp->findings));
    json_object_set_new(o, "end", pd->end ? mpp_process_end_json(pd->end) : json_null());
    json_object_set_new(o, "run", pd->run ? run_json(pd->run) : json_null());
    json_object_set_new(o, "configuration", pd->config ? config_json(pd->config) : json_null());
    json_object_set_new(o, "matrix", matrix_json(pd));
    json_object_set_new(o, "matrix_not_counted", json_real(pd->matrix_not_counted));
    json_object_set_new(o, "intervals", intervals);
    json_object_set_new(o, "cells", cells);
    return o;
}

void mpp_write_process_data_text(FILE *out, const mpp_process_data_t *pd, const mpp_model_setup_t *model)
{
    json_t *o = mpp_process_data_json(pd, model);
    if (!o)
        return;
    json_t *intervals = json_incref(json_object_get(o, "intervals")),
           *cells = json_incref(json_object_get(o, "cells"));
    json_object_del(o, "intervals");
    json_object_del(o, "cells");
    fprintf(out,
            "\n--- Process data (the profile of rank %d as the reduction takes it: the input of mpiprof-merge; "
            "one JSON record per line, the same as \"process\" in the JSON protocol) ---\n",
            pd->rank);
    const size_t flags = JSON_COMPACT | JSON_REAL_PRECISION(10);
    json_dumpf(o, out, flags), fputc('\n', out);
    size_t i;
    json_t *v;
    json_array_foreach(intervals, i, v) json_dumpf(v, out, flags), fputc('\n', out);
    json_array_foreach(cells, i, v) json_dumpf(v, out, flags), fputc('\n', out);
    json_decref(intervals), json_decref(cells), json_decref(o);
}

/* --- reading it back (mpiprof-merge) --- */

static char *dup_or_null(const json_t *j) { return json_is_string(j) ? strdup(json_string_value(j)) : NULL; }

static char **dup_strings(const json_t *a, int *n)
{
    *n = 0;
    char **list = calloc(json_array_size(a) + 1, sizeof *list);
    size_t i;
    json_t *v;
    json_array_foreach(a, i, v) if (list && json_is_string(v)) list[(*n)++] = strdup(json_string_value(v));
    return list;
}

/* Which rank, how it ended, the run and its configuration; -1 (and why)
 * when the rank's end or the run's processes are missing. */
static int parse_process(const json_t *o, mpp_parsed_process_t *out, char *why, size_t why_size)
{
    out->rank = (int)json_integer_value(json_object_get(o, "rank"));
    if (mpp_process_end_parse(json_object_get(o, "end"), &out->end) != 0 || out->end.rank != out->rank) {
        snprintf(why, why_size, "its process data does not say how rank %d ended", out->rank);
        return -1;
    }
    run_parse(json_object_get(o, "run"), &out->run);
    if (out->run.nprocs <= out->rank) {
        snprintf(why, why_size, "its process data does not give the run's processes");
        return -1;
    }
    config_parse(json_object_get(o, "configuration"), &out->config);
    return 0;
}

/* The host, the model, the machine and counters context, the facts and
 * the warnings: out's copies, which the profile's context points to. */
static void parse_context(const json_t *o, mpp_parsed_process_t *out)
{
    mpp_local_profile_t *lp = &out->profile;
    mpp_local_context_t *ctx = &lp->context;
    out->hostname = dup_or_null(json_object_get(o, "host"));
    lp->predict = json_is_true(json_object_get(o, "predict"));
    lp->thread_times = json_is_true(json_object_get(o, "thread_times"));
    lp->speed = number_of(json_object_get(o, "speed"));
    model_parse(json_object_get(o, "model"), &out->model);
    ctx->machine_na = out->machine_na = dup_or_null(json_object_get(o, "machine_na"));
    ctx->binding = out->binding = dup_or_null(json_object_get(o, "binding"));
    const json_t *node = json_object_get(o, "node");
    ctx->node_type = out->node_type = dup_or_null(json_object_get(node, "type"));
    ctx->node_allowed = out->node_allowed = dup_or_null(json_object_get(node, "allowed"));
    ctx->node_error = out->node_error = dup_or_null(json_object_get(node, "error"));
    if (!ctx->machine_na && !ctx->node_type && !ctx->node_error) /* described on another rank of its host */
        ctx->node_error = out->node_error = strdup("not described in the partial protocol of this rank");
    ctx->counters_na = out->counters_na = dup_or_null(json_object_get(o, "counters_na"));
    ctx->events = dup_strings(json_object_get(o, "events"), &ctx->nevents);
    ctx->facts = dup_strings(json_object_get(o, "facts"), &ctx->nfacts);
    out->warnings = dup_strings(json_object_get(o, "warnings"), &out->nwarnings);
    ctx->warnings = (const char *const *)out->warnings;
    ctx->nwarnings = out->nwarnings;
}

/* The intervals, into the profile's (allocated for all of them); -1 (and
 * why) at one without a key. */
static int parse_intervals(const json_t *intervals, mpp_parsed_process_t *out, char *why, size_t why_size)
{
    mpp_local_profile_t *lp = &out->profile;
    int ni = (int)json_array_size(intervals), width = lp->context.nevents * MPP_HW_NV;
    for (int i = 0; i < ni; i++) {
        const json_t *j = json_array_get(intervals, (size_t)i);
        mpp_local_interval_t *in = &lp->intervals[i];
        in->key = dup_or_null(json_object_get(j, "key"));
        lp->nintervals++;
        if (!in->key) {
            snprintf(why, why_size, "interval %d of its process data has no key", i);
            return -1;
        }
        in->info = &out->infos[i];
        out->infos[i].executions = (uint64_t)json_integer_value(json_object_get(j, "executions"));
        get_fields(j, in, interval_fields, MPP_ARRAY_LEN(interval_fields));
        const json_t *hw = json_object_get(j, "hw");
        if (json_is_array(hw) && width && (int)json_array_size(hw) == width) {
            in->hw = malloc((size_t)width * sizeof *in->hw);
            for (int k = 0; in->hw && k < width; k++)
                in->hw[k] = number_of(json_array_get(hw, (size_t)k));
        }
    }
    return 0;
}

/* The cells, into the profile's (allocated for all of them), and their SRC
 * keys, one copy per SRC point: the cells of an SRC point share its key
 * (profile.h).  -1 (and why) at one without a key or with an interval not
 * among the ni. */
static int parse_cells(const json_t *cells, int ni, mpp_local_profile_t *lp, char *why, size_t why_size)
{
    int nc = (int)json_array_size(cells);
    mpp_strmap_t seen;
    mpp_strmap_init(&seen);
    for (int c = 0; c < nc; c++) {
        const json_t *j = json_array_get(cells, (size_t)c);
        mpp_local_cell_t *lc = &lp->cells[c];
        lc->interval = (int)json_integer_value(json_object_get(j, "in"));
        const json_t *src = json_object_get(j, "src");
        int inserted = 0;
        uintptr_t *ordinal = json_is_string(src)
                                 ? mpp_strmap_put(&seen, json_string_value(src), (uintptr_t)lp->nsrcs, &inserted)
                                 : NULL;
        if (ordinal && inserted && !(lp->srcs[lp->nsrcs++] = strdup(json_string_value(src))))
            ordinal = NULL;
        lc->src = ordinal ? lp->srcs[*ordinal] : NULL;
        lp->ncells++;
        if (!lc->src || lc->interval < 0 || lc->interval >= ni) {
            mpp_strmap_free(&seen);
            snprintf(why, why_size, "cell %d of its process data has no SRC key or a wrong interval", c);
            return -1;
        }
        lc->fid = (uint32_t)json_integer_value(json_object_get(j, "fid"));
        lc->calls = (uint64_t)json_integer_value(json_object_get(j, "calls"));
        lc->bytes_sent = (uint64_t)json_integer_value(json_object_get(j, "bytes_sent"));
        lc->bytes_recv = (uint64_t)json_integer_value(json_object_get(j, "bytes_recv"));
        get_fields(j, lc, cell_fields, MPP_ARRAY_LEN(cell_fields));
        const json_t *th = json_object_get(j, "threads");
        lc->thread_mask = (unsigned)json_integer_value(json_object_get(th, "mask"));
        lc->nthreads = (int)json_integer_value(json_object_get(th, "n"));
        lc->rest_threads = (int)json_integer_value(json_object_get(th, "rest"));
    }
    mpp_strmap_free(&seen);
    return 0;
}

int mpp_process_data_parse(const json_t *o, mpp_parsed_process_t *out, char *why, size_t why_size)
{
    memset(out, 0, sizeof *out);
    const json_t *intervals = json_object_get(o, "intervals"), *cells = json_object_get(o, "cells");
    if (!json_is_object(o) || !json_is_integer(json_object_get(o, "rank")) || !json_is_array(intervals) ||
        !json_array_size(intervals) || !json_is_array(cells)) {
        snprintf(why, why_size, "its process data lacks rank, intervals or cells");
        return -1;
    }
    if (parse_process(o, out, why, why_size) != 0)
        return -1;
    parse_context(o, out);
    findings_parse(json_object_get(o, "findings"), out->rank, &out->profile.findings);
    out->matrix_not_counted = json_number_value(json_object_get(o, "matrix_not_counted")); /* 0 when absent */
    if (matrix_parse(json_object_get(o, "matrix"), out->rank, out) != 0) {
        snprintf(why, why_size, "its process data's matrix row is malformed");
        return -1;
    }

    mpp_local_profile_t *lp = &out->profile;
    int ni = (int)json_array_size(intervals), nc = (int)json_array_size(cells);
    lp->intervals = calloc((size_t)ni, sizeof *lp->intervals);
    out->infos = calloc((size_t)ni, sizeof *out->infos);
    lp->cells = calloc((size_t)nc + 1, sizeof *lp->cells);
    lp->srcs = calloc((size_t)nc + 1, sizeof *lp->srcs);
    if (!lp->intervals || !out->infos || !lp->cells || !lp->srcs) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    if (parse_intervals(intervals, out, why, why_size) != 0)
        return -1;
    return parse_cells(cells, ni, lp, why, why_size);
}

json_t *mpp_process_data_from_lines(char *const *lines, int n, char *why, size_t why_size)
{
    json_t *o = NULL, *intervals = json_array(), *cells = json_array();
    for (int i = 0; i < n; i++) {
        json_error_t error;
        json_t *record = json_loads(lines[i], 0, &error);
        if (!record) {
            snprintf(why, why_size, "line %d of its process data: %s", i + 1, error.text);
            json_decref(o), json_decref(intervals), json_decref(cells);
            return NULL;
        }
        if (!o)
            o = record;
        else
            json_array_append_new(json_object_get(record, "cell") ? cells : intervals, record);
    }
    if (!o) {
        snprintf(why, why_size, "its process data section is empty");
        json_decref(intervals), json_decref(cells);
        return NULL;
    }
    json_object_set_new(o, "intervals", intervals);
    json_object_set_new(o, "cells", cells);
    return o;
}

void mpp_parsed_process_free(mpp_parsed_process_t *p)
{
    mpp_local_profile_t *lp = &p->profile;
    mpp_local_context_t *ctx = &lp->context;
    for (int i = 0; i < lp->nintervals; i++)
        free(lp->intervals[i].key), free(lp->intervals[i].hw);
    for (int s = 0; lp->srcs && s < lp->nsrcs; s++)
        free(lp->srcs[s]);
    for (int e = 0; ctx->events && e < ctx->nevents; e++)
        free(ctx->events[e]);
    for (int f = 0; ctx->facts && f < ctx->nfacts; f++)
        free(ctx->facts[f]);
    for (int w = 0; p->warnings && w < p->nwarnings; w++)
        free(p->warnings[w]);
    free(lp->intervals), free(lp->cells), free(lp->srcs), free(ctx->events), free(ctx->facts), free(p->warnings),
        free(p->infos);
    free(p->hostname), free(p->machine_na), free(p->binding), free(p->node_type), free(p->node_allowed);
    free(p->node_error), free(p->counters_na), free(p->pairs);
    mpp_finding_list_free(&lp->findings);
    memset(p, 0, sizeof *p);
}
