/* The JSON protocol (jansson): the same content as the text protocol, with
 * null wherever the text says n/a. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/counter_stats.h"
#include "autoconf.h"
#include "write/io_figures.h"
#include "write/matrix_out.h"
#include "write/process_data.h"
#include "write/threads_write.h"
#include "write/writer.h"

static json_t *text(const char *s) { return mpp_json_text(s); }

static json_t *number(double v) { return isnan(v) ? json_null() : json_real(v); }

static json_t *string_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *machine(const mpp_report_t *r)
{
    static const char *cache_keys[MPP_NCACHE] = {"l1d", "l1i", "l2", "l3"};
    if (mpp_report_machine_na(r))
        return json_null();
    json_t *types = json_array();
    for (int t = 0; t < r->machine->ntypes; t++) {
        const mpp_machine_type_t *mt = &r->machine->types[t];
        const mpp_node_type_t *nt = &mt->type;
        json_t *caches = json_object(), *hosts = json_array();
        for (int c = 0; c < MPP_NCACHE; c++)
            json_object_set_new(caches, cache_keys[c],
                                nt->cache_size[c]
                                    ? json_pack("{s:I, s:i}", "size_bytes", (json_int_t)nt->cache_size[c], "count",
                                                nt->cache_count[c])
                                    : json_null());
        for (int h = 0; h < mt->nhosts; h++)
            json_array_append_new(hosts, json_string(mt->hosts[h]));
        json_array_append_new(types, json_pack("{s:s, s:s, s:i, s:i, s:i, s:i, s:I, s:o, s:o, s:s}", "description",
                                               mt->text, "cpu_model", nt->model ? nt->model : "", "packages",
                                               nt->packages, "cores", nt->cores, "hardware_threads", nt->pus,
                                               "numa_nodes", nt->numa, "memory_bytes", (json_int_t)nt->memory,
                                               "caches", caches, "hosts", hosts, "hosts_text", mt->hosts_text));
    }
    return types;
}

static json_t *placement(const mpp_report_t *r)
{
    if (mpp_report_machine_na(r))
        return json_null();
    const mpp_machine_summary_t *ms = r->machine;
    json_t *hosts = json_array(), *warnings = json_array();
    for (int h = 0; h < ms->nhosts; h++) {
        const mpp_host_placement_t *hp = &ms->hosts[h];
        json_t *runs = json_array();
        for (int k = 0; k < hp->nruns; k++) {
            const mpp_placed_run_t *p = &hp->runs[k];
            json_t *pus = json_array();
            for (int i = 0; i < p->run.npus; i++)
                json_array_append_new(pus, json_integer(p->run.pus[i]));
            json_array_append_new(runs, json_pack("{s:i, s:i, s:i, s:o, s:i, s:o, s:s}", "first_rank", p->run.first,
                                                  "rank_step", p->run.rank_step, "count", p->run.count, "pus", pus,
                                                  "pu_step", p->run.pu_step, "bound",
                                                  p->bound < 0 ? json_null() : json_boolean(p->bound), "text",
                                                  p->text ? p->text : ""));
        }
        json_array_append_new(hosts, json_pack("{s:s, s:i, s:o, s:s}", "host", hp->host, "ranks", hp->nranks, "runs",
                                               runs, "text", hp->text ? hp->text : ""));
    }
    for (int w = 0; w < ms->nwarnings; w++)
        json_array_append_new(warnings, json_string(ms->warnings[w]));
    return json_pack("{s:o, s:o}", "hosts", hosts, "warnings", warnings);
}

static json_t *counters_parameter(const mpp_report_t *r)
{
    const mpp_reduced_counters_t *c = r->reduced->counters;
    if (!c || c->na_reason)
        return json_null();
    int counted;
    char *line = mpp_report_counters_line(r, &counted);
    json_t *events = json_array(), *derived = json_array(), *mpx = json_array();
    for (int e = 0; e < c->nevents; e++)
        json_array_append_new(events, json_pack("{s:s, s:s, s:i}", "name", c->events[e].name, "component",
                                                c->events[e].component, "processes", c->events[e].processes));
    char **names = mpp_report_event_names(c);
    for (int k = 0; names && k < c->nrates; k++) {
        char *formula = mpp_counter_rate_formula(&c->rates[k], names);
        const mpp_counter_rate_t *rate = &mpp_counter_rates[c->rates[k].rate];
        json_array_append_new(derived, json_pack("{s:s, s:s, s:s}", "name", rate->label, "key", rate->json_key,
                                                 "formula", formula ? formula : "?"));
        free(formula);
    }
    free(names);
    for (int m = 0; m < c->nmultiplexed; m++)
        json_array_append_new(mpx, json_string(c->multiplexed[m]));
    json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:b, s:o, s:o}", "library", string_or_null(c->library), "summary",
                          string_or_null(line), "events", events, "derived", derived, "split_mpi", c->split,
                          "multiplexed", mpx, "none_reason",
                          c->nevents ? json_null() : string_or_null(c->none_reason ? c->none_reason : "?"));
    free(line);
    return o;
}

static json_t *count_stat(const mpp_stat_t *s)
{
    if (!s->count)
        return json_null();
    return json_pack("{s:I, s:I, s:i, s:I, s:i, s:f}", "sum", (json_int_t)llround(s->sum), "min",
                     (json_int_t)llround(s->min), "min_rank", s->min_rank, "max", (json_int_t)llround(s->max),
                     "max_rank", s->max_rank, "mean", s->sum / s->count);
}

static json_t *count_or_null(double v) { return isnan(v) ? json_null() : json_integer((json_int_t)llround(v)); }

static json_t *interval_counters(const mpp_report_t *r, const mpp_reduced_interval_t *in)
{
    const mpp_reduced_t *rd = r->reduced;
    const mpp_reduced_counters_t *c = rd->counters;
    if (!c || c->na_reason || !c->nevents || !in->hw)
        return json_null();
    static const char *keys[MPP_HW_NV] = {"total", "inside_mpi", "outside_mpi"};
    int width = mpp_hw_width(c);
    json_t *events = json_array(), *derived = json_array(), *ranks = json_array();
    for (int s = 0; s < rd->nselected; s++)
        json_array_append_new(ranks, json_integer(rd->selected[s]));
    for (int e = 0; e < c->nevents; e++) {
        json_t *o = json_pack("{s:s, s:s}", "name", c->events[e].name, "component", c->events[e].component);
        json_t *by = json_pack("{s:O}", "ranks", ranks);
        for (int v = 0; v < MPP_HW_NV; v++) {
            int shown = v == MPP_HW_TOTAL || c->split;
            json_object_set_new(o, keys[v], shown ? count_stat(&in->hw[e * MPP_HW_NV + v]) : json_null());
            if (!shown)
                continue;
            json_t *col = json_array();
            for (int s = 0; in->hw_by_process && s < rd->nselected; s++)
                json_array_append_new(col, count_or_null(in->hw_by_process[(size_t)s * width + e * MPP_HW_NV + v]));
            json_object_set_new(by, keys[v], col);
        }
        json_object_set_new(o, "by_process", by);
        json_array_append_new(events, o);
    }
    char **names = mpp_report_event_names(c);
    for (int k = 0; names && k < c->nrates; k++) {
        const mpp_stat_t *s = &in->hw[c->nevents * MPP_HW_NV + k];
        const mpp_counter_rate_t *rate = &mpp_counter_rates[c->rates[k].rate];
        char *formula = mpp_counter_rate_formula(&c->rates[k], names);
        double overall = mpp_counter_rate_overall(&c->rates[k], in->hw, in->q[MPP_Q_EXEC].max);
        json_t *col = json_array();
        for (int sel = 0; in->hw_by_process && sel < rd->nselected; sel++)
            json_array_append_new(col, number(in->hw_by_process[(size_t)sel * width + c->nevents * MPP_HW_NV + k]));
        int have = s->count && !isnan(overall);
        json_array_append_new(
            derived, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:{s:O, s:o}}", "name", rate->label,
                               "key", rate->json_key, "formula", formula ? formula : "?", "value",
                               have ? json_real(overall) : json_null(), "min", have ? json_real(s->min) : json_null(),
                               "min_rank", have ? json_integer(s->min_rank) : json_null(), "max",
                               have ? json_real(s->max) : json_null(), "max_rank",
                               have ? json_integer(s->max_rank) : json_null(), "mean",
                               have ? json_real(s->sum / s->count) : json_null(), "by_process", "ranks", ranks,
                               "values", col));
        free(formula);
    }
    free(names);
    json_decref(ranks);
    return json_pack("{s:o, s:o}", "events", events, "derived", derived);
}

/* The Prediction model parameter: its text lines, and the same as data;
 * null when the model did not run (the reason is in warnings). */
