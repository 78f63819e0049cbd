/* Comparing two protocols: the differences of structure and the numbers
 * beyond the tolerance (compare.h, mpiprof-compare(1)).  Intervals are
 * matched by name, file, line and level, SRC points by function and stack,
 * each the k-th of its key with the k-th (a sort and a merge: a protocol
 * may hold thousands of SRC points); per-process values by rank.  Counts
 * (processors, executions, calls, bytes) must be equal; seconds may differ
 * by the tolerance; the rank holding a minimum or maximum is not compared
 * (equal values tie, and a tie is broken by noise). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/match.h"

/* Members that are counts: equal or a difference of structure. */
static const char *const count_names[] = {"processors", "executions", "calls",         "bytes_sent",
                                          "bytes_recv", "bytes_read", "bytes_written", NULL};

typedef struct {
    const mpp_compare_options_t *o;
    mpp_compare_t *c;
    int ignore_line; /* --ignore line: what moved is not said */
    mpp_match_t match;
} walk_t;

static int listed(const char *const *list, int n, const char *name)
{
    for (int i = 0; n < 0 ? list[i] != NULL : i < n; i++)
        if (!strcmp(list[i], name))
            return 1;
    return 0;
}

static int ignored(const walk_t *w, const char *name) { return listed(w->o->ignore, w->o->nignore, name); }

static int is_count(const char *name) { return listed(count_names, -1, name); }

int mpp_compare_exceeds(double a, double b, double rtol, double atol)
{
    double scale = fmax(fabs(a), fabs(b));
    return fabs(a - b) > atol + rtol * scale;
}

double mpp_compare_efficiency_tolerance(double lost_a, double lost_b, double total_a, double total_b, double rtol,
                                        double atol)
{
    double total = fmin(total_a, total_b);
    double tol_lost = atol + rtol * fmax(fabs(lost_a), fabs(lost_b));
    double tol_total = atol + rtol * fmax(fabs(total_a), fabs(total_b));
    if (!(total > 0))
        return atol + rtol; /* no time: K_eff is 1 by definition on both sides */
    return (tol_lost + tol_total) / total;
}

const char *mpp_compare_kind_name(mpp_diff_kind_t kind)
{
    return kind == MPP_DIFF_PARAMETER   ? "parameter"
           : kind == MPP_DIFF_STRUCTURE ? "structure"
           : kind == MPP_DIFF_NUMBER    ? "number"
                                        : "moved";
}

/* Seconds as the protocol writes them, small ones with their digits. */
static void number_text(double x, char *out, size_t size)
{
    if (x == 0 || fabs(x) >= 1e-3)
        snprintf(out, size, "%.6f", x);
    else
        snprintf(out, size, "%.3g", x);
    if (x == floor(x) && fabs(x) < 1e15 && x != 0)
        snprintf(out, size, "%.0f", x);
}

