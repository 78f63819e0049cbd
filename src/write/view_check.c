/* What the page needs of a protocol, checked before a page is written:
 * a file that is not a protocol, or a protocol that lacks a member the page
 * reads or has it of the wrong type or range, is refused with where and
 * what, never drawn half.  This is the structure of the protocol's JSON
 * Schema (schema/mpiprof-protocol.schema.json) that the page reads: no C
 * validator of JSON Schema is packaged, so patterns, the members the page
 * does not read and the additionalProperties rules are not checked here
 * (mpiprof-view(1), INPUT). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "write/view.h"

typedef struct {
    char *why;
    size_t size;
    int failed;
} check_t;

/* The per-process characteristics (comparative and by_process rows). */
static const char *const per_process_keys[] = {
    "execution_time", "productive_time", "lost_time",      "insufficient_parallelism",
    "communication",  "sendrecv",        "real_sync",      "collective",
    "system",         "idle_time",       "load_imbalance", "potential_sync",
    "time_variation", "overlap"};
static const char *const main_keys[] = {"parallelization_efficiency",
                                        "execution_time",
                                        "processors",
                                        "total_time",
                                        "productive_time",
                                        "productive_cpu",
                                        "productive_sys",
                                        "productive_io",
                                        "lost_time",
                                        "insufficient_parallelism",
                                        "communication",
                                        "sendrecv",
                                        "real_sync",
                                        "collective",
                                        "system",
                                        "idle_time",
                                        "load_imbalance",
                                        "potential_sync",
                                        "time_variation",
                                        "overlap"};
static const char *const parameter_strings[] = {
    "program",          "working_directory", "started",     "finished",
    "protocol_written", "threads_level",     "mpi_library", "mpi_standard",
    "profiler",         "collection_mode",   "clock",       "wait_states"};
#define COUNT(a) (sizeof(a) / sizeof *(a))

static int fail(check_t *c, const char *where, const char *fmt, ...)
{
    if (c->failed++)
        return -1;
    int n = snprintf(c->why, c->size, "%s: ", where);
    if (n >= 0 && (size_t)n < c->size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->why + n, c->size - (size_t)n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number with a fraction";
    case JSON_TRUE:
        return "true";
    case JSON_FALSE:
        return "false";
    default:
        return "null";
    }
}

enum { T_OBJECT, T_ARRAY, T_STRING, T_COUNT, T_NUMBER, T_RATIO };
enum { NOT_NULL = 0, OR_NULL = 1 };

static const char *expected_name(int type)
{
    static const char *names[] = {"an object",       "an array",      "a string",
                                  "an integer >= 0", "a number >= 0", "a number from 0 to 1"};
    return names[type];
}

/* Whether `v` (at `at`) is of `type`, or null when `nullable`: v, NULL
 * when null or when it failed. */
static json_t *value(check_t *c, const char *at, json_t *v, int type, int nullable)
{
    if (json_is_null(v)) {
        if (!nullable)
            fail(c, at, "null, but %s is required", expected_name(type));
        return NULL;
    }
    int ok = 0;
    double x = json_is_number(v) ? json_number_value(v) : 0;
    switch (type) {
    case T_OBJECT:
        ok = json_is_object(v);
        break;
    case T_ARRAY:
        ok = json_is_array(v);
        break;
    case T_STRING:
        ok = json_is_string(v);
        break;
    case T_COUNT:
        ok = json_is_integer(v) && json_integer_value(v) >= 0;
        break;
    case T_NUMBER:
        ok = json_is_number(v) && isfinite(x) && x >= 0;
        break;
    case T_RATIO:
        ok = json_is_number(v) && x >= 0 && x <= 1;
        break;
    }
    if (ok)
        return v;
    if (json_is_number(v))
        fail(c, at, "%g, but %s%s is required", x, expected_name(type), nullable ? " or null" : "");
    else
        fail(c, at, "%s, but %s%s is required", type_name(v), expected_name(type), nullable ? " or null" : "");
    return NULL;
}

/* Member `key` of `obj` (at `where`), checked by value(). */
static json_t *need(check_t *c, const char *where, json_t *obj, const char *key, int type, int nullable)
{
    char at[512];
    snprintf(at, sizeof at, "%.400s%s%.64s", where, *where ? "." : "", key);
    json_t *v = json_object_get(obj, key);
    if (!v) {
        fail(c, at, "missing (%s%s is required)", expected_name(type), nullable ? " or null" : "");
        return NULL;
    }
    return value(c, at, v, type, nullable);
}

/* An array member whose entries are all of `type` (or null when
 * `nullable`), with `length` entries unless it is negative. */
