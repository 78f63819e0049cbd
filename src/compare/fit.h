/* A scaling model fitted to a characteristic measured at several process
 * counts (fit.c), in the spirit of Extra-P: f(P) = a + b * P^i * log2(P)^j
 * with i in {0, 1/4, 1/3, 1/2, 2/3, 3/4, 1, 5/4, 3/2, 2} and j in {0, 1,
 * 2} (and the constant a alone), a and b by least squares of the relative
 * errors (each point weighted by 1/y^2), the term chosen
 * by leave-one-out cross-validation (the mean symmetric relative error of
 * each point predicted from the others), ties to the simpler term.  A fit
 * says how a number grew over the process counts measured; beyond them it
 * is a guess, and is printed as one.  Pure. */
#ifndef MPP_COMPARE_FIT_H
#define MPP_COMPARE_FIT_H

#include <jansson.h>
#include <stddef.h>

/* Fewest distinct process counts a term is chosen from: with two, every
 * term passes through both points. */
#define MPP_FIT_MIN_COUNTS 3

typedef struct {
    double a, b;
    int i_num, i_den; /* the exponent of P, i_num / i_den */
    int j;            /* the exponent of log2(P) */
    int constant;     /* f(P) = a */
    double error;     /* mean symmetric relative error of the fit at the points (0.05: 5%) */
    double cv_error;  /* the same, each point predicted from the others */
} mpp_fit_t;

/* Fit y[k] measured at p[k] (k < n); 0, or -1 with why (fewer than
 * MPP_FIT_MIN_COUNTS distinct counts, a value not a number). */
int mpp_fit(const double *p, const double *y, size_t n, mpp_fit_t *out, char *why, size_t size);
double mpp_fit_eval(const mpp_fit_t *f, double p);
/* "0.5 + 0.01 * P^(1/2) * log2(P)" */
void mpp_fit_text(const mpp_fit_t *f, char *out, size_t size);
/* {"model", "a", "b", "p_exponent", "log_exponent", "error", "cv_error",
 * "predictions": [{"processes", "value"}] at 2x and 4x the largest P}. */
json_t *mpp_fit_json(const mpp_fit_t *f, double largest_p);

#endif
