/* MPIPROF_* variables mpiprof does not know (src/context/config_unknown.c):
 * which names are known, the nearest known name by edit distance, and one
 * warning each at MPI_Init. */
#include "context/config_unknown.h"
#include "suites.h"

static void setup(void) { unit_reset_warnings(); }
static void teardown(void) { mpp_warnings_reset(); }

START_TEST(test_config_unknown_known)
{
    ck_assert_int_eq(mpp_config_known("MPIPROF_DEPTH"), 1);
    ck_assert_int_eq(mpp_config_known("MPIPROF_TEST_CLOCK_SKEW"), 1); /* the table's */
    ck_assert_int_eq(mpp_config_known("MPIPROF_WRAPPER_LIBDIR"), 1);  /* mpicc-prof's */
    ck_assert_int_eq(mpp_config_known("MPIPROF_TEST_KEEP"), 1);       /* the test suite's */
    ck_assert_int_eq(mpp_config_known("MPIPROF_SUITE_MODE"), 1);
    ck_assert_int_eq(mpp_config_known("MPIPROF_DEPHT"), 0);
    ck_assert_int_eq(mpp_config_known("MPIPROF_depth"), 0); /* getenv is case-sensitive */
    ck_assert_int_eq(mpp_config_known("MPIPROF_"), 0);
    ck_assert_int_eq(mpp_config_known("DEPTH"), 0);
}
END_TEST

START_TEST(test_config_unknown_nearest)
{
    ck_assert_str_eq(mpp_config_nearest("MPIPROF_DEPHT"), "MPIPROF_DEPTH");    /* swapped */
    ck_assert_str_eq(mpp_config_nearest("MPIPROF_DEPT"), "MPIPROF_DEPTH");     /* missing */
    ck_assert_str_eq(mpp_config_nearest("MPIPROF_OUTPUTS"), "MPIPROF_OUTPUT"); /* added */
    ck_assert_str_eq(mpp_config_nearest("MPIPROF_QUIOT"), "MPIPROF_QUIET");    /* changed */
    ck_assert_str_eq(mpp_config_nearest("MPIPROF_depth"), "MPIPROF_DEPTH");    /* case */
    ck_assert_str_eq(mpp_config_nearest("MPIPROF_HANG_TIMOUT"), "MPIPROF_HANG_TIMEOUT");
    ck_assert_str_eq(mpp_config_nearest("MPIPROF_WRAPPER_LIBDR"), "MPIPROF_WRAPPER_LIBDIR");
    ck_assert_ptr_null(mpp_config_nearest("MPIPROF_XYZZY_PLUGH")); /* near none */
    ck_assert_ptr_null(mpp_config_nearest("MPIPROF_FOO"));
    ck_assert_ptr_null(
        mpp_config_nearest("MPIPROF_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"));
}
END_TEST

START_TEST(test_config_unknown_warn)
{
    char *env[] = {"PATH=/bin",       "MPIPROF_DEPTH=2", "MPIPROF_DEPHT=2",       "MPIPROF_TEST_KEEP=1",
                   "MPIPROF_XYZZY=1", "MPIPROF_NOVALUE", "OTHER_MPIPROF_DEPHT=1", NULL};
    ck_assert_int_eq(mpp_config_warn_unknown(env), 3);
    ck_assert_uint_eq(mpp_warnings_count(), 3);
    ck_assert_str_eq(mpp_warning_text(0),
                     "MPIPROF_DEPHT is not an mpiprof variable; did you mean MPIPROF_DEPTH? (it is ignored)");
    ck_assert_ptr_nonnull(strstr(mpp_warning_text(1), "MPIPROF_XYZZY is not an mpiprof variable (it is ignored"));
    ck_assert_ptr_nonnull(strstr(mpp_warning_text(2), "MPIPROF_NOVALUE is not an mpiprof variable"));
    /* MPI_Init again (sessions): said once */
    mpp_config_warn_unknown(env);
    ck_assert_uint_eq(mpp_warnings_count(), 3);
    ck_assert_int_eq(mpp_config_warn_unknown(NULL), 0);
}
END_TEST

Suite *config_unknown_suite(void)
{
    Suite *s = suite_create("config_unknown");
    TCase *tc = tcase_create("names");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_config_unknown_known);
    tcase_add_test(tc, test_config_unknown_nearest);
    tcase_add_test(tc, test_config_unknown_warn);
    suite_add_tcase(s, tc);
    return s;
}
