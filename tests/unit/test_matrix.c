/* The communication matrix's pure parts (accumulate/matrix.h): the peer
 * table keyed by world rank, growing only for a new peer; pairs merged,
 * summed per node pair and ordered heaviest first; the matrix put together
 * from every process's pairs (reduce/matrix_build.h).  And the I/O figures of
 * an interval (write/io_figures.h): bytes read and written of its MPI-IO
 * SRC points and of its nested intervals', share and bandwidth. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/matrix.h"
#include "reduce/matrix_build.h"
#include "suites.h"
#include "write/io_figures.h"

static double half(uint64_t ticks) { return ticks / 2.0; }

START_TEST(test_matrix_table_counts)
{
    mpp_peer_table_t t;
    ck_assert_int_eq(mpp_peer_table_init(&t, 4), 0);
    ck_assert_uint_eq(t.capacity, 8);
    for (int i = 0; i < 10; i++) {
        mpp_peer_add(&t, 3, 1, 100, 2);
        mpp_peer_add(&t, 11, 0, 0, 4); /* 3 and 11 share a slot in 8 */
    }
    mpp_peer_add(&t, -1, 1, 1, 1); /* MPI_PROC_NULL: nothing */
    ck_assert_uint_eq(t.count, 2);
    /* a ring of 100 peers: grown as they come, nothing lost */
    for (int p = 100; p < 200; p++)
        mpp_peer_add(&t, p, 1, 8, 2);
    ck_assert_uint_eq(t.count, 102);
    ck_assert_uint_ge(t.capacity, 2 * 102);
    ck_assert_uint_eq(t.dropped, 0);
    int n;
    mpp_pair_t *p = mpp_peer_table_pairs(&t, 7, half, &n);
    ck_assert_int_eq(n, 102);
    n = mpp_pairs_merge(p, n);
    ck_assert_int_eq(n, 102);
    ck_assert_int_eq(p[0].from, 7);
    ck_assert_int_eq(p[0].to, 3);
    ck_assert(p[0].messages == 10 && p[0].bytes == 1000 && p[0].time == 10);
    ck_assert_int_eq(p[1].to, 11);
    ck_assert(p[1].messages == 0 && p[1].bytes == 0 && p[1].time == 20);
    ck_assert(p[2].to == 100 && p[2].bytes == 8 && p[2].time == 1);
    free(p);
    mpp_peer_table_free(&t);
    /* an unstarted table counts nothing */
    mpp_peer_add(&t, 1, 1, 1, 1);
    ck_assert_uint_eq(t.count, 0);
}
END_TEST

START_TEST(test_matrix_by_node)
{
    /* ranks 0,1 on node 0, ranks 2,3 on node 1: a ring */
    mpp_pair_t p[] = {
        {0, 1, 10, 1000, 1}, {1, 2, 10, 1000, 2}, {2, 3, 10, 1000, 3}, {3, 0, 10, 1000, 4}, {1, 0, 5, 200, 0.5}};
    int node_of[] = {0, 0, 1, 1}, n;
    mpp_pair_t *q = mpp_pairs_by_node(p, 5, node_of, &n);
    ck_assert_int_eq(n, 4);
    ck_assert(q[0].from == 0 && q[0].to == 0 && q[0].messages == 15 && q[0].bytes == 1200 && q[0].time == 1.5);
    ck_assert(q[1].from == 0 && q[1].to == 1 && q[1].messages == 10 && q[1].time == 2);
    ck_assert(q[2].from == 1 && q[2].to == 0 && q[2].time == 4);
    ck_assert(q[3].from == 1 && q[3].to == 1 && q[3].time == 3);
    free(q);
    mpp_pairs_heaviest(p, 5);
    ck_assert(p[4].bytes == 200);
    ck_assert(p[0].bytes == 1000 && p[0].time == 4); /* ties broken by time */
}
END_TEST

static const char *no_variables(const char *name)
{
    (void)name;
    return NULL;
}
static const char *ranks_zero(const char *name) { return !strcmp(name, "MPIPROF_RANKS") ? "0" : NULL; }

