/* Both clocks read at one instant (clock.h, mpp_clock_pair): a pair whose
 * reads were split by a deschedule must not be the one the TSC rate is
 * measured with. */
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

Suite *clock_suite(void)
{
    Suite *s = suite_create("clock");
    TCase *tc = tcase_create("pair");
    tcase_add_test(tc, test_clock_pair_skips_descheduled);
    tcase_add_test(tc, test_clock_pair_closest_of_all);
    suite_add_tcase(s, tc);
    return s;
}
