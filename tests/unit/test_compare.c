/* The comparison of two protocols (src/compare/): the tolerance, how
 * intervals and SRC points are matched (duplicates, renamed, moved lines),
 * what is a difference of structure and what one of number, --ignore by
 * name, the summary's speedup, and the correctness findings.  On the
 * schema's example protocol and copies of it changed in one place. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "compare/match.h"
#include "suites.h"

static json_t *interval(json_t *doc, size_t i) { return json_array_get(json_object_get(doc, "intervals"), i); }

static json_t *src(json_t *doc, size_t i, size_t s)
{
    return json_array_get(json_object_get(interval(doc, i), "src"), s);
}

static mpp_compare_options_t defaults(void)
{
    return (mpp_compare_options_t){.rtol = MPP_COMPARE_RTOL, .atol = MPP_COMPARE_ATOL};
}

/* The one difference whose message and name contain the given texts, or
 * NULL; fails when several do. */
static const mpp_diff_t *find(const mpp_compare_t *c, const char *name, const char *message)
{
    const mpp_diff_t *found = NULL;
    for (size_t i = 0; i < c->ndiffs; i++) {
        const mpp_diff_t *d = &c->diffs[i];
        if ((!name || (d->name && strstr(d->name, name))) && strstr(d->message, message)) {
            ck_assert_msg(!found, "two differences match %s / %s", name ? name : "-", message);
            found = d;
        }
    }
    return found;
}

static void compare(json_t *a, json_t *b, const mpp_compare_options_t *o, mpp_compare_t *c)
{
    ck_assert_int_eq(mpp_compare(a, b, o, c), 0);
}

START_TEST(test_compare_tolerance)
{
    /* |a - b| > atol + rtol * max(|a|, |b|) */
    ck_assert(!mpp_compare_exceeds(1.0, 1.0, 0, 0));
    ck_assert(!mpp_compare_exceeds(1.0, 1.01, 0.01, 0));
    ck_assert(mpp_compare_exceeds(1.0, 1.0202, 0.01, 0));
    ck_assert(!mpp_compare_exceeds(0.001, 0.003, 0, 0.002));
    ck_assert(mpp_compare_exceeds(0.001, 0.0031, 0, 0.002));
    ck_assert(mpp_compare_exceeds(-1.0, 1.0, 0.5, 0.5));
    /* K = 1 - lost/total: lost 1 +- 0.1 and total 10 +- 0.1 move K by at most 0.02 */
    double tol = mpp_compare_efficiency_tolerance(1.0, 1.0, 10.0, 10.0, 0.0, 0.1);
    ck_assert(fabs(tol - 0.02) < 1e-12);
    ck_assert(fabs(mpp_compare_efficiency_tolerance(0, 0, 0, 0, 0.01, 0.002) - 0.012) < 1e-12);
}
END_TEST

