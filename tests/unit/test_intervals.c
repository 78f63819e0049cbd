/* The interval tree of one process (src/accumulate/intervals.c): identity,
 * nesting, inclusive times, replicated code, caps and misuse.  Instants are
 * given explicitly (ticks), so every time is exact. */
#include <stdlib.h>

#include "accumulate/intervals.h"
#include "suites.h"

#define MARK(line) (&(mpp_mark_t){"a.c", (line), 0})
#define SITE(addr) (&(mpp_mark_t){NULL, 0, (addr)})

static void setup(void)
{
    unit_reset_warnings();
    ck_assert_int_eq(mpp_intervals_init(16, 8, 1000), 0);
}

static int warned(const char *a, const char *b) { return unit_find_warning((const char *const[]){a, b, NULL}) >= 0; }

START_TEST(test_intervals_whole_program)
{
    ck_assert_uint_eq(mpp_nintervals, 1);
    ck_assert_uint_eq(mpp_current_interval, 0);
    ck_assert_str_eq(mpp_intervals[0].name, "whole program");
    ck_assert_int_eq(mpp_intervals[0].parent, -1);
    ck_assert_uint_eq(mpp_intervals[0].executions, 1);
    mpp_intervals_close_all(1500);
    ck_assert_uint_eq(mpp_intervals[0].ticks, 500);
}
END_TEST

START_TEST(test_intervals_nesting_and_identity)
{
    for (int i = 0; i < 3; i++) {
        int loop = mpp_interval_begin("loop", MARK(10), 2000 + 100 * i, 1);
        ck_assert_int_eq(loop, 1);
        ck_assert_uint_eq(mpp_current_interval, 1);
        int inner = mpp_interval_begin("exch", MARK(12), 2010 + 100 * i, 1);
        ck_assert_int_eq(inner, 2);
        ck_assert_uint_eq(mpp_current_interval, 2);
        mpp_interval_end(NULL, MARK(14), 2030 + 100 * i, 1);
        ck_assert_uint_eq(mpp_current_interval, 1);
        mpp_interval_end(NULL, MARK(15), 2050 + 100 * i, 1);
        ck_assert_uint_eq(mpp_current_interval, 0);
    }
    ck_assert_uint_eq(mpp_nintervals, 3);
    ck_assert_uint_eq(mpp_intervals[1].executions, 3);
    ck_assert_uint_eq(mpp_intervals[1].ticks, 150);
    ck_assert_uint_eq(mpp_intervals[2].ticks, 60);
    ck_assert_int_eq(mpp_intervals[2].parent, 1);
    ck_assert_int_eq(mpp_intervals[2].level, 2);
    ck_assert_uint_eq(mpp_intervals[1].first_entry, 1000); /* ticks after interval 0 began */
    /* same name and position under another parent: another interval */
    ck_assert_int_eq(mpp_interval_begin("exch", MARK(12), 3000, 1), 3);
    mpp_interval_end(NULL, MARK(14), 3001, 1);
    /* same name, other line: another interval */
    ck_assert_int_eq(mpp_interval_begin("loop", MARK(11), 3002, 1), 4);
    mpp_interval_end(NULL, MARK(14), 3003, 1);
    ck_assert_uint_eq(mpp_warnings_count(), 0);
}
END_TEST

START_TEST(test_intervals_site_identity)
{
    /* Fortran and MPI_Pcontrol marks: identified by their call's return address */
    ck_assert_int_eq(mpp_interval_begin("f", SITE(0x1234), 2000, 1), 1);
    mpp_interval_end("f", SITE(0x1300), 2010, 1);
    ck_assert_int_eq(mpp_interval_begin("f", SITE(0x1234), 2020, 1), 1);
    mpp_interval_end(NULL, SITE(0x1300), 2030, 1);
    ck_assert_int_eq(mpp_interval_begin("f", SITE(0x9999), 2040, 1), 2);
    mpp_interval_end(NULL, SITE(0x1300), 2050, 1);
    ck_assert_uint_eq(mpp_intervals[1].site, 0x1234);
    ck_assert_str_eq(mpp_intervals[1].file, "");
    ck_assert_uint_eq(mpp_intervals[1].executions, 2);
}
END_TEST

