/* The communication model (src/analyze/model.c): every formula against a
 * hand computation, with a = 1 us and b = 1 ns per byte (1 GB/s) so that
 * each expected value can be read off; the algorithm switch points; the
 * message size a collective's formula uses on the root and elsewhere;
 * MPIPROF_MODEL parsing; the Prediction model lines. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze/model.h"
#include "suites.h"
#include "util/common.h"

#define A 1e-6  /* intra latency */
#define B 1e-9  /* intra seconds per byte */
#define AE 5e-6 /* inter latency */
#define BE 1e-10

static mpp_model_t M;

static void setup(void)
{
    unit_reset_warnings();
    M.latency[MPP_LINK_INTRA] = A;
    M.bandwidth[MPP_LINK_INTRA] = 1 / B;
    M.latency[MPP_LINK_INTER] = AE;
    M.bandwidth[MPP_LINK_INTER] = 1 / BE;
}

/* cost of op with (sent, recv) bytes on P processes, intra-node */
static double cost(int op, long sent, long recv, long P)
{
    return mpp_model_cost(&M, op, sent, recv, P, MPP_LINK_INTRA);
}

/* the same as the wrappers price it: the price of one call, in seconds */
static double call_cost(int op, long sent, long recv, long P, int link)
{
    mpp_call_price_t p = {0};
    mpp_model_call_price(&p, op, sent, recv, P, link);
    return mpp_model_call_seconds(&M, &p);
}

#define EXPECT(op, sent, recv, P, value)                                                                           \
    do {                                                                                                           \
        double got_ = cost(op, sent, recv, P), want_ = (value);                                                    \
        ck_assert_msg(fabs(got_ - want_) <= 1e-12 * fabs(want_) + 1e-18,                                           \
                      "%s(sent=%ld recv=%ld P=%ld) = %.12g, expected %.12g", mpp_model_op_names[op], (long)(sent), \
                      (long)(recv), (long)(P), got_, want_);                                                       \
    } while (0)

/* --- point-to-point --- */

START_TEST(test_model_p2p)
{
    EXPECT(MPP_OP_P2P, 1000, 0, 2, A + 1000 * B);
    EXPECT(MPP_OP_P2P, 0, 4096, 2, A + 4096 * B);
    EXPECT(MPP_OP_P2P, 0, 0, 2, A);                 /* an empty message still costs its latency */
    EXPECT(MPP_OP_P2P, 800, 1200, 2, A + 1200 * B); /* Sendrecv: both directions at once */
    EXPECT(MPP_OP_PROBE, 0, 0, 2, A);
    ck_assert_double_eq_tol(mpp_model_cost(&M, MPP_OP_P2P, 1000, 0, 2, MPP_LINK_INTER), AE + 1000 * BE, 1e-18);
    ck_assert_double_eq(mpp_model_cost(&M, MPP_OP_P2P, 1000, 0, 2, MPP_LINK_NONE), 0); /* MPI_PROC_NULL */
    /* the wrappers' inline pricing of a message is the same */
    ck_assert_double_eq_tol(call_cost(MPP_OP_P2P, 1000, 0, 2, MPP_LINK_INTRA), A + 1000 * B, 1e-18);
    ck_assert_double_eq_tol(call_cost(MPP_OP_P2P, 0, 70000, 2, MPP_LINK_INTER), AE + 70000 * BE, 1e-18);
    ck_assert_double_eq(call_cost(MPP_OP_P2P, 1000, 0, 2, MPP_LINK_NONE), 0);
    ck_assert_double_eq_tol(call_cost(MPP_OP_P2P, -4, -4, 2, MPP_LINK_INTRA), A, 1e-18);
    ck_assert_double_eq_tol(call_cost(MPP_OP_BARRIER, 0, 0, 8, MPP_LINK_INTRA), 3 * A, 1e-18);
    /* N calls of a size: N times one (what the integration test checks in a protocol) */
    double sum = 0;
    for (int i = 0; i < 1000; i++)
        sum += cost(MPP_OP_P2P, 65536, 0, 2);
    ck_assert_double_eq_tol(sum, 1000 * (A + 65536 * B), 1e-15);
}
END_TEST

/* --- collectives: L = ceil(log2 P), f = (P-1)/P --- */

/* The wrappers' remembered terms are those of the arguments, whatever came
 * before: a repeat, then each argument changed alone. */