START_TEST(test_compare_equal)
{
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    json_object_set_new(json_object_get(b, "parameters"), "started", json_string("2030-01-01T00:00:00"));
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_msg(c.ndiffs == 0, "%zu differences, first %s %s", c.ndiffs, c.ndiffs ? c.diffs[0].where : "",
                  c.ndiffs ? c.diffs[0].message : "");
    ck_assert_uint_eq(c.npairs, json_array_size(json_object_get(a, "intervals")));
    mpp_compare_free(&c);
    /* a run-specific field compared when asked */
    const char *include[] = {"started"};
    o.include = include, o.ninclude = 1;
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.counts[MPP_DIFF_PARAMETER], 1);
    ck_assert_ptr_nonnull(find(&c, "parameters.started", "in A"));
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_src_removed_and_counts)
{
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    json_t *srcs = json_object_get(interval(b, 0), "src");
    json_t *removed = json_incref(json_array_get(srcs, 1));
    json_array_remove(srcs, 1);
    json_object_set_new(src(b, 0, 0), "calls",
                        json_integer(json_integer_value(json_object_get(src(a, 0, 0), "calls")) + 1));
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    char expected[256];
    snprintf(expected, sizeof expected, "%s at ", json_string_value(json_object_get(removed, "function")));
    const mpp_diff_t *d = find(&c, NULL, "SRC point only in A");
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(strstr(d->src, expected));
    ck_assert_int_eq(d->kind, MPP_DIFF_STRUCTURE);
    d = find(&c, "calls", " in B");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->kind, MPP_DIFF_STRUCTURE);
    ck_assert_uint_eq(c.counts[MPP_DIFF_NUMBER], 0);
    mpp_compare_free(&c);
    json_decref(removed), json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_renamed_interval)
{
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    ck_assert_uint_ge(json_array_size(json_object_get(a, "intervals")), 2);
    json_object_set_new(interval(b, 1), "name", json_string("renamed"));
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_ptr_nonnull(find(&c, NULL, "interval only in A"));
    const mpp_diff_t *d = find(&c, NULL, "interval only in B");
    ck_assert_ptr_nonnull(d);
    ck_assert_ptr_nonnull(strstr(d->where, "\"renamed\""));
    ck_assert_uint_eq(c.npairs, json_array_size(json_object_get(a, "intervals")) - 1);
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_time_beyond_tolerance)
{
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    json_t *main_b = json_object_get(json_object_get(interval(b, 0), "real"), "main");
    double t = json_number_value(json_object_get(main_b, "execution_time"));
    json_object_set_new(main_b, "execution_time", json_real(t * 1.005)); /* within 1% */
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 0);
    mpp_compare_free(&c);
    json_object_set_new(main_b, "execution_time", json_real(t * 1.5));
    compare(a, b, &o, &c);
    const mpp_diff_t *d = find(&c, "real.main.execution_time", "differs by");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->kind, MPP_DIFF_NUMBER);
    ck_assert_uint_eq(c.ndiffs, 1);
    mpp_compare_free(&c);
    /* --ignore execution_time: that name alone, nowhere a wider tolerance */
    const char *ignore[] = {"execution_time"};
    o.ignore = ignore, o.nignore = 1;
    json_object_set_new(main_b, "lost_time", json_real(json_number_value(json_object_get(main_b, "lost_time")) * 2));
    compare(a, b, &o, &c);
    ck_assert_ptr_null(find(&c, "execution_time", "differs"));
    ck_assert_ptr_nonnull(find(&c, "real.main.lost_time", "differs by"));
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_duplicates_and_lines)
{
    /* the same SRC point twice in A, once in B: the first matched, the
     * second in A only; a frame's line and an interval's line moved: matched
     * and said moved (no difference), not said with --ignore line */
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    json_t *srcs_a = json_object_get(interval(a, 0), "src");
    json_array_append_new(srcs_a, json_deep_copy(json_array_get(srcs_a, 0)));
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 1);
    ck_assert_ptr_nonnull(find(&c, NULL, "SRC point only in A"));
    mpp_compare_free(&c);
    json_array_remove(srcs_a, json_array_size(srcs_a) - 1);

    json_t *frame = json_array_get(json_object_get(src(b, 0, 0), "stack"), 0);
    long long line = (long long)json_integer_value(json_object_get(frame, "line"));
    json_object_set_new(frame, "line", json_integer(line + 3));
    json_object_set_new(frame, "text", json_string("moved"));
    long long interval_line = (long long)json_integer_value(json_object_get(interval(b, 1), "line"));
    json_object_set_new(interval(b, 1), "line", json_integer(999));
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 2);
    ck_assert_uint_eq(c.counts[MPP_DIFF_MOVED], 2);
    char expected[128];
    snprintf(expected, sizeof expected, "moved: #0 %s:%lld -> %s:%lld",
             json_string_value(json_object_get(frame, "file")), line,
             json_string_value(json_object_get(frame, "file")), line + 3);
    const mpp_diff_t *d = find(&c, NULL, expected);
    ck_assert_msg(d != NULL, "no difference says %s", expected);
    ck_assert_int_eq(d->kind, MPP_DIFF_MOVED);
    char moved_interval[64];
    snprintf(moved_interval, sizeof moved_interval, ":%lld -> %s:999", interval_line,
             json_string_value(json_object_get(interval(b, 1), "file")));
    ck_assert_msg(find(&c, NULL, moved_interval) != NULL, "no difference says %s", moved_interval);
    ck_assert_uint_eq(c.npairs, json_array_size(json_object_get(a, "intervals")));
    mpp_compare_free(&c);
    const char *ignore[] = {"line"};
    o.ignore = ignore, o.nignore = 1;
    compare(a, b, &o, &c);
    ck_assert_msg(c.ndiffs == 0, "%zu differences with --ignore line: %s", c.ndiffs,
                  c.ndiffs ? c.diffs[0].message : "");
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

