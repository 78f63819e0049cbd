/* Characteristics of characteristics.md (src/analyze/characteristics.c) on
 * hand-made reduced intervals: per-process quantities chosen by hand, turned
 * into the sums/minima/maxima the cross-process reduction would give. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "characteristics.h"
#include "mpp_common.h"
#include "suites.h"

#define TOL 1e-9
#define MAXP 16

/* What one process measured in the interval. */
typedef struct {
    double exec, sendrecv, collective, system, io, seq, cpu, sys;
    int absent; /* did not enter the interval */
    double overlap;
    double wait[3]; /* Real sync, Potential sync, Time variation */
} proc_t;

static struct {
    int nprocs;
    mpp_reduced_interval_t in;
    double by_process[MAXP * MPP_NQ];
    double pred_by_process[MAXP * MPP_NQ];
    mpp_interval_result_t res;
} B;

static void setup(void)
{
    memset(&B, 0, sizeof B);
    unit_reset_warnings();
}

static void teardown(void)
{
    free(B.res.by_process);
    B.res.by_process = NULL;
}

/* The reduced interval of `procs` (every process selected), as the
 * reduction builds it: sums, minima and maxima with the lowest rank on ties,
 * over the processes that entered; then its characteristics. */
static void build(const proc_t *procs, int nprocs)
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
        for (int k = 0; k < MPP_NQ; k++) {
            mpp_stat_t *s = &B.in.q[k];
            s->sum += v[k];
            if (v[k] < s->min)
                s->min = v[k], s->min_rank = p;
            if (v[k] > s->max)
                s->max = v[k], s->max_rank = p;
            s->count++;
        }
    }
    B.in.by_process = B.by_process;
    ck_assert_int_eq(mpp_characteristics(&B.in, nprocs, &B.res), 0);
    ck_assert_ptr_nonnull(B.res.by_process);
}

static double M(mpp_main_t m) { return B.res.main[m]; }
static double BY(int rank, mpp_per_process_t k) { return B.res.by_process[rank * MPP_NPP + k]; }

static void expect_cmp(mpp_per_process_t k, double min, int min_rank, double max, int max_rank, double mean)
{
    const mpp_comparison_t *c = &B.res.cmp[k];
    ck_assert_msg(fabs(c->min - min) < TOL && c->min_rank == min_rank, "%s: min %g rank %d, expected %g rank %d",
                  mpp_per_process_names[k].label, c->min, c->min_rank, min, min_rank);
    ck_assert_msg(fabs(c->max - max) < TOL && c->max_rank == max_rank, "%s: max %g rank %d, expected %g rank %d",
                  mpp_per_process_names[k].label, c->max, c->max_rank, max, max_rank);
    ck_assert_msg(fabs(c->mean - mean) < TOL, "%s: mean %g, expected %g", mpp_per_process_names[k].label, c->mean,
                  mean);
}

static int not_available_main(int m)
{
    return m == MPP_M_REALSYNC || m == MPP_M_POTSYNC || m == MPP_M_VARIATION || m == MPP_M_OVERLAP;
}

static int not_available_pp(int k)
{
    return k == MPP_P_REALSYNC || k == MPP_P_POTSYNC || k == MPP_P_VARIATION || k == MPP_P_OVERLAP;
}

/* Every invariant of characteristics.md, plus the consistency of the
 * comparative rows with the by-process columns (all processes selected). */
static void check_invariants(void)
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
    } sums[] = {{MPP_P_PRODUCTIVE, MPP_M_PRODUCTIVE}, {MPP_P_LOST, MPP_M_LOST},
                {MPP_P_INSUFFICIENT, MPP_M_INSUFFICIENT}, {MPP_P_COMM, MPP_M_COMM},
                {MPP_P_SENDRECV, MPP_M_SENDRECV}, {MPP_P_COLLECTIVE, MPP_M_COLLECTIVE},
                {MPP_P_SYSTEM, MPP_M_SYSTEM}, {MPP_P_IDLE, MPP_M_IDLE}, {MPP_P_IMBALANCE, MPP_M_IMBALANCE}};
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
static const proc_t two[2] = {
    {.exec = 10, .sendrecv = 1, .collective = 2, .system = 0.5, .io = 0.5, .seq = 2, .cpu = 8, .sys = 1},
    {.exec = 8, .sendrecv = 2, .collective = 1, .system = 0.25, .io = 0.25, .seq = 2, .cpu = 6, .sys = 0.5},
};

