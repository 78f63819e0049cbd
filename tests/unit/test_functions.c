/* The generated function table (src/gen/function_table.c): its lookup by
 * name lists every id once, in strcmp's order of the names (the trace
 * analyzer binary-searches it; the ids themselves are not in that order). */
#include <string.h>

#include "gen/function_table.h"
#include "suites.h"

START_TEST(test_functions_by_name)
{
    static char seen[MPP_NFUNCTIONS];
    int unordered_ids = 0;
    for (int i = 0; i < MPP_NFUNCTIONS; i++) {
        int f = mpp_functions_by_name[i];
        ck_assert(f >= 0 && f < MPP_NFUNCTIONS);
        ck_assert_msg(!seen[f], "%s twice", mpp_functions[f].name);
        seen[f] = 1;
        if (i > 0)
            ck_assert_msg(strcmp(mpp_functions[mpp_functions_by_name[i - 1]].name, mpp_functions[f].name) < 0,
                          "%s before %s", mpp_functions[mpp_functions_by_name[i - 1]].name, mpp_functions[f].name);
        if (i > 0 && strcmp(mpp_functions[i - 1].name, mpp_functions[i].name) > 0)
            unordered_ids++;
    }
    ck_assert_int_gt(unordered_ids, 0); /* (else the index would not be needed: say so here) */
}
END_TEST

Suite *functions_suite(void)
{
    Suite *s = suite_create("functions");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_functions_by_name);
    suite_add_tcase(s, tc);
    return s;
}
