/* The buffers of pending operations (src/check/buffers.c): a conflict
 * needs a written buffer and a shared byte; entries leave with their
 * handle; persistent ones are in the tree only while active; the tree
 * answers like a list looked through, on many random buffers. */
#include <stdlib.h>

#include "check/buffers.h"
#include "suites.h"

static mpp_span_t span(uintptr_t addr, int64_t count, const mpp_layout_t *l) { return (mpp_span_t){addr, count, l}; }

START_TEST(test_pending_conflicts)
{
    mpp_pending_t *p = mpp_pending_create(0);
    mpp_layout_t *i4 = mpp_layout_contiguous(4, 4);
    mpp_span_t a = span(0x1000, 4, i4), b = span(0x1008, 4, i4), c = span(0x1010, 4, i4);
    /* two pending sends of the same bytes: legal */
    ck_assert_uint_ne(mpp_pending_add(p, 11, &a, MPP_PENDING_ACTIVE, 1, 0x4000), 0);
    ck_assert_uint_eq(mpp_pending_conflict(p, &a, 0, 16, 1024), 0);
    /* a receive into them: a conflict, with the send */
    uint32_t hit = mpp_pending_conflict(p, &b, 1, 16, 1024);
    ck_assert_uint_ne(hit, 0);
    ck_assert_uint_eq(mpp_pending_entry(p, hit)->site, 0x4000);
    ck_assert_uint_eq(mpp_pending_entry(p, hit)->fid, 1);
    /* a pending receive: a send from its bytes conflicts, one beside it not */
    uint32_t r = mpp_pending_add(p, 12, &c, MPP_PENDING_ACTIVE | MPP_PENDING_WRITTEN, 2, 0x5000);
    mpp_span_t after = span(0x1020, 1, i4);
    ck_assert_uint_eq(mpp_pending_conflict(p, &after, 0, 16, 1024), 0);
    ck_assert_uint_eq(mpp_pending_conflict(p, &c, 0, 16, 1024), r);
    /* the send completes: the receive stays */
    mpp_pending_remove(p, 11, NULL, NULL);
    ck_assert_uint_eq(mpp_pending_count(p), 1);
    ck_assert_uint_eq(mpp_pending_conflict(p, &b, 1, 16, 1024), r);
    mpp_span_t low = span(0x1000, 4, i4);
    ck_assert_uint_eq(mpp_pending_conflict(p, &low, 1, 16, 1024), 0);
    mpp_pending_remove(p, 12, NULL, NULL);
    ck_assert_uint_eq(mpp_pending_conflict(p, &c, 1, 16, 1024), 0);
    ck_assert_uint_eq(i4->refs, 1); /* the entries gave their references back */
    mpp_layout_unref(i4);
    mpp_pending_destroy(p);
}
END_TEST

static void count_each(mpp_pending_t *p, uint32_t id, void *arg)
{
    (void)p;
    (void)id;
    ++*(int *)arg;
}

START_TEST(test_pending_handles)
{
    mpp_pending_t *p = mpp_pending_create(sizeof(uint64_t));
    mpp_layout_t *i4 = mpp_layout_contiguous(4, 4);
    mpp_span_t s = span(0x2000, 4, i4), r = span(0x3000, 4, i4);
    /* a collective's two buffers under one request */
    uint32_t x = mpp_pending_add(p, 7, &s, MPP_PENDING_ACTIVE, 3, 1);
    uint32_t y = mpp_pending_add(p, 7, &r, MPP_PENDING_ACTIVE | MPP_PENDING_WRITTEN, 3, 1);
    *(uint64_t *)mpp_pending_extra(p, y) = 42;
    ck_assert_uint_eq(mpp_pending_first(p, 7), x);
    ck_assert_uint_eq(mpp_pending_entry(p, x)->next, y);
    ck_assert_uint_eq(*(uint64_t *)mpp_pending_extra(p, y), 42);
    /* no bytes: not added */
    mpp_span_t none = span(0x2000, 0, i4);
    ck_assert_uint_eq(mpp_pending_add(p, 8, &none, MPP_PENDING_ACTIVE, 3, 1), 0);
    /* a persistent request: in the tree only while started */
    uint32_t z = mpp_pending_add(p, 9, &r, MPP_PENDING_WRITTEN | MPP_PENDING_PERSISTENT, 4, 2);
    mpp_pending_remove(p, 7, NULL, NULL);
    ck_assert_uint_eq(mpp_pending_conflict(p, &r, 1, 16, 1024), 0);
    mpp_pending_activate(p, z, 1);
    ck_assert_uint_eq(mpp_pending_conflict(p, &r, 1, 16, 1024), z);
    mpp_pending_activate(p, z, 0);
    ck_assert_uint_eq(mpp_pending_conflict(p, &r, 1, 16, 1024), 0);
    int removed = 0;
    mpp_pending_remove(p, 9, count_each, &removed);
    ck_assert_int_eq(removed, 1);
    /* one-sided operations: many under one handle, the first first, each once */
    uint32_t first = mpp_pending_add(p, 10, &s, MPP_PENDING_ACTIVE, 5, 1), seen = 0;
    for (int i = 1; i < 5; i++)
        ck_assert_uint_ne(mpp_pending_add(p, 10, &r, MPP_PENDING_ACTIVE, 5, 1), 0);
    ck_assert_uint_eq(mpp_pending_first(p, 10), first);
    for (uint32_t id = first; id; id = mpp_pending_entry(p, id)->next)
        seen++;
    ck_assert_uint_eq(seen, 5);
    removed = 0;
    mpp_pending_remove(p, 10, count_each, &removed);
    ck_assert_int_eq(removed, 5);
    ck_assert_uint_eq(mpp_pending_count(p), 0);
    ck_assert_uint_eq(mpp_pending_first(p, 9), 0);
    mpp_pending_clear(p);
    mpp_layout_unref(i4);
    mpp_pending_destroy(p);
}
END_TEST