static json_t *prediction_model(const mpp_report_t *r)
{
    const mpp_model_setup_t *s = r->model;
    if (!s || !s->enabled)
        return json_null();
    char lines[MPP_MODEL_MAX_LINES][MPP_MODEL_LINE];
    int n = mpp_report_model_lines(r, lines);
    json_t *text_lines = json_array(), *params = json_object();
    for (int i = 0; i < n; i++)
        json_array_append_new(text_lines, json_string(lines[i]));
    static const char *const source_keys[] = {"given", "calibrated", "as_intra", "as_inter", "builtin"};
    for (int k = 0; k < MPP_NMP; k++) {
        char shown[32], source[192];
        double v = mpp_model_param_value(&s->model, k);
        mpp_model_format_param(k, v, shown, sizeof shown);
        mpp_model_source_text(s, k, source, sizeof source);
        json_t *p = json_pack("{s:f, s:s, s:s, s:s, s:s}", "value", v, "unit",
                              (k == MPP_MP_LAT_INTRA || k == MPP_MP_LAT_INTER) ? "s" : "B/s", "text", shown, "source",
                              source_keys[s->source[k]], "source_text", source);
        if (s->source[k] == MPP_PSRC_CALIBRATED)
            json_object_set_new(p, "measured_at",
                                json_string(s->at[k] == MPP_AT_FINALIZE ? "MPI_Finalize" : "MPI_Init"));
        json_object_set_new(params, mpp_model_param_names[k], p);
    }
    json_t *o = json_pack("{s:s, s:o, s:{s:f, s:i, s:f, s:i, s:f}, s:i, s:f, s:o}", "summary", lines[0], "parameters",
                          params, "core_speed", "min", s->speed_min, "min_rank", s->speed_min_rank, "max",
                          s->speed_max, "max_rank", s->speed_max_rank, "loop_seconds", s->speed_loop, "nodes",
                          s->nodes, "calibration_seconds", s->seconds, "text", text_lines);
    json_object_set_new(o, "finalize_calibration_seconds",
                        s->seconds_finalize > 0 ? json_real(s->seconds_finalize) : json_null());
    json_object_set_new(o, "plausible", json_boolean(mpp_model_usable(s)));
    return o;
}

