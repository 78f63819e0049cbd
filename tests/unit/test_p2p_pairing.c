/* The pairing by position in each sender's logs (waitstates.h): calls of
 * one message without an event, channels of one sender interleaved (in the
 * logs, and in the channel table once too far apart, and back), wildcard
 * receives, records before receives, the cap on a log, the end. */
#include <check.h>
#include <stdlib.h>

#include "accumulate/waitstates/waitstates.h"
#include "suites.h"

static int64_t delivered[16];
static int ndelivered;

static void deliver(void *ctx, const mpp_request_origin_t *o, int64_t wait, int fine)
{
    (void)ctx, (void)fine;
    ck_assert_uint_lt(o->slot, 16);
    delivered[o->slot] += wait;
    ndelivered++;
}

static mpp_p2p_t M;

static void setup(void)
{
    for (int i = 0; i < 16; i++)
        delivered[i] = 0;
    ndelivered = 0;
    mpp_p2p_init(&M, 10, 1 << 20, deliver, NULL);
}

static void teardown(void) { mpp_p2p_free(&M); }

static mpp_request_origin_t origin(int id)
{
    mpp_request_origin_t o = {0};
    o.thread = &M;
    o.slot = (uint64_t)id;
    return o;
}

/* A call that received one message, as the hooks make it: in the log
 * inline when it can, else through mpp_p2p_receive. */
static void recv1(int id, int64_t entry, int64_t duration, uint32_t comm, int source, int tag)
{
    mpp_request_origin_t o = origin(id);
    mpp_p2p_waiting_t *w = mpp_p2p_receive_waits(&M, comm, source, tag);
    if (w) {
        w->entry = entry;
        w->duration = duration;
        w->origin = o;
        return;
    }
    mpp_p2p_receive(&M, comm, source, tag, entry, duration, &o);
}

static void sent(int source, uint32_t comm, int tag, int64_t entry)
{
    mpp_send_record_t r = {comm, tag, entry};
    mpp_p2p_sent(&M, source, &r);
}

START_TEST(test_single_both_orders)
{
    recv1(0, 1000, 500, 16, 1, 7);
    ck_assert_int_eq(M.waiting, 1);
    ck_assert_int_eq(mpp_p2p_pending_events(&M), 1);
    recv1(1, 2000, 500, 16, 1, 7); /* the log has room now: inline */
    sent(1, 16, 7, 1300);
    sent(1, 16, 7, 2100);
    ck_assert_int_eq(delivered[0], 300);
    ck_assert_int_eq(delivered[1], 100);
    ck_assert_int_eq(mpp_p2p_pending_events(&M), 0);
    sent(1, 16, 7, 5000); /* before its receive */
    recv1(2, 4000, 2000, 16, 1, 7);
    ck_assert_int_eq(delivered[2], 1000);
    ck_assert_uint_eq(M.paired, 3);
    ck_assert_int_eq(M.waiting, 0);
    ck_assert_int_eq(M.nevents, 0); /* no event was needed */
}
END_TEST

/* Two tags and two communicators from one sender, sent in one order and
 * received in another: each receive pairs with the first record of its
 * own channel, found a few entries into the log. */
START_TEST(test_interleaved_channels)
{
    /* receives first: tag 2, tag 1, comm 17 tag 1, tag 2, tag 1 */
    recv1(0, 1000, 9000, 16, 1, 2);
    recv1(1, 1000, 9000, 16, 1, 1);
    recv1(2, 1000, 9000, 17, 1, 1);
    recv1(3, 1000, 9000, 16, 1, 2);
    recv1(4, 1000, 9000, 16, 1, 1);
    /* records in the sender's order: tag 1, tag 1, tag 2, comm 17, tag 2 */
    sent(1, 16, 1, 1100);
    sent(1, 16, 1, 1400);
    sent(1, 16, 2, 1200);
    sent(1, 17, 1, 1300);
    sent(1, 16, 2, 1500);
    ck_assert_int_eq(delivered[1], 100);
    ck_assert_int_eq(delivered[4], 400);
    ck_assert_int_eq(delivered[0], 200);
    ck_assert_int_eq(delivered[2], 300);
    ck_assert_int_eq(delivered[3], 500);
    ck_assert_uint_eq(M.paired, 5);
    ck_assert_int_eq(M.waiting, 0);
    ck_assert_uint_eq(M.capacity, 0); /* all within the logs */
    /* the same with the records first */
    sent(1, 16, 1, 2100);
    sent(1, 17, 1, 2200);
    sent(1, 16, 2, 2300);
    recv1(5, 2000, 9000, 16, 2, 9); /* another sender meanwhile */
    recv1(6, 2000, 9000, 16, 1, 2);
    recv1(7, 2000, 9000, 17, 1, 1);
    recv1(8, 2000, 9000, 16, 1, 1);
    ck_assert_int_eq(delivered[6], 300);
    ck_assert_int_eq(delivered[7], 200);
    ck_assert_int_eq(delivered[8], 100);
    ck_assert_int_eq(M.waiting, 1);
    ck_assert_int_eq(M.peers[1]->slen, 0);
}
END_TEST

/* A channel whose receives never get records (their sends are not
 * followed) stays at the head of the sender's log: the others pair past
 * it, and once their match is too far in the sender's entries go to the
 * channel table; when it holds none of them any more, back to the logs. */