static json_t *need_list(check_t *c, const char *where, json_t *obj, const char *key, int type, int nullable,
                         long length)
{
    char at[512];
    snprintf(at, sizeof at, "%.400s.%.64s", where, key);
    json_t *list = need(c, where, obj, key, T_ARRAY, NOT_NULL);
    if (!list)
        return NULL;
    if (length >= 0 && (long)json_array_size(list) != length) {
        fail(c, at, "%zu entries, but %ld are required (one per entry of ranks)", json_array_size(list), length);
        return NULL;
    }
    for (size_t i = 0; i < json_array_size(list) && !c->failed; i++) {
        char entry[540];
        snprintf(entry, sizeof entry, "%.400s[%zu]", at, i);
        json_t *v = json_array_get(list, i);
        if (!value(c, entry, v, type, nullable) && !json_is_null(v))
            return NULL;
    }
    return c->failed ? NULL : list;
}

static void check_stat(check_t *c, const char *where, json_t *obj, const char *key, int with_sum, int nullable)
{
    char at[512];
    snprintf(at, sizeof at, "%.400s.%.64s", where, key);
    json_t *s = need(c, where, obj, key, T_OBJECT, nullable);
    if (!s)
        return;
    if (with_sum)
        need(c, at, s, "sum", T_NUMBER, NOT_NULL);
    need(c, at, s, "min", T_NUMBER, NOT_NULL);
    need(c, at, s, "min_rank", T_COUNT, NOT_NULL);
    need(c, at, s, "max", T_NUMBER, NOT_NULL);
    need(c, at, s, "max_rank", T_COUNT, NOT_NULL);
    need(c, at, s, "mean", T_NUMBER, NOT_NULL);
}

static void check_characteristics(check_t *c, const char *where, json_t *part)
{
    char at[512];
    snprintf(at, sizeof at, "%.400s.main", where);
    json_t *m = need(c, where, part, "main", T_OBJECT, NOT_NULL);
    for (size_t k = 0; m && k < COUNT(main_keys); k++)
        need(c, at, m, main_keys[k], k == 0 ? T_RATIO : k == 2 ? T_COUNT : T_NUMBER, OR_NULL);
    snprintf(at, sizeof at, "%.400s.comparative", where);
    json_t *cmp = need(c, where, part, "comparative", T_OBJECT, NOT_NULL);
    for (size_t k = 0; cmp && k < COUNT(per_process_keys); k++)
        check_stat(c, at, cmp, per_process_keys[k], 0, OR_NULL);
    snprintf(at, sizeof at, "%.400s.by_process", where);
    json_t *by = need(c, where, part, "by_process", T_OBJECT, NOT_NULL);
    json_t *ranks = by ? need_list(c, at, by, "ranks", T_COUNT, NOT_NULL, -1) : NULL;
    for (size_t k = 0; ranks && k < COUNT(per_process_keys); k++)
        need_list(c, at, by, per_process_keys[k], T_NUMBER, OR_NULL, (long)json_array_size(ranks));
}

static void check_frame(check_t *c, const char *where, json_t *frame)
{
    if (!json_is_object(frame)) {
        fail(c, where, "%s, but an object (a frame) is required", type_name(frame));
        return;
    }
    need(c, where, frame, "file", T_STRING, NOT_NULL);
    need(c, where, frame, "path", T_STRING, NOT_NULL);
    need(c, where, frame, "text", T_STRING, NOT_NULL);
    need(c, where, frame, "function", T_STRING, OR_NULL);
    json_t *line = need(c, where, frame, "line", T_COUNT, OR_NULL);
    if (line && json_integer_value(line) < 1)
        fail(c, where, "line 0, but a line number from 1 or null is required");
}

static void check_stack(check_t *c, const char *where, json_t *obj)
{
    char at[512];
    json_t *stack = need(c, where, obj, "stack", T_ARRAY, NOT_NULL);
    for (size_t f = 0; stack && f < json_array_size(stack) && !c->failed; f++) {
        snprintf(at, sizeof at, "%.400s.stack[%zu]", where, f);
        check_frame(c, at, json_array_get(stack, f));
    }
}

