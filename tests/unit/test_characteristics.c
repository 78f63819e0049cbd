/* Characteristics of characteristics.md (src/analyze/characteristics.c) on
 * the hand-made reduced intervals of characteristics_fixture.c.  Overlap and
 * the predicted characteristics: test_characteristics_predicted.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "characteristics_fixture.h"

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
    ck_assert_double_eq_tol(q[MPP_Q_INSUFFICIENT], 1, TOL); /* 2 * (2-1)/2 */
    ck_assert_double_eq_tol(q[MPP_Q_PRODUCTIVE], 5.5, TOL); /* 10 - 3.5 - 1: I/O is productive */
    ck_assert_double_eq_tol(q[MPP_Q_COMPUTE], 6, TOL);      /* 10 - 3.5 - 0.5 */
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
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 2, TOL);         /* (10-10) + (10-8) */
    ck_assert_double_eq_tol(M(MPP_M_INSUFFICIENT), 2, TOL); /* 2 * 2 * 1/2 */
    ck_assert_double_eq_tol(M(MPP_M_LOST), 10.75, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 9.25, TOL);
    ck_assert_double_eq_tol(M(MPP_M_KEFF), 0.4625, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 1.5, TOL); /* C = 6, 4.5 */
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
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 7, TOL);          /* 0 + 2 + 4 + 1 */
    ck_assert_double_eq_tol(M(MPP_M_INSUFFICIENT), 12, TOL); /* 4 * 4 * 3/4 */
    ck_assert_double_eq_tol(M(MPP_M_LOST), 30.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 17.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_KEFF), 17.5 / 48, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 12, TOL); /* C = 10, 6, 3, 9 */
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
    ck_assert_double_eq_tol(M(MPP_M_IDLE), 3, TOL);         /* 0 + 2 + 1 */
    ck_assert_double_eq_tol(M(MPP_M_INSUFFICIENT), 8, TOL); /* 3 * 4 * 2/3 */
    ck_assert_double_eq_tol(M(MPP_M_COMM), 7.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_LOST), 18.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_PRODUCTIVE), 17.5, TOL);
    ck_assert_double_eq_tol(M(MPP_M_IMBALANCE), 5, TOL); /* C = 10, 6, 9 */
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
    proc_t perfect[3] = {
        {.exec = 5, .cpu = 4, .sys = 1}, {.exec = 5, .cpu = 4, .sys = 1}, {.exec = 5, .cpu = 4, .sys = 1}};
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
    static const char *const main_labels[MPP_NMAIN] = {"Parallelization efficiency",
                                                       "Execution time",
                                                       "Processors",
                                                       "Total time",
                                                       "Productive time",
                                                       "CPU",
                                                       "Sys",
                                                       "I/O",
                                                       "Lost time",
                                                       "Insufficient parallelism",
                                                       "Communication",
                                                       "SendRecv",
                                                       "Real_sync",
                                                       "Collective",
                                                       "System",
                                                       "Idle time",
                                                       "Load imbalance",
                                                       "Potential sync",
                                                       "Time variation",
                                                       "Overlap"};
    static const char *const pp_labels[MPP_NPP] = {
        "Execution time", "Productive time", "Lost time",      "Insufficient parallelism",
        "Communication",  "SendRecv",        "Real sync",      "Collective",
        "System",         "Idle time",       "Load imbalance", "Potential sync",
        "Time variation", "Overlap"};
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

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_characteristics_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
