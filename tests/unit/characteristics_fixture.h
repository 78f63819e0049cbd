/* The characteristics' unit tests share hand-made reduced intervals
 * (characteristics_fixture.c): per-process quantities chosen by hand, turned
 * by build() into the sums/minima/maxima the cross-process reduction would
 * give, and checks of what mpp_characteristics made of them. */
#ifndef MPP_UNIT_CHARACTERISTICS_FIXTURE_H
#define MPP_UNIT_CHARACTERISTICS_FIXTURE_H

#include "analyze/characteristics.h"
#include "suites.h"
#include "util/common.h"

#define TOL 1e-9
#define MAXP 16

/* What one process measured in the interval. */
typedef struct {
    double exec, sendrecv, collective, system, io, seq, cpu, sys;
    int absent; /* did not enter the interval */
    double overlap;
    double wait[3]; /* Real sync, Potential sync, Time variation */
} proc_t;

typedef struct {
    int nprocs;
    mpp_reduced_interval_t in;
    double by_process[MAXP * MPP_NQ];
    double pred_by_process[MAXP * MPP_NQ];
    mpp_interval_result_t res;
} bench_t;
extern bench_t B;

/* v of process `rank` into s, as the reduction adds it (the lowest rank
 * on ties, since ranks come in order). */
void stat_add(mpp_stat_t *s, double v, int rank);
void setup(void);
void teardown(void);
/* The reduced interval of `procs` (every process selected), as the
 * reduction builds it: sums, minima and maxima with the lowest rank on ties,
 * over the processes that entered; then its characteristics. */
void build(const proc_t *procs, int nprocs);
double M(mpp_main_t m);
double BY(int rank, mpp_per_process_t k);
void expect_cmp(mpp_per_process_t k, double min, int min_rank, double max, int max_rank, double mean);
int not_available_main(int m);
int not_available_pp(int k);
/* Every invariant of characteristics.md, plus the consistency of the
 * comparative rows with the by-process columns (all processes selected). */
void check_invariants(void);
extern const proc_t two[2], four[4];

#endif