static void value_text(const json_t *v, char *out, size_t size)
{
    if (!v)
        snprintf(out, size, "absent");
    else if (json_is_null(v))
        snprintf(out, size, "n/a");
    else if (json_is_integer(v))
        snprintf(out, size, "%lld", (long long)json_integer_value(v));
    else if (json_is_number(v))
        number_text(json_number_value(v), out, size);
    else if (json_is_string(v))
        snprintf(out, size, "\"%.200s%s\"", json_string_value(v), json_string_length(v) > 200 ? "..." : "");
    else if (json_is_boolean(v))
        snprintf(out, size, "%s", json_is_true(v) ? "true" : "false");
    else if (json_is_array(v))
        snprintf(out, size, "a list of %zu", json_array_size(v));
    else
        snprintf(out, size, "an object of %zu members", json_object_size(v));
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

void mpp_compare_add_diff(mpp_compare_t *c, mpp_diff_kind_t kind, const char *where, const char *src,
                          const char *name, json_t *a, json_t *b, const char *message)
{
    if (c->ndiffs == c->room) {
        size_t room = c->room ? 2 * c->room : 64;
        mpp_diff_t *grown = realloc(c->diffs, room * sizeof *grown);
        if (!grown) {
            c->out_of_memory = 1;
            return;
        }
        c->diffs = grown, c->room = room;
    }
    mpp_diff_t *d = &c->diffs[c->ndiffs];
    *d = (mpp_diff_t){kind,
                      dup_or_null(where),
                      dup_or_null(src),
                      dup_or_null(name),
                      strdup(message),
                      a ? json_incref(a) : NULL,
                      b ? json_incref(b) : NULL};
    if (!d->where || !d->message || (src && !d->src) || (name && !d->name)) {
        c->out_of_memory = 1;
        free(d->where), free(d->src), free(d->name), free(d->message);
        json_decref(d->a), json_decref(d->b);
        return;
    }
    c->ndiffs++;
    c->counts[kind]++;
}

static void add_diff(walk_t *w, mpp_diff_kind_t kind, const char *where, const char *src, const char *name, json_t *a,
                     json_t *b, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    mpp_compare_add_diff(w->c, kind, where, src, name, a, b, message);
}

static void only_in(walk_t *w, mpp_diff_kind_t kind, const char *where, const char *src, const char *name, json_t *a,
                    json_t *b)
{
    char text[256];
    value_text(a ? a : b, text, sizeof text);
    add_diff(w, kind, where, src, name, a, b, "only in %s (%s)", a ? "A" : "B", text);
}

/* Seconds (or another measured number): n/a on one side only is a
 * difference of structure, a number beyond the tolerance one of number. */
static void compare_seconds(walk_t *w, const char *where, const char *src, const char *name, json_t *a, json_t *b)
{
    if (json_is_null(a) && json_is_null(b))
        return;
    char ta[64], tb[64];
    value_text(a, ta, sizeof ta), value_text(b, tb, sizeof tb);
    if (!json_is_number(a) || !json_is_number(b)) {
        add_diff(w, MPP_DIFF_STRUCTURE, where, src, name, a, b, "%s in A, %s in B", ta, tb);
        return;
    }
    double x = json_number_value(a), y = json_number_value(b);
    if (!mpp_compare_exceeds(x, y, w->o->rtol, w->o->atol))
        return;
    char by[64], tol[64];
    number_text(fabs(x - y), by, sizeof by);
    number_text(w->o->atol + w->o->rtol * fmax(fabs(x), fabs(y)), tol, sizeof tol);
    double scale = fmax(fabs(x), fabs(y));
    add_diff(w, MPP_DIFF_NUMBER, where, src, name, a, b, "%s in A, %s in B (differs by %s, %.1f%%; tolerance %s)", ta,
             tb, by, 100.0 * fabs(x - y) / scale, tol);
}

static void compare_count(walk_t *w, const char *where, const char *src, const char *name, json_t *a, json_t *b)
{
    if (json_equal(a, b) || (json_is_number(a) && json_is_number(b) && json_number_value(a) == json_number_value(b)))
        return;
    char ta[64], tb[64];
    value_text(a, ta, sizeof ta), value_text(b, tb, sizeof tb);
    add_diff(w, MPP_DIFF_STRUCTURE, where, src, name, a, b, "%s in A, %s in B", ta, tb);
}

/* The members of a and b, a's first in its order, then b's own. */
typedef void (*member_fn)(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx);

static void each_member(walk_t *w, json_t *a, json_t *b, member_fn fn, void *ctx)
{
    const char *key;
    json_t *v;
    json_object_foreach(a, key, v) fn(w, key, v, json_object_get(b, key), ctx);
    json_object_foreach(b, key, v) if (!json_object_get(a, key)) fn(w, key, NULL, v, ctx);
}

/* Anything else (Parameters, hardware counters): objects member by member,
 * lists item by item; `relative` numbers within rtol (counter values vary
 * from run to run), else exactly. */
typedef struct {
    const char *where, *src, *path;
    mpp_diff_kind_t shape, value;
    int relative;
} generic_t;

static void compare_generic(walk_t *w, const generic_t *g, json_t *a, json_t *b);

static void generic_member(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx)
{
    const generic_t *g = ctx;
    if (ignored(w, key) || !strcmp(key, "min_rank") || !strcmp(key, "max_rank"))
        return;
    char path[512];
    snprintf(path, sizeof path, "%s.%s", g->path, key);
    if (!a || !b) {
        only_in(w, g->shape, g->where, g->src, path, a, b);
        return;
    }
    generic_t inner = *g;
    inner.path = path;
    compare_generic(w, &inner, a, b);
}

static void compare_generic(walk_t *w, const generic_t *g, json_t *a, json_t *b)
{
    char ta[256], tb[256];
    if (json_is_object(a) && json_is_object(b)) {
        each_member(w, a, b, generic_member, (void *)g);
        return;
    }
    if (json_is_array(a) && json_is_array(b)) {
        size_t na = json_array_size(a), nb = json_array_size(b);
        for (size_t i = 0; i < na && i < nb; i++) {
            char path[512];
            snprintf(path, sizeof path, "%s[%zu]", g->path, i);
            generic_t inner = *g;
            inner.path = path;
            compare_generic(w, &inner, json_array_get(a, i), json_array_get(b, i));
        }
        if (na != nb)
            add_diff(w, g->shape, g->where, g->src, g->path, a, b, "%zu items in A, %zu in B", na, nb);
        return;
    }
    if (json_is_number(a) && json_is_number(b)) {
        double x = json_number_value(a), y = json_number_value(b);
        if (g->relative ? !mpp_compare_exceeds(x, y, w->o->rtol, 0) : x == y)
            return;
        value_text(a, ta, sizeof ta), value_text(b, tb, sizeof tb);
        add_diff(w, g->value, g->where, g->src, g->path, a, b, "%s in A, %s in B", ta, tb);
        return;
    }
    if (json_equal(a, b))
        return;
    value_text(a, ta, sizeof ta), value_text(b, tb, sizeof tb);
    add_diff(w, json_typeof(a) == json_typeof(b) ? g->value : g->shape, g->where, g->src, g->path, a, b,
             "%s in A, %s in B", ta, tb);
}

/* ---- Parameters ---- */

static int included(const walk_t *w, const char *name) { return listed(w->o->include, w->o->ninclude, name); }

static void config_member(walk_t *w, const char *var, json_t *a, json_t *b, void *ctx)
{
    (void)ctx;
    if (ignored(w, var) || (listed(mpp_compare_run_specific_config, -1, var) && !included(w, var)))
        return;
    char path[256];
    snprintf(path, sizeof path, "parameters.configuration.%s", var);
    json_t *va = json_object_get(a, "value"), *vb = json_object_get(b, "value");
    if (!a || !b) {
        add_diff(w, MPP_DIFF_PARAMETER, "parameters", NULL, path, va, vb, "%s=%s only in %s", var,
                 json_string_value(va ? va : vb) ? json_string_value(va ? va : vb) : "?", a ? "A" : "B");
    } else if (!json_equal(va, vb)) {
        char ta[256], tb[256];
        value_text(va, ta, sizeof ta), value_text(vb, tb, sizeof tb);
        add_diff(w, MPP_DIFF_PARAMETER, "parameters", NULL, path, va, vb, "%s in A, %s in B", ta, tb);
    }
}

static void parameter_member(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx)
{
    (void)ctx;
    if (ignored(w, key) || (listed(mpp_compare_run_specific, -1, key) && !included(w, key)))
        return;
    char path[256];
    snprintf(path, sizeof path, "parameters.%s", key);
    if (!a || !b) {
        only_in(w, MPP_DIFF_PARAMETER, "parameters", NULL, path, a, b);
    } else if (!strcmp(key, "configuration") && json_is_object(a) && json_is_object(b)) {
        each_member(w, a, b, config_member, NULL);
    } else {
        generic_t g = {"parameters", NULL, path, MPP_DIFF_PARAMETER, MPP_DIFF_PARAMETER, 0};
        compare_generic(w, &g, a, b);
    }
}

/* ---- matching ---- */

typedef struct {
    char *key;
    size_t index;
} keyed_t;

static int by_key(const void *x, const void *y)
{
    const keyed_t *a = x, *b = y;
    int k = strcmp(a->key, b->key);
    return k ? k : (a->index > b->index) - (a->index < b->index);
}

int mpp_compare_match_lists(json_t *a, json_t *b, mpp_compare_key_fn key, const void *ctx, size_t *match)
{
    size_t na = json_array_size(a), nb = json_array_size(b);
    keyed_t *ka = calloc(na + 1, sizeof *ka), *kb = calloc(nb + 1, sizeof *kb);
    int rc = ka && kb ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < na; i++)
        rc = (ka[i] = (keyed_t){key(ctx, json_array_get(a, i)), i}).key ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nb; i++)
        rc = (kb[i] = (keyed_t){key(ctx, json_array_get(b, i)), i}).key ? 0 : -1;
    for (size_t i = 0; i < na; i++)
        match[i] = SIZE_MAX;
    if (rc == 0) {
        qsort(ka, na, sizeof *ka, by_key);
        qsort(kb, nb, sizeof *kb, by_key);
        for (size_t i = 0, j = 0; i < na && j < nb;) {
            int k = strcmp(ka[i].key, kb[j].key);
            if (k == 0)
                match[ka[i++].index] = kb[j++].index;
            else if (k < 0)
                i++;
            else
                j++;
        }
    }
    for (size_t i = 0; ka && i < na; i++)
        free(ka[i].key);
    for (size_t i = 0; kb && i < nb; i++)
        free(kb[i].key);
    free(ka), free(kb);
    return rc;
}

