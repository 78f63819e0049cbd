/* Hand-made reduced intervals for the characteristics' unit tests
 * (characteristics_fixture.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "characteristics_fixture.h"

bench_t B;

void stat_add(mpp_stat_t *s, double v, int rank)
{
    s->sum += v;
    if (v < s->min)
        s->min = v, s->min_rank = rank;
    if (v > s->max)
        s->max = v, s->max_rank = rank;
    s->count++;
}

void setup(void)
{
    memset(&B, 0, sizeof B);
    unit_reset_warnings();
}

void teardown(void)
{
    free(B.res.by_process);
    B.res.by_process = NULL;
}

/* The reduced interval of `procs` (every process selected), as the
 * reduction builds it: sums, minima and maxima with the lowest rank on ties,
 * over the processes that entered; then its characteristics. */
void build(const proc_t *procs, int nprocs)
{
    free(B.res.by_process);
    memset(&B, 0, sizeof B);
    ck_assert_int_le(nprocs, MAXP);
    B.nprocs = nprocs;
    int entered = 0;
    for (int p = 0; p < nprocs; p++)
        entered += !procs[p].absent;
    B.in.id = 0;
    B.in.parent = -1;
    B.in.executions = 1;
    B.in.processes = entered;
    for (int k = 0; k < MPP_NQ; k++)
        B.in.q[k] = (mpp_stat_t){0, INFINITY, -INFINITY, -1, -1, 0};
    for (int p = 0; p < nprocs; p++) {
        double *v = &B.by_process[p * MPP_NQ];
        if (procs[p].absent) {
            for (int k = 0; k < MPP_NQ; k++)
                v[k] = NAN;
            continue;
        }
        mpp_local_interval_t li;
        memset(&li, 0, sizeof li);
        li.parent = -1;
        li.exec = procs[p].exec;
        li.cat[MPP_CAT_SENDRECV] = procs[p].sendrecv;
        li.cat[MPP_CAT_COLLECTIVE] = procs[p].collective;
        li.cat[MPP_CAT_SYSTEM] = procs[p].system;
        li.cat[MPP_CAT_IO] = procs[p].io;
        li.seq = procs[p].seq;
        li.cpu = procs[p].cpu;
        li.sys = procs[p].sys;
        li.overlap = procs[p].overlap;
        for (int w = 0; w < 3; w++)
            li.wait[w] = procs[p].wait[w];
        mpp_process_quantities(&li, entered, v);
        for (int k = 0; k < MPP_NQ; k++)
            stat_add(&B.in.q[k], v[k], p);
    }
    B.in.by_process = B.by_process;
    ck_assert_int_eq(mpp_characteristics(&B.in, nprocs, &B.res), 0);
    ck_assert_ptr_nonnull(B.res.by_process);
}

double M(mpp_main_t m) { return B.res.main[m]; }
double BY(int rank, mpp_per_process_t k) { return B.res.by_process[rank * MPP_NPP + k]; }

void expect_cmp(mpp_per_process_t k, double min, int min_rank, double max, int max_rank, double mean)
{
    const mpp_comparison_t *c = &B.res.cmp[k];
    ck_assert_msg(fabs(c->min - min) < TOL && c->min_rank == min_rank, "%s: min %g rank %d, expected %g rank %d",
                  mpp_per_process_names[k].label, c->min, c->min_rank, min, min_rank);
    ck_assert_msg(fabs(c->max - max) < TOL && c->max_rank == max_rank, "%s: max %g rank %d, expected %g rank %d",
                  mpp_per_process_names[k].label, c->max, c->max_rank, max, max_rank);
    ck_assert_msg(fabs(c->mean - mean) < TOL, "%s: mean %g, expected %g", mpp_per_process_names[k].label, c->mean,
                  mean);
}

int not_available_main(int m)
{
    return m == MPP_M_REALSYNC || m == MPP_M_POTSYNC || m == MPP_M_VARIATION || m == MPP_M_OVERLAP;
}

int not_available_pp(int k)
{
    return k == MPP_P_REALSYNC || k == MPP_P_POTSYNC || k == MPP_P_VARIATION || k == MPP_P_OVERLAP;
}

/* Every invariant of characteristics.md, plus the consistency of the
 * comparative rows with the by-process columns (all processes selected). */
