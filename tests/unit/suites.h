/* The Check suites of the MPI-free stages, and small helpers they share.
 * One <module>_suite() per file; tests/unit/check_units.c runs them all. */
#ifndef MPP_UNIT_SUITES_H
#define MPP_UNIT_SUITES_H

#include <check.h>
#include <jansson.h>
#include <stddef.h>
#include <string.h>

#include "util/warnings.h"

Suite *config_suite(void);
Suite *characteristics_suite(void);
Suite *characteristics_predicted_suite(void);
Suite *dictionary_suite(void);
Suite *table_suite(void);
Suite *profile_suite(void);
Suite *requests_suite(void);
Suite *writer_suite(void);
Suite *writer_files_suite(void);
Suite *warnings_suite(void);
Suite *config_unknown_suite(void);
Suite *machine_suite(void);
Suite *counter_stats_suite(void);
Suite *intervals_suite(void);
Suite *model_suite(void);
Suite *waitstates_suite(void);
Suite *p2p_pairing_suite(void);
Suite *hang_dump_suite(void);
Suite *reduce_suite(void);
Suite *partial_suite(void);
Suite *callsite_suite(void);
Suite *commids_suite(void);
Suite *treereduce_suite(void);
Suite *headline_suite(void);
Suite *cover_suite(void);
Suite *view_suite(void);
Suite *compare_suite(void);
Suite *clock_suite(void);
Suite *numfmt_suite(void);
Suite *srckey_suite(void);
Suite *signature_suite(void);
Suite *findings_suite(void);
Suite *tally_suite(void);
Suite *layout_suite(void);
Suite *pending_suite(void);
Suite *rma_conflicts_suite(void);
Suite *functions_suite(void);
Suite *between_suite(void);
Suite *scaling_suite(void);
Suite *digest_suite(void);
Suite *text_wrap_suite(void);
Suite *matrix_suite(void);

/* failing_alloc.c: the n-th allocation of the test program from now on
 * fails (0: none; where testable, not with AddressSanitizer). */
int unit_allocation_failures_testable(void);
void unit_fail_allocation(int nth);

/* Index of the first recorded warning that contains every one of the given
 * (NULL-terminated) substrings, or -1. */
static inline long unit_find_warning(const char *const *needles)
{
    for (size_t i = 0; i < mpp_warnings_count(); i++) {
        const char *text = mpp_warning_text(i);
        int all = 1;
        for (const char *const *n = needles; *n; n++)
            if (!strstr(text, *n)) {
                all = 0;
                break;
            }
        if (all)
            return (long)i;
    }
    return -1;
}

#define UNIT_WARNING_WITH(...) unit_find_warning((const char *const[]){__VA_ARGS__, NULL})

/* Shared fixture: every test starts and ends with no warnings recorded. */
static inline void unit_reset_warnings(void)
{
    mpp_warnings_set_echo(0);
    mpp_warnings_reset();
}

/* schema/example-protocol.json, the schema's example (the test's to
 * json_decref); MPP_TEST_SRCDIR is the source tree (tests/unit/local.mk). */
static inline json_t *unit_example_protocol(void)
{
    json_error_t error;
    json_t *doc = json_load_file(MPP_TEST_SRCDIR "/schema/example-protocol.json", 0, &error);
    ck_assert_msg(doc != NULL, "schema/example-protocol.json: %s", error.text);
    return doc;
}

#endif