START_TEST(test_intervals_replicated_code)
{
    mpp_interval_begin("outer", MARK(1), 2000, 1);
    mpp_seq_begin(MARK(2), 2100);
    mpp_interval_begin("inner", MARK(3), 2150, 1);
    mpp_seq_begin(MARK(4), 2160); /* nested: counted once */
    mpp_seq_end(MARK(5), 2170);
    mpp_interval_end(NULL, MARK(6), 2180, 1);
    mpp_seq_end(MARK(7), 2300);
    mpp_interval_end(NULL, MARK(8), 2400, 1);
    /* the SEQ region 2100..2300 lies in interval 0 and outer whole; inner
     * (2150..2180) lies inside it whole */
    ck_assert_uint_eq(mpp_intervals[1].seq_ticks, 200);
    ck_assert_uint_eq(mpp_intervals[0].seq_ticks, 200);
    ck_assert_uint_eq(mpp_intervals[2].seq_ticks, 30);
    mpp_seq_begin(MARK(9), 2500);
    mpp_interval_begin("inner2", MARK(10), 2500, 1);
    mpp_seq_end(MARK(11), 2550);
    mpp_interval_end(NULL, MARK(12), 2600, 1);
    ck_assert_uint_eq(mpp_intervals[3].seq_ticks, 50); /* 2500..2550 */
    /* a region that begins inside an interval and ends after it closes */
    mpp_interval_begin("straddle", MARK(13), 3000, 1);
    mpp_seq_begin(MARK(14), 3040);
    mpp_interval_end(NULL, MARK(15), 3100, 1);
    mpp_seq_end(MARK(16), 3200);
    ck_assert_uint_eq(mpp_intervals[4].seq_ticks, 60); /* 3040..3100 */
    ck_assert_uint_eq(mpp_intervals[0].seq_ticks, 200 + 50 + 160);
}
END_TEST

START_TEST(test_intervals_cap_folds_into_parent)
{
    ck_assert_int_eq(mpp_intervals_init(3, 8, 0), 0); /* interval 0 + 2 */
    ck_assert_int_eq(mpp_interval_begin("a", MARK(1), 10, 1), 1);
    ck_assert_int_eq(mpp_interval_begin("b", MARK(2), 20, 1), 2);
    ck_assert_int_eq(mpp_interval_begin("c", MARK(3), 30, 1), -1); /* folded */
    ck_assert_uint_eq(mpp_current_interval, 2);                    /* calls go to b */
    ck_assert_int_eq(mpp_interval_begin("d", MARK(4), 40, 1), -1);
    mpp_interval_end(NULL, MARK(5), 50, 1); /* ends d: no effect */
    mpp_interval_end(NULL, MARK(6), 60, 1); /* ends c: no effect */
    ck_assert_uint_eq(mpp_current_interval, 2);
    mpp_interval_end(NULL, MARK(7), 70, 1); /* ends b */
    ck_assert_uint_eq(mpp_current_interval, 1);
    ck_assert_uint_eq(mpp_intervals[2].ticks, 50);
    ck_assert_uint_eq(mpp_nintervals, 3);
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert(warned("MPIPROF_MAX_INTERVALS", "\"c\""));
}
END_TEST

START_TEST(test_intervals_nesting_cap)
{
    ck_assert_int_eq(mpp_intervals_init(16, 1, 0), 0);
    ck_assert_int_eq(mpp_interval_begin("a", MARK(1), 10, 1), 1);
    ck_assert_int_eq(mpp_interval_begin("b", MARK(2), 20, 1), -1);
    ck_assert_int_eq(mpp_interval_begin("c", MARK(3), 30, 1), -1);
    mpp_interval_end(NULL, MARK(4), 40, 1);
    mpp_interval_end(NULL, MARK(5), 50, 1);
    ck_assert_uint_eq(mpp_current_interval, 1);
    mpp_interval_end(NULL, MARK(6), 60, 1);
    ck_assert_uint_eq(mpp_current_interval, 0);
    ck_assert(warned("MPIPROF_MAX_NESTING", "\"b\""));
}
END_TEST