/* Four processes. */
static const proc_t four[4] = {
    {.exec = 12, .sendrecv = 1, .collective = 1, .system = 0, .io = 0, .seq = 4, .cpu = 6, .sys = 1},
    {.exec = 10, .sendrecv = 2, .collective = 1, .system = 0.5, .io = 0.5, .seq = 4, .cpu = 5, .sys = 1},
    {.exec = 8, .sendrecv = 3, .collective = 0.5, .system = 0.5, .io = 1, .seq = 4, .cpu = 2, .sys = 0.5},
    {.exec = 11, .sendrecv = 0, .collective = 2, .system = 0, .io = 0, .seq = 4, .cpu = 7, .sys = 0},
};

/* --- per-process quantities --- */

START_TEST(test_characteristics_process_quantities)
{
    mpp_local_interval_t li;
    double q[MPP_NQ];
    memset(&li, 0, sizeof li);
    li.exec = 10, li.seq = 2, li.cpu = 7, li.sys = 1.5;
    li.cat[MPP_CAT_SENDRECV] = 1, li.cat[MPP_CAT_COLLECTIVE] = 2, li.cat[MPP_CAT_SYSTEM] = 0.5;
    li.cat[MPP_CAT_IO] = 0.5;
    mpp_process_quantities(&li, 2, q);
    ck_assert_double_eq_tol(q[MPP_Q_EXEC], 10, TOL);
    ck_assert_double_eq_tol(q[MPP_Q_COMM], 3.5, TOL);
    ck_assert_double_eq_tol(q[MPP_Q_SENDRECV], 1, TOL);
    ck_assert_double_eq_tol(q[MPP_Q_COLLECTIVE], 2, TOL);
    ck_assert_double_eq_tol(q[MPP_Q_SYSTEM], 0.5, TOL);
    ck_assert_double_eq_tol(q[MPP_Q_IO], 0.5, TOL);
    ck_assert_double_eq_tol(q[MPP_Q_INSUFFICIENT], 1, TOL);   /* 2 * (2-1)/2 */
    ck_assert_double_eq_tol(q[MPP_Q_PRODUCTIVE], 5.5, TOL);   /* 10 - 3.5 - 1: I/O is productive */
    ck_assert_double_eq_tol(q[MPP_Q_COMPUTE], 6, TOL);        /* 10 - 3.5 - 0.5 */
    ck_assert_double_eq_tol(q[MPP_Q_CPU], 7, TOL);
    ck_assert_double_eq_tol(q[MPP_Q_SYS], 1.5, TOL);
    mpp_process_quantities(&li, 4, q);
    ck_assert_double_eq_tol(q[MPP_Q_INSUFFICIENT], 1.5, TOL); /* 2 * 3/4 */
    ck_assert_double_eq_tol(q[MPP_Q_PRODUCTIVE], 5, TOL);
    mpp_process_quantities(&li, 1, q);
    ck_assert_double_eq_tol(q[MPP_Q_INSUFFICIENT], 0, TOL); /* one process: nothing is replicated */
    ck_assert_double_eq_tol(q[MPP_Q_PRODUCTIVE], 6.5, TOL);
}
END_TEST

/* --- main characteristics --- */

START_TEST(test_characteristics_main_two)
{
    build(two, 2);
    ck_assert_double_eq_tol(M(MPP_M_EXEC), 10, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PROCESSORS), 2, TOL);
    ck_assert_double_eq_tol(M(MPP_M_TOTAL), 20, TOL);
    ck_assert_double_eq_tol(M(MPP_M_COMM), 6.75, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SENDRECV), 3, TOL);
    ck_assert_double_eq_tol(M(MPP_M_COLLECTIVE), 3, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYSTEM), 0.75, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 2, TOL);          /* (10-10) + (10-8) */
    ck_assert_double_eq_tol(M(MPP_M_INSUFFICIENT), 2, TOL);  /* 2 * 2 * 1/2 */
    ck_assert_double_eq_tol(M(MPP_M_LOST), 10.75, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 9.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_KEFF), 0.4625, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 1.5, TOL);   /* C = 6, 4.5 */
    /* I/O as measured in MPI-IO calls, 0.75; CPU and Sys the rest, 8.5, in
     * getrusage's ratio 14 : 1.5 (its values count MPI's polling too) */
    ck_assert_double_eq_tol(M(MPP_M_IO), 0.75, TOL);
    ck_assert_double_eq_tol(M(MPP_M_CPU), 8.5 * 14 / 15.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYS), 8.5 * 1.5 / 15.5, TOL);
    check_invariants();
}
END_TEST

