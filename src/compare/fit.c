/* Scaling models by least squares and leave-one-out cross-validation
 * (fit.h).  A handful of points and 31 terms: each term's fit is two sums,
 * its cross-validation n fits of n - 1 points. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "compare/fit.h"

static const int exponents[][2] = {{0, 1}, {1, 4}, {1, 3}, {1, 2}, {2, 3}, {3, 4}, {1, 1}, {5, 4}, {3, 2}, {2, 1}};
#define NEXP (sizeof exponents / sizeof *exponents)

static double term(const mpp_fit_t *f, double p)
{
    if (f->constant)
        return 0;
    double l = log2(p);
    return pow(p, (double)f->i_num / f->i_den) * (f->j ? pow(l, f->j) : 1.0);
}

double mpp_fit_eval(const mpp_fit_t *f, double p) { return f->a + f->b * term(f, p); }

/* a and b of the term by least squares over the points not `skip`, each
 * point weighted by 1 / y^2: relative errors count, as the times of a
 * scaling study span orders of magnitude and their noise is relative;
 * -1 when the term does not vary over them (no b to find). */
static int least_squares(mpp_fit_t *f, const double *p, const double *y, size_t n, size_t skip)
{
    double top = 0;
    for (size_t k = 0; k < n; k++)
        top = fmax(top, fabs(y[k]));
    /* numbers all zero: equal weights (1 / 0 is none) */
    double floor = top > 0 ? 1e-6 * top : 1, sw = 0, sg = 0, sy = 0;
    for (size_t k = 0; k < n; k++)
        if (k != skip) {
            double w = 1 / ((fabs(y[k]) + floor) * (fabs(y[k]) + floor));
            sw += w, sg += w * term(f, p[k]), sy += w * y[k];
        }
    double mg = sg / sw, my = sy / sw, cov = 0, var = 0;
    for (size_t k = 0; k < n; k++)
        if (k != skip) {
            double w = 1 / ((fabs(y[k]) + floor) * (fabs(y[k]) + floor)), dg = term(f, p[k]) - mg;
            cov += w * dg * (y[k] - my), var += w * dg * dg;
        }
    if (f->constant) {
        f->a = my, f->b = 0;
        return 0;
    }
    if (!(var > 1e-300 * sw * (1 + mg * mg)))
        return -1;
    f->b = cov / var;
    f->a = my - f->b * mg;
    return 0;
}

static double relative_error(double predicted, double measured)
{
    double scale = (fabs(predicted) + fabs(measured)) / 2;
    return scale > 0 ? fabs(predicted - measured) / scale : 0;
}

/* The cross-validation error of the term (its a and b on all points left
 * in f); -1 when a subset cannot fix it. */
static int evaluate(mpp_fit_t *f, const double *p, const double *y, size_t n)
{
    double cv = 0, err = 0;
    for (size_t k = 0; k < n; k++) {
        mpp_fit_t one = *f;
        if (least_squares(&one, p, y, n, k) != 0)
            return -1;
        cv += relative_error(mpp_fit_eval(&one, p[k]), y[k]);
    }
    if (least_squares(f, p, y, n, SIZE_MAX) != 0)
        return -1;
    for (size_t k = 0; k < n; k++)
        err += relative_error(mpp_fit_eval(f, p[k]), y[k]);
    f->cv_error = cv / (double)n, f->error = err / (double)n;
    return 0;
}

static size_t distinct(const double *p, size_t n)
{
    size_t d = 0;
    for (size_t k = 0; k < n; k++) {
        size_t e = 0;
        while (e < k && p[e] != p[k])
            e++;
        d += e == k;
    }
    return d;
}

int mpp_fit(const double *p, const double *y, size_t n, mpp_fit_t *out, char *why, size_t size)
{
    for (size_t k = 0; k < n; k++)
        if (!isfinite(y[k]) || !(p[k] >= 1)) {
            snprintf(why, size, "a value is n/a at %g processes", p[k]);
            return -1;
        }
    if (distinct(p, n) < MPP_FIT_MIN_COUNTS) {
        snprintf(why, size, "%zu process count%s: a law is chosen from at least %d", distinct(p, n),
                 distinct(p, n) == 1 ? "" : "s", MPP_FIT_MIN_COUNTS);
        return -1;
    }
    mpp_fit_t best = {.constant = 1, .i_den = 1};
    if (evaluate(&best, p, y, n) != 0) {
        snprintf(why, size, "no fit");
        return -1;
    }
    for (size_t e = 0; e < NEXP; e++)
        for (int j = 0; j < 3; j++) {
            if (exponents[e][0] == 0 && j == 0)
                continue; /* a + b is the constant */
            mpp_fit_t f = {.i_num = exponents[e][0], .i_den = exponents[e][1], .j = j};
            /* a better term must be better by more than rounding */
            if (evaluate(&f, p, y, n) == 0 && f.cv_error < best.cv_error - 1e-9)
                best = f;
        }
    /* a term of rounding (1e-17 beside 0.5) is a zero */
    double scale = 0;
    for (size_t k = 0; k < n; k++)
        scale = fmax(scale, fabs(y[k]));
    if (fabs(best.a) < 1e-9 * scale)
        best.a = 0;
    *out = best;
    return 0;
}

void mpp_fit_text(const mpp_fit_t *f, char *out, size_t size)
{
    if (f->constant) {
        snprintf(out, size, "%.6g", f->a);
        return;
    }
    char p[32] = "", l[32] = "";
    if (f->i_num && f->i_den == 1)
        snprintf(p, sizeof p, f->i_num == 1 ? " * P" : " * P^%d", f->i_num);
    else if (f->i_num)
        snprintf(p, sizeof p, " * P^(%d/%d)", f->i_num, f->i_den);
    if (f->j)
        snprintf(l, sizeof l, f->j == 1 ? " * log2(P)" : " * log2(P)^%d", f->j);
    if (f->a == 0)
        snprintf(out, size, "%.6g%s%s", f->b, p, l);
    else
        snprintf(out, size, "%.6g %s %.6g%s%s", f->a, f->b < 0 ? "-" : "+", fabs(f->b), p, l);
}

json_t *mpp_fit_json(const mpp_fit_t *f, double largest_p)
{
    char model[160];
    mpp_fit_text(f, model, sizeof model);
    json_t *predictions = json_array();
    for (int times = 2; predictions && times <= 4; times *= 2)
        json_array_append_new(predictions, json_pack("{s:f, s:f}", "processes", times * largest_p, "value",
                                                     mpp_fit_eval(f, times * largest_p)));
    return json_pack("{s:s, s:f, s:f, s:f, s:i, s:f, s:f, s:o}", "model", model, "a", f->a, "b", f->b, "p_exponent",
                     f->constant ? 0.0 : (double)f->i_num / f->i_den, "log_exponent", f->constant ? 0 : f->j, "error",
                     f->error, "cv_error", f->cv_error, "predictions", predictions ? predictions : json_array());
}