static void check_src(check_t *c, const char *where, json_t *s)
{
    if (!json_is_object(s)) {
        fail(c, where, "%s, but an object (an SRC point) is required", type_name(s));
        return;
    }
    need(c, where, s, "id", T_COUNT, NOT_NULL);
    need(c, where, s, "function", T_STRING, NOT_NULL);
    need(c, where, s, "calls", T_COUNT, NOT_NULL);
    need(c, where, s, "bytes_sent", T_COUNT, NOT_NULL);
    need(c, where, s, "bytes_recv", T_COUNT, NOT_NULL);
    check_stat(c, where, s, "time", 1, NOT_NULL);
    check_stat(c, where, s, "predicted_time", 1, OR_NULL);
    check_stat(c, where, s, "real_sync", 1, OR_NULL);
    check_stat(c, where, s, "potential_sync", 1, OR_NULL);
    check_stat(c, where, s, "time_variation", 1, OR_NULL);
    need(c, where, s, "overlap", T_NUMBER, OR_NULL);
    char at[512];
    snprintf(at, sizeof at, "%.400s.by_process", where);
    json_t *by = need(c, where, s, "by_process", T_OBJECT, NOT_NULL);
    json_t *ranks = by ? need_list(c, at, by, "ranks", T_COUNT, NOT_NULL, -1) : NULL;
    if (ranks) {
        long n = (long)json_array_size(ranks);
        need_list(c, at, by, "time", T_NUMBER, OR_NULL, n);
        need_list(c, at, by, "calls", T_COUNT, OR_NULL, n);
        need_list(c, at, by, "bytes_sent", T_COUNT, OR_NULL, n);
        need_list(c, at, by, "bytes_recv", T_COUNT, OR_NULL, n);
        static const char *const optional[] = {"predicted_time", "overlap", "real_sync", "potential_sync",
                                               "time_variation"};
        for (size_t k = 0; k < COUNT(optional); k++)
            if (json_object_get(by, optional[k]))
                need_list(c, at, by, optional[k], T_NUMBER, OR_NULL, n);
    }
    check_stack(c, where, s);
}

/* A finding of the Correctness section: what the page's panel reads. */
static void check_finding(check_t *c, const char *where, json_t *f)
{
    if (!json_is_object(f)) {
        fail(c, where, "%s, but an object (a finding) is required", type_name(f));
        return;
    }
    static const char *const strings[] = {"kind", "severity", "function", "detail"};
    static const char *const counts[] = {"count", "processes", "first_rank", "last_rank"};
    for (size_t k = 0; k < COUNT(strings); k++)
        need(c, where, f, strings[k], T_STRING, NOT_NULL);
    for (size_t k = 0; k < COUNT(counts); k++)
        need(c, where, f, counts[k], T_COUNT, NOT_NULL);
    need(c, where, f, "src", T_COUNT, OR_NULL);
    need(c, where, f, "peer", T_COUNT, OR_NULL);
    check_stack(c, where, f);
    char at[512];
    snprintf(at, sizeof at, "%.400s.other", where);
    json_t *other = need(c, where, f, "other", T_OBJECT, OR_NULL);
    if (other) {
        need(c, at, other, "function", T_STRING, NOT_NULL);
        need(c, at, other, "src", T_COUNT, OR_NULL);
        check_stack(c, at, other);
    }
}

/* The Correctness section; a protocol of an mpiprof before it has none,
 * which the page says. */
static void check_correctness(check_t *c, json_t *doc)
{
    json_t *k = json_object_get(doc, "correctness");
    if (!k)
        return;
    if (!value(c, "correctness", k, T_OBJECT, NOT_NULL))
        return;
    need(c, "correctness", k, "level", T_STRING, NOT_NULL);
    need(c, "correctness", k, "checks", T_STRING, NOT_NULL);
    need(c, "correctness", k, "errors", T_COUNT, OR_NULL);
    need(c, "correctness", k, "warnings", T_COUNT, OR_NULL);
    need(c, "correctness", k, "dropped", T_COUNT, OR_NULL);
    json_t *findings = need(c, "correctness", k, "findings", T_ARRAY, NOT_NULL);
    for (size_t i = 0; findings && i < json_array_size(findings) && !c->failed; i++) {
        char at[64];
        snprintf(at, sizeof at, "correctness.findings[%zu]", i);
        check_finding(c, at, json_array_get(findings, i));
    }
}

static void check_parameters(check_t *c, json_t *p)
{
    for (size_t k = 0; k < COUNT(parameter_strings); k++)
        need(c, "parameters", p, parameter_strings[k], T_STRING, NOT_NULL);
    json_t *n = need(c, "parameters", p, "processes", T_COUNT, NOT_NULL);
    if (n && json_integer_value(n) < 1)
        fail(c, "parameters.processes", "0, but at least 1 is required");
    need(c, "parameters", p, "nodes", T_COUNT, NOT_NULL);
    need(c, "parameters", p, "configuration", T_OBJECT, NOT_NULL);
    need_list(c, "parameters", p, "warnings", T_STRING, NOT_NULL, -1);
    need(c, "parameters", p, "machine", T_ARRAY, OR_NULL);
    need(c, "parameters", p, "placement", T_OBJECT, OR_NULL);
    need(c, "parameters", p, "hardware_counters", T_OBJECT, OR_NULL);
    need(c, "parameters", p, "prediction_model", T_OBJECT, OR_NULL);
    /* the Threads row (optional: protocols before it have none) */
    json_t *threads = json_object_get(p, "threads") ? need(c, "parameters", p, "threads", T_OBJECT, NOT_NULL) : NULL;
    if (threads)
        need(c, "parameters.threads", threads, "text", T_STRING, NOT_NULL);
    json_t *partial = json_object_get(p, "partial");
    if (!partial)
        fail(c, "parameters.partial", "missing (false or an object is required)");
    else if (!json_is_false(partial) && !json_is_object(partial))
        fail(c, "parameters.partial", "%s, but false or an object is required", type_name(partial));
}