START_TEST(test_characteristics_main_four)
{
    build(four, 4);
    ck_assert_double_eq_tol(M(MPP_M_EXEC), 12, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PROCESSORS), 4, TOL);
    ck_assert_double_eq_tol(M(MPP_M_TOTAL), 48, TOL);
    ck_assert_double_eq_tol(M(MPP_M_COMM), 11.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SENDRECV), 6, TOL);
    ck_assert_double_eq_tol(M(MPP_M_COLLECTIVE), 4.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYSTEM), 1, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 7, TOL);           /* 0 + 2 + 4 + 1 */
    ck_assert_double_eq_tol(M(MPP_M_INSUFFICIENT), 12, TOL);  /* 4 * 4 * 3/4 */
    ck_assert_double_eq_tol(M(MPP_M_LOST), 30.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 17.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_KEFF), 17.5 / 48, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 12, TOL);     /* C = 10, 6, 3, 9 */
    ck_assert_double_eq_tol(M(MPP_M_IO), 1.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_CPU), 16 * 20 / 22.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYS), 16 * 2.5 / 22.5, TOL);
    check_invariants();
}
END_TEST

START_TEST(test_characteristics_by_process_values)
{
    build(four, 4);
    static const double lost[4] = {5, 8.5, 11, 6}, idle[4] = {0, 2, 4, 1}, imb[4] = {0, 4, 7, 1};
    static const double prod[4] = {7, 3.5, 1, 6}, comm[4] = {2, 3.5, 4, 2};
    for (int r = 0; r < 4; r++) {
        ck_assert_double_eq_tol(BY(r, MPP_P_EXEC), four[r].exec, TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_PRODUCTIVE), prod[r], TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_LOST), lost[r], TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_INSUFFICIENT), 3, TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_COMM), comm[r], TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_SENDRECV), four[r].sendrecv, TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_COLLECTIVE), four[r].collective, TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_SYSTEM), four[r].system, TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_IDLE), idle[r], TOL);
        ck_assert_double_eq_tol(BY(r, MPP_P_IMBALANCE), imb[r], TOL);
        ck_assert(isnan(BY(r, MPP_P_REALSYNC)) && isnan(BY(r, MPP_P_POTSYNC)));
        ck_assert(isnan(BY(r, MPP_P_VARIATION)) && isnan(BY(r, MPP_P_OVERLAP)));
    }
}
END_TEST

/* --- comparative characteristics --- */

START_TEST(test_characteristics_comparative_two)
{
    build(two, 2);
    expect_cmp(MPP_P_EXEC, 8, 1, 10, 0, 9);
    expect_cmp(MPP_P_PRODUCTIVE, 3.75, 1, 5.5, 0, 4.625);
    expect_cmp(MPP_P_INSUFFICIENT, 1, 0, 1, 0, 1);
    expect_cmp(MPP_P_COMM, 3.25, 1, 3.5, 0, 3.375);
    expect_cmp(MPP_P_SENDRECV, 1, 0, 2, 1, 1.5);
    expect_cmp(MPP_P_COLLECTIVE, 1, 1, 2, 0, 1.5);
    expect_cmp(MPP_P_SYSTEM, 0.25, 1, 0.5, 0, 0.375);
    /* reflected rows */
    expect_cmp(MPP_P_LOST, 4.5, 0, 6.25, 1, 5.375);
    expect_cmp(MPP_P_IDLE, 0, 0, 2, 1, 1);
    expect_cmp(MPP_P_IMBALANCE, 0, 0, 1.5, 1, 0.75);
}
END_TEST

START_TEST(test_characteristics_comparative_reflected)
{
    build(four, 4);
    expect_cmp(MPP_P_EXEC, 8, 2, 12, 0, 10.25);
    expect_cmp(MPP_P_PRODUCTIVE, 1, 2, 7, 0, 4.375);
    expect_cmp(MPP_P_COMM, 2, 0, 4, 2, 2.875);
    /* idle is least where T_exec(p) is largest, and so on */
    expect_cmp(MPP_P_IDLE, 0, B.in.q[MPP_Q_EXEC].max_rank, 4, B.in.q[MPP_Q_EXEC].min_rank, 1.75);
    ck_assert_int_eq(B.res.cmp[MPP_P_IDLE].min_rank, 0);
    ck_assert_int_eq(B.res.cmp[MPP_P_IDLE].max_rank, 2);
    expect_cmp(MPP_P_LOST, 5, 0, 11, 2, 7.625);
    expect_cmp(MPP_P_IMBALANCE, 0, 0, 7, 2, 3);
    check_invariants();
}
END_TEST

/* Three processes with the same execution time x, where the sum 3x divided
 * by 3 rounds above x: the idle time's mean must not come out negative
 * (the protocol's schema and the definition say >= 0). */
START_TEST(test_characteristics_mean_rounding)
{
    const double x = 0.49543508709194095; /* (x + x + x) / 3 > x in doubles */
    ck_assert((x + x + x) / 3 > x);
    static proc_t same[3];
    for (int p = 0; p < 3; p++)
        same[p] = (proc_t){.exec = x, .cpu = x / 2, .collective = x / 4};
    build(same, 3);
    const mpp_comparison_t *idle = &B.res.cmp[MPP_P_IDLE], *exec = &B.res.cmp[MPP_P_EXEC];
    ck_assert_double_ge(idle->mean, 0);
    ck_assert_double_ge(idle->mean, idle->min);
    ck_assert_double_le(idle->mean, idle->max);
    ck_assert_double_le(exec->mean, exec->max);
    ck_assert_double_eq(exec->mean, x);
}
END_TEST