/* The tree against a plain list: random buffers added and removed, every
 * query's answer "some conflict or none" the same. */
START_TEST(test_pending_random)
{
    enum { N = 3000 };
    mpp_pending_t *p = mpp_pending_create(0);
    mpp_layout_t *b1 = mpp_layout_contiguous(1, 1);
    static uint64_t lo[N], len[N];
    static int live[N], written[N];
    srand(7);
    for (int round = 0; round < 4 * N; round++) {
        int i = rand() % N;
        if (live[i]) {
            mpp_pending_remove(p, (uint64_t)i + 1, NULL, NULL);
            live[i] = 0;
        } else {
            lo[i] = 0x10000 + (uint64_t)(rand() % 200000);
            len[i] = 1 + (uint64_t)(rand() % 64);
            written[i] = rand() % 2;
            mpp_span_t s = span(lo[i], (int64_t)len[i], b1);
            unsigned flags = MPP_PENDING_ACTIVE | (written[i] ? MPP_PENDING_WRITTEN : 0);
            ck_assert_uint_ne(mpp_pending_add(p, (uint64_t)i + 1, &s, flags, 0, 0), 0);
            live[i] = 1;
        }
        uint64_t qlo = 0x10000 + (uint64_t)(rand() % 200000), qlen = 1 + (uint64_t)(rand() % 64);
        int qw = rand() % 2, expect = 0;
        for (int j = 0; j < N && !expect; j++)
            expect = live[j] && (qw || written[j]) && lo[j] < qlo + qlen && qlo < lo[j] + len[j];
        mpp_span_t q = span(qlo, (int64_t)qlen, b1);
        uint32_t hit = mpp_pending_conflict(p, &q, qw, N, 1024);
        ck_assert_int_eq(hit != 0, expect);
    }
    mpp_pending_destroy(p);
    ck_assert_uint_eq(b1->refs, 1);
    mpp_layout_unref(b1);
}
END_TEST

/* 10^5 pending buffers: each add, query and removal in about log n. */
START_TEST(test_pending_many)
{
    enum { N = 100000 };
    mpp_pending_t *p = mpp_pending_create(0);
    mpp_layout_t *i4 = mpp_layout_contiguous(4, 4);
    for (int i = 0; i < N; i++) {
        mpp_span_t s = span(0x100000 + 4 * (uintptr_t)i, 1, i4);
        ck_assert_uint_eq(mpp_pending_conflict(p, &s, 1, 16, 1024), 0);
        ck_assert_uint_ne(mpp_pending_add(p, (uint64_t)i + 1, &s, MPP_PENDING_ACTIVE | MPP_PENDING_WRITTEN, 0, 0), 0);
    }
    ck_assert_uint_lt(mpp_pending_bytes(p) / N, 128);
    mpp_span_t mid = span(0x100000 + 4 * (N / 2), 1, i4);
    ck_assert_uint_eq(mpp_pending_entry(p, mpp_pending_conflict(p, &mid, 0, 16, 1024))->handle, N / 2 + 1);
    for (int i = 0; i < N; i++)
        mpp_pending_remove(p, (uint64_t)i + 1, NULL, NULL);
    ck_assert_uint_eq(mpp_pending_count(p), 0);
    ck_assert_uint_eq(mpp_pending_conflict(p, &mid, 1, 16, 1024), 0);
    mpp_pending_destroy(p);
    mpp_layout_unref(i4);
}
END_TEST

Suite *pending_suite(void)
{
    Suite *s = suite_create("pending");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_pending_conflicts);
    tcase_add_test(tc, test_pending_handles);
    tcase_add_test(tc, test_pending_random);
    tcase_add_test(tc, test_pending_many);
    suite_add_tcase(s, tc);
    return s;
}
