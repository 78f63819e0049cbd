/* The scaling study of N protocols (scaling.h): the whole program's
 * characteristics per process count, against the smallest one; Lost time
 * by part; a model fitted to each; the SRC points' times per process
 * count. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/fit.h"
#include "compare/scaling.h"

typedef struct {
    const char *name, *label;
    int level, leaf; /* leaf: a part of Lost time that is the sum of none (the candidates of "fastest") */
} part_t;

static const part_t parts[] = {
    {"productive_time", "Productive time", 0, 0},
    {"lost_time", "Lost time", 0, 0},
    {"insufficient_parallelism", "Insufficient parallelism", 1, 1},
    {"communication", "Communication", 1, 0},
    {"sendrecv", "SendRecv", 2, 1},
    {"real_sync", "Real sync", 3, 0},
    {"collective", "Collective", 2, 1},
    {"system", "System", 2, 1},
    {"idle_time", "Idle time", 1, 1},
};
#define NPARTS (sizeof parts / sizeof *parts)

typedef struct {
    json_t *const *docs;
    const char *const *labels;
    size_t n, *order; /* runs by P, ties in the order given */
    double *p;        /* P of order[r] */
} runs_t;

static json_t *main_of(json_t *doc)
{
    return json_object_get(json_object_get(json_array_get(json_object_get(doc, "intervals"), 0), "real"), "main");
}

static double number(json_t *v) { return json_is_number(v) ? json_number_value(v) : NAN; }

static json_t *num_json(double x) { return isfinite(x) ? json_real(x) : json_null(); }

static json_t *run_row(const runs_t *r, size_t k, double t0, double p0)
{
    json_t *doc = r->docs[r->order[k]], *m = main_of(doc);
    double t = number(json_object_get(m, "execution_time")), p = r->p[k];
    double speedup = t > 0 ? t0 / t : NAN;
    json_t *by = json_object();
    for (size_t i = 0; by && i < NPARTS; i++) {
        double x = number(json_object_get(m, parts[i].name));
        json_object_set_new(by, parts[i].name,
                            json_pack("{s:o, s:o}", "sum", num_json(x), "per_process", num_json(x / p)));
    }
    return json_pack("{s:f, s:s, s:o, s:o, s:o, s:o, s:o}", "processes", p, "label", r->labels[r->order[k]],
                     "execution_time", num_json(t), "speedup", num_json(speedup), "scaling_efficiency",
                     num_json(speedup * p0 / p), "parallelization_efficiency",
                     num_json(number(json_object_get(m, "parallelization_efficiency"))), "parts",
                     by ? by : json_null());
}

/* A fitted model of y at the runs' P, or its reason. */
static json_t *fit_json(const runs_t *r, const double *y, json_t *into)
{
    mpp_fit_t f;
    char why[160];
    json_t *fit = NULL;
    if (mpp_fit(r->p, y, r->n, &f, why, sizeof why) == 0 && !(fit = mpp_fit_json(&f, r->p[r->n - 1])))
        snprintf(why, sizeof why, "the fit is not a number");
    json_object_set_new(into, fit ? "fit" : "na_reason", fit ? fit : json_string(why));
    return into;
}

static json_t *fits_json(const runs_t *r)
{
    json_t *list = json_array();
    double *y = calloc(r->n, sizeof *y);
    for (size_t i = 0; list && y && i <= NPARTS; i++) {
        const char *name = i ? parts[i - 1].name : "execution_time";
        for (size_t k = 0; k < r->n; k++)
            y[k] = number(json_object_get(main_of(r->docs[r->order[k]]), name));
        json_array_append_new(list, fit_json(r, y,
                                             json_pack("{s:s, s:s}", "name", name, "label",
                                                       i ? parts[i - 1].label : "Execution time")));
    }
    free(y);
    return list;
}

/* The leaf part of Lost time whose time per process grew most from the
 * smallest to the largest P. */
static void fastest(const runs_t *r, json_t *out)
{
    json_t *first = main_of(r->docs[r->order[0]]), *last = main_of(r->docs[r->order[r->n - 1]]);
    const part_t *best = NULL;
    double growth = 0;
    for (size_t i = 0; i < NPARTS; i++) {
        double g = number(json_object_get(last, parts[i].name)) / r->p[r->n - 1] -
                   number(json_object_get(first, parts[i].name)) / r->p[0];
        if (parts[i].leaf && isfinite(g) && g > growth)
            best = &parts[i], growth = g;
    }
    if (best)
        json_object_set_new(out, "fastest",
                            json_pack("{s:s, s:s, s:f}", "name", best->name, "label", best->label, "growth", growth));
    else
        json_object_set_new(out, "fastest", json_null()),
            json_object_set_new(out, "fastest_na_reason",
                                json_string("no part of Lost time per process grew (or a part is n/a)"));
}

static char *src_text(json_t *s)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return NULL;
    const char *fn = json_string_value(json_object_get(s, "function"));
    fprintf(f, "%s at ", fn ? fn : "?");
    json_t *frame;
    size_t i;
    json_array_foreach(json_object_get(s, "stack"), i, frame)
    {
        const char *t = json_string_value(json_object_get(frame, "text"));
        fprintf(f, "%s%s", i ? " <- " : "", t ? t : "?");
    }
    fclose(f);
    return out;
}

