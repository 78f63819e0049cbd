/* What the run left, grouped by SRC point (src/check/tally.c): by kind,
 * function and the stack's content, whatever copy of it an item points to. */
#include <stdint.h>

#include "check/tally.h"
#include "suites.h"

START_TEST(test_tally_groups)
{
    uintptr_t a[2] = {0x401000, 0x402000}, a_copy[2] = {0x401000, 0x402000}, b[2] = {0x401000, 0x403000};
    mpp_tally_item_t items[] = {
        {1, 7, 2, a, 1}, {1, 7, 2, b, 1}, {1, 7, 2, a_copy, 2}, {2, 7, 2, a, 1},
        {1, 8, 2, a, 1}, {1, 7, 1, a, 1}, {1, 7, 2, a, 1},      {0, 3, 0, NULL, 1},
    };
    size_t n = sizeof items / sizeof *items;
    mpp_tally_group_t groups[sizeof items / sizeof *items];
    size_t ngroups = mpp_tally(items, n, groups);
    ck_assert_uint_eq(ngroups, 6);
    uint64_t total = 0, weight = 0, threes = 0;
    for (size_t g = 0; g < ngroups; g++) {
        total += groups[g].items;
        weight += groups[g].count;
        const mpp_tally_item_t *first = &items[groups[g].first];
        for (size_t i = groups[g].first; i < groups[g].first + groups[g].items; i++) {
            ck_assert_int_eq(items[i].kind, first->kind);
            ck_assert_uint_eq(items[i].fid, first->fid);
            ck_assert_int_eq(items[i].depth, first->depth);
        }
        if (first->kind == 1 && first->fid == 7 && first->depth == 2 && first->frames[1] == 0x402000) {
            ck_assert_uint_eq(groups[g].items, 3); /* a, its copy and a again */
            ck_assert_uint_eq(groups[g].count, 4); /* the copy weighs 2 */
            threes++;
        }
    }
    ck_assert_uint_eq(total, n);
    ck_assert_uint_eq(weight, n + 1);
    ck_assert_uint_eq(threes, 1);
    ck_assert_uint_eq(mpp_tally(items, 0, groups), 0);
}
END_TEST

Suite *tally_suite(void)
{
    Suite *s = suite_create("tally");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_tally_groups);
    suite_add_tcase(s, tc);
    return s;
}
