/* The findings of a process (src/check/findings.c): one entry per kind
 * and call site with its count and first details, bounded, what does not
 * fit counted. */
#include <stdlib.h>

#include "check/findings.h"
#include "suites.h"

START_TEST(test_findings_by_site)
{
    mpp_findings_init(3);
    uintptr_t a[2] = {0x401000, 0x402000}, b[2] = {0x401000, 0x403000};
    for (int i = 0; i < 5; i++)
        mpp_findings_add(MPP_FIND_WRONG_DATATYPE, 7, a, 2, 1, 8, 99, i ? "later" : "first");
    mpp_findings_add(MPP_FIND_WRONG_DATATYPE, 7, b, 2, 1, 8, 99, "another stack");
    mpp_findings_add(MPP_FIND_INCORRECT_SEND_SIZE, 7, a, 2, -1, MPP_FINDING_NO_FUNCTION, 0, NULL);
    mpp_findings_add(MPP_FIND_RESOURCE_LEAK, 9, NULL, 0, -1, MPP_FINDING_NO_FUNCTION, 0, "3 communicators");
    size_t n;
    uint64_t dropped, errors, warnings;
    mpp_finding_t *f = mpp_findings_take(&n, &dropped);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(dropped, 1); /* the fourth entry did not fit */
    ck_assert_int_eq(f[0].kind, MPP_FIND_WRONG_DATATYPE);
    ck_assert_uint_eq(f[0].count, 5);
    ck_assert_str_eq(f[0].detail, "first");
    ck_assert_int_eq(f[0].peer, 1);
    ck_assert_uint_eq(f[0].other_site, 99);
    ck_assert_uint_eq(f[1].count, 1);
    ck_assert_str_eq(f[1].detail, "another stack");
    ck_assert_str_eq(f[2].detail, "");
    mpp_findings_counts(&errors, &warnings);
    ck_assert_uint_eq(errors, 6);
    ck_assert_uint_eq(warnings, 2); /* incorrect-send-size and resource-leak */
    free(f);
    mpp_findings_free();
    f = mpp_findings_take(&n, &dropped);
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(f);
}
END_TEST

START_TEST(test_findings_bad_args)
{
    mpp_findings_init(4);
    mpp_findings_add(-1, 0, NULL, 0, -1, 0, 0, NULL);
    mpp_findings_add(MPP_NFIND, 0, NULL, 0, -1, 0, 0, NULL);
    uintptr_t deep[MPP_MAX_DEPTH + 4] = {1};
    mpp_findings_add(MPP_FIND_ABORT, 0, deep, MPP_MAX_DEPTH + 4, -1, 0, 0, NULL); /* cut to the deepest kept */
    size_t n;
    uint64_t dropped;
    mpp_finding_t *f = mpp_findings_take(&n, &dropped);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(f[0].depth, MPP_MAX_DEPTH);
    free(f);
    mpp_findings_free();
}
END_TEST

Suite *findings_suite(void)
{
    Suite *s = suite_create("findings");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_findings_by_site);
    tcase_add_test(tc, test_findings_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