START_TEST(test_model_terms_recent)
{
    const int64_t args[][4] = {
        {MPP_OP_ALLREDUCE, 8, 8, 4},   {MPP_OP_ALLREDUCE, 8, 8, 4},         {MPP_OP_BCAST, 8, 8, 4},
        {MPP_OP_BCAST, 1 << 20, 8, 4}, {MPP_OP_BCAST, 1 << 20, 1 << 20, 4}, {MPP_OP_BCAST, 1 << 20, 1 << 20, 64},
        {MPP_OP_ALLREDUCE, 8, 8, 4}};
    for (size_t i = 0; i < sizeof args / sizeof args[0]; i++) {
        double u, b, want_u, want_b;
        mpp_model_terms_recent((int)args[i][0], args[i][1], args[i][2], args[i][3], &u, &b);
        mpp_model_terms((int)args[i][0], args[i][1], args[i][2], args[i][3], &want_u, &want_b);
        ck_assert_double_eq(u, want_u);
        ck_assert_double_eq(b, want_b);
    }
}
END_TEST

START_TEST(test_model_barrier)
{
    EXPECT(MPP_OP_BARRIER, 0, 0, 1, 0);
    EXPECT(MPP_OP_BARRIER, 0, 0, 2, A);
    EXPECT(MPP_OP_BARRIER, 0, 0, 5, 3 * A); /* dissemination: ceil(log2 5) rounds */
    EXPECT(MPP_OP_BARRIER, 0, 0, 64, 6 * A);
}
END_TEST

START_TEST(test_model_bcast)
{
    /* binomial tree: L (a + n b), for P < 8 at any size and up to 12288 bytes */
    EXPECT(MPP_OP_BCAST, 100, 0, 4, 2 * (A + 100 * B));     /* the root sends */
    EXPECT(MPP_OP_BCAST, 0, 100, 4, 2 * (A + 100 * B));     /* the others receive: the same */
    EXPECT(MPP_OP_BCAST, 1000000, 0, 4, 2 * (A + 1e6 * B)); /* P < 8 */
    EXPECT(MPP_OP_BCAST, 12288, 0, 16, 4 * (A + 12288 * B));
    /* P a power of 2, up to 524288: scatter + recursive-doubling allgather, 2 L a + 2 f n b */
    EXPECT(MPP_OP_BCAST, 100000, 0, 16, 2 * 4 * A + 2 * (15.0 / 16) * 1e5 * B);
    EXPECT(MPP_OP_BCAST, 524288, 0, 16, 2 * 4 * A + 2 * (15.0 / 16) * 524288 * B);
    /* otherwise: scatter + ring allgather, (L + P - 1) a + 2 f n b */
    EXPECT(MPP_OP_BCAST, 100000, 0, 12, (4 + 11) * A + 2 * (11.0 / 12) * 1e5 * B);
    EXPECT(MPP_OP_BCAST, 1000000, 0, 16, (4 + 15) * A + 2 * (15.0 / 16) * 1e6 * B);
    EXPECT(MPP_OP_BCAST, 1000000, 0, 1, 0);
    ck_assert_str_eq(mpp_model_algorithm(MPP_OP_BCAST, 100, 4), "binomial tree");
    ck_assert_str_eq(mpp_model_algorithm(MPP_OP_BCAST, 100000, 16), "scatter + recursive-doubling allgather");
    ck_assert_str_eq(mpp_model_algorithm(MPP_OP_BCAST, 100000, 12), "scatter + ring allgather");
}
END_TEST

START_TEST(test_model_reduce_allreduce)
{
    for (int op = MPP_OP_REDUCE; op <= MPP_OP_ALLREDUCE; op++) {
        /* up to 2048 bytes: binomial tree / recursive doubling, L (a + n b) */
        EXPECT(op, 8, 8, 2, A + 8 * B);
        EXPECT(op, 2048, 2048, 6, 3 * (A + 2048 * B));
        EXPECT(op, 2048, 0, 6, 3 * (A + 2048 * B)); /* Reduce: a non-root receives nothing */
        /* above: Rabenseifner, 2 L a + 2 f n b */
        EXPECT(op, 2049, 2049, 6, 2 * 3 * A + 2 * (5.0 / 6) * 2049 * B);
        EXPECT(op, 1 << 20, 1 << 20, 64, 2 * 6 * A + 2 * (63.0 / 64) * (1 << 20) * B);
    }
    ck_assert_str_eq(mpp_model_algorithm(MPP_OP_ALLREDUCE, 8, 2), "recursive doubling");
    ck_assert_str_eq(mpp_model_algorithm(MPP_OP_REDUCE, 4096, 2), "reduce-scatter + gather (Rabenseifner)");
}
END_TEST

START_TEST(test_model_scan)
{
    EXPECT(MPP_OP_SCAN, 400, 400, 3, 2 * (A + 400 * B));
    EXPECT(MPP_OP_SCAN, 1 << 20, 1 << 20, 8, 3 * (A + (1 << 20) * B)); /* recursive doubling at any size */
}
END_TEST

