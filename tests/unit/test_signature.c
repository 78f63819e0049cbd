/* Type signatures as composable hashes (src/check/signature.c): the same
 * sequence of basic types gives the same hash however the datatypes build
 * it, a different one gives another, and a message compares with a
 * receive as MPI's type matching says. */
#include "check/signature.h"
#include "records/finding.h"
#include "suites.h"

enum { INT4 = MPP_SIG_SIGNED + 4, FLOAT4 = MPP_SIG_FLOAT + 4, DOUBLE8 = MPP_SIG_FLOAT + 8 };

START_TEST(test_signature_composes)
{
    mpp_signature_t i = mpp_sig_basic(INT4), d = mpp_sig_basic(DOUBLE8);
    /* (int, double) x 3 built three ways: concatenations, a repetition of a
     * struct, a repetition of pairs of structs plus one */
    mpp_signature_t pair = mpp_sig_concat(i, d), by_hand = mpp_sig_empty();
    for (int k = 0; k < 3; k++)
        by_hand = mpp_sig_concat(mpp_sig_concat(by_hand, i), d);
    mpp_signature_t repeated = mpp_sig_repeat(pair, 3);
    mpp_signature_t mixed = mpp_sig_concat(mpp_sig_repeat(pair, 2), pair);
    ck_assert_uint_eq(repeated.length, 6);
    ck_assert_uint_eq(by_hand.hash, repeated.hash);
    ck_assert_uint_eq(mixed.hash, repeated.hash);
    ck_assert_int_eq(repeated.basic, -1); /* two classes */
    /* order matters: (double, int) x 3 is another signature */
    mpp_signature_t swapped = mpp_sig_repeat(mpp_sig_concat(d, i), 3);
    ck_assert_uint_ne(swapped.hash, repeated.hash);
    ck_assert_int_eq(mpp_sig_compare(swapped, repeated), MPP_SIG_DIFFER);
    ck_assert_int_eq(mpp_sig_compare(by_hand, repeated), MPP_SIG_MATCH);
    /* a large count in log steps, the same as one by one */
    mpp_signature_t many = mpp_sig_empty();
    for (int k = 0; k < 1000; k++)
        many = mpp_sig_concat(many, i);
    ck_assert_uint_eq(mpp_sig_repeat(i, 1000).hash, many.hash);
    ck_assert_int_eq(mpp_sig_repeat(i, 1000).basic, INT4);
}
END_TEST

START_TEST(test_signature_compare)
{
    mpp_signature_t ints = mpp_sig_repeat(mpp_sig_basic(INT4), 10);
    mpp_signature_t floats = mpp_sig_repeat(mpp_sig_basic(FLOAT4), 10);
    /* an int sent, a float received: wrong, whatever the sizes */
    ck_assert_int_eq(mpp_sig_compare(ints, floats), MPP_SIG_DIFFER);
    /* fewer ints into a larger int buffer: its prefix matches */
    ck_assert_int_eq(mpp_sig_compare(mpp_sig_repeat(mpp_sig_basic(INT4), 4), ints), MPP_SIG_MATCH);
    /* bytes match anything, either way; nothing sent matches anything */
    mpp_signature_t bytes = mpp_sig_repeat(mpp_sig_basic(MPP_SIG_ANY), 40);
    ck_assert_int_eq(mpp_sig_compare(bytes, floats), MPP_SIG_MATCH);
    ck_assert_int_eq(mpp_sig_compare(floats, bytes), MPP_SIG_MATCH);
    ck_assert_int_eq(mpp_sig_compare(mpp_sig_empty(), floats), MPP_SIG_MATCH);
    /* a struct received whole: by hash; a shorter message into it: not decidable */
    mpp_signature_t s = mpp_sig_repeat(mpp_sig_concat(mpp_sig_basic(INT4), mpp_sig_basic(DOUBLE8)), 4);
    ck_assert_int_eq(mpp_sig_compare(s, s), MPP_SIG_MATCH);
    ck_assert_int_eq(
        mpp_sig_compare(mpp_sig_repeat(mpp_sig_concat(mpp_sig_basic(INT4), mpp_sig_basic(DOUBLE8)), 2), s),
        MPP_SIG_UNKNOWN);
    /* a type the profiler could not decode */
    mpp_signature_t unknown = {0, 3, -2};
    ck_assert_int_eq(mpp_sig_compare(unknown, ints), MPP_SIG_UNKNOWN);
}
END_TEST

START_TEST(test_finding_kinds)
{
    /* the names correctness.md fixes, each once */
    ck_assert_int_eq(mpp_finding_kind_of("wrong-datatype"), MPP_FIND_WRONG_DATATYPE);
    ck_assert_int_eq(mpp_finding_kind_of("potential-hang"), MPP_FIND_POTENTIAL_HANG);
    ck_assert_int_eq(mpp_finding_kind_of("no-such-kind"), -1);
    for (int k = 0; k < MPP_NFIND; k++) {
        ck_assert_ptr_nonnull(mpp_finding_kinds[k].name);
        ck_assert_int_eq(mpp_finding_kind_of(mpp_finding_kinds[k].name), k);
    }
    ck_assert_int_eq(mpp_finding_kinds[MPP_FIND_INCORRECT_SEND_SIZE].severity, MPP_FINDING_WARNING);
}
END_TEST

Suite *signature_suite(void)
{
    Suite *s = suite_create("signature");
    TCase *tc = tcase_create("hashes");
    tcase_add_test(tc, test_signature_composes);
    tcase_add_test(tc, test_signature_compare);
    tcase_add_test(tc, test_finding_kinds);
    suite_add_tcase(s, tc);
    return s;
}
