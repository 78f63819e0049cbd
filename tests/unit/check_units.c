/* The runner of every Check suite of tests/unit: exit status is the number
 * of failed tests (0: all passed; 255 for 255 or more). */
#include <stdlib.h>

#include "suites.h"

int main(void)
{
    SRunner *sr = srunner_create(config_suite());
    srunner_add_suite(sr, characteristics_suite());
    srunner_add_suite(sr, characteristics_predicted_suite());
    srunner_add_suite(sr, dictionary_suite());
    srunner_add_suite(sr, table_suite());
    srunner_add_suite(sr, profile_suite());
    srunner_add_suite(sr, requests_suite());
    srunner_add_suite(sr, writer_suite());
    srunner_add_suite(sr, writer_files_suite());
    srunner_add_suite(sr, warnings_suite());
    srunner_add_suite(sr, config_unknown_suite());
    srunner_add_suite(sr, machine_suite());
    srunner_add_suite(sr, counter_stats_suite());
    srunner_add_suite(sr, intervals_suite());
    srunner_add_suite(sr, model_suite());
    srunner_add_suite(sr, waitstates_suite());
    srunner_add_suite(sr, p2p_pairing_suite());
    srunner_add_suite(sr, hang_dump_suite());
    srunner_add_suite(sr, reduce_suite());
    srunner_add_suite(sr, partial_suite());
    srunner_add_suite(sr, callsite_suite());
    srunner_add_suite(sr, commids_suite());
    srunner_add_suite(sr, treereduce_suite());
    srunner_add_suite(sr, headline_suite());
    srunner_add_suite(sr, cover_suite());
    srunner_add_suite(sr, view_suite());
    srunner_add_suite(sr, compare_suite());
    srunner_add_suite(sr, scaling_suite());
    srunner_add_suite(sr, clock_suite());
    srunner_add_suite(sr, numfmt_suite());
    srunner_add_suite(sr, signature_suite());
    srunner_add_suite(sr, findings_suite());
    srunner_add_suite(sr, tally_suite());
    srunner_add_suite(sr, layout_suite());
    srunner_add_suite(sr, pending_suite());
    srunner_add_suite(sr, rma_conflicts_suite());
    srunner_add_suite(sr, functions_suite());
    srunner_add_suite(sr, between_suite());
    srunner_add_suite(sr, srckey_suite());
    srunner_add_suite(sr, digest_suite());
    srunner_add_suite(sr, text_wrap_suite());
    srunner_add_suite(sr, matrix_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed > 255 ? 255 : failed; /* an exit status keeps 8 bits: never wrap to 0 */
}