START_TEST(test_model_gather_scatter)
{
    /* binomial tree of the total N: L a + f N b; every process gives the same N */
    double want = 2 * A + 0.75 * 400 * B;
    EXPECT(MPP_OP_GATHER, 100, 0, 4, want);   /* a non-root sends its block */
    EXPECT(MPP_OP_GATHER, 100, 400, 4, want); /* the root receives them all */
    EXPECT(MPP_OP_GATHER, 0, 400, 4, want);   /* the root with MPI_IN_PLACE */
    EXPECT(MPP_OP_SCATTER, 400, 100, 4, want);
    EXPECT(MPP_OP_SCATTER, 0, 100, 4, want);
    EXPECT(MPP_OP_SCATTER, 400, 0, 4, want);
    /* v variants: linear, (P - 1) a + f N b */
    EXPECT(MPP_OP_GATHERV, 100, 0, 4, 3 * A + 0.75 * 400 * B);
    EXPECT(MPP_OP_SCATTERV, 400, 100, 4, 3 * A + 0.75 * 400 * B);
}
END_TEST

START_TEST(test_model_allgather)
{
    /* P a power of 2, total below 524288: recursive doubling, L a + f N b */
    EXPECT(MPP_OP_ALLGATHER, 100, 400, 4, 2 * A + 0.75 * 400 * B);
    EXPECT(MPP_OP_ALLGATHER, 0, 400, 4, 2 * A + 0.75 * 400 * B); /* MPI_IN_PLACE */
    /* other P, total below 81920: Bruck, L a + f N b */
    EXPECT(MPP_OP_ALLGATHER, 100, 300, 3, 2 * A + (2.0 / 3) * 300 * B);
    /* otherwise: ring, (P - 1) a + f N b */
    EXPECT(MPP_OP_ALLGATHER, 30000, 90000, 3, 2 * A + (2.0 / 3) * 90000 * B);
    EXPECT(MPP_OP_ALLGATHER, 150000, 600000, 4, 3 * A + 0.75 * 600000 * B);
    ck_assert_str_eq(mpp_model_algorithm(MPP_OP_ALLGATHER, 90000, 3), "ring");
    ck_assert_str_eq(mpp_model_algorithm(MPP_OP_ALLGATHER, 300, 3), "Bruck");
}
END_TEST

START_TEST(test_model_alltoall)
{
    /* P >= 8 and blocks of at most 256 bytes: Bruck, L a + L (N/2) b */
    EXPECT(MPP_OP_ALLTOALL, 800, 800, 8, 3 * A + 3 * 400 * B);
    /* larger blocks, or P < 8: pairwise exchange / all at once, (P - 1) a + f N b */
    EXPECT(MPP_OP_ALLTOALL, 8000, 8000, 8, 7 * A + (7.0 / 8) * 8000 * B);
    EXPECT(MPP_OP_ALLTOALL, 400, 400, 4, 3 * A + 0.75 * 400 * B);
    EXPECT(MPP_OP_ALLTOALLV, 800, 800, 8, 7 * A + (7.0 / 8) * 800 * B);
}
END_TEST

START_TEST(test_model_reduce_scatter)
{
    /* total below 524288: recursive halving, L a + f N b; N from the total sent or a block times P */
    EXPECT(MPP_OP_REDUCE_SCATTER, 4000, 1000, 4, 2 * A + 0.75 * 4000 * B);
    EXPECT(MPP_OP_REDUCE_SCATTER, 0, 1000, 4, 2 * A + 0.75 * 4000 * B);
    /* above: pairwise exchange, (P - 1) a + f N b */
    EXPECT(MPP_OP_REDUCE_SCATTER, 1000000, 250000, 4, 3 * A + 0.75 * 1e6 * B);
}
END_TEST

START_TEST(test_model_neighbor_and_links)
{
    EXPECT(MPP_OP_NEIGHBOR, 4000, 6000, 9, A + 6000 * B);
    ck_assert_double_eq_tol(mpp_model_cost(&M, MPP_OP_BARRIER, 0, 0, 4, MPP_LINK_INTER), 2 * AE, 1e-18);
    ck_assert_double_eq_tol(mpp_model_cost(&M, MPP_OP_ALLREDUCE, 8, 8, 4, MPP_LINK_INTER), 2 * (AE + 8 * BE), 1e-18);
    /* operations without a formula cost nothing here (measured, zero, started: see profile.c) */
    EXPECT(MPP_OP_MEASURED, 100, 100, 4, 0);
    EXPECT(MPP_OP_ZERO, 100, 100, 4, 0);
    EXPECT(MPP_OP_STARTED, 100, 100, 4, 0);
    /* one process: no collective communicates */
    for (int op = MPP_OP_BARRIER; op < MPP_NOPS; op++)
        if (op != MPP_OP_NEIGHBOR)
            EXPECT(op, 1000, 1000, 1, 0);
}
END_TEST

