/* Communicator ids every member derives alone (commids.h): the members of
 * one communicator agree, communicators that share a process differ. */
#include <check.h>
#include <stdlib.h>

#include "accumulate/waitstates/commids.h"
#include "suites.h"
#include "util/handlemap.h"

static mpp_rankset_t set(const int *ranks, int n) { return (mpp_rankset_t){ranks, n}; }
static const mpp_rankset_t none = {NULL, 0};

START_TEST(test_commids_child_is_a_function_of_its_inputs)
{
    int g[] = {3, 1, 2};
    uint64_t a = mpp_commid_child(MPP_COMM_ID_WORLD, 0, set(g, 3), none);
    ck_assert_uint_eq(a, mpp_commid_child(MPP_COMM_ID_WORLD, 0, set(g, 3), none));
    ck_assert_uint_ge(a, MPP_COMM_ID_FIRST);
    /* the parent, the call's number and the members (in their rank order) each count */
    ck_assert_uint_ne(a, mpp_commid_child(MPP_COMM_ID_WORLD, 1, set(g, 3), none));
    ck_assert_uint_ne(a, mpp_commid_child(MPP_COMM_ID_SELF, 0, set(g, 3), none));
    int reordered[] = {1, 2, 3};
    ck_assert_uint_ne(a, mpp_commid_child(MPP_COMM_ID_WORLD, 0, set(reordered, 3), none));
    ck_assert_uint_ne(a, mpp_commid_child(MPP_COMM_ID_WORLD, 0, set(g, 2), none));
}
END_TEST

START_TEST(test_commids_parts_of_a_split_differ)
{
    /* MPI_Comm_split of 8 processes by parity: one call, two communicators */
    int even[] = {0, 2, 4, 6}, odd[] = {1, 3, 5, 7};
    uint64_t e = mpp_commid_child(MPP_COMM_ID_WORLD, 5, set(even, 4), none);
    uint64_t o = mpp_commid_child(MPP_COMM_ID_WORLD, 5, set(odd, 4), none);
    ck_assert_uint_ne(e, o);
    /* MPI_COMM_WORLD's duplicate: the identity, spelled out or not */
    int all[] = {0, 1, 2, 3};
    ck_assert_uint_eq(mpp_commid_child(MPP_COMM_ID_WORLD, 0, set(NULL, 4), none),
                      mpp_commid_child(MPP_COMM_ID_WORLD, 0, set(all, 4), none));
}
END_TEST

START_TEST(test_commids_both_sides_of_an_intercommunicator_agree)
{
    int left[] = {0, 2}, right[] = {5, 1, 3};
    ck_assert_uint_eq(mpp_commid_child(40, 2, set(left, 2), set(right, 3)),
                      mpp_commid_child(40, 2, set(right, 3), set(left, 2)));
    /* an intercommunicator differs from the intracommunicator of the same processes */
    int merged[] = {0, 2, 5, 1, 3};
    ck_assert_uint_ne(mpp_commid_child(40, 2, set(left, 2), set(right, 3)),
                      mpp_commid_child(40, 2, set(merged, 5), none));
    /* MPI_Intercomm_create's key, from either side */
    ck_assert_uint_eq(mpp_commid_group_key(0, 0, 77, NULL, 0, set(left, 2), set(right, 3)),
                      mpp_commid_group_key(0, 0, 77, NULL, 0, set(right, 3), set(left, 2)));
}
END_TEST

START_TEST(test_commids_none_when_not_derivable)
{
    int g[] = {0, 1}, outside[] = {0, -1};
    /* a parent without an id, a member outside MPI_COMM_WORLD (spawned) */
    ck_assert_uint_eq(mpp_commid_child(MPP_COMM_ID_NONE, 0, set(g, 2), none), MPP_COMM_ID_NONE);
    ck_assert_uint_eq(mpp_commid_child(MPP_COMM_ID_WORLD, 0, set(outside, 2), none), MPP_COMM_ID_NONE);
    ck_assert_uint_eq(mpp_commid_child(MPP_COMM_ID_WORLD, 0, set(g, 2), set(outside, 2)), MPP_COMM_ID_NONE);
    ck_assert_uint_eq(mpp_commid_group_key(MPP_COMM_ID_NONE, 1, 3, NULL, 0, set(g, 2), none), 0);
    ck_assert_uint_eq(mpp_commid_group_key(0, 0, 3, NULL, 0, set(outside, 2), none), 0);
    ck_assert_uint_eq(mpp_commid_from_key(0, 0), MPP_COMM_ID_NONE);
}
END_TEST

