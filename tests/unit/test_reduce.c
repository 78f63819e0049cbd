/* The reduction without MPI (exchange.h): one process alone (partial
 * protocols) and several in one address space (mpiprof-merge), named by
 * their ranks in the run, which need not be contiguous. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reduce/exchange.h"
#include "suites.h"
#include "util/srckey.h"

typedef struct {
    mpp_interval_t info[2];
    mpp_local_interval_t intervals[2];
    mpp_local_cell_t cells[1];
    mpp_local_profile_t profile;
    char key1[64], src[64];
} fake_t;

/* Interval 0, a child "loop", and one MPI_Send cell in it: exec e, of it
 * comm c (SendRecv), `calls` calls. */
static void fake_profile(fake_t *f, double e, double c, uint64_t calls)
{
    memset(f, 0, sizeof *f);
    snprintf(f->key1, sizeof f->key1, "0%cloop%cx.c%c10", MPP_RS, MPP_US, MPP_US);
    snprintf(f->src, sizeof f->src, "MPI_Send%cx.c%c12%cmain%cx.c:12 (main)", MPP_RS, MPP_US, MPP_US, MPP_US);
    f->info[0].executions = f->info[1].executions = 1;
    f->intervals[0] = (mpp_local_interval_t){.key = "0", .info = &f->info[0], .parent = -1, .exec = e + 1};
    f->intervals[1] = (mpp_local_interval_t){.key = f->key1, .info = &f->info[1], .parent = 0, .exec = e};
    f->intervals[0].cat[MPP_CAT_SENDRECV] = f->intervals[1].cat[MPP_CAT_SENDRECV] = c;
    f->cells[0] =
        (mpp_local_cell_t){.interval = 1, .src = f->src, .calls = calls, .bytes_sent = 8 * calls, .time = c};
    f->cells[0].cat[MPP_CAT_SENDRECV] = c;
    f->profile = (mpp_local_profile_t){.intervals = f->intervals, .nintervals = 2, .cells = f->cells, .ncells = 1};
    f->profile.context.machine_na = "not in this test";
    f->profile.context.counters_na = "not in this test";
    static const char *const none[1];
    f->profile.context.warnings = none; /* not the warnings of this test process */
}

START_TEST(test_reduce_alone)
{
    fake_t f;
    fake_profile(&f, 2.0, 0.5, 7);
    const mpp_local_profile_t *profiles[] = {&f.profile};
    const int ranks[] = {3};
    const char *hosts[] = {"h"};
    mpp_reduced_t *rd = mpp_reduce_in_memory(profiles, ranks, hosts, 1, 4, "all");
    ck_assert_ptr_nonnull(rd);
    ck_assert_int_eq(rd->nprocs, 4);
    ck_assert_int_eq(rd->nselected, 1);
    ck_assert_int_eq(rd->selected[0], 3);
    ck_assert_int_eq(rd->nintervals, 2);
    ck_assert_int_eq(rd->intervals[1].processes, 1);
    ck_assert_double_eq(rd->intervals[1].q[MPP_Q_EXEC].sum, 2.0);
    ck_assert_int_eq(rd->intervals[1].q[MPP_Q_EXEC].min_rank, 3);
    ck_assert_int_eq(rd->intervals[1].q[MPP_Q_COMM].max_rank, 3);
    ck_assert_int_eq(rd->ncells, 1);
    ck_assert_uint_eq(rd->cells[0].calls, 7);
    ck_assert_int_eq(rd->cells[0].time.min_rank, 3);
    ck_assert_double_eq(rd->cells[0].by_process[MPP_CELL_CALLS], 7);
    ck_assert_int_eq(rd->nnodes, 1);
    mpp_reduced_free(rd);
}
END_TEST