START_TEST(test_model_size)
{
    ck_assert_int_eq(mpp_model_size(MPP_OP_GATHER, 100, 0, 4), 400);
    ck_assert_int_eq(mpp_model_size(MPP_OP_SCATTER, 0, 100, 4), 400);
    ck_assert_int_eq(mpp_model_size(MPP_OP_BCAST, 0, 77, 4), 77);
    ck_assert_int_eq(mpp_model_size(MPP_OP_P2P, -5, 3, 0), 3);
}
END_TEST

/* --- MPIPROF_MODEL --- */

START_TEST(test_model_parse_full)
{
    mpp_model_t m;
    memset(&m, 0, sizeof m);
    unsigned given = 99;
    char why[128] = "";
    ck_assert_int_eq(
        mpp_model_parse("lat_intra=0.3us,bw_intra=8GB/s,lat_inter=2us,bw_inter=10GB/s", &m, &given, why, sizeof why),
        0);
    ck_assert_uint_eq(given, 15);
    ck_assert_double_eq_tol(m.latency[MPP_LINK_INTRA], 0.3e-6, 1e-18);
    ck_assert_double_eq_tol(m.bandwidth[MPP_LINK_INTRA], 8e9, 1e-3);
    ck_assert_double_eq_tol(m.latency[MPP_LINK_INTER], 2e-6, 1e-18);
    ck_assert_double_eq_tol(m.bandwidth[MPP_LINK_INTER], 10e9, 1e-3);
    /* units, spaces, case, binary prefixes, bare numbers */
    ck_assert_int_eq(mpp_model_parse(" LAT_INTRA = 1.5 ms , bw_intra=2GiB/s", &m, &given, why, sizeof why), 0);
    ck_assert_uint_eq(given, 1u << MPP_MP_LAT_INTRA | 1u << MPP_MP_BW_INTRA);
    ck_assert_double_eq_tol(m.latency[MPP_LINK_INTRA], 1.5e-3, 1e-15);
    ck_assert_double_eq_tol(m.bandwidth[MPP_LINK_INTRA], 2.0 * 1073741824, 1e-3);
    ck_assert_double_eq_tol(m.latency[MPP_LINK_INTER], 2e-6, 1e-18); /* not given: unchanged */
    ck_assert_int_eq(mpp_model_parse("lat_inter=250ns,bw_inter=1e9", &m, &given, why, sizeof why), 0);
    ck_assert_double_eq_tol(m.latency[MPP_LINK_INTER], 250e-9, 1e-18);
    ck_assert_double_eq_tol(m.bandwidth[MPP_LINK_INTER], 1e9, 1e-6);
    ck_assert_int_eq(mpp_model_parse("bw_inter=500MB/s", &m, &given, why, sizeof why), 0);
    ck_assert_double_eq_tol(m.bandwidth[MPP_LINK_INTER], 5e8, 1e-6);
    ck_assert_int_eq(mpp_model_parse("calibrate", &m, &given, why, sizeof why), 0);
    ck_assert_uint_eq(given, 0);
    ck_assert_int_eq(mpp_model_parse("CALIBRATE", &m, &given, why, sizeof why), 0);
}
END_TEST

START_TEST(test_model_parse_bad_args)
{
    static const struct {
        const char *text, *reason;
    } bad[] = {
        {"", "empty"},
        {"lat_intra=fast", "lat_intra='fast' is not a positive time"},
        {"lat_intra=0us", "not a positive time"},
        {"lat_intra=-1us", "not a positive time"},
        {"bw_intra=5parsecs", "bw_intra='5parsecs' is not a positive rate"},
        {"bw_intra=8us", "not a positive rate"}, /* a time where a rate goes */
        {"latency=1us", "'latency' is not a parameter"},
        {"lat_intra", "not name=value"},
        {"lat_intra=1us,lat_intra=2us", "given twice"},
        {",,,", "names no parameter"},
        {"lat_intra=nan", "not a positive time"},
        {"lat_intra=1e400s", "not a positive time"},
    };
    for (size_t i = 0; i < MPP_ARRAY_LEN(bad); i++) {
        mpp_model_t m;
        memset(&m, 0x11, sizeof m);
        mpp_model_t before = m;
        unsigned given = 77;
        char why[128] = "";
        ck_assert_msg(mpp_model_parse(bad[i].text, &m, &given, why, sizeof why) == -1, "'%s' accepted", bad[i].text);
        ck_assert_msg(strstr(why, bad[i].reason) != NULL, "'%s': reason '%s', expected '%s'", bad[i].text, why,
                      bad[i].reason);
        ck_assert_msg(!memcmp(&m, &before, sizeof m) && given == 77, "'%s' changed the model", bad[i].text);
    }
    char why[64];
    mpp_model_t m;
    unsigned given;
    ck_assert_int_eq(mpp_model_parse(NULL, &m, &given, why, sizeof why), -1);
    static char longest[2000];
    memset(longest, 'a', sizeof longest - 1);
    ck_assert_int_eq(mpp_model_parse(longest, &m, &given, why, sizeof why), -1);
    /* cost: bad arguments give 0, never a crash or a negative time */
    ck_assert_double_eq(mpp_model_cost(NULL, MPP_OP_P2P, 1, 1, 2, MPP_LINK_INTRA), 0);
    ck_assert_double_eq(mpp_model_cost(&M, MPP_NOPS, 1, 1, 2, MPP_LINK_INTRA), 0);
    ck_assert_double_eq(mpp_model_cost(&M, -1, 1, 1, 2, MPP_LINK_INTRA), 0);
    ck_assert_double_eq(mpp_model_cost(&M, MPP_OP_P2P, 1, 1, 2, MPP_NLINKS), 0);
    ck_assert(mpp_model_cost(&M, MPP_OP_BCAST, -100, -100, -3, MPP_LINK_INTRA) >= 0);
    ck_assert_str_eq(mpp_model_algorithm(-1, 0, 0), "none");
    ck_assert_ptr_null(mpp_model_param(&m, MPP_NMP));
    ck_assert(isnan(mpp_model_param_value(&m, -1)));
}
END_TEST