START_TEST(test_matrix_build)
{
    /* ranks 0,1 on host "b" (node 0: it holds rank 0), 2,3 on "a"; a ring,
     * 1 -> 0 twice (merged), and 2 -> 3 the heaviest */
    static const mpp_pair_t ring[] = {{0, 1, 10, 1000, 1}, {1, 2, 10, 1000, 2}, {2, 3, 10, 5000, 3},
                                      {3, 0, 10, 1000, 4}, {1, 0, 5, 200, 0.5}, {1, 0, 5, 200, 0.5}};
    const char *hosts[] = {"b", "b", "a", "a"};
    mpp_config_t cfg;
    mpp_config_parse(&cfg, no_variables);
    mpp_pair_t *p = malloc(sizeof ring);
    memcpy(p, ring, sizeof ring);
    mpp_matrix_t *m = mpp_matrix_build(p, 6, 4, hosts, 64, &cfg);
    ck_assert_ptr_nonnull(m);
    ck_assert(m->nnodes == 2 && !strcmp(m->node_names[0], "b") && !strcmp(m->node_names[1], "a"));
    ck_assert(m->node_of[0] == 0 && m->node_of[1] == 0 && m->node_of[2] == 1 && m->node_of[3] == 1);
    ck_assert(m->complete && m->npairs == 5 && m->heaviest == 0);
    ck_assert(m->pairs[1].from == 1 && m->pairs[1].to == 0 && m->pairs[1].messages == 10 && m->pairs[1].time == 1);
    ck_assert_int_eq(m->nnode_pairs, 4);
    ck_assert(m->intra[0] == 30 && m->intra[1] == 6400 && m->inter[0] == 20 && m->inter[1] == 2000);
    mpp_matrix_free(m);
    /* past the limit (1): rank 0's pairs (MPIPROF_RANKS=0) and the one heaviest of the others */
    mpp_config_parse(&cfg, ranks_zero);
    p = malloc(sizeof ring);
    memcpy(p, ring, sizeof ring);
    m = mpp_matrix_build(p, 6, 4, hosts, 1, &cfg);
    ck_assert_ptr_nonnull(m);
    ck_assert(!m->complete && m->npairs == 2 && m->heaviest == 1);
    ck_assert(m->pairs[0].from == 0 && m->pairs[0].to == 1);
    ck_assert(m->pairs[1].from == 2 && m->pairs[1].to == 3 && m->pairs[1].bytes == 5000);
    ck_assert_int_eq(m->nnode_pairs, 4); /* the node pairs are all there */
    mpp_matrix_free(m);
}
END_TEST

START_TEST(test_io_figures_interval)
{
    /* interval 0 with interval 1 nested: a write in 1, a read and a send in 0 */
    mpp_reduced_interval_t iv[2] = {{.id = 0, .parent = -1}, {.id = 1, .parent = 0}};
    iv[0].q[MPP_Q_IO].sum = 2.0, iv[0].q[MPP_Q_EXEC].sum = 8.0;
    iv[1].q[MPP_Q_IO].sum = 0.5, iv[1].q[MPP_Q_EXEC].sum = 1.0;
    mpp_reduced_src_t src[3] = {{.id = 0, .function = "MPI_File_write_at"},
                                {.id = 1, .function = "MPI_File_read_at_all"},
                                {.id = 2, .function = "MPI_Send"}};
    mpp_reduced_cell_t cells[3] = {{.interval = 1, .src = 0, .calls = 3, .bytes_sent = 3000},
                                   {.interval = 0, .src = 1, .calls = 2, .bytes_recv = 1000},
                                   {.interval = 0, .src = 2, .calls = 1, .bytes_sent = 64}};
    mpp_reduced_t rd = {.intervals = iv, .nintervals = 2, .srcs = src, .nsrcs = 3, .cells = cells, .ncells = 3};
    mpp_mark_io_srcs(&rd);
    ck_assert(src[0].io && src[1].io && !src[2].io);
    mpp_io_figures_t f = mpp_interval_io(&rd, 0);
    ck_assert_uint_eq(f.calls, 5);
    ck_assert_uint_eq(f.bytes_read, 1000);
    ck_assert_uint_eq(f.bytes_written, 3000);
    ck_assert_double_eq(f.time, 2.0);
    ck_assert_double_eq(f.share, 0.25);
    ck_assert_double_eq(f.bandwidth, 2000.0);
    f = mpp_interval_io(&rd, 1);
    ck_assert_uint_eq(f.bytes_read, 0);
    ck_assert_uint_eq(f.bytes_written, 3000);
    ck_assert_double_eq(f.bandwidth, 6000.0);
    iv[1].q[MPP_Q_IO].sum = 0.0, iv[1].q[MPP_Q_EXEC].sum = 0.0;
    f = mpp_interval_io(&rd, 1);
    ck_assert(isnan(f.bandwidth) && isnan(f.share));
    ck_assert(!mpp_function_is_io("MPI_Recv") && mpp_function_is_io("MPI_File_open") && !mpp_function_is_io("x"));
}
END_TEST

Suite *matrix_suite(void)
{
    Suite *s = suite_create("matrix");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_matrix_table_counts);
    tcase_add_test(tc, test_matrix_by_node);
    tcase_add_test(tc, test_matrix_build);
    tcase_add_test(tc, test_io_figures_interval);
    suite_add_tcase(s, tc);
    return s;
}