START_TEST(test_reduce_several)
{
    enum { N = 3 };
    fake_t f[N];
    const mpp_local_profile_t *profiles[N];
    const double exec[N] = {2.0, 5.0, 3.0}, comm[N] = {0.5, 0.25, 1.0};
    const int ranks[N] = {0, 2, 5};
    const char *hosts[N] = {"a", "b", "a"};
    for (int p = 0; p < N; p++) {
        fake_profile(&f[p], exec[p], comm[p], (uint64_t)(10 * (p + 1)));
        profiles[p] = &f[p].profile;
    }
    mpp_reduced_t *rd = mpp_reduce_in_memory(profiles, ranks, hosts, N, 6, "all");
    ck_assert_ptr_nonnull(rd);
    ck_assert_int_eq(rd->nprocs, 6);
    ck_assert_int_eq(rd->nnodes, 2);
    ck_assert_int_eq(rd->nselected, N);
    for (int p = 0; p < N; p++)
        ck_assert_int_eq(rd->selected[p], ranks[p]);
    const mpp_reduced_interval_t *loop = &rd->intervals[1];
    ck_assert_int_eq(loop->processes, N);
    ck_assert_double_eq(loop->q[MPP_Q_EXEC].sum, 10.0);
    ck_assert_double_eq(loop->q[MPP_Q_EXEC].max, 5.0);
    ck_assert_int_eq(loop->q[MPP_Q_EXEC].max_rank, 2);
    ck_assert_double_eq(loop->q[MPP_Q_COMM].min, 0.25);
    ck_assert_int_eq(loop->q[MPP_Q_COMM].min_rank, 2);
    ck_assert_int_eq(loop->q[MPP_Q_COMM].max_rank, 5);
    for (int p = 0; p < N; p++)
        ck_assert_double_eq(loop->by_process[(size_t)p * MPP_NQ + MPP_Q_EXEC], exec[p]);
    ck_assert_int_eq(rd->ncells, 1);
    ck_assert_uint_eq(rd->cells[0].calls, 60);
    ck_assert_uint_eq(rd->cells[0].bytes_sent, 480);
    ck_assert_double_eq(rd->cells[0].by_process[2 * MPP_NCELLV + MPP_CELL_CALLS], 30);
    mpp_reduced_free(rd);
}
END_TEST

/* MPIPROF_RANKS names ranks of the run, not positions. */
START_TEST(test_reduce_selection_by_rank)
{
    fake_t f[2];
    fake_profile(&f[0], 1.0, 0.1, 1);
    fake_profile(&f[1], 1.0, 0.1, 1);
    const mpp_local_profile_t *profiles[] = {&f[0].profile, &f[1].profile};
    const int ranks[] = {1, 3};
    const char *hosts[] = {"h", "h"};
    mpp_reduced_t *rd = mpp_reduce_in_memory(profiles, ranks, hosts, 2, 4, "3");
    ck_assert_ptr_nonnull(rd);
    ck_assert_int_eq(rd->nselected, 1);
    ck_assert_int_eq(rd->selected[0], 3);
    mpp_reduced_free(rd);
}
END_TEST

/* Per-thread times (given when one process gives them: every process's
 * cells are reduced then) and the Threads parameter (facts by host, and
 * by rank for the selected processes). */