/* --- the protocol's lines --- */

START_TEST(test_model_describe)
{
    char lines[MPP_MODEL_MAX_LINES][MPP_MODEL_LINE];
    mpp_model_setup_t s;
    memset(&s, 0, sizeof s);
    ck_assert_int_eq(mpp_model_describe(&s, lines, MPP_MODEL_MAX_LINES), 1);
    ck_assert_str_eq(lines[0], "n/a (MPIPROF_PREDICT=off)");
    ck_assert_int_eq(mpp_model_describe(NULL, lines, MPP_MODEL_MAX_LINES), 1);
    ck_assert_int_eq(mpp_model_describe(&s, lines, 2), 0); /* too few lines: nothing */

    s.enabled = 1;
    unsigned given;
    char why[64];
    ck_assert_int_eq(mpp_model_parse("lat_intra=0.3us,bw_intra=8GB/s,lat_inter=2us,bw_inter=10GB/s", &s.model, &given,
                                     why, sizeof why),
                     0);
    s.source[MPP_MP_LAT_INTRA] = s.source[MPP_MP_BW_INTRA] = MPP_PSRC_GIVEN;
    s.source[MPP_MP_LAT_INTER] = MPP_PSRC_CALIBRATED;
    s.source[MPP_MP_BW_INTER] = MPP_PSRC_GIVEN;
    s.pair[MPP_LINK_INTER][0] = 0, s.pair[MPP_LINK_INTER][1] = 4;
    s.nodes = 2;
    s.speed_min = 0.95, s.speed_min_rank = 3, s.speed_max = 1.05, s.speed_max_rank = 1, s.speed_loop = 5e-5;
    s.seconds = 0.0021;
    int n = mpp_model_describe(&s, lines, MPP_MODEL_MAX_LINES);
    ck_assert_int_eq(n, 5);
    ck_assert_ptr_nonnull(strstr(lines[0], "latency + bytes/bandwidth"));
    ck_assert_str_eq(lines[1], "intra-node: lat_intra=0.3us bw_intra=8GB/s (given in MPIPROF_MODEL)");
    ck_assert_str_eq(lines[2], "inter-node: lat_inter=2us (calibrated at MPI_Init: ping-pong of ranks 0 and 4, 8 B "
                               "and 128 KiB messages), bw_inter=10GB/s (given in MPIPROF_MODEL)");
    ck_assert_ptr_nonnull(strstr(lines[3], "relative 0.950 (rank 3) to 1.050 (rank 1)"));
    ck_assert_ptr_nonnull(strstr(lines[4], "took 2.1 ms (2 nodes)"));
    char text[32];
    mpp_model_format_param(MPP_MP_LAT_INTER, 0.0025, text, sizeof text);
    ck_assert_str_eq(text, "2.5ms");
    mpp_model_format_param(MPP_MP_BW_INTER, 2.5e8, text, sizeof text);
    ck_assert_str_eq(text, "250MB/s");
    mpp_model_format_param(MPP_MP_BW_INTER, 900, text, sizeof text);
    ck_assert_str_eq(text, "0.9KB/s");
}
END_TEST

/* --- the price kept until MPI_Finalize --- */

/* Every operation's price, in seconds at any parameters, is its cost at
 * them: a price taken at MPI_Init is exact at MPI_Finalize's parameters. */
