/* The scaling study (src/compare/scaling.c, fit.c): a model fitted to
 * numbers of a known law gives back its term and coefficients; protocols
 * made from the schema's example with a known law at P = 2 ... 64 give
 * back the speedup, the scaling efficiency, the part of Lost time that
 * grew fastest and the law of the execution time and of an SRC point. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/fit.h"
#include "compare/match.h"
#include "compare/scaling.h"
#include "suites.h"

static const double ps[] = {2, 4, 8, 16, 32, 64};
#define NP (sizeof ps / sizeof *ps)

typedef struct {
    double a, b;
    int i_num, i_den, j;
} law_t;

static double law(const law_t *l, double p)
{
    return l->a + l->b * pow(p, (double)l->i_num / l->i_den) * pow(log2(p), l->j);
}

static void within(double got, double want, double rel, const char *what)
{
    ck_assert_msg(fabs(got - want) <= rel * fabs(want), "%s: %g, expected %g within %g%%", what, got, want,
                  100 * rel);
}

START_TEST(test_fit_known_laws)
{
    static const law_t laws[] = {{0.5, 0.01, 1, 1, 1}, {2, 0.3, 1, 2, 0},  {0.1, 0.05, 0, 1, 2},
                                 {1, 0.002, 3, 2, 0},  {3, -0.2, 1, 3, 0}, {0.2, 0.001, 2, 1, 1}};
    for (size_t k = 0; k < sizeof laws / sizeof *laws; k++) {
        const law_t *l = &laws[k];
        double y[NP];
        for (size_t q = 0; q < NP; q++)
            y[q] = law(l, ps[q]);
        mpp_fit_t f;
        char why[128];
        ck_assert_int_eq(mpp_fit(ps, y, NP, &f, why, sizeof why), 0);
        char text[160];
        mpp_fit_text(&f, text, sizeof text);
        ck_assert_msg(!f.constant && f.i_num * l->i_den == l->i_num * f.i_den && f.j == l->j,
                      "law %zu: fitted %s, expected P^(%d/%d) log2(P)^%d", k, text, l->i_num, l->i_den, l->j);
        within(f.a, l->a, 0.05, "a");
        within(f.b, l->b, 0.05, "b");
        within(mpp_fit_eval(&f, 4 * ps[NP - 1]), law(l, 4 * ps[NP - 1]), 0.05, "prediction at 4x");
        /* 1% noise, alternating: the law still predicts within 5% */
        for (size_t q = 0; q < NP; q++)
            y[q] *= q % 2 ? 1.01 : 0.99;
        ck_assert_int_eq(mpp_fit(ps, y, NP, &f, why, sizeof why), 0);
        mpp_fit_text(&f, text, sizeof text);
        for (size_t q = 0; q < NP; q++)
            within(mpp_fit_eval(&f, ps[q]), law(l, ps[q]), 0.05, text);
        within(mpp_fit_eval(&f, 2 * ps[NP - 1]), law(l, 2 * ps[NP - 1]), 0.05, text);
    }
    /* constant numbers: the constant */
    double y[NP] = {1, 1, 1, 1, 1, 1};
    mpp_fit_t f;
    char why[128];
    ck_assert_int_eq(mpp_fit(ps, y, NP, &f, why, sizeof why), 0);
    ck_assert(f.constant && f.a == 1);
    /* all zero (a part of Lost time never met): the constant 0, no n/a */
    double zero[NP] = {0};
    ck_assert_int_eq(mpp_fit(ps, zero, NP, &f, why, sizeof why), 0);
    ck_assert(f.constant && f.a == 0 && f.error == 0);
    json_t *j = mpp_fit_json(&f, ps[NP - 1]);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(json_string_value(json_object_get(j, "model")), "0");
    json_decref(j);
    /* two process counts: no law is chosen */
    ck_assert_int_eq(mpp_fit(ps, y, 2, &f, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "2 process counts"));
    y[3] = NAN;
    ck_assert_int_eq(mpp_fit(ps, y, NP, &f, why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "n/a"));
}
END_TEST

static json_t *main_of(json_t *doc)
{
    return json_object_get(json_object_get(json_array_get(json_object_get(doc, "intervals"), 0), "real"), "main");
}

/* The example protocol at P processes: execution time 0.5 + 0.01 P log2(P),
 * Collective 0.002 P^(3/2), SRC point 0 of interval 0 0.1 + 0.03 P^(1/2). */
static json_t *synthetic(double p)
{
    json_t *doc = unit_example_protocol(), *m = main_of(doc);
    json_object_set_new(json_object_get(doc, "parameters"), "processes", json_integer((json_int_t)p));
    json_object_set_new(m, "processors", json_integer((json_int_t)p));
    json_object_set_new(m, "execution_time", json_real(0.5 + 0.01 * p * log2(p)));
    json_object_set_new(m, "collective", json_real(0.002 * pow(p, 1.5)));
    json_t *s = json_array_get(json_object_get(json_array_get(json_object_get(doc, "intervals"), 0), "src"), 0);
    json_object_set_new(json_object_get(s, "time"), "sum", json_real(0.1 + 0.03 * sqrt(p)));
    return doc;
}