/* --- n/a, absent processes, degenerate intervals --- */

START_TEST(test_characteristics_not_available)
{
    build(two, 2);
    /* without the model and the wait-state analysis (the reasons are given
     * in Warnings) */
    for (int m = 0; m < MPP_NMAIN; m++) {
        if (not_available_main(m))
            ck_assert_msg(isnan(M((mpp_main_t)m)), "%s should be n/a", mpp_main_names[m].label);
        else
            ck_assert_msg(!isnan(M((mpp_main_t)m)), "%s should be computed", mpp_main_names[m].label);
    }
    ck_assert_ptr_nonnull(strstr(mpp_overlap_off_reason, "n/a"));
    ck_assert_ptr_nonnull(strstr(mpp_predicted_waits_reason, "n/a"));
    for (int k = 0; k < MPP_NPP; k++) {
        const mpp_comparison_t *c = &B.res.cmp[k];
        if (not_available_pp(k)) {
            ck_assert(isnan(c->min) && isnan(c->max) && isnan(c->mean));
            ck_assert_int_eq(c->min_rank, -1);
            ck_assert_int_eq(c->max_rank, -1);
            for (int r = 0; r < 2; r++)
                ck_assert(isnan(BY(r, (mpp_per_process_t)k)));
        } else {
            ck_assert_msg(!isnan(c->mean), "%s comparative should be computed", mpp_per_process_names[k].label);
        }
    }
}
END_TEST

START_TEST(test_characteristics_not_entered)
{
    proc_t procs[4];
    memcpy(procs, four, sizeof procs);
    procs[2].absent = 1;
    build(procs, 4);
    for (int k = 0; k < MPP_NPP; k++)
        ck_assert_msg(isnan(BY(2, (mpp_per_process_t)k)), "rank 2 did not enter: %s should be NaN",
                      mpp_per_process_names[k].label);
    ck_assert_double_eq_tol(M(MPP_M_PROCESSORS), 3, TOL);
    ck_assert_double_eq_tol(M(MPP_M_EXEC), 12, TOL);
    ck_assert_double_eq_tol(M(MPP_M_TOTAL), 36, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 3, TOL);           /* 0 + 2 + 1 */
    ck_assert_double_eq_tol(M(MPP_M_INSUFFICIENT), 8, TOL);   /* 3 * 4 * 2/3 */
    ck_assert_double_eq_tol(M(MPP_M_COMM), 7.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_LOST), 18.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 17.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 5, TOL);      /* C = 10, 6, 9 */
    expect_cmp(MPP_P_EXEC, 10, 1, 12, 0, 11);
    expect_cmp(MPP_P_IDLE, 0, 0, 2, 1, 1);
    check_invariants();
    for (int k = 0; k < MPP_NPP; k++)
        if (!not_available_pp(k))
            ck_assert(B.res.cmp[k].min_rank != 2 && B.res.cmp[k].max_rank != 2);
}
END_TEST

START_TEST(test_characteristics_zero_time)
{
    proc_t zero[2];
    memset(zero, 0, sizeof zero);
    build(zero, 2);
    ck_assert_double_eq_tol(M(MPP_M_KEFF), 1.0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_TOTAL), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_LOST), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_CPU), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYS), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IO), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 0, TOL);
    check_invariants();
}
END_TEST

START_TEST(test_characteristics_nothing_lost)
{
    proc_t perfect[3] = {{.exec = 5, .cpu = 4, .sys = 1}, {.exec = 5, .cpu = 4, .sys = 1},
                         {.exec = 5, .cpu = 4, .sys = 1}};
    build(perfect, 3);
    ck_assert_double_eq_tol(M(MPP_M_KEFF), 1.0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_LOST), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 15, TOL);
    ck_assert_double_eq_tol(M(MPP_M_CPU), 12, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYS), 3, TOL);
    check_invariants();
}
END_TEST

START_TEST(test_characteristics_split_unmeasured)
{
    /* productive time but no CPU time measured: nothing to divide the time
     * outside MPI-IO by (n/a); I/O is known all the same */
    proc_t procs[2] = {{.exec = 4, .sendrecv = 1, .io = 0.5}, {.exec = 3}};
    build(procs, 2);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 6, TOL);
    ck_assert(isnan(M(MPP_M_CPU)) && isnan(M(MPP_M_SYS)));
    ck_assert_double_eq_tol(M(MPP_M_IO), 0.5, TOL);
    check_invariants();
    /* all of it MPI-IO: nothing left to divide, 0 and 0 */
    proc_t io_only[1] = {{.exec = 2, .io = 2}};
    build(io_only, 1);
    ck_assert_double_eq_tol(M(MPP_M_IO), 2, TOL);
    ck_assert_double_eq_tol(M(MPP_M_CPU), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYS), 0, TOL);
    check_invariants();
}
END_TEST