static void check_interval(check_t *c, const char *where, json_t *in, size_t index, json_t *intervals)
{
    if (!json_is_object(in)) {
        fail(c, where, "%s, but an object (an interval) is required", type_name(in));
        return;
    }
    json_t *id = need(c, where, in, "id", T_COUNT, NOT_NULL);
    if (index == 0 && id && json_integer_value(id) != 0)
        fail(c, where, "the first interval has id %lld, but interval 0 (the whole program) must come first",
             (long long)json_integer_value(id));
    need(c, where, in, "name", T_STRING, NOT_NULL);
    need(c, where, in, "file", T_STRING, NOT_NULL);
    need(c, where, in, "line", T_COUNT, NOT_NULL);
    need(c, where, in, "level", T_COUNT, NOT_NULL);
    need(c, where, in, "executions", T_COUNT, NOT_NULL);
    json_t *parent = need(c, where, in, "parent", T_COUNT, index == 0 ? OR_NULL : NOT_NULL);
    if (parent) {
        /* the tree is drawn from the parents: each one an earlier interval */
        int found = 0;
        for (size_t k = 0; k < index && !found; k++)
            found = json_equal(json_object_get(json_array_get(intervals, k), "id"), parent);
        if (!found)
            fail(c, where, "parent %lld is no interval listed before it", (long long)json_integer_value(parent));
    }
    char at[512];
    snprintf(at, sizeof at, "%.400s.real", where);
    json_t *real = need(c, where, in, "real", T_OBJECT, NOT_NULL);
    if (real)
        check_characteristics(c, at, real);
    snprintf(at, sizeof at, "%.400s.predicted", where);
    json_t *predicted = need(c, where, in, "predicted", T_OBJECT, OR_NULL);
    if (predicted)
        check_characteristics(c, at, predicted);
    json_t *srcs = need(c, where, in, "src", T_ARRAY, NOT_NULL);
    for (size_t s = 0; srcs && s < json_array_size(srcs) && !c->failed; s++) {
        snprintf(at, sizeof at, "%.400s.src[%zu]", where, s);
        check_src(c, at, json_array_get(srcs, s));
    }
}

int mpp_view_check(json_t *doc, char *why, size_t size)
{
    check_t c = {why, size, 0};
    if (!json_is_object(doc))
        return fail(&c, "the document", "%s, but a protocol is an object with format \"mpiprof-protocol\"",
                    type_name(doc));
    json_t *format = json_object_get(doc, "format");
    if (!json_is_string(format) || strcmp(json_string_value(format), "mpiprof-protocol") != 0)
        return fail(&c, "format", "%s%s%s, but an mpiprof protocol has format \"mpiprof-protocol\"",
                    json_is_string(format) ? "\""
                    : format               ? type_name(format)
                                           : "missing",
                    json_is_string(format) ? json_string_value(format) : "", json_is_string(format) ? "\"" : "");
    json_t *version = json_object_get(doc, "version");
    if (!json_is_integer(version) || json_integer_value(version) != 1) {
        if (json_is_integer(version))
            return fail(&c, "version", "%lld, but this mpiprof reads protocols of version 1",
                        (long long)json_integer_value(version));
        return fail(&c, "version", "%s, but the integer 1 is required", version ? type_name(version) : "missing");
    }
    check_correctness(&c, doc);
    json_t *p = need(&c, "", doc, "parameters", T_OBJECT, NOT_NULL);
    if (p)
        check_parameters(&c, p);
    json_t *intervals = need(&c, "", doc, "intervals", T_ARRAY, NOT_NULL);
    if (intervals && !json_array_size(intervals))
        fail(&c, "intervals", "empty, but interval 0 (the whole program) is required");
    for (size_t i = 0; intervals && i < json_array_size(intervals) && !c.failed; i++) {
        char at[64];
        snprintf(at, sizeof at, "intervals[%zu]", i);
        check_interval(&c, at, json_array_get(intervals, i), i, intervals);
    }
    return c.failed ? -1 : 0;
}