/* Matching by place in the tree: the whole program whatever its name and
 * line, an interval renamed is not its sibling, two siblings of one name
 * by their order; SRC points of one function and frames' functions by
 * their lines' order when every line moved. */
START_TEST(test_compare_match_tree)
{
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    json_object_set_new(interval(b, 0), "name", json_string("main program"));
    json_object_set_new(interval(b, 0), "line", json_integer(1000));
    /* A: two SRC points of one key at lines 88 and 90; B: both 10 lines later */
    json_t *srcs_a = json_object_get(interval(a, 0), "src"), *srcs_b = json_object_get(interval(b, 0), "src");
    json_t *second = json_deep_copy(json_array_get(srcs_a, 0));
    json_t *f = json_array_get(json_object_get(second, "stack"), 0);
    json_object_set_new(f, "line", json_integer(json_integer_value(json_object_get(f, "line")) + 2));
    json_object_set_new(second, "calls", json_integer(777));
    json_array_append_new(srcs_a, second);
    /* in B the later one first: matching must go by lines, not list order */
    json_array_insert_new(srcs_b, 0, json_deep_copy(second));
    for (size_t k = 0; k < json_array_size(srcs_b); k++) {
        json_t *fr;
        size_t j;
        json_array_foreach(json_object_get(json_array_get(srcs_b, k), "stack"), j, fr)
            json_object_set_new(fr, "line", json_integer(json_integer_value(json_object_get(fr, "line")) + 10));
    }
    /* two siblings named "step" (by their order), and "inner" under
     * "solver" in A, under the root in B (not the same interval) */
    static const struct {
        int id, parent_a, parent_b, line;
        const char *name;
    } added[] = {{2, 0, 0, 200, "step"}, {3, 0, 0, 300, "step"}, {4, 1, 0, 400, "inner"}};
    for (size_t k = 0; k < 3; k++)
        for (int side = 0; side < 2; side++) {
            json_t *doc = side ? b : a, *in = json_deep_copy(interval(a, 1));
            json_object_set_new(in, "id", json_integer(added[k].id));
            json_object_set_new(in, "name", json_string(added[k].name));
            json_object_set_new(in, "parent", json_integer(side ? added[k].parent_b : added[k].parent_a));
            json_object_set_new(in, "line", json_integer(added[k].line + 7 * side));
            json_array_append_new(json_object_get(doc, "intervals"), in);
        }
    mpp_match_t m;
    ck_assert_int_eq(mpp_match(a, b, &m), 0);
    ck_assert_uint_eq(m.interval[0], 0);
    ck_assert_uint_eq(m.interval[1], 1);
    ck_assert_uint_eq(m.interval[2], 2);
    ck_assert_uint_eq(m.interval[3], 3);
    ck_assert_uint_eq(m.interval[4], SIZE_MAX);
    size_t last = json_array_size(srcs_a) - 1;
    ck_assert_uint_eq(m.src[0][last], 0); /* 88+2 -> the inserted one */
    ck_assert_uint_eq(m.src[0][0], 1);    /* 88 -> 98 */
    mpp_match_free(&m);
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.counts[MPP_DIFF_STRUCTURE], 2); /* "inner" in A only, in B only */
    ck_assert_ptr_nonnull(find(&c, NULL, "interval only in A"));
    ck_assert_ptr_nonnull(find(&c, NULL, "interval only in B"));
    /* interval 0, its SRC points, the two "step" (the SRC points of the
     * copies of "solver" did not move) */
    ck_assert_uint_eq(c.counts[MPP_DIFF_MOVED], 1 + json_array_size(srcs_a) + 2);
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_processes_and_summary)
{
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    json_object_set_new(json_object_get(b, "parameters"), "processes", json_integer(4));
    json_t *main_b = json_object_get(json_object_get(interval(b, 0), "real"), "main");
    json_t *main_a = json_object_get(json_object_get(interval(a, 0), "real"), "main");
    double ta = json_number_value(json_object_get(main_a, "execution_time"));
    json_object_set_new(main_b, "execution_time", json_real(ta / 1.6));
    json_object_set_new(main_b, "processors", json_integer(4));
    json_object_set_new(main_b, "communication",
                        json_real(json_number_value(json_object_get(main_a, "communication")) + 1));
    json_object_set_new(main_b, "productive_time",
                        json_real(json_number_value(json_object_get(main_a, "productive_time")) + 0.25));
    /* a rank only in B's columns: not reported, the runs' ranks are not the same processes */
    json_array_append_new(
        json_object_get(json_object_get(json_object_get(interval(b, 0), "real"), "by_process"), "ranks"),
        json_integer(3));
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert(c.by_process_skipped);
    ck_assert_ptr_nonnull(find(&c, "parameters.processes", "2 in A, 4 in B"));
    ck_assert_ptr_nonnull(find(&c, "real.main.processors", "2 in A, 4 in B"));
    ck_assert_ptr_null(find(&c, "by_process", "rank"));
    json_t *summary = mpp_compare_summary(a, b, &c, &o);
    ck_assert_ptr_nonnull(summary);
    json_t *whole = json_array_get(json_object_get(summary, "intervals"), 0);
    ck_assert(fabs(json_number_value(json_object_get(whole, "speedup")) - 1.6) < 1e-9);
    ck_assert(fabs(json_number_value(json_object_get(whole, "scaling_efficiency")) - 0.8) < 1e-9);
    json_t *comp, *communication = NULL;
    size_t k;
    json_array_foreach(json_object_get(whole, "components"), k,
                       comp) if (!strcmp(json_string_value(json_object_get(comp, "name")), "communication"))
        communication = comp;
    ck_assert_ptr_nonnull(communication);
    ck_assert_str_eq(json_string_value(json_object_get(communication, "trend")), "grew");
    ck_assert(fabs(json_number_value(json_object_get(communication, "change")) - 1.0) < 1e-9);
    /* the growth of Productive time is in the change too, first */
    json_t *productive = json_array_get(json_object_get(whole, "components"), 0);
    ck_assert_str_eq(json_string_value(json_object_get(productive, "name")), "productive_time");
    ck_assert(fabs(json_number_value(json_object_get(productive, "change")) - 0.25) < 1e-12);
    ck_assert_str_eq(json_string_value(json_object_get(productive, "trend")), "grew");
    json_decref(summary);
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_bad_args)
{
    json_t *a = unit_example_protocol();
    char why[512];
    char *name = mpp_compare_name("Real sync");
    ck_assert_str_eq(name, "real_sync");
    free(name);
    name = mpp_compare_name("MPIPROF_DEPTH");
    ck_assert_str_eq(name, "MPIPROF_DEPTH");
    free(name);
    ck_assert_int_eq(mpp_compare_check_ignore("real_sync", a, a, why, sizeof why), 0);
    ck_assert_int_eq(mpp_compare_check_ignore("MPIPROF_DEPTH", a, a, why, sizeof why), 0);
    ck_assert_int_eq(mpp_compare_check_ignore("real_synk", a, a, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "real_synk"));
    ck_assert_int_eq(mpp_compare_check_ignore("function", a, a, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "cannot be ignored"));
    ck_assert_int_eq(mpp_compare_check_include("clock", why, sizeof why), 0);
    ck_assert_int_eq(mpp_compare_check_include("processes", why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "started"));
    json_decref(a);
}
END_TEST