START_TEST(test_characteristics_split_io_exact)
{
    /* getrusage counts the 3 s rank 0 polled inside MPI too: the split
     * takes only its ratio, and I/O stays what the MPI-IO calls took */
    proc_t procs[2] = {{.exec = 10, .sendrecv = 3, .io = 1.25, .cpu = 9, .sys = 1},
                       {.exec = 10, .io = 0.5, .cpu = 6, .sys = 0}};
    build(procs, 2);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 17, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IO), 1.75, TOL);
    ck_assert_double_eq_tol(M(MPP_M_CPU), 15.25 * 15 / 16, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYS), 15.25 * 1 / 16, TOL);
    check_invariants();
    /* replicated code doing MPI-IO: more lost to insufficient parallelism
     * than the time outside MPI-IO; what stays productive is I/O */
    proc_t seq_io[2] = {{.exec = 4, .seq = 4, .io = 3.5, .cpu = 1, .sys = 0},
                        {.exec = 4, .seq = 4, .io = 3.5, .cpu = 1, .sys = 0}};
    build(seq_io, 2);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 4, TOL); /* 8 - 2 x 4 x 1/2 */
    ck_assert_double_eq_tol(M(MPP_M_IO), 4, TOL);
    ck_assert_double_eq_tol(M(MPP_M_CPU), 0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYS), 0, TOL);
    check_invariants();
}
END_TEST

/* Invariants on generated consistent data: 1 to 16 processes. */
START_TEST(test_characteristics_invariants_generated)
{
    unsigned seed = 12345;
#define RND() ((seed = seed * 1103515245u + 12345u), (double)((seed >> 8) % 1000) / 100.0)
    for (int round = 0; round < 200; round++) {
        int nprocs = 1 + round % MAXP;
        proc_t procs[MAXP];
        memset(procs, 0, sizeof procs);
        for (int p = 0; p < nprocs; p++) {
            proc_t *x = &procs[p];
            x->sendrecv = RND(), x->collective = RND(), x->system = RND() / 10, x->io = RND() / 4;
            x->seq = RND() / 2;
            x->exec = x->sendrecv + x->collective + x->system + x->io + x->seq + RND();
            x->cpu = RND(), x->sys = RND() / 10;
            x->absent = nprocs > 2 && p == round % nprocs && round % 3 == 0;
        }
        build(procs, nprocs);
        check_invariants();
    }
#undef RND
}
END_TEST

START_TEST(test_characteristics_names)
{
    static const char *const main_labels[MPP_NMAIN] = {
        "Parallelization efficiency", "Execution time", "Processors", "Total time", "Productive time", "CPU", "Sys",
        "I/O", "Lost time", "Insufficient parallelism", "Communication", "SendRecv", "Real_sync", "Collective",
        "System", "Idle time", "Load imbalance", "Potential sync", "Time variation", "Overlap"};
    static const char *const pp_labels[MPP_NPP] = {
        "Execution time", "Productive time", "Lost time", "Insufficient parallelism", "Communication", "SendRecv",
        "Real sync", "Collective", "System", "Idle time", "Load imbalance", "Potential sync", "Time variation",
        "Overlap"};
    for (int m = 0; m < MPP_NMAIN; m++) {
        ck_assert_str_eq(mpp_main_names[m].label, main_labels[m]);
        const char *j = mpp_main_names[m].json_key;
        ck_assert_uint_eq(strspn(j, "abcdefghijklmnopqrstuvwxyz_"), strlen(j));
        for (int n = 0; n < m; n++)
            ck_assert_str_ne(mpp_main_names[n].json_key, j);
    }
    for (int k = 0; k < MPP_NPP; k++) {
        ck_assert_str_eq(mpp_per_process_names[k].label, pp_labels[k]);
        const char *j = mpp_per_process_names[k].json_key;
        ck_assert_uint_eq(strspn(j, "abcdefghijklmnopqrstuvwxyz_"), strlen(j));
        for (int n = 0; n < k; n++)
            ck_assert_str_ne(mpp_per_process_names[n].json_key, j);
    }
}
END_TEST

/* --- Overlap and the predicted characteristics --- */

/* The interval of build() with Overlap known, as when the model ran. */
static void with_overlap(void)
{
    free(B.res.by_process);
    B.res.by_process = NULL;
    B.in.overlap_known = 1;
    ck_assert_int_eq(mpp_characteristics(&B.in, B.nprocs, &B.res), 0);
}