/* An SRC point's stack as the protocol writes it. */
static char *stack_text(json_t *src)
{
    json_t *stack = json_object_get(src, "stack"), *frame;
    size_t i, size = 1;
    json_array_foreach(stack, i, frame) size += 512;
    char *text = calloc(size, 1);
    if (!text)
        return NULL;
    size_t at = 0;
    json_array_foreach(stack, i, frame)
    {
        const char *t = json_string_value(json_object_get(frame, "text"));
        at += (size_t)snprintf(text + at, size - at, "%s%.490s", i ? " <- " : "", t ? t : "?");
    }
    return text;
}

static char *src_label(json_t *src)
{
    char *stack = stack_text(src), *label = NULL;
    const char *fn = json_string_value(json_object_get(src, "function"));
    if (stack && asprintf(&label, "%s at %s", fn ? fn : "?", *stack ? stack : "(no stack)") < 0)
        label = NULL;
    free(stack);
    return label;
}

char *mpp_compare_interval_label(json_t *in)
{
    char *label = NULL;
    const char *name = json_string_value(json_object_get(in, "name"));
    const char *file = json_string_value(json_object_get(in, "file"));
    if (asprintf(&label, "interval %lld \"%s\" (%s:%lld, level %lld)",
                 (long long)json_integer_value(json_object_get(in, "id")), name ? name : "?", file ? file : "?",
                 (long long)json_integer_value(json_object_get(in, "line")),
                 (long long)json_integer_value(json_object_get(in, "level"))) < 0)
        return NULL;
    return label;
}