/* A finding of `kind` at SRC point s of interval 0, its other side SRC
 * point `other` (none when negative), put into doc's Correctness section. */
static json_t *add_finding(json_t *doc, size_t s, int other, const char *kind, int count, int last_rank)
{
    json_t *at = src(doc, 0, s), *side = json_null();
    if (other >= 0)
        side = json_pack("{s:O, s:O, s:O}", "function", json_object_get(src(doc, 0, (size_t)other), "function"),
                         "src", json_object_get(src(doc, 0, (size_t)other), "id"), "stack",
                         json_object_get(src(doc, 0, (size_t)other), "stack"));
    json_t *f = json_pack("{s:s, s:s, s:O, s:O, s:o, s:i, s:i, s:i, s:i, s:s, s:o, s:o}", "kind", kind, "severity",
                          "error", "function", json_object_get(at, "function"), "src", json_object_get(at, "id"),
                          "stack", json_deep_copy(json_object_get(at, "stack")), "count", count, "processes",
                          last_rank + 1, "first_rank", 0, "last_rank", last_rank, "detail", "first", "peer",
                          other >= 0 ? json_integer(1) : json_null(), "other", side);
    json_t *k = json_object_get(doc, "correctness");
    json_array_append_new(json_object_get(k, "findings"), f);
    json_object_set_new(k, "errors", json_integer(json_integer_value(json_object_get(k, "errors")) + count));
    return f;
}