static json_t *parameters(const mpp_report_t *r)
{
    const mpp_run_info_t *run = r->run;
    json_t *p = json_object();
    json_object_set_new(p, "program", text(run->program));
    json_object_set_new(p, "working_directory", text(run->cwd));
    json_object_set_new(p, "started", text(run->started));
    json_object_set_new(p, "finished", text(run->finished));
    json_object_set_new(p, "protocol_written", text(run->written));
    json_object_set_new(p, "processes", json_integer(r->reduced->nprocs));
    json_object_set_new(p, "nodes", json_integer(r->reduced->nnodes));
    json_object_set_new(p, "threads_level", text(run->threads_level));
    json_object_set_new(p, "threads", mpp_threads_json(r));
    json_object_set_new(p, "mpi_library", text(run->mpi_library));
    json_object_set_new(p, "mpi_standard", text(run->mpi_standard));
    json_object_set_new(p, "profiler", json_string("mpiprof " PACKAGE_VERSION));
    json_object_set_new(p, "collection_mode", json_string(strncmp(run->mode, "trace", 5) ? "dynamic" : "trace"));
    json_object_set_new(p, "partial", mpp_partial_json(r));
    json_t *cfg = json_object();
    for (int i = 0; i < MPP_NVARS; i++) {
        char name[64];
        snprintf(name, sizeof name, "MPIPROF_%s", mpp_vars[i].name);
        json_object_set_new(
            cfg, name,
            json_pack("{s:o, s:b}", "value", text(r->config->text[i]), "default", r->config->is_default[i]));
    }
    json_object_set_new(p, "configuration", cfg);
    json_object_set_new(p, "machine", machine(r));
    json_object_set_new(p, "placement", placement(r));
    json_object_set_new(p, "hardware_counters", counters_parameter(r));
    json_object_set_new(p, "clock", text(run->clock));
    json_object_set_new(p, "wait_states", text(run->waitstates));
    json_object_set_new(p, "trace",
                        run->trace_path[0] ? json_pack("{s:o, s:I, s:b, s:o}", "path", text(run->trace_path), "bytes",
                                                       (json_int_t)run->trace_bytes, "complete", run->trace_complete,
                                                       "text", text(run->trace))
                                           : json_pack("{s:n, s:n, s:b, s:o}", "path", "bytes", "complete", 0, "text",
                                                       text(run->trace[0] ? run->trace : "off")));
    json_object_set_new(p, "prediction_model", prediction_model(r));
    json_t *w = json_array();
    for (int i = 0; i < r->nwarnings; i++)
        json_array_append_new(w, text(r->warnings[i]));
    json_object_set_new(p, "warnings", w);
    return p;
}

