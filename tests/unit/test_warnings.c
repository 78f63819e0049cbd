/* Warnings of one process (src/util/warnings.c): fixed storage, identical
 * texts kept once, echoed on stderr only when the process may speak. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suites.h"
#include "util/warnings.h"

static void setup(void) { unit_reset_warnings(); }

static void teardown(void)
{
    mpp_warnings_set_echo(0);
    mpp_warnings_reset();
}

/* Run with stderr going to a temporary file; returns what was written. */
static FILE *captured;
static int saved_stderr = -1;

static void capture_stderr(void)
{
    fflush(stderr);
    captured = tmpfile();
    ck_assert_ptr_nonnull(captured);
    saved_stderr = dup(2);
    ck_assert_int_ge(saved_stderr, 0);
    ck_assert_int_ge(dup2(fileno(captured), 2), 0);
}

static char *captured_text(void)
{
    static char buf[8192];
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    rewind(captured);
    size_t n = fread(buf, 1, sizeof buf - 1, captured);
    buf[n] = '\0';
    fclose(captured);
    return buf;
}

/* --- recording --- */

START_TEST(test_warnings_record)
{
    ck_assert_uint_eq(mpp_warnings_count(), 0);
    mpp_warn("first %d", 1);
    mpp_warn("second %s", "two");
    ck_assert_uint_eq(mpp_warnings_count(), 2);
    ck_assert_str_eq(mpp_warning_text(0), "first 1");
    ck_assert_str_eq(mpp_warning_text(1), "second two");
    ck_assert_ptr_null(mpp_warning_text(2));
    mpp_warnings_reset();
    ck_assert_uint_eq(mpp_warnings_count(), 0);
    ck_assert_ptr_null(mpp_warning_text(0));
}
END_TEST

START_TEST(test_warnings_identical_once)
{
    for (int i = 0; i < 10; i++)
        mpp_warn("the same %s", "text");
    mpp_warn("another");
    mpp_warn("the same text");
    ck_assert_uint_eq(mpp_warnings_count(), 2);
    ck_assert_str_eq(mpp_warning_text(0), "the same text");
    ck_assert_str_eq(mpp_warning_text(1), "another");
}
END_TEST

START_TEST(test_warnings_arguments_are_data)
{
    mpp_warn("value '%s'", "%n%n%s%x");
    ck_assert_str_eq(mpp_warning_text(0), "value '%n%n%s%x'");
}
END_TEST

START_TEST(test_warnings_long_text_cut)
{
    static char longer[MPP_WARNING_LEN * 3];
    memset(longer, 'w', sizeof longer - 1);
    longer[sizeof longer - 1] = '\0';
    mpp_warn("%s", longer);
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_uint_eq(strlen(mpp_warning_text(0)), MPP_WARNING_LEN - 1);
}
END_TEST

/* LIBRARY BUG (src/util/warnings.c, mpp_warn): when the table is full, the
 * last stored warning is overwritten by "N further warnings were dropped"
 * with N counting only the new warnings, so the displaced one is missing
 * from the count: 70 warnings show 63 texts and say 6 were dropped, not 7. */
START_TEST(test_warnings_overflow_counted)
{
    enum { N = MPP_MAX_WARNINGS + 6 };
    for (int i = 0; i < N; i++)
        mpp_warn("warning number %d", i);
    ck_assert_uint_eq(mpp_warnings_count(), MPP_MAX_WARNINGS);
    for (int i = 0; i < MPP_MAX_WARNINGS - 1; i++) {
        char expected[64];
        snprintf(expected, sizeof expected, "warning number %d", i);
        ck_assert_str_eq(mpp_warning_text((size_t)i), expected);
    }
    /* every warning is either shown or counted as dropped */
    char expected[64];
    snprintf(expected, sizeof expected, "%d further warnings were dropped", N - (MPP_MAX_WARNINGS - 1));
    ck_assert_str_eq(mpp_warning_text(MPP_MAX_WARNINGS - 1), expected);
}
END_TEST

START_TEST(test_warnings_overflow_bounded)
{
    /* many more: storage stays bounded, the first ones stay */
    for (int i = 0; i < 10000; i++)
        mpp_warn("warning number %d", i);
    ck_assert_uint_eq(mpp_warnings_count(), MPP_MAX_WARNINGS);
    ck_assert_str_eq(mpp_warning_text(0), "warning number 0");
    ck_assert_ptr_nonnull(strstr(mpp_warning_text(MPP_MAX_WARNINGS - 1), "further warnings were dropped"));
}
END_TEST

/* --- echo on stderr --- */

START_TEST(test_warnings_echo)
{
    capture_stderr();
    mpp_warn("early one");
    mpp_warn("early two");
    mpp_warnings_set_echo(1); /* the pending ones are printed now */
    mpp_warn("late");
    mpp_warn("late"); /* identical: not again */
    mpp_warnings_set_echo(0);
    mpp_warn("silent");
    const char *err = captured_text();
    ck_assert_str_eq(err, "mpiprof: warning: early one\nmpiprof: warning: early two\nmpiprof: warning: late\n");
    ck_assert_uint_eq(mpp_warnings_count(), 4); /* kept for the protocol all the same */
}
END_TEST

START_TEST(test_warnings_protocol_only)
{
    capture_stderr();
    mpp_warn_protocol_only("default counter not countable");
    mpp_warnings_set_echo(1); /* pending: the protocol-only one stays off stderr */
    mpp_warn("shown");
    mpp_warn_protocol_only("another default");
    const char *err = captured_text();
    ck_assert_str_eq(err, "mpiprof: warning: shown\n");
    ck_assert_uint_eq(mpp_warnings_count(), 3);
    ck_assert_str_eq(mpp_warning_text(0), "default counter not countable");
    ck_assert_str_eq(mpp_warning_text(2), "another default");
}
END_TEST

START_TEST(test_warnings_quiet)
{
    capture_stderr();
    mpp_warn("before");
    mpp_warnings_set_echo(0); /* another rank, or MPIPROF_QUIET */
    mpp_warn("after");
    const char *err = captured_text();
    ck_assert_str_eq(err, "");
    ck_assert_uint_eq(mpp_warnings_count(), 2);
}
END_TEST

/* --- bad arguments --- */

START_TEST(test_warnings_bad_args)
{
    ck_assert_ptr_null(mpp_warning_text(SIZE_MAX));
    ck_assert_ptr_null(mpp_warning_text(MPP_MAX_WARNINGS));
    mpp_warn("%s", "");
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    ck_assert_str_eq(mpp_warning_text(0), "");
    mpp_warn("%s", "");
    ck_assert_uint_eq(mpp_warnings_count(), 1);
    mpp_warnings_reset();
    mpp_warnings_reset();
    ck_assert_uint_eq(mpp_warnings_count(), 0);
}
END_TEST

Suite *warnings_suite(void)
{
    Suite *s = suite_create("warnings");
    TCase *tc;

    tc = tcase_create("record");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_warnings_record);
    tcase_add_test(tc, test_warnings_identical_once);
    tcase_add_test(tc, test_warnings_arguments_are_data);
    tcase_add_test(tc, test_warnings_long_text_cut);
    suite_add_tcase(s, tc);

    tc = tcase_create("overflow");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_warnings_overflow_counted);
    tcase_add_test(tc, test_warnings_overflow_bounded);
    suite_add_tcase(s, tc);

    tc = tcase_create("echo");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_warnings_echo);
    tcase_add_test(tc, test_warnings_quiet);
    tcase_add_test(tc, test_warnings_protocol_only);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_warnings_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