START_TEST(test_compare_findings_only_in_one)
{
    /* a finding in one protocol only: a difference of structure, named by
     * its kind and call site, either way; the k-th of a key with the k-th */
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    add_finding(a, 0, 1, "wrong-datatype", 2, 1);
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 1);
    const mpp_diff_t *d = find(&c, NULL, "finding only in A");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->kind, MPP_DIFF_STRUCTURE);
    ck_assert_str_eq(d->where, "correctness");
    /* named by the two SRC points' functions and innermost frames */
    char call[256], other[256];
    snprintf(call, sizeof call, "error wrong-datatype: %s at %s",
             json_string_value(json_object_get(src(a, 0, 0), "function")),
             json_string_value(json_object_get(json_array_get(json_object_get(src(a, 0, 0), "stack"), 0), "text")));
    snprintf(other, sizeof other, "other side %s at %s", json_string_value(json_object_get(src(a, 0, 1), "function")),
             json_string_value(json_object_get(json_array_get(json_object_get(src(a, 0, 1), "stack"), 0), "text")));
    ck_assert_msg(strstr(d->src, call) != NULL, "%s lacks %s", d->src, call);
    ck_assert_msg(strstr(d->src, other) != NULL, "%s lacks %s", d->src, other);
    mpp_compare_free(&c);
    compare(b, a, &o, &c);
    ck_assert_ptr_nonnull(find(&c, NULL, "finding only in B"));
    mpp_compare_free(&c);
    /* twice in A, once in B: the second in A only */
    add_finding(b, 0, 1, "wrong-datatype", 2, 1);
    add_finding(a, 0, 1, "wrong-datatype", 2, 1);
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 1);
    ck_assert_ptr_nonnull(find(&c, NULL, "finding only in A"));
    mpp_compare_free(&c);
    /* --ignore correctness: none */
    const char *ignore[] = {"correctness"};
    o.ignore = ignore, o.nignore = 1;
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 0);
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_findings_matched)
{
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    add_finding(a, 0, 1, "wrong-datatype", 2, 1);
    json_t *fb = add_finding(b, 0, 1, "wrong-datatype", 2, 1);
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_msg(c.ndiffs == 0, "%zu differences of the same findings: %s", c.ndiffs,
                  c.ndiffs ? c.diffs[0].message : "");
    mpp_compare_free(&c);
    /* the count and the ranks differ: differences of counts of the matched finding */
    json_object_set_new(fb, "count", json_integer(5));
    json_object_set_new(fb, "processes", json_integer(1));
    json_object_set_new(fb, "last_rank", json_integer(0));
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 2);
    const mpp_diff_t *d = find(&c, "count", "2 in A, 5 in B");
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(d->kind, MPP_DIFF_STRUCTURE);
    ck_assert_ptr_nonnull(strstr(d->src, "wrong-datatype"));
    ck_assert_ptr_nonnull(find(&c, "ranks", "ranks 0-1 (2 processes) in A, rank 0 in B"));
    mpp_compare_free(&c);
    const char *ignore[] = {"count"};
    o.ignore = ignore, o.nignore = 1;
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 1);
    ck_assert_ptr_null(find(&c, "count", " in B"));
    mpp_compare_free(&c);
    o.nignore = 0;
    /* the other side is part of the match: another one, two findings */
    json_object_set_new(fb, "other", json_null());
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 2);
    ck_assert_ptr_nonnull(find(&c, NULL, "finding only in A"));
    ck_assert_ptr_nonnull(find(&c, NULL, "finding only in B"));
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_findings_not_recorded)
{
    /* a protocol of an mpiprof before the Correctness section: not
     * compared, no difference, and said so */
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    add_finding(a, 0, 1, "wrong-datatype", 2, 1);
    json_object_del(b, "correctness");
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 0);
    json_t *k = mpp_compare_findings_summary(a, b, &o);
    ck_assert_ptr_nonnull(k);
    ck_assert(json_is_false(json_object_get(k, "compared")));
    ck_assert(json_is_null(json_object_get(k, "b")));
    ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(k, "a"), "findings")), 1);
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(k, "not_compared")), "not recorded in B"));
    json_decref(k);
    mpp_compare_free(&c);
    /* both recorded: compared */
    json_object_set(b, "correctness", json_object_get(a, "correctness"));
    k = mpp_compare_findings_summary(a, b, &o);
    ck_assert(json_is_true(json_object_get(k, "compared")));
    ck_assert_ptr_null(json_object_get(k, "not_compared"));
    json_decref(k);
    json_decref(a), json_decref(b);
}
END_TEST

