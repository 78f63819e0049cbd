/* The JSON protocol (jansson): the same content as the text protocol, with
 * null wherever the text says n/a. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "autoconf.h"
#include "writer.h"

/* A JSON string from text that may not be UTF-8 (paths, command lines,
 * interval names): invalid bytes become '?' instead of losing the value. */
static json_t *text(const char *s)
{
    json_t *j = json_string(s ? s : "");
    if (j)
        return j;
    size_t n = strlen(s);
    char *copy = malloc(n + 1);
    if (!copy)
        return json_string("?");
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, o = 0;
    while (i < n) {
        int len = u[i] < 0x80 ? 1 : (u[i] >> 5) == 6 ? 2 : (u[i] >> 4) == 14 ? 3 : (u[i] >> 3) == 30 ? 4 : 0;
        int ok = len > 0 && i + (size_t)len <= n;
        for (int k = 1; ok && k < len; k++)
            ok = (u[i + k] & 0xC0) == 0x80;
        if (ok) {
            memcpy(copy + o, s + i, (size_t)len);
            o += (size_t)len, i += (size_t)len;
        } else {
            copy[o++] = '?', i++;
        }
    }
    copy[o] = '\0';
    j = json_string(copy);
    free(copy);
    return j ? j : json_string("?");
}

static json_t *number(double v)
{
    return isnan(v) ? json_null() : json_real(v);
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
    json_object_set_new(p, "mpi_library", text(run->mpi_library));
    json_object_set_new(p, "mpi_standard", text(run->mpi_standard));
    json_object_set_new(p, "profiler", json_string("mpiprof " PACKAGE_VERSION));
    json_object_set_new(p, "collection_mode", json_string("dynamic"));
    json_object_set_new(p, "partial", json_boolean(run->partial));
    json_t *cfg = json_object();
    for (int i = 0; i < MPP_NVARS; i++) {
        char name[64];
        snprintf(name, sizeof name, "MPIPROF_%s", mpp_vars[i].name);
        json_object_set_new(cfg, name, json_pack("{s:o, s:b}", "value", text(r->config->text[i]), "default",
                                                 r->config->is_default[i]));
    }
    json_object_set_new(p, "configuration", cfg);
    json_object_set_new(p, "machine", json_null());
    json_object_set_new(p, "placement", json_null());
    json_object_set_new(p, "hardware_counters", json_null());
    json_object_set_new(p, "clock", text(run->clock));
    json_object_set_new(p, "prediction_model", json_null());
    json_t *w = json_array();
    for (int i = 0; i < r->nwarnings; i++)
        json_array_append_new(w, text(r->warnings[i]));
    json_object_set_new(p, "warnings", w);
    return p;
}

static json_t *stat_object(const mpp_stat_t *s)
{
    return json_pack("{s:f, s:f, s:i, s:f, s:i, s:f}", "sum", s->sum, "min", s->min, "min_rank", s->min_rank,
                     "max", s->max, "max_rank", s->max_rank, "mean", s->count ? s->sum / s->count : 0.0);
}

static json_t *real_section(const mpp_report_t *r, const mpp_reduced_interval_t *in,
                            const mpp_interval_result_t *res)
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
                            isnan(c->mean) ? json_null()
                                           : json_pack("{s:f, s:i, s:f, s:i, s:f}", "min", c->min, "min_rank",
                                                       c->min_rank, "max", c->max, "max_rank", c->max_rank,
                                                       "mean", c->mean));
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
            json_array_append_new(stack, json_pack("{s:o, s:o, s:o, s:o, s:o}", "file", text(fr->file), "path",
                                                   text(fr->path), "line",
                                                   fr->line ? json_integer(fr->line) : json_null(), "function",
                                                   *fr->function ? text(fr->function) : json_null(), "text",
                                                   text(fr->text)));
        }
        json_t *by = json_object(), *ranks = json_array();
        static const char *keys[MPP_NCELLV] = {"time", "calls", "bytes_sent", "bytes_recv"};
        json_t *cols[MPP_NCELLV];
        for (int k = 0; k < MPP_NCELLV; k++)
            cols[k] = json_array();
        for (int sel = 0; sel < rd->nselected; sel++) {
            json_array_append_new(ranks, json_integer(rd->selected[sel]));
            for (int k = 0; k < MPP_NCELLV; k++) {
                double v = c->by_process[(size_t)sel * MPP_NCELLV + k];
                if (k == MPP_CELL_TIME)
                    json_array_append_new(cols[k], isnan(v) ? json_null() : json_real(v));
                else
                    json_array_append_new(cols[k], isnan(v) ? json_null() : json_integer((json_int_t)v));
            }
        }
        json_object_set_new(by, "ranks", ranks);
        for (int k = 0; k < MPP_NCELLV; k++)
            json_object_set_new(by, keys[k], cols[k]);
        json_array_append_new(
            list, json_pack("{s:i, s:s, s:I, s:I, s:I, s:o, s:n, s:n, s:n, s:o, s:o}", "id", s->id, "function",
                            s->function, "calls", (json_int_t)c->calls, "bytes_sent", (json_int_t)c->bytes_sent,
                            "bytes_recv", (json_int_t)c->bytes_recv, "time", stat_object(&c->time), "real_sync",
                            "potential_sync", "time_variation", "by_process", by, "stack", stack));
    }
    free(ids);
    return list;
}

int mpp_write_json(FILE *out, const mpp_report_t *r)
{
    const mpp_reduced_t *rd = r->reduced;
    json_t *doc = json_object();
    json_object_set_new(doc, "format", json_string("mpiprof-protocol"));
    json_object_set_new(doc, "version", json_integer(1));
    json_object_set_new(doc, "parameters", parameters(r));
    json_t *intervals = json_array();
    for (int i = 0; i < rd->nintervals; i++) {
        const mpp_reduced_interval_t *in = &rd->intervals[i];
        const char *file = in->parent < 0 ? r->run->init_file : in->file;
        int line = in->parent < 0 ? r->run->init_line : in->line;
        json_t *o = json_object();
        json_object_set_new(o, "id", json_integer(in->id));
        json_object_set_new(o, "name", text(in->name));
        json_object_set_new(o, "file", text(file ? file : ""));
        json_object_set_new(o, "line", json_integer(line));
        json_object_set_new(o, "level", json_integer(in->level));
        json_object_set_new(o, "parent", in->parent < 0 ? json_null() : json_integer(in->parent));
        json_object_set_new(o, "executions", json_integer((json_int_t)in->executions));
        json_object_set_new(o, "real", real_section(r, in, &r->results[i]));
        json_object_set_new(o, "predicted", json_null());
        json_object_set_new(o, "src", src_points(r, i));
        json_array_append_new(intervals, o);
    }
    json_object_set_new(doc, "intervals", intervals);
    int rc = json_dumpf(doc, out, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
    fputc('\n', out);
    json_decref(doc);
    return rc;
}