static json_t *stat_object(const mpp_stat_t *s)
{
    return json_pack("{s:f, s:f, s:i, s:f, s:i, s:f}", "sum", s->sum, "min", s->min, "min_rank", s->min_rank, "max",
                     s->max, "max_rank", s->max_rank, "mean", s->count ? s->sum / s->count : 0.0);
}

/* A wait state of an SRC point: null when not analysed or not applicable. */
static json_t *wait_stat(const mpp_reduced_t *rd, const mpp_reduced_src_t *s, const mpp_reduced_cell_t *c, int w)
{
    int bit = w ? MPP_SRC_COLLECTIVE_WAITS : MPP_SRC_REALSYNC;
    return rd->waitstates && (s->waits & bit) ? stat_object(&c->wait[w]) : json_null();
}

static json_t *real_section(const mpp_report_t *r, const mpp_reduced_interval_t *in, const mpp_interval_result_t *res)
{
    const mpp_reduced_t *rd = r->reduced;
    json_t *main = json_object();
    for (int k = 0; k < MPP_NMAIN; k++) {
        if (k == MPP_M_PROCESSORS)
            json_object_set_new(main, mpp_main_names[k].json_key, json_integer((json_int_t)res->main[k]));
        else
            json_object_set_new(main, mpp_main_names[k].json_key, number(res->main[k]));
    }
    json_t *cmp = json_object();
    for (int k = 0; k < MPP_NPP; k++) {
        const mpp_comparison_t *c = &res->cmp[k];
        json_object_set_new(cmp, mpp_per_process_names[k].json_key,
                            isnan(c->mean)
                                ? json_null()
                                : json_pack("{s:f, s:i, s:f, s:i, s:f}", "min", c->min, "min_rank", c->min_rank,
                                            "max", c->max, "max_rank", c->max_rank, "mean", c->mean));
    }
    json_t *by = json_object();
    json_t *ranks = json_array();
    for (int s = 0; s < rd->nselected; s++)
        json_array_append_new(ranks, json_integer(rd->selected[s]));
    json_object_set_new(by, "ranks", ranks);
    for (int k = 0; k < MPP_NPP; k++) {
        json_t *col = json_array();
        for (int s = 0; s < rd->nselected; s++)
            json_array_append_new(col, number(res->by_process[(size_t)s * MPP_NPP + k]));
        json_object_set_new(by, mpp_per_process_names[k].json_key, col);
    }
    json_t *entered = json_array();
    for (int s = 0; s < rd->nselected; s++)
        json_array_append_new(entered, json_boolean(!isnan(in->by_process[(size_t)s * MPP_NQ + MPP_Q_EXEC])));
    json_object_set_new(by, "entered", entered);
    return json_pack("{s:o, s:o, s:o}", "main", main, "comparative", cmp, "by_process", by);
}

