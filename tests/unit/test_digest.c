/* The digest and the SRC tables summed over intervals (src/analyze/digest.c)
 * on a hand-made run: interval 0 with a sub-interval 1, itself with a
 * sub-interval 2, and an interval 3 beside 1; SRC 1 (MPI_Allreduce) called
 * in 0 and 2, SRC 2 (MPI_Send) in 1, SRC 3 (MPI_File_write_at_all) in 3. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/digest.h"
#include "suites.h"

#define NSEL 2
static mpp_reduced_interval_t ivs[4];
static mpp_reduced_src_t srcs[3];
static mpp_reduced_cell_t cells[4];
static double values[4][NSEL * MPP_NCELLV];
static int selected[NSEL] = {0, 1};
static mpp_reduced_t rd;
static mpp_interval_result_t whole;

static void cell(int c, int interval, int src, uint64_t calls, double t0, double t1)
{
    cells[c] = (mpp_reduced_cell_t){.interval = interval, .src = src, .calls = calls, .bytes_sent = 8 * calls};
    cells[c].time = (mpp_stat_t){t0 + t1, fmin(t0, t1), fmax(t0, t1), t0 <= t1 ? 0 : 1, t0 <= t1 ? 1 : 0, 2};
    for (int k = 0; k < NSEL * MPP_NCELLV; k++)
        values[c][k] = NAN;
    values[c][MPP_CELL_TIME] = t0, values[c][MPP_NCELLV + MPP_CELL_TIME] = t1;
    values[c][MPP_CELL_CALLS] = values[c][MPP_NCELLV + MPP_CELL_CALLS] = (double)calls / 2;
    cells[c].by_process = values[c];
}

static void setup(void)
{
    memset(&rd, 0, sizeof rd);
    memset(&whole, 0, sizeof whole);
    static const int parent[4] = {-1, 0, 1, 0};
    for (int i = 0; i < 4; i++)
        ivs[i] = (mpp_reduced_interval_t){.id = i, .parent = parent[i], .level = i == 2 ? 2 : i ? 1 : 0};
    static const char *const names[3] = {"MPI_Allreduce", "MPI_Send", "MPI_File_write_at_all"};
    for (int s = 0; s < 3; s++)
        srcs[s] = (mpp_reduced_src_t){.id = s + 1, .function = (char *)names[s]};
    cell(0, 0, 0, 2, 0.25, 0.5); /* SRC 1 in interval 0 */
    cell(1, 2, 0, 4, 1.0, 0.5);  /* SRC 1 in interval 2 */
    cell(2, 1, 1, 6, 2.0, 0.0);  /* SRC 2 in interval 1 */
    cell(3, 3, 2, 2, 3.0, 3.0);  /* SRC 3 in interval 3 */
    /* rank 1 made no MPI_Send */
    values[2][MPP_NCELLV + MPP_CELL_TIME] = values[2][MPP_NCELLV + MPP_CELL_CALLS] = NAN;
    cells[2].time = (mpp_stat_t){2.0, 2.0, 2.0, 0, 0, 1};
    rd = (mpp_reduced_t){.nprocs = NSEL,
                         .nnodes = 1,
                         .nselected = NSEL,
                         .selected = selected,
                         .intervals = ivs,
                         .nintervals = 4,
                         .srcs = srcs,
                         .nsrcs = 3,
                         .cells = cells,
                         .ncells = 4};
    rd.findings.level = -1;
    double *m = whole.main;
    m[MPP_M_KEFF] = 0.5, m[MPP_M_EXEC] = 5, m[MPP_M_TOTAL] = 10, m[MPP_M_PRODUCTIVE] = 5, m[MPP_M_LOST] = 5;
    m[MPP_M_IO] = 6, m[MPP_M_CPU] = 0, m[MPP_M_SYS] = 0; /* I/O is 60% of Total time */
    m[MPP_M_INSUFFICIENT] = 0, m[MPP_M_SENDRECV] = 2, m[MPP_M_COLLECTIVE] = 2.25, m[MPP_M_SYSTEM] = 0;
    m[MPP_M_IDLE] = 0.75;
}

static void teardown(void) {}

#define EQ(x, y) ck_assert_msg(fabs((x) - (y)) < 1e-12, "%s is %.17g, expected %.17g", #x, (double)(x), (double)(y))

/* The table's SRC numbers in its order. */
static void expect_order(const mpp_src_table_t *t, int n, const int *ids)
{
    ck_assert_int_eq(t->n, n);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(srcs[t->items[i].src].id, ids[i]);
}