/* ---- characteristics, SRC points ---- */

typedef struct {
    const char *where, *src, *prefix;
    json_t *main_a, *main_b; /* for the tolerance of the efficiency */
} section_t;

static void compare_stat(walk_t *w, const section_t *s, const char *key, json_t *a, json_t *b)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s%s", s->prefix, *s->prefix ? "." : "", key);
    if (json_is_null(a) && json_is_null(b))
        return;
    if (!json_is_object(a) || !json_is_object(b)) {
        char ta[64], tb[64];
        value_text(a, ta, sizeof ta), value_text(b, tb, sizeof tb);
        add_diff(w, MPP_DIFF_STRUCTURE, s->where, s->src, path, a, b, "%s in A, %s in B", ta, tb);
        return;
    }
    static const char *const parts[] = {"sum", "min", "max", "mean"};
    for (int i = 0; i < 4; i++) {
        json_t *x = json_object_get(a, parts[i]), *y = json_object_get(b, parts[i]);
        if ((!x && !y) || ignored(w, parts[i]))
            continue;
        char at[600];
        snprintf(at, sizeof at, "%s.%s", path, parts[i]);
        compare_seconds(w, s->where, s->src, at, x ? x : json_null(), y ? y : json_null());
    }
}

static long rank_index(json_t *ranks, json_int_t rank)
{
    size_t i;
    json_t *r;
    json_array_foreach(ranks, i, r) if (json_integer_value(r) == rank) return (long)i;
    return -1;
}

typedef struct {
    const section_t *s;
    json_t *ranks_a, *ranks_b;
} columns_t;