static json_t *fit_of(json_t *list, const char *key, const char *value)
{
    json_t *item;
    size_t i;
    json_array_foreach(list, i, item)
    {
        const char *v = json_string_value(json_object_get(item, key));
        if (v && !strcmp(v, value))
            return json_object_get(item, "fit");
    }
    return NULL;
}

START_TEST(test_scaling_synthetic_runs)
{
    /* given out of order: the study is by P */
    static const size_t given[NP] = {3, 0, 5, 1, 4, 2};
    json_t *docs[NP];
    const char *labels[NP] = {"r16", "r2", "r64", "r4", "r32", "r8"};
    mpp_match_t matches[NP];
    memset(matches, 0, sizeof matches);
    for (size_t k = 0; k < NP; k++) {
        docs[k] = synthetic(ps[given[k]]);
        if (k)
            ck_assert_int_eq(mpp_match(docs[0], docs[k], &matches[k]), 0);
    }
    json_t *study = mpp_scaling(docs, labels, NP, matches);
    ck_assert_ptr_nonnull(study);
    ck_assert_ptr_null(json_object_get(study, "na_reason"));
    json_t *rows = json_object_get(study, "rows");
    ck_assert_uint_eq(json_array_size(rows), NP);
    for (size_t q = 0; q < NP; q++) {
        json_t *row = json_array_get(rows, q);
        double t = 0.5 + 0.01 * ps[q] * log2(ps[q]), t0 = 0.5 + 0.01 * 2 * 1;
        ck_assert_double_eq(json_number_value(json_object_get(row, "processes")), ps[q]);
        within(json_number_value(json_object_get(row, "speedup")), t0 / t, 1e-12, "speedup");
        within(json_number_value(json_object_get(row, "scaling_efficiency")), t0 / t * 2 / ps[q], 1e-12,
               "scaling efficiency");
        json_t *coll = json_object_get(json_object_get(row, "parts"), "collective");
        within(json_number_value(json_object_get(coll, "per_process")), 0.002 * sqrt(ps[q]), 1e-12,
               "Collective per process");
    }
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(study, "fastest"), "name")), "collective");
    json_t *fit = fit_of(json_object_get(study, "fits"), "name", "execution_time");
    ck_assert_ptr_nonnull(fit);
    ck_assert_double_eq(json_number_value(json_object_get(fit, "p_exponent")), 1);
    ck_assert_int_eq(json_integer_value(json_object_get(fit, "log_exponent")), 1);
    within(json_number_value(json_object_get(fit, "a")), 0.5, 0.05, "a of the execution time");
    within(json_number_value(json_object_get(fit, "b")), 0.01, 0.05, "b of the execution time");
    fit = fit_of(json_object_get(study, "fits"), "name", "collective");
    ck_assert_double_eq(json_number_value(json_object_get(fit, "p_exponent")), 1.5);
    within(json_number_value(json_object_get(fit, "b")), 0.002, 0.05, "b of Collective");
    /* the SRC point, matched in every run */
    json_t *src = json_array_get(json_object_get(json_array_get(json_object_get(docs[0], "intervals"), 0), "src"), 0);
    json_t *item, *found = NULL;
    size_t i;
    json_array_foreach(json_object_get(study, "src"), i, item)
    {
        json_t *times = json_object_get(item, "times");
        if (strstr(json_string_value(json_object_get(item, "where")), "interval 0") &&
            !strcmp(json_string_value(json_object_get(item, "function")),
                    json_string_value(json_object_get(src, "function"))) &&
            fabs(json_number_value(json_array_get(times, 0)) - (0.1 + 0.03 * sqrt(2))) < 1e-12)
            found = item;
    }
    ck_assert_ptr_nonnull(found);
    fit = json_object_get(found, "fit");
    ck_assert_double_eq(json_number_value(json_object_get(fit, "p_exponent")), 0.5);
    within(json_number_value(json_object_get(fit, "b")), 0.03, 0.05, "b of the SRC point");
    json_decref(study);
    /* one process count: no study */
    study = mpp_scaling(docs, labels, 1, matches);
    ck_assert_ptr_nonnull(json_object_get(study, "na_reason"));
    json_decref(study);
    for (size_t k = 0; k < NP; k++)
        mpp_match_free(&matches[k]), json_decref(docs[k]);
}
END_TEST

Suite *scaling_suite(void)
{
    Suite *s = suite_create("scaling");
    TCase *t = tcase_create("fit");
    tcase_add_test(t, test_fit_known_laws);
    suite_add_tcase(s, t);
    t = tcase_create("study");
    tcase_add_test(t, test_scaling_synthetic_runs);
    suite_add_tcase(s, t);
    return s;
}