START_TEST(test_model_price)
{
    static const long sizes[] = {0, 8, 2048, 2049, 12288, 70000, 600000};
    static const long procs[] = {1, 2, 5, 8, 64};
    const mpp_model_t other = {.latency = {3e-7, 4e-5}, .bandwidth = {2e10, 1e8}};
    for (int op = MPP_OP_P2P; op < MPP_NOPS; op++)
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            for (size_t j = 0; j < sizeof procs / sizeof *procs; j++)
                for (int link = MPP_LINK_INTRA; link < MPP_NLINKS; link++) {
                    mpp_call_price_t p = {0};
                    double price[MPP_NPRICE] = {0};
                    mpp_model_call_price(&p, op, sizes[i], sizes[i] / 2, procs[j], link);
                    ck_assert_int_eq(p.link, link);
                    mpp_price_add_call(price, &p);
                    double want = mpp_model_cost(&M, op, sizes[i], sizes[i] / 2, procs[j], link);
                    double got = mpp_model_price_seconds(&M, price);
                    ck_assert_msg(fabs(got - want) <= 1e-12 * want + 1e-18, "%s n=%ld P=%ld link %d: %g, cost %g",
                                  mpp_model_op_names[op], sizes[i], procs[j], link, got, want);
                    ck_assert(fabs(mpp_model_call_seconds(&M, &p) - want) <= 1e-12 * want + 1e-18);
                    want = mpp_model_cost(&other, op, sizes[i], sizes[i] / 2, procs[j], link);
                    got = mpp_model_price_seconds(&other, price);
                    ck_assert(fabs(got - want) <= 1e-12 * want + 1e-18);
                    /* only the call's own link is priced */
                    ck_assert_double_eq(price[2 * (1 - link)], 0);
                    ck_assert_double_eq(price[2 * (1 - link) + 1], 0);
                }
    mpp_call_price_t p = {0};
    mpp_model_call_price(&p, MPP_OP_P2P, 100, 0, 2, MPP_LINK_NONE); /* MPI_PROC_NULL */
    ck_assert(p.units == 0 && p.bytes == 0 && p.link == MPP_LINK_INTRA);
    /* summed calls of both links, then priced: the sum of their costs */
    double sum[MPP_NPRICE] = {0};
    mpp_model_call_price(&p, MPP_OP_P2P, 1000, 0, 2, MPP_LINK_INTRA);
    mpp_price_add_call(sum, &p);
    p = (mpp_call_price_t){0};
    mpp_model_call_price(&p, MPP_OP_ALLREDUCE, 8, 8, 4, MPP_LINK_INTER);
    mpp_price_add_call(sum, &p);
    ck_assert_double_eq_tol(mpp_model_price_seconds(&M, sum), A + 1000 * B + 2 * (AE + 8 * BE), 1e-18);
}
END_TEST

/* A setup whose intra-node parameters are calibrated, ranks 0 and 1. */
static mpp_model_setup_t calibrated_setup(void)
{
    mpp_model_setup_t s;
    memset(&s, 0, sizeof s);
    s.enabled = 1;
    s.source[MPP_MP_LAT_INTRA] = s.source[MPP_MP_BW_INTRA] = MPP_PSRC_CALIBRATED;
    s.source[MPP_MP_LAT_INTER] = s.source[MPP_MP_BW_INTER] = MPP_PSRC_AS_INTRA;
    s.pair[MPP_LINK_INTRA][0] = 0, s.pair[MPP_LINK_INTRA][1] = 1;
    s.pair[MPP_LINK_INTER][0] = s.pair[MPP_LINK_INTER][1] = -1;
    s.nodes = 1;
    return s;
}

START_TEST(test_model_plausible)
{
    ck_assert(mpp_model_plausible_latency(MPP_LINK_INTRA, 0.2e-6));
    ck_assert(mpp_model_plausible_latency(MPP_LINK_INTRA, MPP_PLAUSIBLE_LATENCY_INTRA));
    ck_assert(!mpp_model_plausible_latency(MPP_LINK_INTRA, 4e-3)); /* a time slice */
    ck_assert(!mpp_model_plausible_latency(MPP_LINK_INTRA, 0));
    ck_assert(mpp_model_plausible_latency(MPP_LINK_INTER, 500e-6)); /* a slow network may */
    ck_assert(!mpp_model_plausible_latency(MPP_LINK_INTER, 4e-3));
    ck_assert(mpp_model_plausible_bandwidth(MPP_LINK_INTRA, 5e9));
    ck_assert(!mpp_model_plausible_bandwidth(MPP_LINK_INTRA, 30e6));
    ck_assert(mpp_model_plausible_bandwidth(MPP_LINK_INTER, 12e6)); /* 100 Mbit/s Ethernet */
    ck_assert(!mpp_model_plausible_bandwidth(MPP_LINK_INTER, 1e6));
    ck_assert(!mpp_model_plausible_bandwidth(MPP_LINK_INTER, INFINITY));
    /* a link from a ping-pong: the transfer is what the large message adds */
    double l, b;
    mpp_model_link_from(&(mpp_pingpong_t){1e-6, 1e-6 + MPP_CALIBRATION_LARGE / 4e9}, &l, &b);
    ck_assert_double_eq_tol(l, 1e-6, 1e-18);
    ck_assert_double_eq_tol(b, 4e9, 1);
    mpp_model_link_from(&(mpp_pingpong_t){10e-6, 10e-6}, &l, &b); /* all latency: finite */
    ck_assert_double_eq_tol(b, MPP_CALIBRATION_LARGE / 0.5e-6, 1);
}
END_TEST