static void column_member(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx)
{
    const columns_t *cols = ctx;
    const section_t *s = cols->s;
    if (!strcmp(key, "ranks") || ignored(w, key))
        return;
    char path[512];
    snprintf(path, sizeof path, "%s%sby_process.%s", s->prefix, *s->prefix ? "." : "", key);
    if (!a || !b) {
        only_in(w, MPP_DIFF_STRUCTURE, s->where, s->src, path, a, b);
        return;
    }
    size_t i;
    json_t *r;
    json_array_foreach(cols->ranks_a, i, r)
    {
        long j = rank_index(cols->ranks_b, json_integer_value(r));
        if (j < 0)
            continue;
        char at[600];
        snprintf(at, sizeof at, "%s[rank %lld]", path, (long long)json_integer_value(r));
        json_t *x = json_array_get(a, i), *y = json_array_get(b, (size_t)j);
        if (is_count(key) || !(json_is_number(x) || json_is_null(x)) || !(json_is_number(y) || json_is_null(y)))
            compare_count(w, s->where, s->src, at, x, y); /* counts, and whether a rank entered */
        else
            compare_seconds(w, s->where, s->src, at, x ? x : json_null(), y ? y : json_null());
    }
}

static void compare_by_process(walk_t *w, const section_t *s, json_t *a, json_t *b)
{
    if (w->c->by_process_skipped || ignored(w, "by_process"))
        return;
    json_t *ra = json_object_get(a, "ranks"), *rb = json_object_get(b, "ranks");
    char path[512];
    snprintf(path, sizeof path, "%s%sby_process.ranks", s->prefix, *s->prefix ? "." : "");
    for (int side = 0; side < 2; side++) {
        json_t *mine = side ? rb : ra, *other = side ? ra : rb, *r;
        size_t i;
        json_array_foreach(mine, i, r) if (rank_index(other, json_integer_value(r)) < 0)
            add_diff(w, MPP_DIFF_STRUCTURE, s->where, s->src, path, side ? NULL : r, side ? r : NULL,
                     "rank %lld only in %s", (long long)json_integer_value(r), side ? "B" : "A");
    }
    columns_t cols = {s, ra, rb};
    each_member(w, a, b, column_member, &cols);
}

static void main_member(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx)
{
    const section_t *s = ctx;
    if (ignored(w, key))
        return;
    char path[512];
    snprintf(path, sizeof path, "%s.main.%s", s->prefix, key);
    if (!a || !b) {
        only_in(w, MPP_DIFF_STRUCTURE, s->where, s->src, path, a, b);
    } else if (is_count(key)) {
        compare_count(w, s->where, s->src, path, a, b);
    } else if (!strcmp(key, "parallelization_efficiency") && json_is_number(a) && json_is_number(b)) {
        /* a ratio: its tolerance is what the times' tolerances allow */
        double tol = mpp_compare_efficiency_tolerance(json_number_value(json_object_get(s->main_a, "lost_time")),
                                                      json_number_value(json_object_get(s->main_b, "lost_time")),
                                                      json_number_value(json_object_get(s->main_a, "total_time")),
                                                      json_number_value(json_object_get(s->main_b, "total_time")),
                                                      w->o->rtol, w->o->atol);
        double x = json_number_value(a), y = json_number_value(b);
        if (fabs(x - y) > tol)
            add_diff(w, MPP_DIFF_NUMBER, s->where, s->src, path, a, b,
                     "%.4f in A, %.4f in B (differs by %.4f; tolerance %.4f from those of lost and total time)", x, y,
                     fabs(x - y), tol);
    } else {
        compare_seconds(w, s->where, s->src, path, a, b);
    }
}

static void comparative_member(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx)
{
    const section_t *s = ctx;
    if (ignored(w, key))
        return;
    section_t inner = *s;
    char prefix[512];
    snprintf(prefix, sizeof prefix, "%s.comparative", s->prefix);
    inner.prefix = prefix;
    if (!a || !b) {
        char path[600];
        snprintf(path, sizeof path, "%s.%s", prefix, key);
        only_in(w, MPP_DIFF_STRUCTURE, s->where, s->src, path, a, b);
    } else {
        compare_stat(w, &inner, key, a, b);
    }
}

static void characteristics_member(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx)
{
    const section_t *s = ctx;
    if (ignored(w, key))
        return;
    char path[512];
    snprintf(path, sizeof path, "%s.%s", s->prefix, key);
    if (!a || !b)
        only_in(w, MPP_DIFF_STRUCTURE, s->where, s->src, path, a, b);
    else if (!strcmp(key, "main"))
        each_member(w, a, b, main_member, (void *)s);
    else if (!strcmp(key, "comparative"))
        each_member(w, a, b, comparative_member, (void *)s);
    else if (!strcmp(key, "by_process"))
        compare_by_process(w, s, a, b);
    else {
        generic_t g = {s->where, s->src, path, MPP_DIFF_STRUCTURE, MPP_DIFF_NUMBER, 1};
        compare_generic(w, &g, a, b);
    }
}