START_TEST(test_characteristics_overlap)
{
    proc_t procs[2];
    memcpy(procs, two, sizeof procs);
    procs[0].overlap = 0.75, procs[1].overlap = 0.25;
    build(procs, 2);
    ck_assert(isnan(M(MPP_M_OVERLAP))); /* without the model: n/a */
    with_overlap();
    ck_assert_double_eq_tol(M(MPP_M_OVERLAP), 1.0, TOL);
    expect_cmp(MPP_P_OVERLAP, 0.25, 1, 0.75, 0, 0.5);
    ck_assert_double_eq_tol(BY(0, MPP_P_OVERLAP), 0.75, TOL);
    ck_assert_double_eq_tol(BY(1, MPP_P_OVERLAP), 0.25, TOL);
    /* Overlap is not lost time: the rest is as before */
    ck_assert_double_eq_tol(M(MPP_M_LOST), 10.75, TOL);
    check_invariants();
}
END_TEST

START_TEST(test_characteristics_waitstates)
{
    proc_t procs[2];
    memcpy(procs, two, sizeof procs);
    procs[0].wait[0] = 0.4, procs[1].wait[0] = 0.0;  /* rank 0 waited for late senders */
    procs[0].wait[1] = 0.2, procs[1].wait[1] = 0.05; /* entered collectives first */
    procs[0].wait[2] = 0.0, procs[1].wait[2] = 0.01;
    build(procs, 2);
    ck_assert(isnan(M(MPP_M_REALSYNC)) && isnan(M(MPP_M_POTSYNC)) && isnan(M(MPP_M_VARIATION)));
    ck_assert(isnan(BY(0, MPP_P_REALSYNC)));
    double lost = M(MPP_M_LOST);
    B.in.waitstates_known = 1;
    free(B.res.by_process);
    ck_assert_int_eq(mpp_characteristics(&B.in, 2, &B.res), 0);
    ck_assert_double_eq_tol(M(MPP_M_REALSYNC), 0.4, TOL);
    ck_assert_double_eq_tol(M(MPP_M_POTSYNC), 0.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_VARIATION), 0.01, TOL);
    expect_cmp(MPP_P_REALSYNC, 0, 1, 0.4, 0, 0.2);
    expect_cmp(MPP_P_POTSYNC, 0.05, 1, 0.2, 0, 0.125);
    expect_cmp(MPP_P_VARIATION, 0, 0, 0.01, 1, 0.005);
    ck_assert_double_eq_tol(BY(0, MPP_P_REALSYNC), 0.4, TOL);
    ck_assert_double_eq_tol(BY(1, MPP_P_VARIATION), 0.01, TOL);
    /* wait states explain lost time, they add none */
    ck_assert_double_eq_tol(M(MPP_M_LOST), lost, TOL);
    check_invariants();
}
END_TEST

/* The predicted interval of `procs` as the reduction builds it: each
 * process's real quantities, its relative core speed speeds[p] and the
 * predicted time of its MPI calls pcat[p] give its predicted quantities
 * (the mean work over the processes that entered first); then their sums,
 * minima and maxima; then the predicted characteristics into B.res. */
static void build_predicted(const proc_t *procs, int nprocs, const double *speeds,
                            const double (*pcat)[MPP_NCAT])
{
    build(procs, nprocs);
    double work = 0, insufficient_work = 0;
    for (int p = 0; p < nprocs; p++) {
        if (procs[p].absent)
            continue;
        double w, iw;
        mpp_process_work(&B.by_process[p * MPP_NQ], speeds[p], &w, &iw);
        work += w, insufficient_work += iw;
    }
    for (int k = 0; k < MPP_NQ; k++)
        B.in.pq[k] = (mpp_stat_t){0, INFINITY, -INFINITY, -1, -1, 0};
    for (int p = 0; p < nprocs; p++) {
        double *v = &B.pred_by_process[p * MPP_NQ];
        if (procs[p].absent) {
            for (int k = 0; k < MPP_NQ; k++)
                v[k] = NAN;
            continue;
        }
        mpp_predicted_quantities(&B.by_process[p * MPP_NQ], pcat[p], speeds[p], work / B.in.processes,
                                 insufficient_work / B.in.processes, v);
        for (int k = 0; k < MPP_NQ; k++) {
            mpp_stat_t *s = &B.in.pq[k];
            s->sum += v[k];
            if (v[k] < s->min)
                s->min = v[k], s->min_rank = p;
            if (v[k] > s->max)
                s->max = v[k], s->max_rank = p;
            s->count++;
        }
    }
    B.in.predicted = B.in.overlap_known = 1;
    B.in.pred_by_process = B.pred_by_process;
    free(B.res.by_process);
    B.res.by_process = NULL;
    ck_assert_int_eq(mpp_characteristics_predicted(&B.in, nprocs, &B.res), 0);
}

