/* A scaling study of N protocols of one program at different process
 * counts (scaling.c; mpiprof-compare(1) and mpiprof-view(1) with several
 * protocols): per process count P, of the whole program, the execution
 * time, the speedup and the scaling efficiency against the smallest P
 * (speedup x P_min / P), K_eff, Productive time and each part of Lost time
 * (summed over processes, as the protocol gives them, and per process);
 * the part of Lost time whose time per process grew most from the
 * smallest to the largest P; per SRC point (matched as match.h says) its
 * time at each P; and a scaling model fitted to each (fit.h).  Pure. */
#ifndef MPP_COMPARE_SCALING_H
#define MPP_COMPARE_SCALING_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "compare/match.h"

/* The study of docs[0..n) named by labels; matches[k] pairs docs[0] with
 * docs[k] (matches[0] unused).  {"runs": [{"label", "processes",
 * "program", "started"}] by P, "processes": [P...], "rows": [{"processes",
 * "label", "execution_time", "speedup", "scaling_efficiency",
 * "parallelization_efficiency", "parts": {name: {"sum", "per_process"}}}],
 * "parts": [{"name", "label", "level"}], "fastest": {"name", "label",
 * "growth"} or null with "fastest_na_reason", "fits": [{"name", "label",
 * "fit"} or with "na_reason"], "src": [{"where", "src", "function",
 * "times": [...], "fit" or "na_reason"}]}; {"na_reason"} alone when the
 * runs do not differ in P.  NULL: out of memory. */
json_t *mpp_scaling(json_t *const *docs, const char *const *labels, size_t n, const mpp_match_t *matches);

/* The study as text (mpiprof-compare): the table, Lost time by part, the
 * part that grew fastest, the fits marked as such, the SRC points (the
 * `top` slowest at the largest P). */
void mpp_scaling_print(FILE *out, json_t *study, size_t top);

#endif