START_TEST(test_digest_inclusive_tables)
{
    mpp_src_table_t t;
    /* interval 0: its own MPI_Allreduce and every interval's calls below it */
    ck_assert_int_eq(mpp_src_table(&rd, 0, &t), 0);
    expect_order(&t, 3, (const int[]){3, 1, 2});
    const mpp_src_total_t *a = &t.items[1];
    ck_assert_uint_eq(a->calls, 6);
    ck_assert_uint_eq(a->bytes_sent, 48);
    ck_assert_int_eq(a->ncells, 2);
    EQ(a->time.sum, 2.25);
    EQ(a->by_process[MPP_CELL_TIME], 1.25);
    EQ(a->by_process[MPP_NCELLV + MPP_CELL_TIME], 1.0);
    /* every process selected: the spread of the sums is known */
    EQ(a->time.min, 1.0);
    EQ(a->time.max, 1.25);
    ck_assert_int_eq(a->time.min_rank, 1);
    ck_assert_int_eq(a->time.max_rank, 0);
    ck_assert_int_eq(a->time.count, 2);
    /* a process without calls stays without */
    ck_assert(isnan(t.items[2].by_process[MPP_NCELLV + MPP_CELL_TIME]));
    EQ(t.items[2].time.min, 2.0);
    mpp_src_table_free(&t);
    /* interval 1: MPI_Send in it, MPI_Allreduce in interval 2 below it; not interval 3 beside it */
    ck_assert_int_eq(mpp_src_table(&rd, 1, &t), 0);
    expect_order(&t, 2, (const int[]){2, 1});
    EQ(t.items[1].time.sum, 1.5);
    ck_assert_uint_eq(t.items[1].calls, 4);
    mpp_src_table_free(&t);
    ck_assert_int_eq(mpp_src_table(&rd, 2, &t), 0);
    expect_order(&t, 1, (const int[]){1});
    mpp_src_table_free(&t);
    /* the whole run: every cell */
    ck_assert_int_eq(mpp_src_table(&rd, -1, &t), 0);
    expect_order(&t, 3, (const int[]){3, 1, 2});
    EQ(t.items[0].time.sum, 6.0);
    mpp_src_table_free(&t);
}
END_TEST

START_TEST(test_digest_spread_unknown)
{
    /* not every process selected: a sum over cells has no known minimum */
    rd.nprocs = 3;
    mpp_src_table_t t;
    ck_assert_int_eq(mpp_src_table(&rd, 0, &t), 0);
    ck_assert(isnan(t.items[1].time.min) && isnan(t.items[1].time.max));
    ck_assert_int_eq(t.items[1].time.count, 0);
    /* one cell: its own spread */
    EQ(t.items[0].time.min, 3.0);
    mpp_src_table_free(&t);
}
END_TEST

START_TEST(test_digest_numbers)
{
    mpp_finding_record_t items[2] = {{.severity = MPP_FINDING_ERROR, .count = 2},
                                     {.severity = MPP_FINDING_WARNING, .count = 3}};
    rd.findings = (mpp_finding_list_t){.items = items, .n = 2, .dropped = 1, .level = 1};
    mpp_digest_t d;
    ck_assert_int_eq(mpp_digest(&rd, &whole, 4, &d), 0);
    ck_assert_int_eq(d.processes, 2);
    EQ(d.keff, 0.5);
    EQ(d.lost_share, 0.5);
    /* Lost time's parts, largest first; a tie in the protocol's order */
    static const mpp_main_t order[MPP_DIGEST_NLOST] = {MPP_M_COLLECTIVE, MPP_M_SENDRECV, MPP_M_IDLE,
                                                       MPP_M_INSUFFICIENT, MPP_M_SYSTEM};
    for (int i = 0; i < MPP_DIGEST_NLOST; i++)
        ck_assert_int_eq(d.lost_parts[i].part, order[i]);
    EQ(d.lost_parts[0].share, 0.45);
    /* I/O: 60% of Total time, named */
    EQ(d.io_share, 0.6);
    ck_assert_int_eq(d.io_large, 1);
    ck_assert_int_eq(d.checked, 1);
    ck_assert_uint_eq(d.errors, 2);
    ck_assert_uint_eq(d.warnings, 3);
    ck_assert_uint_eq(d.dropped, 1);
    ck_assert_int_eq(d.nwarnings, 4);
    /* the top SRC points of the whole run; MPI-IO is no Lost time */
    ck_assert_int_eq(d.ntop, 3);
    ck_assert_int_eq(srcs[d.whole.items[d.top[0].src].src].id, 3);
    ck_assert(isnan(d.top[0].share_of_lost));
    EQ(d.top[1].share_of_lost, 2.25 / 5);
    EQ(d.top[2].share_of_lost, 2.0 / 5);
    mpp_digest_free(&d);
    /* no checks ran: no counts */
    rd.findings.level = 0;
    ck_assert_int_eq(mpp_digest(&rd, &whole, 0, &d), 0);
    ck_assert_int_eq(d.checked, 0);
    ck_assert_uint_eq(d.errors, 0);
    mpp_digest_free(&d);
}
END_TEST

START_TEST(test_digest_io_small)
{
    whole.main[MPP_M_IO] = 0.5; /* 5% of Total time: not named */
    mpp_digest_t d;
    ck_assert_int_eq(mpp_digest(&rd, &whole, 0, &d), 0);
    ck_assert_int_eq(d.io_large, 0);
    mpp_digest_free(&d);
}
END_TEST

START_TEST(test_digest_is_lost)
{
    ck_assert(mpp_digest_is_lost("MPI_Allreduce"));
    ck_assert(mpp_digest_is_lost("MPI_Finalize"));
    ck_assert(!mpp_digest_is_lost("MPI_File_read"));
    ck_assert(!mpp_digest_is_lost("MPI_Wtime"));
    ck_assert(!mpp_digest_is_lost("MPI_T_pvar_read"));
}
END_TEST

Suite *digest_suite(void)
{
    Suite *s = suite_create("digest");
    TCase *tc = tcase_create("digest");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_digest_inclusive_tables);
    tcase_add_test(tc, test_digest_spread_unknown);
    tcase_add_test(tc, test_digest_numbers);
    tcase_add_test(tc, test_digest_io_small);
    tcase_add_test(tc, test_digest_is_lost);
    suite_add_tcase(s, tc);
    return s;
}