/* Rank 0 computes 8 s and waits 2 s in point-to-point calls, rank 1
 * computes 4 s and waits 3 s in a collective; the model prices rank 0's
 * calls at 0.5 s, rank 1's at 0.25 s. */
static const proc_t uneven[2] = {
    {.exec = 10, .sendrecv = 2, .cpu = 7, .sys = 1},
    {.exec = 7, .collective = 3, .cpu = 3, .sys = 1},
};
static const double uneven_pcat[2][MPP_NCAT] = {{0.5, 0, 0, 0}, {0, 0.25, 0, 0}};

START_TEST(test_characteristics_predicted_same_speed)
{
    static const double speeds[2] = {1, 1};
    build_predicted(uneven, 2, speeds, uneven_pcat);
    /* computation: the mean, (8 + 4) / 2 = 6 s on both; execution 6.5 and 6.25 s */
    ck_assert_double_eq_tol(BY(0, MPP_P_EXEC), 6.5, TOL);
    ck_assert_double_eq_tol(BY(1, MPP_P_EXEC), 6.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_EXEC), 6.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_TOTAL), 13, TOL);
    ck_assert_double_eq_tol(M(MPP_M_COMM), 0.75, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SENDRECV), 0.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_COLLECTIVE), 0.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 0.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_LOST), 1.0, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 12, TOL);
    ck_assert_double_eq_tol(M(MPP_M_KEFF), 12.0 / 13, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 0, TOL); /* the same computation everywhere */
    /* CPU and Sys split the predicted productive time as they split the real one */
    ck_assert_double_eq_tol(M(MPP_M_CPU), 12 * 10.0 / 12, TOL);
    ck_assert_double_eq_tol(M(MPP_M_SYS), 12 * 2.0 / 12, TOL);
    expect_cmp(MPP_P_IDLE, 0, 0, 0.25, 1, 0.125);
    check_invariants();
    /* the real characteristics of the same processes are far worse */
    mpp_interval_result_t real;
    memset(&real, 0, sizeof real);
    ck_assert_int_eq(mpp_characteristics(&B.in, 2, &real), 0);
    ck_assert_double_eq_tol(real.main[MPP_M_KEFF], 12.0 / 20, TOL);
    free(real.by_process);
}
END_TEST

START_TEST(test_characteristics_predicted_speeds)
{
    /* rank 0's core is twice as fast as rank 1's (relative speeds 4/3 and 2/3):
     * work 8 * 4/3 and 4 * 2/3, mean 20/3; computation 5 s on rank 0, 10 s on rank 1 */
    static const double speeds[2] = {4.0 / 3, 2.0 / 3};
    build_predicted(uneven, 2, speeds, uneven_pcat);
    ck_assert_double_eq_tol(BY(0, MPP_P_EXEC), 5.5, TOL);
    ck_assert_double_eq_tol(BY(1, MPP_P_EXEC), 10.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_EXEC), 10.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 4.75, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_LOST), 5.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_KEFF), 15 / 20.5, TOL);
    expect_cmp(MPP_P_EXEC, 5.5, 0, 10.25, 1, 7.875);
    check_invariants();
}
END_TEST

START_TEST(test_characteristics_predicted_insufficient_io_overlap)
{
    /* replicated code (SEQ 2 s each: 1 s insufficient), MPI-IO (kept as
     * measured), Overlap (the same as the real one) */
    proc_t procs[2];
    memcpy(procs, uneven, sizeof procs);
    procs[0].seq = procs[1].seq = 2;
    procs[1].io = 1, procs[1].exec = 8; /* computation still 4 s */
    procs[0].overlap = 0.125;
    static const double speeds[2] = {1, 1};
    static const double pcat[2][MPP_NCAT] = {{0.5, 0, 0, 0}, {0, 0.25, 0, 1}};
    build_predicted(procs, 2, speeds, pcat);
    ck_assert_double_eq_tol(BY(1, MPP_P_EXEC), 6 + 0.25 + 1, TOL);
    ck_assert_double_eq_tol(M(MPP_M_EXEC), 7.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_INSUFFICIENT), 2, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IO), 1, TOL); /* as measured */
    ck_assert_double_eq_tol(M(MPP_M_CPU), (M(MPP_M_PRODUCTIVE) - 1) * 10 / 12, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 7.25 - 6.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_OVERLAP), 0.125, TOL);
    ck_assert_double_eq_tol(BY(0, MPP_P_OVERLAP), 0.125, TOL);
    check_invariants();
}
END_TEST