START_TEST(test_intervals_misuse)
{
    mpp_interval_end(NULL, MARK(40), 2000, 1);
    ck_assert(warned("a.c:40", "without an open interval"));
    mpp_seq_end(MARK(41), 2000);
    ck_assert(warned("a.c:41", "without a begin"));

    mpp_interval_begin("outer", MARK(1), 2000, 1);
    mpp_interval_begin("inner", MARK(2), 2010, 1);
    mpp_interval_end("nosuch", MARK(42), 2020, 1);
    ck_assert(warned("\"nosuch\"", "a.c:42"));
    ck_assert_uint_eq(mpp_current_interval, 2); /* ignored */
    mpp_interval_end("outer", MARK(43), 2030, 1);
    ck_assert(warned("\"outer\"", "closes the intervals still open inside it"));
    ck_assert_uint_eq(mpp_current_interval, 0);
    ck_assert_uint_eq(mpp_intervals[2].ticks, 20);

    mpp_interval_begin("threaded", MARK(3), 3000, 1);
    mpp_interval_end(NULL, MARK(44), 3010, 2); /* another thread */
    ck_assert(warned("\"threaded\"", "another thread"));
    ck_assert_uint_eq(mpp_current_interval, 0); /* closed anyway */

    mpp_interval_begin("left open", MARK(4), 4000, 1);
    mpp_seq_begin(MARK(5), 4000);
    mpp_intervals_close_all(4100);
    ck_assert(warned("\"left open\"", "still open at MPI_Finalize"));
    ck_assert(warned("replicated code", "still open"));
    ck_assert_uint_eq(mpp_intervals[4].ticks, 100);
    ck_assert_uint_eq(mpp_intervals[4].seq_ticks, 100);
    ck_assert_uint_eq(mpp_current_interval, 0);
}
END_TEST

START_TEST(test_intervals_bad_args)
{
    /* zero caps are raised to 1: only the whole program, every mark folded */
    ck_assert_int_eq(mpp_intervals_init(0, 0, 0), 0);
    ck_assert_int_eq(mpp_interval_begin("x", MARK(1), 1, 1), -1);
    mpp_interval_end(NULL, MARK(2), 2, 1);
    ck_assert_uint_eq(mpp_current_interval, 0);
    /* a long name is cut, not overrun */
    ck_assert_int_eq(mpp_intervals_init(4, 4, 0), 0);
    char name[600];
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    ck_assert_int_eq(mpp_interval_begin(name, MARK(3), 1, 1), 1);
    ck_assert_uint_eq(strlen(mpp_intervals[1].name), MPP_NAME_MAX - 1);
}
END_TEST

/* The boundary log: where the interval execution a call was in ends
 * (the bound of its collective windows). */