START_TEST(test_reduce_threads)
{
    fake_t f[2];
    fake_profile(&f[0], 1.0, 0.4, 2);
    fake_profile(&f[1], 1.0, 0.02, 1);
    f[0].profile.thread_times = 1;
    f[0].cells[0].thread_mask = 3, f[0].cells[0].nthreads = 2;
    f[0].cells[0].thread_time[0] = 0.3, f[0].cells[0].thread_time[1] = 0.1;
    f[1].cells[0].thread_mask = 2, f[1].cells[0].nthreads = 1;
    f[1].cells[0].thread_time[1] = 0.02;
    char fact0[64], fact1[64];
    char *facts0[] = {fact0}, *facts1[] = {fact1};
    snprintf(fact0, sizeof fact0, "threads%ch%c3%c3%c0%c0", MPP_US, MPP_US, MPP_US, MPP_US, MPP_US);
    snprintf(fact1, sizeof fact1, "threads%ch%c2%c1%c2%c1", MPP_US, MPP_US, MPP_US, MPP_US, MPP_US);
    f[0].profile.context.facts = facts0, f[0].profile.context.nfacts = 1;
    f[1].profile.context.facts = facts1, f[1].profile.context.nfacts = 1;
    const mpp_local_profile_t *profiles[] = {&f[0].profile, &f[1].profile};
    const int ranks[] = {0, 1};
    const char *hosts[] = {"h", "h"};
    mpp_reduced_t *rd = mpp_reduce_in_memory(profiles, ranks, hosts, 2, 2, "all");
    ck_assert_ptr_nonnull(rd);
    ck_assert_int_eq(rd->thread_times, 1);
    const mpp_reduced_cell_threads_t *t = rd->cells[0].threads;
    ck_assert_ptr_nonnull(t);
    ck_assert_int_eq(t->threads_max, 2);
    ck_assert_int_eq(t->threads_max_rank, 0);
    ck_assert_double_eq_tol(t->per_thread.min, 0.02, 1e-12);
    ck_assert_int_eq(t->per_thread.min_rank, 1);
    ck_assert_double_eq_tol(t->per_thread.max, 0.3, 1e-12);
    ck_assert_int_eq(t->per_thread.max_rank, 0);
    ck_assert_double_eq_tol(t->values[MPP_CELLT_SLOT0], 0.3, 1e-12);
    ck_assert_double_eq_tol(t->values[MPP_CELLT_SLOT0 + 1], 0.12, 1e-12);
    ck_assert_double_eq(t->values[MPP_CELLT_THREADS], 3);
    ck_assert_uint_eq(t->slots, 3);
    ck_assert_double_eq_tol(t->by_process[MPP_CELLT_SLOT0 + 1], 0.1, 1e-12);
    ck_assert(isnan(t->by_process[MPP_NCELLT + MPP_CELLT_SLOT0]));
    ck_assert_double_eq_tol(t->by_process[MPP_NCELLT + MPP_CELLT_SLOT0 + 1], 0.02, 1e-12);
    const mpp_reduced_threads_t *th = &rd->threads;
    ck_assert_int_eq(th->processes, 2);
    ck_assert_double_eq(th->v[MPP_THREADS_ALIVE].min, 2);
    ck_assert_int_eq(th->v[MPP_THREADS_ALIVE].min_rank, 1);
    ck_assert_double_eq(th->v[MPP_THREADS_ALIVE].max, 3);
    ck_assert_int_eq(th->v[MPP_THREADS_ALIVE].max_rank, 0);
    ck_assert_double_eq(th->v[MPP_THREADS_MPI].min, 1);
    ck_assert_int_eq(th->v[MPP_THREADS_OMP].count, 1);
    ck_assert_double_eq(th->v[MPP_THREADS_OMP].max, 2);
    ck_assert_int_eq(th->omp_runtime, 1);
    ck_assert_double_eq(th->by_process[MPP_THREADS_MPI], 3);
    ck_assert(isnan(th->by_process[MPP_THREADS_OMP]));
    ck_assert_double_eq(th->by_process[MPP_NTHREADV + MPP_THREADS_OMP], 2);
    mpp_reduced_free(rd);
    /* no process gives per-thread times: none reduced */
    f[0].profile.thread_times = 0;
    rd = mpp_reduce_in_memory(profiles, ranks, hosts, 2, 2, "all");
    ck_assert_ptr_nonnull(rd);
    ck_assert_int_eq(rd->thread_times, 0);
    ck_assert_ptr_null(rd->cells[0].threads);
    mpp_reduced_free(rd);
}
END_TEST

START_TEST(test_reduce_bad_args) { ck_assert_ptr_null(mpp_reduce_in_memory(NULL, NULL, NULL, 0, 1, "all")); }
END_TEST

Suite *reduce_suite(void)
{
    Suite *s = suite_create("reduce");
    TCase *tc = tcase_create("in_memory");
    tcase_add_checked_fixture(tc, unit_reset_warnings, unit_reset_warnings);
    tcase_add_test(tc, test_reduce_alone);
    tcase_add_test(tc, test_reduce_several);
    tcase_add_test(tc, test_reduce_selection_by_rank);
    tcase_add_test(tc, test_reduce_threads);
    tcase_add_test(tc, test_reduce_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