static json_t *src_points(const mpp_report_t *r, int interval)
{
    const mpp_reduced_t *rd = r->reduced;
    json_t *list = json_array();
    int n;
    int *ids = mpp_interval_cells_by_time(r, interval, &n);
    for (int i = 0; i < n; i++) {
        const mpp_reduced_cell_t *c = &rd->cells[ids[i]];
        const mpp_reduced_src_t *s = &rd->srcs[c->src];
        json_t *stack = json_array();
        for (int f = 0; f < s->nframes; f++) {
            const mpp_frame_t *fr = &s->frames[f];
            json_array_append_new(stack,
                                  json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "file", text(fr->file), "path",
                                            text(fr->path), "line", fr->line ? json_integer(fr->line) : json_null(),
                                            "function", *fr->function ? text(fr->function) : json_null(), "text",
                                            text(fr->text), "source", *fr->origin ? text(fr->origin) : json_null()));
        }
        json_t *by = json_object(), *ranks = json_array();
        static const char *keys[MPP_NCELLV] = {"time",      "calls",          "bytes_sent",    "bytes_recv",
                                               "real_sync", "potential_sync", "time_variation"};
        json_t *cols[MPP_NCELLV];
        for (int k = 0; k < MPP_NCELLV; k++)
            cols[k] = json_array();
        for (int sel = 0; sel < rd->nselected; sel++) {
            json_array_append_new(ranks, json_integer(rd->selected[sel]));
            for (int k = 0; k < MPP_NCELLV; k++) {
                double v = c->by_process[(size_t)sel * MPP_NCELLV + k];
                int applies = s->waits & (k == MPP_CELL_REALSYNC ? MPP_SRC_REALSYNC : MPP_SRC_COLLECTIVE_WAITS);
                if (k >= MPP_CELL_REALSYNC && (!rd->waitstates || !applies))
                    json_array_append_new(cols[k], json_null());
                else if (k == MPP_CELL_TIME || k >= MPP_CELL_REALSYNC)
                    json_array_append_new(cols[k], isnan(v) ? json_null() : json_real(v));
                else
                    json_array_append_new(cols[k], isnan(v) ? json_null() : json_integer((json_int_t)v));
            }
        }
        json_object_set_new(by, "ranks", ranks);
        for (int k = 0; k < MPP_NCELLV; k++)
            json_object_set_new(by, keys[k], cols[k]);
        mpp_io_split_by_process(by, s->io);
        static const char *model_keys[MPP_NCELLP] = {"predicted_time", "overlap"};
        for (int k = 0; c->model_by_process && k < MPP_NCELLP; k++) {
            json_t *col = json_array();
            for (int sel = 0; sel < rd->nselected; sel++)
                json_array_append_new(col, number(c->model_by_process[(size_t)sel * MPP_NCELLP + k]));
            json_object_set_new(by, model_keys[k], col);
        }
        json_t *item =
            json_pack("{s:i, s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id", s->id, "function",
                      s->function, "calls", (json_int_t)c->calls, "bytes_sent", (json_int_t)c->bytes_sent,
                      "bytes_recv", (json_int_t)c->bytes_recv, "time", stat_object(&c->time), "predicted_time",
                      rd->predicted ? stat_object(&c->predicted) : json_null(), "overlap",
                      rd->predicted ? json_real(c->overlap) : json_null(), "real_sync", wait_stat(rd, s, c, 0),
                      "potential_sync", wait_stat(rd, s, c, 1), "time_variation", wait_stat(rd, s, c, 2),
                      "by_process", by, "stack", stack);
        mpp_io_split_cell(item, s->io, c);
        json_object_set_new(item, "threads", mpp_threads_src_json(rd, c));
        json_array_append_new(list, item);
    }
    free(ids);
    return list;
}

