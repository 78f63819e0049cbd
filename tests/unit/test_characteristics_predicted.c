/* Overlap, the wait states and the predicted characteristics
 * (src/analyze/characteristics.c) on the hand-made reduced intervals of
 * characteristics_fixture.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "characteristics_fixture.h"

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
static void build_predicted(const proc_t *procs, int nprocs, const double *speeds, const double (*pcat)[MPP_NCAT])
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
        for (int k = 0; k < MPP_NQ; k++)
            stat_add(&B.in.pq[k], v[k], p);
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

Suite *characteristics_predicted_suite(void)
{
    Suite *s = suite_create("characteristics_predicted");
    TCase *tc;

    tc = tcase_create("predicted");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_characteristics_overlap);
    tcase_add_test(tc, test_characteristics_waitstates);
    tcase_add_test(tc, test_characteristics_predicted_same_speed);
    tcase_add_test(tc, test_characteristics_predicted_speeds);
    tcase_add_test(tc, test_characteristics_predicted_insufficient_io_overlap);
    tcase_add_test(tc, test_characteristics_predicted_not_entered);
    suite_add_tcase(s, tc);
    return s;
}