static void compare_characteristics(walk_t *w, const char *where, const char *prefix, json_t *a, json_t *b)
{
    if (json_is_null(a) || json_is_null(b)) {
        if (!json_is_null(a) || !json_is_null(b))
            add_diff(w, MPP_DIFF_STRUCTURE, where, NULL, prefix, a, b, "section n/a in %s only",
                     json_is_null(a) ? "A" : "B");
        return;
    }
    section_t s = {where, NULL, prefix, json_object_get(a, "main"), json_object_get(b, "main")};
    each_member(w, a, b, characteristics_member, &s);
}

static void src_member(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx)
{
    const section_t *s = ctx;
    if (ignored(w, key) || !strcmp(key, "id") || !strcmp(key, "function") || !strcmp(key, "stack"))
        return;
    char path[512];
    snprintf(path, sizeof path, "%s", key);
    if (!a || !b)
        only_in(w, MPP_DIFF_STRUCTURE, s->where, s->src, path, a, b);
    else if (is_count(key))
        compare_count(w, s->where, s->src, path, a, b);
    else if (!strcmp(key, "by_process"))
        compare_by_process(w, s, a, b);
    else if (json_is_object(a) || json_is_object(b))
        compare_stat(w, s, key, a, b);
    else if (json_is_number(a) || json_is_number(b) || json_is_null(a))
        compare_seconds(w, s->where, s->src, path, a, b);
    else {
        generic_t g = {s->where, s->src, path, MPP_DIFF_STRUCTURE, MPP_DIFF_NUMBER, 1};
        compare_generic(w, &g, a, b);
    }
}

/* A matched pair that moved in the source: said once, no difference. */
static void say_moved(walk_t *w, const char *where, const char *src, char *moved)
{
    if (!moved)
        w->c->out_of_memory = 1;
    else if (*moved && !w->ignore_line)
        add_diff(w, MPP_DIFF_MOVED, where, src, NULL, NULL, NULL, "moved: %s", moved);
    free(moved);
}

/* The SRC points of A's interval i and of its match, as paired by
 * mpp_match. */
static void compare_srcs(walk_t *w, const char *where, size_t i, json_t *a, json_t *b)
{
    size_t na = json_array_size(a), nb = json_array_size(b);
    const size_t *match = w->match.src[i];
    char *matched_b = calloc(nb + 1, 1);
    if (!matched_b) {
        w->c->out_of_memory = 1;
        return;
    }
    for (size_t k = 0; k < na; k++) {
        json_t *x = json_array_get(a, k);
        char *label = src_label(x);
        if (match[k] == SIZE_MAX) {
            add_diff(w, MPP_DIFF_STRUCTURE, where, label, NULL, x, NULL, "SRC point only in A");
        } else {
            json_t *y = json_array_get(b, match[k]);
            matched_b[match[k]] = 1;
            say_moved(w, where, label, mpp_match_src_moved(x, y));
            section_t s = {where, label, "", NULL, NULL};
            each_member(w, x, y, src_member, &s);
        }
        free(label);
    }
    for (size_t j = 0; j < nb; j++) {
        if (matched_b[j])
            continue;
        char *label = src_label(json_array_get(b, j));
        add_diff(w, MPP_DIFF_STRUCTURE, where, label, NULL, NULL, json_array_get(b, j), "SRC point only in B");
        free(label);
    }
    free(matched_b);
}

/* ---- intervals ---- */

typedef struct {
    const char *where;
    size_t index; /* A's interval */
} interval_ctx_t;

static void interval_member(walk_t *w, const char *key, json_t *a, json_t *b, void *ctx)
{
    const interval_ctx_t *ic = ctx;
    /* the place in the tree is how they matched; file and line, what moved */
    static const char *const matched_by[] = {"id", "name", "file", "line", "level", "parent", NULL};
    if (ignored(w, key) || listed(matched_by, -1, key))
        return;
    if (!a || !b) {
        add_diff(w, MPP_DIFF_STRUCTURE, ic->where, NULL, key, a, b, "section %s only in %s", key, a ? "A" : "B");
    } else if (is_count(key)) {
        compare_count(w, ic->where, NULL, key, a, b);
    } else if (!strcmp(key, "real") || !strcmp(key, "predicted")) {
        compare_characteristics(w, ic->where, key, a, b);
    } else if (!strcmp(key, "src")) {
        compare_srcs(w, ic->where, ic->index, a, b);
    } else if (!strcmp(key, "src_inclusive")) {
        return; /* sums of the intervals' src, compared there */
    } else {
        generic_t g = {ic->where, NULL, key, MPP_DIFF_STRUCTURE, MPP_DIFF_NUMBER, 1};
        compare_generic(w, &g, a, b);
    }
}