/* The SRC points of interval i and of every interval below it, summed. */
static json_t *inclusive_src_points(const mpp_report_t *r, int i)
{
    mpp_src_table_t t;
    if (mpp_src_table(r->reduced, i, &t) != 0)
        return json_null();
    json_t *list = mpp_src_totals_json(r, &t, r->results[i].main[MPP_M_LOST]);
    mpp_src_table_free(&t);
    return list;
}

/* The digest, and the whole run's SRC table it takes its top from. */
static void digest_members(json_t *doc, const mpp_report_t *r)
{
    mpp_digest_t *made;
    const mpp_digest_t *d = mpp_report_digest(r, &made);
    json_object_set_new(doc, "digest", mpp_digest_json(r));
    json_object_set_new(doc, "whole_run",
                        d ? json_pack("{s:o}", "src", mpp_src_totals_json(r, &d->whole, d->lost)) : json_null());
    if (made)
        mpp_digest_free(made);
    free(made);
}

json_t *mpp_protocol_json(const mpp_report_t *r)
{
    const mpp_reduced_t *rd = r->reduced;
    json_t *doc = json_object();
    json_object_set_new(doc, "format", json_string("mpiprof-protocol"));
    json_object_set_new(doc, "version", json_integer(1));
    digest_members(doc, r);
    json_object_set_new(doc, "correctness", mpp_correctness_json(r));
    json_object_set_new(doc, "parameters", parameters(r));
    json_t *intervals = json_array();
    for (int i = 0; i < rd->nintervals; i++) {
        const mpp_reduced_interval_t *in = &rd->intervals[i];
        const char *file = in->file;
        int line = in->line;
        json_t *o = json_object();
        json_object_set_new(o, "id", json_integer(in->id));
        json_object_set_new(o, "name", text(in->name));
        json_object_set_new(o, "file", text(file ? file : ""));
        json_object_set_new(o, "line", json_integer(line));
        json_object_set_new(o, "level", json_integer(in->level));
        json_object_set_new(o, "parent", in->parent < 0 ? json_null() : json_integer(in->parent));
        json_object_set_new(o, "executions", json_integer((json_int_t)in->executions));
        json_object_set_new(o, "real", real_section(r, in, &r->results[i]));
        json_object_set_new(o, "predicted",
                            r->predicted && rd->predicted ? real_section(r, in, &r->predicted[i]) : json_null());
        json_object_set_new(o, "hardware_counters", interval_counters(r, in));
        json_object_set_new(o, "io", mpp_interval_io_json(r, i));
        json_object_set_new(o, "src", src_points(r, i));
        json_object_set_new(o, "src_inclusive", inclusive_src_points(r, i));
        json_array_append_new(intervals, o);
    }
    json_object_set_new(doc, "intervals", intervals);
    json_object_set_new(doc, "matrix", mpp_matrix_json(r));
    if (r->partial && r->partial->process)
        json_object_set_new(doc, "process", mpp_process_data_json(r->partial->process, r->model));
    return doc;
}

int mpp_dump_json(FILE *out, json_t *doc)
{
    int rc = json_dumpf(doc, out, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
    fputc('\n', out);
    return rc;
}

int mpp_write_json(FILE *out, const mpp_report_t *r)
{
    json_t *doc = mpp_protocol_json(r);
    int rc = doc ? mpp_dump_json(out, doc) : -1;
    json_decref(doc);
    return rc;
}