START_TEST(test_far_apart_to_table_and_back)
{
    for (int i = 0; i < 40; i++)
        recv1(0, 100, 10, 16, 1, 99); /* never sent */
    for (int i = 0; i < 40; i++)
        recv1(1, 1000 + 10 * (int64_t)i, 1000, 16, 1, 5);
    ck_assert_uint_eq(M.capacity, 0);
    for (int i = 0; i < 40; i++)
        sent(1, 16, 5, 1050 + 10 * (int64_t)i);
    ck_assert_int_eq(delivered[1], 40 * 50);
    ck_assert_uint_eq(M.paired, 40);
    ck_assert_uint_gt(M.capacity, 0); /* they went to the table */
    ck_assert_int_gt(M.peers[1]->in_table, 0);
    ck_assert_int_eq(M.waiting, 40);
    /* the never-sent channel's records do come, late: the sender is balanced */
    for (int i = 0; i < 40; i++)
        sent(1, 16, 99, 200);
    ck_assert_int_eq(delivered[0], 40 * 10);
    ck_assert_int_eq(M.peers[1]->in_table, 0);
    ck_assert_int_eq(M.waiting, 0);
    ck_assert_int_eq(mpp_p2p_pending_events(&M), 0);
    /* and its next receive is in the log again */
    ck_assert_ptr_nonnull(mpp_p2p_receive_waits(&M, 16, 1, 5));
}
END_TEST

/* MPI_ANY_SOURCE and MPI_ANY_TAG: the status names the envelope, so each
 * receive goes to the log of the sender it got, whatever the order. */
START_TEST(test_wildcards)
{
    recv1(0, 1000, 9000, 16, 3, 11);
    recv1(1, 1000, 9000, 16, 2, 12);
    recv1(2, 1000, 9000, 16, 3, 13);
    sent(2, 16, 12, 1200);
    sent(3, 16, 11, 1100);
    sent(3, 16, 13, 1300);
    ck_assert_int_eq(delivered[0], 100);
    ck_assert_int_eq(delivered[1], 200);
    ck_assert_int_eq(delivered[2], 300);
    ck_assert_int_eq(M.waiting, 0);
}
END_TEST

/* Calls of several messages keep their event in the same logs: the
 * latest sender counts, mixed with single receives of the sender. */
START_TEST(test_events_among_singles)
{
    recv1(0, 1000, 5000, 16, 1, 0);
    mpp_request_origin_t o = origin(1);
    int e = mpp_p2p_event_open(&M, 2000, 5000, &o);
    mpp_p2p_received(&M, e, 16, 1, 0);
    mpp_p2p_received(&M, e, 16, 2, 0);
    mpp_p2p_event_close(&M, e);
    recv1(2, 3000, 5000, 16, 1, 0);
    sent(1, 16, 0, 1500);
    sent(1, 16, 0, 2400);
    ck_assert_int_eq(delivered[0], 500);
    ck_assert_int_eq(delivered[1], 0); /* waits for rank 2's */
    sent(2, 16, 0, 2900);
    ck_assert_int_eq(delivered[1], 900);
    sent(1, 16, 0, 3100);
    ck_assert_int_eq(delivered[2], 100);
    ck_assert_int_eq(mpp_p2p_pending_events(&M), 0);
}
END_TEST

/* A sender's log holding max_queue entries is desynchronized: dropped,
 * counted, and an event with a message in it is delivered with the
 * messages it has paired (it waits for nothing any more). */
START_TEST(test_log_cap)
{
    mpp_p2p_free(&M);
    mpp_p2p_init(&M, 10, 4, deliver, NULL);
    mpp_request_origin_t o = origin(1);
    int e = mpp_p2p_event_open(&M, 1000, 3000, &o);
    mpp_p2p_received(&M, e, 16, 1, 0); /* its record never comes */
    mpp_p2p_received(&M, e, 16, 2, 0);
    mpp_p2p_event_close(&M, e);
    sent(2, 16, 0, 1800);
    for (int i = 0; i < 10; i++)
        recv1(0, i, 1, 16, 1, 0);
    ck_assert_uint_ge(M.dropped, 4);
    ck_assert_int_le(M.waiting, 4);
    ck_assert_int_eq(delivered[1], 800);
    ck_assert_int_le(mpp_p2p_pending_events(&M), 4);
    /* records nobody receives: the same */
    for (int i = 0; i < 10; i++)
        sent(3, 16, 0, i);
    ck_assert_int_le(M.peers[3]->slen, 4);
    mpp_p2p_finish(&M);
    ck_assert_int_eq(M.waiting, 0);
    ck_assert_int_eq(mpp_p2p_pending_events(&M), 0);
}
END_TEST

/* The end: single receives still waiting are counted unpaired, like
 * events' messages; records left over are not receives. */
START_TEST(test_finish_singles)
{
    recv1(0, 1000, 3000, 16, 1, 0);
    recv1(1, 1000, 3000, 16, 1, 1);
    recv1(2, 1000, 3000, 16, 1, 0);
    sent(1, 16, 1, 1500); /* pairs past the head */
    sent(4, 16, 0, 1500);
    mpp_p2p_finish(&M);
    ck_assert_uint_eq(M.unpaired_receives, 2);
    ck_assert_uint_eq(M.paired, 1);
    ck_assert_int_eq(delivered[1], 500);
    ck_assert_int_eq(delivered[0] + delivered[2], 0);
    ck_assert_int_eq(M.waiting, 0);
    ck_assert_int_eq(mpp_p2p_pending_events(&M), 0);
}
END_TEST

Suite *p2p_pairing_suite(void)
{
    Suite *s = suite_create("p2p_pairing");
    TCase *tc = tcase_create("logs");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_single_both_orders);
    tcase_add_test(tc, test_interleaved_channels);
    tcase_add_test(tc, test_far_apart_to_table_and_back);
    tcase_add_test(tc, test_wildcards);
    tcase_add_test(tc, test_events_among_singles);
    tcase_add_test(tc, test_log_cap);
    tcase_add_test(tc, test_finish_singles);
    suite_add_tcase(s, tc);
    return s;
}