void check_invariants(void)
{
    const double *m = B.res.main;
    double P = m[MPP_M_PROCESSORS];
    ck_assert_double_eq_tol(m[MPP_M_TOTAL], m[MPP_M_EXEC] * P, TOL);
    ck_assert_double_eq_tol(m[MPP_M_PRODUCTIVE] + m[MPP_M_LOST], m[MPP_M_TOTAL], TOL);
    ck_assert_double_eq_tol(m[MPP_M_LOST], m[MPP_M_COMM] + m[MPP_M_IDLE] + m[MPP_M_INSUFFICIENT], TOL);
    ck_assert(m[MPP_M_KEFF] >= 0.0 && m[MPP_M_KEFF] <= 1.0);
    ck_assert_double_eq_tol(m[MPP_M_SENDRECV] + m[MPP_M_COLLECTIVE] + m[MPP_M_SYSTEM], m[MPP_M_COMM], TOL);
    if (!isnan(m[MPP_M_CPU]))
        ck_assert_double_eq_tol(m[MPP_M_CPU] + m[MPP_M_SYS] + m[MPP_M_IO], m[MPP_M_PRODUCTIVE], TOL);
    if (!isnan(m[MPP_M_REALSYNC]))
        ck_assert(m[MPP_M_REALSYNC] <= m[MPP_M_SENDRECV] + TOL);
    for (int k = 0; k < MPP_NPP; k++) {
        const mpp_comparison_t *c = &B.res.cmp[k];
        if (isnan(c->mean))
            continue;
        ck_assert_msg(c->min <= c->mean + TOL && c->mean <= c->max + TOL, "%s: min %g mean %g max %g",
                      mpp_per_process_names[k].label, c->min, c->mean, c->max);
        /* the comparative row is the one of the by-process column */
        double lo = INFINITY, hi = -INFINITY, sum = 0;
        int n = 0;
        for (int r = 0; r < B.nprocs; r++) {
            double v = BY(r, k);
            if (isnan(v))
                continue;
            lo = fmin(lo, v), hi = fmax(hi, v), sum += v, n++;
        }
        ck_assert_double_eq_tol(c->min, lo, TOL);
        ck_assert_double_eq_tol(c->max, hi, TOL);
        ck_assert_double_eq_tol(c->mean, sum / n, TOL);
        ck_assert(c->min_rank >= 0 && c->min_rank < B.nprocs && c->max_rank >= 0 && c->max_rank < B.nprocs);
        ck_assert_double_eq_tol(BY(c->min_rank, k), c->min, TOL);
        ck_assert_double_eq_tol(BY(c->max_rank, k), c->max, TOL);
    }
    /* per-process columns sum to the totals */
    static const struct {
        mpp_per_process_t pp;
        mpp_main_t main;
    } sums[] = {{MPP_P_PRODUCTIVE, MPP_M_PRODUCTIVE},
                {MPP_P_LOST, MPP_M_LOST},
                {MPP_P_INSUFFICIENT, MPP_M_INSUFFICIENT},
                {MPP_P_COMM, MPP_M_COMM},
                {MPP_P_SENDRECV, MPP_M_SENDRECV},
                {MPP_P_COLLECTIVE, MPP_M_COLLECTIVE},
                {MPP_P_SYSTEM, MPP_M_SYSTEM},
                {MPP_P_IDLE, MPP_M_IDLE},
                {MPP_P_IMBALANCE, MPP_M_IMBALANCE}};
    for (size_t i = 0; i < MPP_ARRAY_LEN(sums); i++) {
        double sum = 0;
        for (int r = 0; r < B.nprocs; r++)
            if (!isnan(BY(r, sums[i].pp)))
                sum += BY(r, sums[i].pp);
        ck_assert_msg(fabs(sum - m[sums[i].main]) < TOL, "column %s sums to %g, total is %g",
                      mpp_per_process_names[sums[i].pp].label, sum, m[sums[i].main]);
    }
    double exec_max = -INFINITY;
    for (int r = 0; r < B.nprocs; r++)
        if (!isnan(BY(r, MPP_P_EXEC)))
            exec_max = fmax(exec_max, BY(r, MPP_P_EXEC));
    ck_assert_double_eq_tol(exec_max, m[MPP_M_EXEC], TOL);
}

/* Two processes (values in seconds). */
const proc_t two[2] = {
    {.exec = 10, .sendrecv = 1, .collective = 2, .system = 0.5, .io = 0.5, .seq = 2, .cpu = 8, .sys = 1},
    {.exec = 8, .sendrecv = 2, .collective = 1, .system = 0.25, .io = 0.25, .seq = 2, .cpu = 6, .sys = 0.5},
};

/* Four processes. */
const proc_t four[4] = {
    {.exec = 12, .sendrecv = 1, .collective = 1, .system = 0, .io = 0, .seq = 4, .cpu = 6, .sys = 1},
    {.exec = 10, .sendrecv = 2, .collective = 1, .system = 0.5, .io = 0.5, .seq = 4, .cpu = 5, .sys = 1},
    {.exec = 8, .sendrecv = 3, .collective = 0.5, .system = 0.5, .io = 1, .seq = 4, .cpu = 2, .sys = 0.5},
    {.exec = 11, .sendrecv = 0, .collective = 2, .system = 0, .io = 0, .seq = 4, .cpu = 7, .sys = 0},
};