START_TEST(test_compare_findings_not_checked)
{
    /* B's checks did not run (MPIPROF_CHECK=off, a trace's analyzer): its
     * empty list is not "nothing wrong", so A's finding is no difference */
    json_t *a = unit_example_protocol(), *b = json_deep_copy(a);
    add_finding(a, 0, 1, "wrong-datatype", 2, 1);
    json_t *kb = json_object_get(b, "correctness");
    json_object_set_new(kb, "level", json_string("off"));
    json_object_set_new(kb, "errors", json_null());
    json_object_set_new(kb, "warnings", json_null());
    json_object_set_new(kb, "dropped", json_null());
    json_array_clear(json_object_get(kb, "findings"));
    mpp_compare_options_t o = defaults();
    mpp_compare_t c;
    compare(a, b, &o, &c);
    ck_assert_msg(c.ndiffs == 0, "%zu differences: %s", c.ndiffs, c.ndiffs ? c.diffs[0].message : "");
    mpp_compare_free(&c);
    json_t *k = mpp_compare_findings_summary(a, b, &o);
    ck_assert(json_is_false(json_object_get(k, "compared")));
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(k, "not_compared")), "no check ran for B"));
    json_decref(k);
    /* B checked and found nothing: A's finding is a difference */
    json_object_set_new(kb, "level", json_string("full"));
    json_object_set_new(kb, "errors", json_integer(0));
    json_object_set_new(kb, "warnings", json_integer(0));
    json_object_set_new(kb, "dropped", json_integer(0));
    compare(a, b, &o, &c);
    ck_assert_uint_eq(c.ndiffs, 1);
    ck_assert_ptr_nonnull(find(&c, NULL, "finding only in A"));
    mpp_compare_free(&c);
    json_decref(a), json_decref(b);
}
END_TEST

Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *t = tcase_create("tolerance");
    tcase_add_test(t, test_compare_tolerance);
    suite_add_tcase(s, t);
    t = tcase_create("matching");
    tcase_add_test(t, test_compare_equal);
    tcase_add_test(t, test_compare_src_removed_and_counts);
    tcase_add_test(t, test_compare_renamed_interval);
    tcase_add_test(t, test_compare_duplicates_and_lines);
    tcase_add_test(t, test_compare_match_tree);
    suite_add_tcase(s, t);
    t = tcase_create("numbers");
    tcase_add_test(t, test_compare_time_beyond_tolerance);
    tcase_add_test(t, test_compare_processes_and_summary);
    suite_add_tcase(s, t);
    t = tcase_create("findings");
    tcase_add_test(t, test_compare_findings_only_in_one);
    tcase_add_test(t, test_compare_findings_not_checked);
    tcase_add_test(t, test_compare_findings_matched);
    tcase_add_test(t, test_compare_findings_not_recorded);
    suite_add_tcase(s, t);
    t = tcase_create("bad_args");
    tcase_add_test(t, test_compare_bad_args);
    suite_add_tcase(s, t);
    return s;
}