/* Noise only ever lengthens a round trip: of MPI_Init's and MPI_Finalize's
 * measurements, the lower latency and the higher bandwidth are kept, each
 * saying where it is from. */
START_TEST(test_model_keep_better)
{
    mpp_model_setup_t s = calibrated_setup();
    const mpp_pingpong_t slice = {4e-3, 4.2e-3}, quiet = {0.2e-6, 0.2e-6 + MPP_CALIBRATION_LARGE / 5e9};
    /* MPI_Init timed the scheduler; MPI_Finalize the link */
    s.measured[MPP_LINK_INTRA][MPP_AT_INIT] = slice;
    mpp_model_keep_better(&s, MPP_LINK_INTRA);
    ck_assert_double_eq(s.model.latency[MPP_LINK_INTRA], 4e-3);
    ck_assert_uint_eq(s.implausible, 1u << MPP_LINK_INTRA); /* MPI_Init alone: not plausible */
    ck_assert(!mpp_model_usable(&s));
    s.measured[MPP_LINK_INTRA][MPP_AT_FINALIZE] = quiet;
    mpp_model_keep_better(&s, MPP_LINK_INTRA);
    ck_assert_double_eq_tol(s.model.latency[MPP_LINK_INTRA], 0.2e-6, 1e-18);
    ck_assert_double_eq_tol(s.model.bandwidth[MPP_LINK_INTRA], 5e9, 1);
    ck_assert_int_eq(s.at[MPP_MP_LAT_INTRA], MPP_AT_FINALIZE);
    ck_assert_int_eq(s.at[MPP_MP_BW_INTRA], MPP_AT_FINALIZE);
    ck_assert_uint_eq(s.implausible, 0);
    ck_assert(mpp_model_usable(&s));
    /* the other way round: MPI_Init's kept */
    s = calibrated_setup();
    s.measured[MPP_LINK_INTRA][MPP_AT_INIT] = quiet;
    s.measured[MPP_LINK_INTRA][MPP_AT_FINALIZE] = slice;
    mpp_model_keep_better(&s, MPP_LINK_INTRA);
    ck_assert_double_eq_tol(s.model.latency[MPP_LINK_INTRA], 0.2e-6, 1e-18);
    ck_assert_int_eq(s.at[MPP_MP_LAT_INTRA], MPP_AT_INIT);
    ck_assert_int_eq(s.at[MPP_MP_BW_INTRA], MPP_AT_INIT);
    /* each parameter on its own: MPI_Init's latency, MPI_Finalize's bandwidth */
    s = calibrated_setup();
    s.measured[MPP_LINK_INTRA][MPP_AT_INIT] = (mpp_pingpong_t){0.2e-6, 0.2e-6 + MPP_CALIBRATION_LARGE / 2e9};
    s.measured[MPP_LINK_INTRA][MPP_AT_FINALIZE] = (mpp_pingpong_t){0.3e-6, 0.3e-6 + MPP_CALIBRATION_LARGE / 6e9};
    mpp_model_keep_better(&s, MPP_LINK_INTRA);
    ck_assert_double_eq_tol(s.model.latency[MPP_LINK_INTRA], 0.2e-6, 1e-18);
    ck_assert_double_eq_tol(s.model.bandwidth[MPP_LINK_INTRA], 6e9, 1);
    ck_assert_int_eq(s.at[MPP_MP_LAT_INTRA], MPP_AT_INIT);
    ck_assert_int_eq(s.at[MPP_MP_BW_INTRA], MPP_AT_FINALIZE);
    /* a parameter given in MPIPROF_MODEL stays, and is not judged */
    s = calibrated_setup();
    s.source[MPP_MP_LAT_INTRA] = MPP_PSRC_GIVEN;
    s.model.latency[MPP_LINK_INTRA] = 3e-6;
    s.measured[MPP_LINK_INTRA][MPP_AT_INIT] = (mpp_pingpong_t){50e-6, 50e-6 + MPP_CALIBRATION_LARGE / 2e9};
    mpp_model_keep_better(&s, MPP_LINK_INTRA);
    ck_assert_double_eq(s.model.latency[MPP_LINK_INTRA], 3e-6);
    ck_assert_double_eq_tol(s.model.bandwidth[MPP_LINK_INTRA], 2e9, 1);
    ck_assert_uint_eq(s.implausible, 0);
    /* a bandwidth no link has (a time slice in the large message) */
    s = calibrated_setup();
    s.measured[MPP_LINK_INTRA][MPP_AT_INIT] = (mpp_pingpong_t){0.2e-6, 8e-3};
    mpp_model_keep_better(&s, MPP_LINK_INTRA);
    ck_assert_uint_eq(s.implausible, 1u << MPP_LINK_INTRA);
    /* a link not measured: nothing changes */
    s = calibrated_setup();
    mpp_model_keep_better(&s, MPP_LINK_INTER);
    ck_assert_uint_eq(s.implausible, 0);
    ck_assert_double_eq(s.model.latency[MPP_LINK_INTER], 0);
}
END_TEST

