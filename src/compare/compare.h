/* Comparing two protocols (mpiprof-compare(1)): the JSON documents of two
 * protocols, already checked by mpp_view_check, matched interval by
 * interval (name and place in the tree) and SRC point by SRC point
 * (function and the functions of its frames; src/compare/match.h), what
 * moved in the source, every difference of structure (what is in one and not the
 * other, counts) and every number beyond the tolerance listed
 * (src/compare/compare.c); and what changed from A to B: speedup,
 * efficiency, each lost-time component of each interval
 * (src/compare/compare_summary.c); and their correctness findings
 * (src/compare/compare_findings.c).  Pure: no I/O, no MPI. */
#ifndef MPP_COMPARE_H
#define MPP_COMPARE_H

#include <jansson.h>
#include <stddef.h>

/* The defaults of --rtol and --atol: "1% or 2 ms", within which the
 * analyzer's protocol of a trace agrees with the dynamic one. */
#define MPP_COMPARE_RTOL 0.01
#define MPP_COMPARE_ATOL 0.002

typedef struct {
    double rtol, atol;
    /* Member names not compared anywhere (--ignore), and Parameters
     * fields compared although they differ between runs by design
     * (--include, one of mpp_compare_run_specific). */
    const char *const *ignore;
    int nignore;
    const char *const *include;
    int ninclude;
} mpp_compare_options_t;

typedef enum {
    MPP_DIFF_PARAMETER, /* a Parameters field */
    MPP_DIFF_STRUCTURE, /* an interval, SRC point, section, rank or n/a in one only; a count */
    MPP_DIFF_NUMBER,    /* a time or number beyond the tolerance */
    MPP_DIFF_MOVED      /* an interval or SRC point matched at another source line (match.h): no difference */
} mpp_diff_kind_t;

typedef struct {
    mpp_diff_kind_t kind;
    char *where;   /* "parameters", or the interval: `interval 1 "solver" (jacobi.c:120, level 1)` */
    char *src;     /* the SRC point, `MPI_Allreduce at jacobi.c:98 (main)`, or NULL */
    char *name;    /* the member's path, `real.main.execution_time`, or NULL */
    char *message; /* what differs: `only in A`, `400 in A, 399 in B`, ... */
    json_t *a, *b; /* the two values (references), NULL when absent */
} mpp_diff_t;

typedef struct {
    mpp_diff_t *diffs;
    size_t ndiffs, room;
    size_t counts[4]; /* by kind */
    /* Matched intervals: index in A's and in B's list, in A's order. */
    size_t *pair_a, *pair_b;
    size_t npairs;
    /* Per-process values not compared: the runs had different process
     * counts (their ranks are different processes). */
    int by_process_skipped;
    int out_of_memory;
} mpp_compare_t;

/* Parameters fields that differ between any two runs (dates, paths,
 * measured clock offsets, calibrated model, warnings with measured
 * values), not compared unless --include names them; NULL-terminated.
 * Configuration variables of the same kind are in
 * mpp_compare_run_specific_config. */
extern const char *const mpp_compare_run_specific[];
extern const char *const mpp_compare_run_specific_config[];

/* Whether a and b differ beyond the tolerance:
 * |a - b| > atol + rtol * max(|a|, |b|). */
int mpp_compare_exceeds(double a, double b, double rtol, double atol);
/* The tolerance of a parallelization efficiency K = 1 - lost/total from
 * those of lost and total: (tol(lost) + tol(total)) / min(total), the
 * largest change of K that times within their tolerances can make. */
double mpp_compare_efficiency_tolerance(double lost_a, double lost_b, double total_a, double total_b, double rtol,
                                        double atol);

/* A name as --ignore and --include take it: a JSON member name, or a
 * text label (`Real sync`) turned into one (`real_sync`).  Allocated. */
char *mpp_compare_name(const char *given);
/* 0 when `name` can be ignored in these documents (a member name of
 * either), or -1 with why. */
int mpp_compare_check_ignore(const char *name, json_t *a, json_t *b, char *why, size_t size);
/* 0 when `name` can be included (one of the run-specific fields), or -1. */
int mpp_compare_check_include(const char *name, char *why, size_t size);

/* Compare (the Correctness sections too, after Parameters); 0, or -1 when
 * memory ran out (out->out_of_memory). */
int mpp_compare(json_t *a, json_t *b, const mpp_compare_options_t *options, mpp_compare_t *out);

/* Items of two lists matched by a key (malloc'ed by key(ctx, item), NULL:
 * out of memory), each the k-th of its key with the k-th: match[i] = the
 * index in b of a's item i, or SIZE_MAX; 0, or -1 out of memory. */
typedef char *(*mpp_compare_key_fn)(const void *ctx, json_t *item);
int mpp_compare_match_lists(json_t *a, json_t *b, mpp_compare_key_fn key, const void *ctx, size_t *match);
void mpp_compare_free(mpp_compare_t *c);
/* A difference as JSON: {"kind", "where", "src", "name", "message", "a", "b"}. */
json_t *mpp_compare_diff_json(const mpp_diff_t *d);
const char *mpp_compare_kind_name(mpp_diff_kind_t kind);

/* What changed from A to B in each matched interval (compare_summary.c):
 * {"processes": [Pa, Pb], "intervals": [{"where", "execution_time":
 * [a, b], "speedup", "scaling_efficiency" (when P differs),
 * "parallelization_efficiency": [a, b], "efficiency_change",
 * "components": [{"name", "label", "level", "a", "b", "share_a",
 * "share_b", "change", "trend": "grew"|"shrank"|"unchanged"|"n/a"}]}]};
 * a number that cannot be computed is null, with "na_reason". */
json_t *mpp_compare_summary(json_t *a, json_t *b, const mpp_compare_t *c, const mpp_compare_options_t *options);
/* The interval's description used in `where`. Allocated. */
char *mpp_compare_interval_label(json_t *interval);

/* A difference with its message (the strings copied, a and b referenced);
 * out->out_of_memory set when it cannot be kept. */
void mpp_compare_add_diff(mpp_compare_t *c, mpp_diff_kind_t kind, const char *where, const char *src,
                          const char *name, json_t *a, json_t *b, const char *message);

/* The findings of the Correctness sections (compare_findings.c): matched
 * by kind, MPI function and stack and the other side's function and stack;
 * in one protocol only, or matched with another severity, count or ranks
 * (processes, first and last rank), or another number of dropped findings,
 * a difference of structure with
 * `where` "correctness" and `src` the finding ("error wrong-datatype:
 * MPI_Recv at a.c:12 (main); other side MPI_Send at a.c:8 (main)").
 * Nothing when a protocol has no section (not recorded) or --ignore
 * correctness.  0, or -1 when memory ran out. */
int mpp_compare_findings(json_t *a, json_t *b, const mpp_compare_options_t *options, mpp_compare_t *out);
/* Both sections in brief: {"a": {"level", "errors", "warnings", "dropped",
 * "findings": N} or null when not recorded, "b": ..., "compared": bool,
 * "not_compared": why, when not}. */
json_t *mpp_compare_findings_summary(json_t *a, json_t *b, const mpp_compare_options_t *options);

#endif
