/* rma-conflict between origins at the target (src/check/rma_conflicts.c):
 * a put and another origin's access of a shared byte in one epoch
 * conflict, two gets or two accumulates do not, nor an origin with
 * itself, nor accesses of different epochs or windows; a range beside
 * another shares no byte; old groups go, and the bound holds. */
#include "check/rma_conflicts.h"
#include "suites.h"

static mpp_rma_access_t access_of(int origin, uint32_t kind, uint64_t offset)
{
    return (mpp_rma_access_t){origin, kind, 7, 1, offset};
}

START_TEST(test_rma_conflicts_kinds)
{
    mpp_rma_conflicts_t c;
    mpp_rma_conflicts_init(&c);
    mpp_rma_access_t other = {0};
    mpp_rma_access_t put0 = access_of(0, MPP_RMA_WRITE, 0x10), get1 = access_of(1, MPP_RMA_READ, 0x20),
                     get2 = access_of(2, MPP_RMA_READ, 0x30), acc1 = access_of(1, MPP_RMA_ACCUMULATE, 0x40),
                     acc2 = access_of(2, MPP_RMA_ACCUMULATE, 0x50), put3 = access_of(3, MPP_RMA_WRITE, 0x60);
    /* window 5, epoch 1: two gets of bytes [0, 8), then a put of [4, 12) from another origin */
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 5, 1, 0, 8, 0, 1, &get1, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 5, 1, 0, 8, 0, 1, &get2, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 5, 1, 4, 8, 0, 1, &put0, &other), 1);
    ck_assert_int_eq(other.origin, 1);
    ck_assert_uint_eq(other.offset, 0x20);
    /* beside it, another epoch, another window: nothing */
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 5, 1, 12, 4, 0, 1, &put3, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 5, 2, 0, 8, 0, 1, &put3, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 6, 1, 0, 8, 0, 1, &put3, &other), 0);
    /* the same origin again: its own */
    mpp_rma_access_t put0b = access_of(0, MPP_RMA_WRITE, 0x70);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 5, 1, 8, 4, 0, 1, &put0b, &other), 0);
    /* accumulates together: ordered; with a put: a conflict */
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 7, 1, 100, 8, 0, 1, &acc1, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 7, 1, 100, 8, 0, 1, &acc2, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 7, 1, 107, 1, 0, 1, &put3, &other), 1);
    ck_assert_int_eq(mpp_rma_kinds_conflict(MPP_RMA_READ, MPP_RMA_ACCUMULATE), 1);
    /* strided: every other 4 bytes from two origins interleave (no shared
     * byte, their hulls meet); one put over both does share */
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 8, 1, 0, 4, 8, 1000, &put0, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 8, 1, 4, 4, 8, 1000, &put3, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 8, 1, 3992, 2, 0, 1, &get1, &other), 1);
    ck_assert_int_eq(other.origin, 0);
    ck_assert_uint_eq(c.dropped, 0);
    mpp_rma_conflicts_free(&c);
}
END_TEST

START_TEST(test_rma_conflicts_bounds)
{
    mpp_rma_conflicts_t c;
    mpp_rma_conflicts_init(&c);
    mpp_rma_access_t put0 = access_of(0, MPP_RMA_WRITE, 1), put1 = access_of(1, MPP_RMA_WRITE, 2), other;
    /* more epochs than groups: the oldest goes, its accesses with it */
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 1, 0, 0, 4, 0, 1, &put0, &other), 0);
    for (uint64_t e = 1; e <= MPP_RMA_GROUPS; e++)
        ck_assert_int_eq(mpp_rma_conflicts_add(&c, 1, e, 0, 4, 0, 1, &put0, &other), 0);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 1, MPP_RMA_GROUPS, 0, 4, 0, 1, &put1, &other), 1);
    /* many lengths, more accesses than a group holds: compared up to the bound, then counted */
    for (uint64_t i = 0; i < MPP_RMA_GROUP_ACCESSES + 10; i++)
        mpp_rma_conflicts_add(&c, 9, 0, 16 * i, 1 + i % 40, 0, 1, &put0, &other);
    ck_assert_uint_eq(c.dropped, 10);
    ck_assert_int_eq(mpp_rma_conflicts_add(&c, 9, 0, 16 * 100, 1, 0, 1, &put1, &other), 1);
    mpp_rma_conflicts_free(&c);
}
END_TEST

Suite *rma_conflicts_suite(void)
{
    Suite *s = suite_create("rma_conflicts");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_rma_conflicts_kinds);
    tcase_add_test(tc, test_rma_conflicts_bounds);
    suite_add_tcase(s, tc);
    return s;
}