static int compare_intervals(walk_t *w, json_t *a, json_t *b)
{
    mpp_compare_t *c = w->c;
    size_t na = json_array_size(a), nb = json_array_size(b);
    const size_t *match = w->match.interval;
    char *matched_b = calloc(nb + 1, 1);
    c->pair_a = calloc(na + 1, sizeof *c->pair_a);
    c->pair_b = calloc(na + 1, sizeof *c->pair_b);
    if (!matched_b || !c->pair_a || !c->pair_b) {
        free(matched_b);
        return -1;
    }
    for (size_t i = 0; i < na; i++) {
        json_t *x = json_array_get(a, i);
        char *where = mpp_compare_interval_label(x);
        if (!where) {
            c->out_of_memory = 1;
            break;
        }
        if (match[i] == SIZE_MAX) {
            add_diff(w, MPP_DIFF_STRUCTURE, where, NULL, NULL, x, NULL, "interval only in A");
        } else {
            json_t *y = json_array_get(b, match[i]);
            matched_b[match[i]] = 1;
            c->pair_a[c->npairs] = i, c->pair_b[c->npairs++] = match[i];
            say_moved(w, where, NULL, mpp_match_interval_moved(x, y));
            interval_ctx_t ic = {where, i};
            each_member(w, x, y, interval_member, &ic);
        }
        free(where);
    }
    for (size_t j = 0; j < nb; j++) {
        if (matched_b[j])
            continue;
        char *where = mpp_compare_interval_label(json_array_get(b, j));
        if (where)
            add_diff(w, MPP_DIFF_STRUCTURE, where, NULL, NULL, NULL, json_array_get(b, j), "interval only in B");
        free(where);
    }
    free(matched_b);
    return 0;
}

int mpp_compare(json_t *a, json_t *b, const mpp_compare_options_t *options, mpp_compare_t *out)
{
    memset(out, 0, sizeof *out);
    walk_t w = {options, out, listed(options->ignore, options->nignore, "line"), {0}};
    json_t *pa = json_object_get(a, "parameters"), *pb = json_object_get(b, "parameters");
    /* different process counts: rank r is another process in each run */
    out->by_process_skipped = !json_equal(json_object_get(pa, "processes"), json_object_get(pb, "processes"));
    compare_count(&w, "protocol", NULL, "version", json_object_get(a, "version"), json_object_get(b, "version"));
    each_member(&w, pa, pb, parameter_member, NULL);
    if (mpp_compare_findings(a, b, options, out) != 0)
        out->out_of_memory = 1;
    if (mpp_match(a, b, &w.match) != 0 ||
        compare_intervals(&w, json_object_get(a, "intervals"), json_object_get(b, "intervals")) != 0)
        out->out_of_memory = 1;
    mpp_match_free(&w.match);
    mpp_compare_matrix(a, b, options, out);
    return out->out_of_memory ? -1 : 0;
}

void mpp_compare_free(mpp_compare_t *c)
{
    for (size_t i = 0; i < c->ndiffs; i++) {
        mpp_diff_t *d = &c->diffs[i];
        free(d->where), free(d->src), free(d->name), free(d->message);
        json_decref(d->a), json_decref(d->b);
    }
    free(c->diffs), free(c->pair_a), free(c->pair_b);
    memset(c, 0, sizeof *c);
}

json_t *mpp_compare_diff_json(const mpp_diff_t *d)
{
    /* a whole interval or SRC point in one side only is named, not copied */
    int whole = !d->name;
    return json_pack("{s:s, s:s, s:s?, s:s?, s:s, s:O?, s:O?}", "kind", mpp_compare_kind_name(d->kind), "where",
                     d->where, "src", d->src, "name", d->name, "message", d->message, "a", whole ? NULL : d->a, "b",
                     whole ? NULL : d->b);
}