START_TEST(test_intervals_boundary_log)
{
    ck_assert_int_eq(mpp_interval_log_init(64), 0);
    ck_assert_int_eq(mpp_intervals_init(16, 8, 1000), 0); /* interval 0 opens: boundary 0 */
    uint64_t end = 0;
    mpp_interval_place_t in0 = mpp_interval_place();
    ck_assert_uint_eq(in0.position, 1);
    ck_assert_uint_eq(in0.level, 0);
    mpp_interval_begin("a", MARK(10), 1100, 1);
    mpp_interval_begin("b", MARK(11), 1200, 1);
    mpp_interval_place_t in_b = mpp_interval_place();
    ck_assert_uint_eq(in_b.level, 2);
    ck_assert_int_eq(mpp_interval_end_of(in_b, &end), 0); /* still open */
    mpp_interval_end(NULL, MARK(12), 1300, 1);
    mpp_interval_place_t in_a = mpp_interval_place(); /* after b: a's execution, not b's */
    ck_assert_int_eq(mpp_interval_end_of(in_b, &end), 1);
    ck_assert_uint_eq(end, 1300);
    mpp_interval_begin("b", MARK(11), 1400, 1); /* b again, nested: ends before a */
    mpp_interval_end(NULL, MARK(12), 1500, 1);
    ck_assert_int_eq(mpp_interval_end_of(in_a, &end), 0);
    mpp_interval_end(NULL, MARK(13), 1600, 1);
    ck_assert_int_eq(mpp_interval_end_of(in_a, &end), 1);
    ck_assert_uint_eq(end, 1600);
    mpp_intervals_close_all(2000);
    ck_assert_int_eq(mpp_interval_end_of(in0, &end), 1);
    ck_assert_uint_eq(end, 2000);
    /* by instant: a call that returned at 1300 came before b's end there */
    mpp_interval_place_t at = mpp_interval_place_at(1300);
    ck_assert_uint_eq(at.level, 2);
    ck_assert_int_eq(mpp_interval_end_of(at, &end), 1);
    ck_assert_uint_eq(end, 1300);
    at = mpp_interval_place_at(1301); /* after it: in a */
    ck_assert_uint_eq(at.level, 1);
    ck_assert_int_eq(mpp_interval_end_of(at, &end), 1);
    ck_assert_uint_eq(end, 1600);
    at = mpp_interval_place_at(1700);
    ck_assert_uint_eq(at.level, 0);
    ck_assert_int_eq(mpp_interval_end_of(at, &end), 1);
    ck_assert_uint_eq(end, 2000);
    /* packing keeps a place */
    mpp_interval_place_t back = mpp_interval_place_unpack(mpp_interval_place_pack(in_b));
    ck_assert_uint_eq(back.position, in_b.position);
    ck_assert_uint_eq(back.level, in_b.level);
    /* a ring that no longer holds the end says so */
    ck_assert_int_eq(mpp_interval_log_init(4), 0);
    ck_assert_int_eq(mpp_intervals_init(16, 8, 0), 0);
    mpp_interval_place_t early = mpp_interval_place();
    for (int i = 0; i < 4; i++) {
        mpp_interval_begin("c", MARK(20), 10 + 10 * (uint64_t)i, 1);
        mpp_interval_end(NULL, MARK(21), 15 + 10 * (uint64_t)i, 1);
    }
    ck_assert_int_eq(mpp_interval_end_of(early, &end), -1);
    /* no log: nothing is known */
    ck_assert_int_eq(mpp_interval_log_init(0), 0);
    ck_assert_int_eq(mpp_intervals_init(16, 8, 0), 0);
    ck_assert_int_eq(mpp_interval_end_of(mpp_interval_place(), &end), -1);
}
END_TEST

Suite *intervals_suite(void)
{
    Suite *s = suite_create("intervals");
    TCase *tree = tcase_create("tree");
    tcase_add_checked_fixture(tree, setup, NULL);
    tcase_add_test(tree, test_intervals_whole_program);
    tcase_add_test(tree, test_intervals_nesting_and_identity);
    tcase_add_test(tree, test_intervals_site_identity);
    tcase_add_test(tree, test_intervals_replicated_code);
    tcase_add_test(tree, test_intervals_boundary_log);
    suite_add_tcase(s, tree);
    TCase *caps = tcase_create("caps");
    tcase_add_checked_fixture(caps, setup, NULL);
    tcase_add_test(caps, test_intervals_cap_folds_into_parent);
    tcase_add_test(caps, test_intervals_nesting_cap);
    suite_add_tcase(s, caps);
    TCase *misuse = tcase_create("misuse");
    tcase_add_checked_fixture(misuse, setup, NULL);
    tcase_add_test(misuse, test_intervals_misuse);
    tcase_add_test(misuse, test_intervals_bad_args);
    suite_add_tcase(s, misuse);
    return s;
}
