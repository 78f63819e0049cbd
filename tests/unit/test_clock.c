/* Both clocks read at one instant (clock.h, mpp_clock_pair): a pair whose
 * reads were split by a deschedule must not be the one the TSC rate is
 * measured with.  And the bounds messages put on a clock offset
 * (offsetbound.h). */
#include "accumulate/waitstates/offsetbound.h"
#include "context/clock.h"
#include "suites.h"

/* Scripted clocks: each read returns the next value. */
static const uint64_t *mono_script, *tsc_script;
static int mono_next, tsc_next;

static uint64_t scripted_mono(void) { return mono_script[mono_next++]; }
static uint64_t scripted_tsc(void) { return tsc_script[tsc_next++]; }

static void script(const uint64_t *mono, const uint64_t *tsc)
{
    mono_script = mono, tsc_script = tsc;
    mono_next = tsc_next = 0;
}

/* The first try was descheduled between its TSC read and its second
 * monotonic read (300 ms), the second was not: the second is taken. */
START_TEST(test_clock_pair_skips_descheduled)
{
    static const uint64_t mono[] = {1000, 300001000, 300001100, 300001600};
    static const uint64_t tsc[] = {3000, 900003500};
    uint64_t m = 0, t = 0;
    script(mono, tsc);
    mpp_clock_pair(scripted_mono, scripted_tsc, &m, &t);
    ck_assert_uint_eq(t, 900003500);
    ck_assert_uint_eq(m, 300001350); /* the middle of the tight try */
    ck_assert_int_eq(mono_next, 4);  /* within MPP_CLOCK_PAIR_TIGHT_NS: no third try */
}
END_TEST

/* No try is tight: the closest of MPP_CLOCK_PAIR_TRIES is taken. */
START_TEST(test_clock_pair_closest_of_all)
{
    uint64_t mono[2 * MPP_CLOCK_PAIR_TRIES], tsc[MPP_CLOCK_PAIR_TRIES], now = 0;
    for (int i = 0; i < MPP_CLOCK_PAIR_TRIES; i++) {
        uint64_t gap = i == 17 ? 5000 : 100000 + (uint64_t)i;
        mono[2 * i] = now;
        tsc[i] = 1000 + (uint64_t)i;
        mono[2 * i + 1] = now + gap;
        now += gap + 10;
    }
    uint64_t m = 0, t = 0;
    script(mono, tsc);
    mpp_clock_pair(scripted_mono, scripted_tsc, &m, &t);
    ck_assert_int_eq(mono_next, 2 * MPP_CLOCK_PAIR_TRIES);
    ck_assert_uint_eq(t, 1017);
    ck_assert_uint_eq(m, mono[34] + 2500);
}
END_TEST

/* A message from a to b bounds b's offset from below, b's report of it
 * back bounds a's from above: one round trip gives both, as NTP's. */
START_TEST(test_offset_bound_round_trip)
{
    mpp_offset_bound_t b;
    /* MPI_Init: offset 1000, +-500 */
    mpp_offset_bound_init(&b, 1000, 500, 0);
    ck_assert_int_eq(mpp_offset_bound_error(&b, 0), 500);
    /* true offset 1010: a message from rank 0 (exact, theta 0) sent at
     * 2000 by its clock arrives 30 ticks later, at 2000 + 30 - 1010 by
     * this one */
    int64_t r = 2000 + 30 - 1010;
    mpp_offset_bound_lower(&b, mpp_offset_bound_from_message(0, 2000, r), r);
    ck_assert_int_eq(mpp_offset_bound_lo(&b, r), 980); /* 1010 - 30 */
    /* this process's message to rank 0, sent at 1100 (its clock), took 20
     * ticks: rank 0 read 1100 + 1010 + 20; it reports r - s back */
    int64_t tau = (1100 + 1010 + 20) - 1100;
    mpp_offset_bound_upper(&b, mpp_offset_bound_from_reply(0, tau, 0), 1100);
    ck_assert_int_eq(mpp_offset_bound_hi(&b, 1100), 1030); /* 1010 + 20 */
    /* the offset used (1000) is within 30 of every value the bounds allow */
    ck_assert_int_eq(mpp_offset_bound_error(&b, 1100), 30);
    ck_assert_uint_eq(b.tightened, 2);
    /* a looser bound changes nothing */
    mpp_offset_bound_lower(&b, 900, 1100);
    ck_assert_int_eq(mpp_offset_bound_lo(&b, 1100), 980);
}
END_TEST

/* Bounds age by the drift two hosts' clocks may have; rank 0's never. */
START_TEST(test_offset_bound_ages)
{
    mpp_offset_bound_t b, exact;
    mpp_offset_bound_init(&b, 0, 100, 0);
    int64_t later = 1000000; /* 50 ppm of it: 50 ticks */
    ck_assert_int_eq(mpp_offset_bound_lo(&b, later), -150);
    ck_assert_int_eq(mpp_offset_bound_hi(&b, later), 150);
    ck_assert_int_eq(mpp_offset_bound_error(&b, later), 150);
    mpp_offset_bound_init(&exact, 0, 0, 0);
    mpp_offset_bound_lower(&exact, 10, later);
    ck_assert_int_eq(mpp_offset_bound_error(&exact, later), 0);
    ck_assert_int_eq(mpp_offset_bound_lo(&exact, later), 0);
}
END_TEST

/* Bounds that cross (drift faster than assumed): the newer is kept and
 * counted, and the error stays a bound of the offset used. */
START_TEST(test_offset_bound_contradiction)
{
    mpp_offset_bound_t b;
    mpp_offset_bound_init(&b, 0, 10, 0);
    mpp_offset_bound_lower(&b, 40, 0);
    ck_assert_uint_eq(b.contradicted, 1);
    ck_assert_int_eq(mpp_offset_bound_lo(&b, 0), 40);
    ck_assert_int_eq(mpp_offset_bound_hi(&b, 0), 40);
    ck_assert_int_eq(mpp_offset_bound_error(&b, 0), 40);
}
END_TEST

Suite *clock_suite(void)
{
    Suite *s = suite_create("clock");
    TCase *tc = tcase_create("pair");
    tcase_add_test(tc, test_clock_pair_skips_descheduled);
    tcase_add_test(tc, test_clock_pair_closest_of_all);
    suite_add_tcase(s, tc);
    tc = tcase_create("offset_bound");
    tcase_add_test(tc, test_offset_bound_round_trip);
    tcase_add_test(tc, test_offset_bound_ages);
    tcase_add_test(tc, test_offset_bound_contradiction);
    suite_add_tcase(s, tc);
    return s;
}