START_TEST(test_commids_group_keys)
{
    int g[] = {4, 9};
    uint64_t k = mpp_commid_group_key(MPP_COMM_ID_WORLD, 1, 5, NULL, 0, set(g, 2), none);
    ck_assert_uint_ne(k, 0);
    ck_assert_uint_ne(k, mpp_commid_group_key(MPP_COMM_ID_WORLD, 1, 6, NULL, 0, set(g, 2), none));
    ck_assert_uint_ne(k, mpp_commid_group_key(MPP_COMM_ID_SELF, 1, 5, NULL, 0, set(g, 2), none));
    ck_assert_uint_ne(k, mpp_commid_group_key(0, 0, 5, NULL, 0, set(g, 2), none));
    /* string tags: their text counts, not Fortran's padding */
    uint64_t s = mpp_commid_group_key(0, 0, -1, "mesh", 4, set(g, 2), none);
    ck_assert_uint_eq(s, mpp_commid_group_key(0, 0, -1, "mesh    ", 8, set(g, 2), none));
    ck_assert_uint_ne(s, mpp_commid_group_key(0, 0, -1, "mesh2", 5, set(g, 2), none));
    ck_assert_uint_ne(s, mpp_commid_group_key(0, 0, -1, NULL, 0, set(g, 2), none));
    ck_assert_uint_ne(s, mpp_commid_group_key(0, 0, -1, "", 0, set(g, 2), none));
    /* the n-th call with a key */
    ck_assert_uint_ne(mpp_commid_from_key(k, 0), mpp_commid_from_key(k, 1));
    ck_assert_uint_ge(mpp_commid_from_key(k, 0), MPP_COMM_ID_FIRST);
}
END_TEST

/* A process's communicators over a long run: duplicates of duplicates,
 * splits, group constructors; no two ids alike. */
START_TEST(test_commids_many_distinct)
{
    mpp_handlemap_t seen;
    int inserted, even[] = {0, 2}, odd[] = {1, 3};
    mpp_handlemap_init(&seen, 1);
    uint64_t parent = MPP_COMM_ID_WORLD;
    for (uint64_t i = 0; i < 20000; i++) {
        uint64_t ids[4] = {
            mpp_commid_child(parent, i, set(NULL, 4), none),
            mpp_commid_child(MPP_COMM_ID_WORLD, i, set(i % 2 ? odd : even, 2), none),
            mpp_commid_from_key(mpp_commid_group_key(parent, 1, (int)(i % 7), NULL, 0, set(even, 2), none), i),
            mpp_commid_child(parent, i, set(even, 2), set(odd, 2)),
        };
        for (int j = 0; j < 4; j++) {
            ck_assert_uint_ge(ids[j], MPP_COMM_ID_FIRST);
            ck_assert_ptr_nonnull(mpp_handlemap_put(&seen, ids[j], &inserted));
            ck_assert_msg(inserted, "id %llu made twice (call %llu, kind %d)", (unsigned long long)ids[j],
                          (unsigned long long)i, j);
        }
        parent = ids[0];
    }
    mpp_handlemap_free(&seen);
}
END_TEST

START_TEST(test_commids_channels_and_members)
{
    ck_assert_uint_eq(mpp_commid_channel(MPP_COMM_ID_WORLD), MPP_COMM_ID_WORLD);
    ck_assert_uint_eq(mpp_commid_channel(MPP_COMM_ID_SELF), MPP_COMM_ID_SELF);
    /* a derived id whose halves cancel still names a channel of its own kind */
    ck_assert_uint_ge(mpp_commid_channel(0x1234567812345678ull), MPP_COMM_ID_FIRST);
    ck_assert_uint_ge(mpp_commid_channel(0x100000000ull | 16), MPP_COMM_ID_FIRST);
    int left[] = {7, 2}, right[] = {5, 0, 9}, out[5];
    mpp_commid_members(set(left, 2), set(right, 3), out);
    int sorted[] = {0, 2, 5, 7, 9};
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(out[i], sorted[i]);
    mpp_commid_members(set(NULL, 3), none, out);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(out[i], i);
}
END_TEST

Suite *commids_suite(void)
{
    Suite *s = suite_create("commids");
    TCase *derive = tcase_create("derive");
    tcase_add_test(derive, test_commids_child_is_a_function_of_its_inputs);
    tcase_add_test(derive, test_commids_parts_of_a_split_differ);
    tcase_add_test(derive, test_commids_both_sides_of_an_intercommunicator_agree);
    tcase_add_test(derive, test_commids_group_keys);
    tcase_add_test(derive, test_commids_channels_and_members);
    suite_add_tcase(s, derive);
    TCase *bad = tcase_create("bad_args");
    tcase_add_test(bad, test_commids_none_when_not_derivable);
    suite_add_tcase(s, bad);
    TCase *many = tcase_create("collisions");
    tcase_add_test(many, test_commids_many_distinct);
    suite_add_tcase(s, many);
    return s;
}