START_TEST(test_characteristics_predicted_not_entered)
{
    proc_t procs[4];
    memcpy(procs, four, sizeof procs);
    procs[2].absent = 1;
    static const double speeds[4] = {1, 1, 1, 1};
    static const double pcat[4][MPP_NCAT] = {{1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}, {1, 0, 0, 0}};
    build_predicted(procs, 4, speeds, pcat);
    for (int k = 0; k < MPP_NPP; k++)
        ck_assert(isnan(BY(2, (mpp_per_process_t)k)));
    ck_assert_double_eq_tol(M(MPP_M_PROCESSORS), 3, TOL);
    /* computation 10, 6, 9: mean 25/3 on every process that entered */
    ck_assert_double_eq_tol(BY(0, MPP_P_EXEC), 25.0 / 3 + 1, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 0, TOL);
    check_invariants();
}
END_TEST

/* --- bad arguments --- */

START_TEST(test_characteristics_bad_args)
{
    /* no selected process: by_process still allocated, main values unchanged */
    build(two, 2);
    double keff = M(MPP_M_KEFF), lost = M(MPP_M_LOST);
    mpp_interval_result_t none;
    memset(&none, 0, sizeof none);
    ck_assert_int_eq(mpp_characteristics(&B.in, 0, &none), 0);
    ck_assert_ptr_nonnull(none.by_process);
    ck_assert_double_eq_tol(none.main[MPP_M_KEFF], keff, TOL);
    ck_assert_double_eq_tol(none.main[MPP_M_LOST], lost, TOL);
    free(none.by_process);
    /* processes = 0: no division by zero */
    mpp_local_interval_t li;
    double q[MPP_NQ];
    memset(&li, 0, sizeof li);
    li.exec = 3, li.seq = 1;
    mpp_process_quantities(&li, 0, q);
    ck_assert_double_eq_tol(q[MPP_Q_INSUFFICIENT], 0, TOL);
    ck_assert_double_eq_tol(q[MPP_Q_PRODUCTIVE], 3, TOL);
    /* predicted: not without the predicted quantities */
    memset(&none, 0, sizeof none);
    ck_assert_int_eq(mpp_characteristics_predicted(&B.in, 2, &none), -1);
    ck_assert_ptr_null(none.by_process);
    /* a speed of 0 (unknown) counts as 1; the insufficient part never exceeds the computation */
    double pq[MPP_NQ], w, iw;
    const double pcat[MPP_NCAT] = {0.5, 0, 0, 0};
    q[MPP_Q_COMPUTE] = 2, q[MPP_Q_INSUFFICIENT] = 1;
    mpp_process_work(q, 0, &w, &iw);
    ck_assert_double_eq_tol(w, 2, TOL);
    mpp_predicted_quantities(q, pcat, 0, 3, 5, pq);
    ck_assert_double_eq_tol(pq[MPP_Q_COMPUTE], 3, TOL);
    ck_assert_double_eq_tol(pq[MPP_Q_INSUFFICIENT], 3, TOL);
    ck_assert_double_eq_tol(pq[MPP_Q_EXEC], 3.5, TOL);
    ck_assert(pq[MPP_Q_PRODUCTIVE] >= 0);
}
END_TEST

Suite *characteristics_suite(void)
{
    Suite *s = suite_create("characteristics");
    TCase *tc;

    tc = tcase_create("main");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_characteristics_process_quantities);
    tcase_add_test(tc, test_characteristics_main_two);
    tcase_add_test(tc, test_characteristics_main_four);
    tcase_add_test(tc, test_characteristics_by_process_values);
    tcase_add_test(tc, test_characteristics_names);
    suite_add_tcase(s, tc);

    tc = tcase_create("comparative");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_characteristics_comparative_two);
    tcase_add_test(tc, test_characteristics_comparative_reflected);
    tcase_add_test(tc, test_characteristics_mean_rounding);
    suite_add_tcase(s, tc);

    tc = tcase_create("invariants");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_characteristics_invariants_generated);
    tcase_add_test(tc, test_characteristics_nothing_lost);
    suite_add_tcase(s, tc);

    tc = tcase_create("not_available");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_characteristics_not_available);
    tcase_add_test(tc, test_characteristics_not_entered);
    tcase_add_test(tc, test_characteristics_zero_time);
    tcase_add_test(tc, test_characteristics_split_unmeasured);
    tcase_add_test(tc, test_characteristics_split_io_exact);
    suite_add_tcase(s, tc);

    tc = tcase_create("predicted");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_characteristics_overlap);
    tcase_add_test(tc, test_characteristics_waitstates);
    tcase_add_test(tc, test_characteristics_predicted_same_speed);
    tcase_add_test(tc, test_characteristics_predicted_speeds);
    tcase_add_test(tc, test_characteristics_predicted_insufficient_io_overlap);
    tcase_add_test(tc, test_characteristics_predicted_not_entered);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_characteristics_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