/* SRC point k of run 0's interval i at each P (NAN where not matched). */
static void src_times(const runs_t *r, const mpp_match_t *matches, size_t i, size_t k, double *t)
{
    for (size_t q = 0; q < r->n; q++) {
        size_t d = r->order[q];
        json_t *iv = json_array_get(json_object_get(r->docs[d], "intervals"), i), *s = NULL;
        if (d == 0) {
            s = json_array_get(json_object_get(iv, "src"), k);
        } else if (matches[d].interval[i] != SIZE_MAX && matches[d].src[i][k] != SIZE_MAX) {
            iv = json_array_get(json_object_get(r->docs[d], "intervals"), matches[d].interval[i]);
            s = json_array_get(json_object_get(iv, "src"), matches[d].src[i][k]);
        }
        t[q] = s ? number(json_object_get(json_object_get(s, "time"), "sum")) : NAN;
    }
}

static int slower_last(const void *x, const void *y)
{
    json_t *a = *(json_t *const *)x, *b = *(json_t *const *)y;
    json_t *ta = json_object_get(a, "times"), *tb = json_object_get(b, "times");
    double u = number(json_array_get(ta, json_array_size(ta) - 1)),
           v = number(json_array_get(tb, json_array_size(tb) - 1));
    u = isfinite(u) ? u : -1, v = isfinite(v) ? v : -1;
    return (u < v) - (u > v);
}

static json_t *srcs_json(const runs_t *r, const mpp_match_t *matches)
{
    json_t *intervals = json_object_get(r->docs[0], "intervals"), *list = json_array(), *iv, *s;
    double *t = calloc(r->n, sizeof *t);
    size_t i, k;
    json_array_foreach(intervals, i, iv) json_array_foreach(json_object_get(iv, "src"), k, s)
    {
        if (!list || !t)
            break;
        src_times(r, matches, i, k, t);
        json_t *times = json_array();
        for (size_t q = 0; times && q < r->n; q++)
            json_array_append_new(times, num_json(t[q]));
        char *where = mpp_compare_interval_label(iv), *label = src_text(s);
        json_t *one = json_pack("{s:s?, s:s?, s:O, s:o}", "where", where, "src", label, "function",
                                json_object_get(s, "function"), "times", times ? times : json_array());
        free(where), free(label);
        if (one)
            json_array_append_new(list, fit_json(r, t, one));
    }
    free(t);
    /* the slowest at the largest P first */
    size_t n = json_array_size(list);
    json_t **items = calloc(n + 1, sizeof *items), *sorted = json_array();
    for (size_t q = 0; items && q < n; q++)
        items[q] = json_array_get(list, q);
    if (items)
        qsort(items, n, sizeof *items, slower_last);
    for (size_t q = 0; items && sorted && q < n; q++)
        json_array_append(sorted, items[q]);
    free(items);
    json_decref(list);
    return sorted;
}

typedef struct {
    double p;
    size_t index;
} keyed_run_t;

static int by_p(const void *x, const void *y)
{
    const keyed_run_t *a = x, *b = y;
    return a->p != b->p ? (a->p > b->p) - (a->p < b->p) : (a->index > b->index) - (a->index < b->index);
}

static json_t *study(runs_t *r, const mpp_match_t *matches)
{
    json_t *runs = json_array(), *rows = json_array(), *procs = json_array(), *plist = json_array();
    double t0 = number(json_object_get(main_of(r->docs[r->order[0]]), "execution_time"));
    for (size_t k = 0; runs && rows && procs && k < r->n; k++) {
        json_t *par = json_object_get(r->docs[r->order[k]], "parameters");
        json_array_append_new(runs, json_pack("{s:s, s:f, s:O?, s:O?}", "label", r->labels[r->order[k]], "processes",
                                              r->p[k], "program", json_object_get(par, "program"), "started",
                                              json_object_get(par, "started")));
        json_array_append_new(procs, json_real(r->p[k]));
        json_array_append_new(rows, run_row(r, k, t0, r->p[0]));
    }
    for (size_t i = 0; plist && i < NPARTS; i++)
        json_array_append_new(plist, json_pack("{s:s, s:s, s:i}", "name", parts[i].name, "label", parts[i].label,
                                               "level", parts[i].level));
    char *where = mpp_compare_interval_label(json_array_get(json_object_get(r->docs[0], "intervals"), 0));
    json_t *out = json_pack("{s:s?, s:o, s:o, s:o, s:o, s:o, s:o}", "where", where, "runs", runs, "processes", procs,
                            "rows", rows, "parts", plist, "fits", fits_json(r), "src", srcs_json(r, matches));
    free(where);
    if (out)
        fastest(r, out);
    return out;
}

json_t *mpp_scaling(json_t *const *docs, const char *const *labels, size_t n, const mpp_match_t *matches)
{
    runs_t r = {docs, labels, n, calloc(n + 1, sizeof(size_t)), calloc(n + 1, sizeof(double))};
    keyed_run_t *keyed = calloc(n + 1, sizeof *keyed);
    json_t *out = NULL;
    if (!r.order || !r.p || !keyed)
        goto done;
    for (size_t k = 0; k < n; k++)
        keyed[k] = (keyed_run_t){number(json_object_get(json_object_get(docs[k], "parameters"), "processes")), k};
    qsort(keyed, n, sizeof *keyed, by_p);
    for (size_t k = 0; k < n; k++)
        r.order[k] = keyed[k].index, r.p[k] = keyed[k].p;
    if (n < 2 || r.p[0] == r.p[n - 1])
        out = json_pack("{s:s}", "na_reason",
                        n < 2 ? "one protocol" : "the runs do not differ in their process counts: no scaling study");
    else
        out = study(&r, matches);
done:
    free(r.order), free(r.p), free(keyed);
    return out;
}