/* Not plausible at either end: the reason gives both figures, the limits
 * and what to do; the protocol's line says where each parameter is from. */
START_TEST(test_model_not_calibrated)
{
    mpp_model_setup_t s = calibrated_setup();
    s.measured[MPP_LINK_INTRA][MPP_AT_INIT] = (mpp_pingpong_t){4e-3, 4.2e-3};
    s.measured[MPP_LINK_INTRA][MPP_AT_FINALIZE] = (mpp_pingpong_t){3e-3, 3.5e-3};
    s.shared_cpu = 1u << MPP_LINK_INTRA;
    mpp_model_keep_better(&s, MPP_LINK_INTRA);
    ck_assert(!mpp_model_usable(&s));
    char reason[MPP_MODEL_LINE];
    mpp_model_na_reason(&s, reason, sizeof reason);
    ck_assert_str_eq(reason,
                     "the communication model could not be calibrated: the intra-node ping-pong of ranks 0 "
                     "and 1 took 4ms one way (128 KiB at 624.2MB/s) at MPI_Init and 3ms one way (128 KiB at "
                     "262.1MB/s) at MPI_Finalize, beyond what a link takes (at most 100us, at least 100MB/s): "
                     "the time its processes waited for the scheduler, sharing one CPU their affinity lets "
                     "neither leave; give the parameters in MPIPROF_MODEL");
    char lines[MPP_MODEL_MAX_LINES][MPP_MODEL_LINE];
    s.seconds = 0.15, s.seconds_finalize = 0.09;
    ck_assert_int_eq(mpp_model_describe(&s, lines, MPP_MODEL_MAX_LINES), 5);
    ck_assert_str_eq(lines[1], "intra-node: lat_intra=3ms bw_intra=624.2MB/s (calibrated by a ping-pong of ranks 0 "
                               "and 1, 8 B and 128 KiB messages: lat_intra at MPI_Finalize (MPI_Init: 4ms), bw_intra "
                               "at MPI_Init (MPI_Finalize: 262.1MB/s); not plausible: the predicted characteristics "
                               "are n/a)");
    ck_assert_str_eq(lines[4], "calibration took 150 ms at MPI_Init and 90 ms at MPI_Finalize (1 node)");
    /* a parameter's own source text names the other end's figure */
    char text[192];
    mpp_model_source_text(&s, MPP_MP_LAT_INTRA, text, sizeof text);
    ck_assert_str_eq(text, "calibrated at MPI_Finalize (MPI_Init: 4ms): ping-pong of ranks 0 and 1, 8 B and 128 KiB "
                           "messages");
    /* plausible at MPI_Finalize: usable, no "not plausible" */
    s.measured[MPP_LINK_INTRA][MPP_AT_FINALIZE] = (mpp_pingpong_t){0.2e-6, 30e-6};
    mpp_model_keep_better(&s, MPP_LINK_INTRA);
    ck_assert(mpp_model_usable(&s));
    mpp_model_describe(&s, lines, MPP_MODEL_MAX_LINES);
    ck_assert_ptr_null(strstr(lines[1], "not plausible"));
    ck_assert_ptr_nonnull(strstr(lines[1], "lat_intra at MPI_Finalize (MPI_Init: 4ms)"));
}
END_TEST

Suite *model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("formulas");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_model_p2p);
    tcase_add_test(tc, test_model_terms_recent);
    tcase_add_test(tc, test_model_barrier);
    tcase_add_test(tc, test_model_bcast);
    tcase_add_test(tc, test_model_reduce_allreduce);
    tcase_add_test(tc, test_model_scan);
    tcase_add_test(tc, test_model_gather_scatter);
    tcase_add_test(tc, test_model_allgather);
    tcase_add_test(tc, test_model_alltoall);
    tcase_add_test(tc, test_model_reduce_scatter);
    tcase_add_test(tc, test_model_neighbor_and_links);
    tcase_add_test(tc, test_model_size);
    tcase_add_test(tc, test_model_price);
    suite_add_tcase(s, tc);

    tc = tcase_create("parameters");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, test_model_parse_full);
    tcase_add_test(tc, test_model_parse_bad_args);
    tcase_add_test(tc, test_model_describe);
    tcase_add_test(tc, test_model_plausible);
    tcase_add_test(tc, test_model_keep_better);
    tcase_add_test(tc, test_model_not_calibrated);
    suite_add_tcase(s, tc);
    return s;
}
