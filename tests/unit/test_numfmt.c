/* Numbers without printf (src/write/numfmt.c): every formatter against
 * snprintf, over edge cases and a million values of every exponent,
 * rounding boundaries in particular. */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "suites.h"
#include "write/numfmt.h"

/* A fixed generator: every run checks the same values (xorshift64*). */
static uint64_t rng_state;

static uint64_t next_random(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * UINT64_C(2685821657736338717);
}

static double double_of_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static void check_fixed6(double v)
{
    char want[MPP_FMT_FIXED6_MAX + 8], got[MPP_FMT_FIXED6_MAX + 8];
    int n = snprintf(want, sizeof want, "%.6f", v);
    size_t m = mpp_fmt_fixed6(got, v);
    got[m] = '\0';
    ck_assert_msg((size_t)n == m && strcmp(want, got) == 0, "%%.6f of %a: snprintf '%s', mpp_fmt_fixed6 '%s'", v,
                  want, got);
}

static void check_u64(unsigned long long v)
{
    char want[32], got[32];
    int n = snprintf(want, sizeof want, "%llu", v);
    size_t m = mpp_fmt_u64(got, v);
    got[m] = '\0';
    ck_assert_msg((size_t)n == m && strcmp(want, got) == 0, "%%llu of %llu: got '%s'", v, got);
}

static void check_int(int v)
{
    char want[32], got[32];
    int n = snprintf(want, sizeof want, "%d", v);
    size_t m = mpp_fmt_int(got, v);
    got[m] = '\0';
    ck_assert_msg((size_t)n == m && strcmp(want, got) == 0, "%%d of %d: got '%s'", v, got);
}

START_TEST(test_numfmt_fixed6_edges)
{
    static const double edges[] = {0.0,
                                   1.0,
                                   0.1,
                                   0.5,
                                   0.9999995,
                                   0.9999994999999999,
                                   1e-6,
                                   5e-7,
                                   4.999999e-7,
                                   5.000001e-7,
                                   1.5e-6,
                                   2.5e-6,
                                   0.0078125 /* 1/128: a tie, half to even gives ...812 */,
                                   0.0234375,
                                   0.0000005,
                                   123456.7890125,
                                   9e12,
                                   8.999999999999999e12,
                                   9.000000000000002e12,
                                   4503599627370496.0,
                                   1e15,
                                   1e22,
                                   1e300,
                                   DBL_MAX,
                                   DBL_MIN,
                                   DBL_TRUE_MIN,
                                   DBL_MIN / 3,
                                   DBL_EPSILON,
                                   1e-300,
                                   0.000001499999,
                                   0.0000025,
                                   99999.9999995,
                                   999999.9999995,
                                   3.0000005,
                                   2.0000015,
                                   1234567.0000005};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++) {
        check_fixed6(edges[i]);
        check_fixed6(-edges[i]);
        check_fixed6(nextafter(edges[i], 0.0));
        check_fixed6(nextafter(edges[i], INFINITY));
        check_fixed6(-nextafter(edges[i], INFINITY));
    }
    check_fixed6(-0.0);
    check_fixed6(NAN);
    check_fixed6(-NAN);
    check_fixed6(INFINITY);
    check_fixed6(-INFINITY);
}
END_TEST

/* Every exponent of the doubles, each bit pattern random. */
START_TEST(test_numfmt_fixed6_random_bits)
{
    rng_state = UINT64_C(0x9e3779b97f4a7c15);
    for (int i = 0; i < 200000; i++)
        check_fixed6(double_of_bits(next_random()));
}
END_TEST

/* The values a protocol holds: seconds from nanoseconds to days. */
START_TEST(test_numfmt_fixed6_random_seconds)
{
    rng_state = UINT64_C(0x2545f4914f6cdd1d);
    for (int i = 0; i < 100000; i++) {
        double unit = (double)(next_random() >> 11) / 9007199254740992.0; /* [0, 1) */
        double v = ldexp(unit, (int)(next_random() % 60) - 30);
        check_fixed6(v);
        check_fixed6(-v);
    }
}
END_TEST

/* Halfway between two printed values, and the doubles next to it: the
 * exact value decides, as in printf, never the product rounded in doubles. */
START_TEST(test_numfmt_fixed6_rounding_boundaries)
{
    rng_state = UINT64_C(0x853c49e6748fea9b);
    for (int i = 0; i < 100000; i++) {
        uint64_t micro = next_random() % UINT64_C(100000000000000); /* up to 1e8 s */
        double mid = ((double)micro + 0.5) / 1e6;
        check_fixed6(mid);
        check_fixed6(nextafter(mid, 0.0));
        check_fixed6(nextafter(mid, INFINITY));
    }
    /* exact ties: odd multiples of 2^-7 .. 2^-20 (their 7th decimal is a 5 and nothing follows) */
    for (int k = 7; k <= 20; k++)
        for (int j = 1; j < 4000; j += 2)
            check_fixed6(ldexp((double)j, -k)), check_fixed6(ldexp((double)j, -k) + 3.0);
}
END_TEST

START_TEST(test_numfmt_integers)
{
    static const unsigned long long u[] = {0,
                                           1,
                                           9,
                                           10,
                                           11,
                                           99,
                                           100,
                                           101,
                                           999,
                                           1000,
                                           65535,
                                           4294967295ULL,
                                           4294967296ULL,
                                           9999999999999999999ULL,
                                           10000000000000000000ULL,
                                           ULLONG_MAX - 1,
                                           ULLONG_MAX};
    for (size_t i = 0; i < sizeof u / sizeof *u; i++)
        check_u64(u[i]);
    for (unsigned long long p = 1; p && p < ULLONG_MAX / 10; p *= 10)
        check_u64(p - 1), check_u64(p), check_u64(p + 1);
    static const int d[] = {0, 1, -1, 9, -9, 10, -10, 99, -100, INT_MAX, INT_MIN, INT_MIN + 1, INT_MAX - 1};
    for (size_t i = 0; i < sizeof d / sizeof *d; i++)
        check_int(d[i]);
    rng_state = UINT64_C(0xda942042e4dd58b5);
    for (int i = 0; i < 200000; i++) {
        uint64_t r = next_random();
        check_u64(r >> (r % 64));
        check_int((int)(uint32_t)(r >> 32) >> (r % 31));
    }
}
END_TEST

Suite *numfmt_suite(void)
{
    Suite *s = suite_create("numfmt");
    TCase *tc = tcase_create("fixed6");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_numfmt_fixed6_edges);
    tcase_add_test(tc, test_numfmt_fixed6_random_bits);
    tcase_add_test(tc, test_numfmt_fixed6_random_seconds);
    tcase_add_test(tc, test_numfmt_fixed6_rounding_boundaries);
    suite_add_tcase(s, tc);
    TCase *ti = tcase_create("integers");
    tcase_add_test(ti, test_numfmt_integers);
    suite_add_tcase(s, ti);
    return s;
}
