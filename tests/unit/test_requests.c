/* Outstanding MPI requests (src/attribute/requests.c): an open-addressing
 * table with backward-shift deletion keyed by the request handle. */
#include <stdint.h>
#include <string.h>

#include "attribute/requests.h"
#include "suites.h"
#include "util/common.h"

static void setup(void)
{
    unit_reset_warnings();
    mpp_requests_init(0);
}

static void teardown(void) { mpp_requests_reset(); }

static void expect_found(uint64_t handle, int kind, int persistent, int64_t sent, int64_t recv)
{
    mpp_request_info_t info;
    memset(&info, 0, sizeof info);
    ck_assert_msg(mpp_request_find(handle, &info), "handle %#llx not found", (unsigned long long)handle);
    ck_assert_uint_eq(info.handle, handle);
    ck_assert_int_eq(info.kind, kind);
    ck_assert_int_eq(info.persistent, persistent);
    ck_assert_int_eq(info.bytes_sent, sent);
    ck_assert_int_eq(info.bytes_recv, recv);
}

static void expect_missing(uint64_t handle)
{
    mpp_request_info_t info;
    ck_assert_msg(!mpp_request_find(handle, &info), "handle %#llx should not be found", (unsigned long long)handle);
}

/* The home slot of a handle in a table of `cap` slots: a copy of requests.c's
 * hash, used only to build colliding handles on purpose. */
static size_t home_slot(uint64_t h, size_t cap) { return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1); }

/* `n` handles whose home is `slot` in the initial 1024-slot table. */
static void colliding(size_t slot, uint64_t *out, int n)
{
    int found = 0;
    for (uint64_t h = 1; found < n; h++)
        if (home_slot(h, 1024) == slot)
            out[found++] = h;
}

/* --- add, find, remove --- */

START_TEST(test_requests_add_find_remove)
{
    mpp_request_add(0xac000001, MPP_CAT_SENDRECV, 0, 800, 0);
    mpp_request_add(0xac000002, MPP_CAT_COLLECTIVE, 0, 8, 8);
    mpp_request_add(0xac000003, MPP_CAT_IO, 1, 0, 4096);
    ck_assert_uint_eq(mpp_requests_outstanding(), 3);
    expect_found(0xac000001, MPP_CAT_SENDRECV, 0, 800, 0);
    expect_found(0xac000002, MPP_CAT_COLLECTIVE, 0, 8, 8);
    expect_found(0xac000003, MPP_CAT_IO, 1, 0, 4096);
    expect_missing(0xac000004);
    mpp_request_remove(0xac000002);
    ck_assert_uint_eq(mpp_requests_outstanding(), 2);
    expect_missing(0xac000002);
    expect_found(0xac000001, MPP_CAT_SENDRECV, 0, 800, 0);
    expect_found(0xac000003, MPP_CAT_IO, 1, 0, 4096);
    mpp_request_remove(0xac000002); /* twice: nothing happens */
    mpp_request_remove(0xdead);     /* never added */
    ck_assert_uint_eq(mpp_requests_outstanding(), 2);
}
END_TEST

START_TEST(test_requests_add_again_replaces)
{
    mpp_request_add(42, MPP_CAT_SENDRECV, 0, 10, 0);
    mpp_request_add(42, MPP_CAT_COLLECTIVE, 1, 0, 20); /* a handle reused after completion */
    ck_assert_uint_eq(mpp_requests_outstanding(), 1);
    expect_found(42, MPP_CAT_COLLECTIVE, 1, 0, 20);
    mpp_request_remove(42);
    ck_assert_uint_eq(mpp_requests_outstanding(), 0);
    expect_missing(42);
}
END_TEST

/* A handle reused while the old request is being removed (another thread):
 * the removal of the old instance leaves the new one alone. */
START_TEST(test_requests_remove_instance)
{
    mpp_request_info_t old, renewed;
    mpp_request_add(42, MPP_CAT_SENDRECV, 0, 10, 0);
    ck_assert(mpp_request_find(42, &old));
    mpp_request_add(42, MPP_CAT_COLLECTIVE, 1, 0, 20); /* MPI gave the handle to a new request */
    ck_assert(mpp_request_find(42, &renewed));
    ck_assert_uint_ne(old.serial, renewed.serial);
    mpp_request_remove_instance(42, old.serial); /* the late removal of the old one */
    ck_assert_uint_eq(mpp_requests_outstanding(), 1);
    expect_found(42, MPP_CAT_COLLECTIVE, 1, 0, 20);
    mpp_request_remove_instance(42, renewed.serial);
    ck_assert_uint_eq(mpp_requests_outstanding(), 0);
    expect_missing(42);
    mpp_request_remove_instance(42, renewed.serial); /* gone: nothing happens */
    mpp_request_remove_instance(0, 0);
    ck_assert_uint_eq(mpp_requests_outstanding(), 0);
}
END_TEST

/* --- Overlap: start, transfer time, completion --- */

static int dummy_thread;
static const uintptr_t cell_frames[2] = {0xa0, 0xb0}; /* as a cell's shared copy */

static mpp_request_origin_t origin(uint32_t fid)
{
    mpp_request_origin_t o;
    memset(&o, 0, sizeof o);
    o.thread = &dummy_thread;
    o.generation = 7, o.slot = 12, o.hash = 0x1234567, o.fid = fid, o.interval = 1, o.depth = 2;
    o.frames = cell_frames;
    return o;
}

START_TEST(test_requests_overlap_nonblocking)
{
    mpp_requests_set_tick_rate(1e9); /* a tick is a nanosecond */
    mpp_requests_keep_frames(1);     /* as with MPI_THREAD_SERIALIZED or MULTIPLE */
    mpp_request_origin_t o = origin(3), got;
    uint64_t overlap = 0;
    mpp_request_info_t info;
    /* Isend returned at tick 1000; the model gives its transfer 1 ms */
    mpp_request_add_started(42, MPP_CAT_SENDRECV, 0, 800, 0, NULL, 1e-3, 1000, &o);
    ck_assert(mpp_request_find(42, &info));
    ck_assert_double_eq_tol(info.model, 1e-3, 1e-15);
    ck_assert_int_eq(info.bytes_sent, 800);
    /* a test that does not complete it: no Overlap, still tracked, not completed */
    int kind = 7;
    ck_assert_int_eq(mpp_request_complete(42, info.serial, 2000, 0, NULL, &got, &overlap, &kind), 0);
    ck_assert_int_eq(kind, -1);
    ck_assert_uint_eq(mpp_requests_outstanding(), 1);
    /* the wait completing it is entered 0.3 ms after: Overlap 0.3 ms, the cell of the Isend */
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(mpp_request_complete(42, info.serial, 301000, 1, NULL, &got, &overlap, &kind), 1);
    ck_assert_int_eq(kind, MPP_CAT_SENDRECV);
    ck_assert_uint_eq(overlap, 300000);
    ck_assert_ptr_eq(got.thread, &dummy_thread);
    ck_assert_uint_eq(got.fid, 3);
    ck_assert_uint_eq(got.interval, 1);
    ck_assert_uint_eq(got.slot, 12);
    ck_assert_uint_eq(got.generation, 7);
    ck_assert_uint_eq(got.hash, 0x1234567);
    ck_assert_int_eq(got.depth, 2);
    ck_assert_ptr_eq(got.frames, cell_frames);
    expect_missing(42);
    /* entered after the transfer would have ended: Overlap is the transfer time */
    mpp_request_add_started(43, MPP_CAT_COLLECTIVE, 0, 8, 8, NULL, 1e-3, 2000000, &o);
    ck_assert(mpp_request_find(43, &info));
    ck_assert_int_eq(mpp_request_complete(43, info.serial, 7000000, 1, NULL, &got, &overlap, &kind), 1);
    ck_assert_int_eq(kind, MPP_CAT_COLLECTIVE);
    ck_assert_uint_eq(overlap, 1000000);
    /* completed at once (a clock read before the start's return): 0 */
    mpp_request_add_started(44, MPP_CAT_SENDRECV, 0, 8, 0, NULL, 1e-3, 1000, &o);
    ck_assert(mpp_request_find(44, &info));
    ck_assert_int_eq(mpp_request_complete(44, info.serial, 900, 1, NULL, &got, &overlap, NULL), 1);
    ck_assert_uint_eq(overlap, 0);
    ck_assert_uint_eq(mpp_requests_outstanding(), 0);
    /* completed by the thread that started it: no frames needed, none copied */
    mpp_request_add_started(45, MPP_CAT_SENDRECV, 0, 8, 0, NULL, 1e-3, 1000, &o);
    ck_assert(mpp_request_find(45, &info));
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(mpp_request_complete(45, info.serial, 2000, 1, &dummy_thread, &got, &overlap, NULL), 1);
    ck_assert_int_eq(got.depth, 0);
    ck_assert_ptr_null(got.frames);
    ck_assert_uint_eq(got.hash, 0x1234567);
    /* a single-threaded program keeps no frames at all */
    mpp_requests_keep_frames(0);
    mpp_request_add_started(46, MPP_CAT_SENDRECV, 0, 8, 0, NULL, 1e-3, 4000000, &o);
    ck_assert(mpp_request_find(46, &info));
    memset(&got, 0, sizeof got);
    ck_assert_int_eq(mpp_request_complete(46, info.serial, 4001000, 1, NULL, &got, &overlap, NULL), 1);
    ck_assert_int_eq(got.depth, 0);
    ck_assert_uint_eq(overlap, 1000);
    mpp_requests_set_tick_rate(0);
}
END_TEST

START_TEST(test_requests_overlap_persistent)
{
    mpp_requests_set_tick_rate(1e9);
    mpp_request_origin_t init = origin(5), start = origin(9), got;
    uint64_t overlap = 0;
    mpp_request_info_t info;
    /* MPI_Send_init: not started yet */
    const mpp_call_price_t price = {1, 4096, MPP_LINK_INTER}; /* one inter-node message of 4096 bytes */
    mpp_request_add_started(50, MPP_CAT_SENDRECV, 1, 4096, 0, &price, 2e-6, 100, &init);
    ck_assert(mpp_request_find(50, &info));
    /* what each MPI_Start adds to its call */
    ck_assert_double_eq(info.price.units, 1);
    ck_assert_double_eq(info.price.bytes, 4096);
    ck_assert_int_eq(info.price.link, MPP_LINK_INTER);
    ck_assert_int_eq(mpp_request_complete(50, info.serial, 200, 0, NULL, &got, &overlap, NULL), 0);
    for (int round = 0; round < 3; round++) {
        uint64_t t = 10000 * (uint64_t)(round + 1);
        mpp_request_started(50, t, &start); /* MPI_Start returned at t */
        /* the first wait after it: the completion (the handle stays) */
        int kind = -1;
        ck_assert_int_eq(mpp_request_complete(50, info.serial, t + 500, 0, NULL, &got, &overlap, &kind), 1);
        ck_assert_int_eq(kind, MPP_CAT_SENDRECV);
        ck_assert_uint_eq(overlap, 500);
        ck_assert_uint_eq(got.fid, 9); /* the MPI_Start's cell, not the MPI_Send_init's */
        ck_assert_uint_eq(mpp_requests_outstanding(), 1);
        /* a second wait on the inactive request: nothing */
        ck_assert_int_eq(mpp_request_complete(50, info.serial, t + 900, 0, NULL, &got, &overlap, NULL), 0);
    }
    /* MPI_Request_free */
    ck_assert_int_eq(mpp_request_complete(50, info.serial, 90000, 1, NULL, &got, &overlap, NULL), 0);
    expect_missing(50);
    mpp_requests_set_tick_rate(0);
}
END_TEST

/* Requests in flight at once share the process's time: each instant of
 * Overlap counts once, for the request completed first. */
START_TEST(test_requests_overlap_shared)
{
    mpp_requests_set_tick_rate(1e9);
    mpp_request_origin_t o = origin(3), got;
    uint64_t overlap = 0, sum = 0;
    mpp_request_info_t info;
    uint32_t serial[40];
    /* 40 requests returned 10 ns apart, each a 1 ms transfer, completed 5 ms later */
    for (int i = 0; i < 40; i++) {
        mpp_request_add_started(100 + (uint64_t)i, MPP_CAT_COLLECTIVE, 0, 8, 8, NULL, 1e-3, 1000 + 10 * (uint64_t)i,
                                &o);
        ck_assert(mpp_request_find(100 + (uint64_t)i, &info));
        serial[i] = info.serial;
    }
    for (int i = 0; i < 40; i++) {
        ck_assert_int_eq(mpp_request_complete(100 + (uint64_t)i, serial[i], 6000000, 1, NULL, &got, &overlap, NULL),
                         1);
        ck_assert_uint_eq(overlap, i == 0 ? 1000000 : 10); /* the first its transfer, the others what sticks out */
        sum += overlap;
    }
    ck_assert_uint_eq(sum, 1000000 + 39 * 10); /* the union of the windows, not 40 ms */
    /* an earlier window completed later gets only what is still uncovered */
    mpp_request_add_started(200, MPP_CAT_SENDRECV, 0, 8, 0, NULL, 1e-3, 500, &o);
    ck_assert(mpp_request_find(200, &info));
    ck_assert_int_eq(mpp_request_complete(200, info.serial, 9000000, 1, NULL, &got, &overlap, NULL), 1);
    ck_assert_uint_eq(overlap, 500);
    mpp_requests_set_tick_rate(0);
}
END_TEST

START_TEST(test_requests_overlap_none)
{
    mpp_request_origin_t o = origin(3), got;
    uint64_t overlap = 0;
    mpp_request_info_t info;
    /* no tick rate (the model did not run): no transfer time, no Overlap */
    mpp_requests_set_tick_rate(0);
    mpp_request_add_started(60, MPP_CAT_SENDRECV, 0, 8, 0, NULL, 1e-3, 100, &o);
    ck_assert(mpp_request_find(60, &info));
    ck_assert_int_eq(mpp_request_complete(60, info.serial, 5000, 1, NULL, &got, &overlap, NULL), 0);
    expect_missing(60);
    mpp_requests_set_tick_rate(1e9);
    /* no cell (out of memory when it started), no model time (not a transfer) */
    o.thread = NULL;
    mpp_request_add_started(61, MPP_CAT_SENDRECV, 0, 8, 0, NULL, 1e-3, 100, &o);
    mpp_request_add_started(62, MPP_CAT_SYSTEM, 0, 0, 0, NULL, 0.0, 100, NULL);
    mpp_request_add(63, MPP_CAT_SENDRECV, 0, 8, 0);
    for (uint64_t h = 61; h <= 63; h++) {
        ck_assert(mpp_request_find(h, &info));
        ck_assert_int_eq(mpp_request_complete(h, info.serial, 5000, 1, NULL, &got, &overlap, NULL), 0);
    }
    /* another request took the handle: the old instance's completion leaves it alone */
    o = origin(3);
    mpp_request_add_started(64, MPP_CAT_SENDRECV, 0, 8, 0, NULL, 1e-3, 100, &o);
    ck_assert(mpp_request_find(64, &info));
    mpp_request_add_started(64, MPP_CAT_SENDRECV, 0, 8, 0, NULL, 1e-3, 200, &o);
    ck_assert_int_eq(mpp_request_complete(64, info.serial, 5000, 1, NULL, &got, &overlap, NULL), 0);
    ck_assert_uint_eq(mpp_requests_outstanding(), 1);
    mpp_request_started(999, 10, &o); /* unknown handles: nothing */
    ck_assert_int_eq(mpp_request_complete(999, 1, 10, 1, NULL, &got, &overlap, NULL), 0);
    ck_assert_int_eq(mpp_request_complete(0, 0, 10, 1, NULL, &got, &overlap, NULL), 0);
    mpp_requests_set_tick_rate(0);
}
END_TEST

/* --- clusters --- */

START_TEST(test_requests_remove_in_cluster)
{
    uint64_t h[6];
    colliding(500, h, 6);
    for (int i = 0; i < 6; i++)
        mpp_request_add(h[i], MPP_CAT_SENDRECV, 0, (int64_t)i, 0);
    /* remove from the middle, then the head, then the tail */
    static const int order[6] = {2, 0, 5, 3, 1, 4};
    for (int r = 0; r < 6; r++) {
        mpp_request_remove(h[order[r]]);
        for (int i = 0; i < 6; i++) {
            int removed = 0;
            for (int q = 0; q <= r; q++)
                removed |= order[q] == i;
            if (removed)
                expect_missing(h[i]);
            else
                expect_found(h[i], MPP_CAT_SENDRECV, 0, i, 0);
        }
        ck_assert_uint_eq(mpp_requests_outstanding(), 5 - (uint64_t)r);
    }
}
END_TEST

START_TEST(test_requests_remove_in_wrapping_cluster)
{
    /* a cluster that wraps from the last slot to the first, mixed with
     * entries whose home is slot 0 */
    uint64_t tail[4], head[3];
    colliding(1022, tail, 4);
    colliding(0, head, 3);
    for (int i = 0; i < 4; i++)
        mpp_request_add(tail[i], MPP_CAT_COLLECTIVE, 0, 100 + i, 0);
    for (int i = 0; i < 3; i++)
        mpp_request_add(head[i], MPP_CAT_SYSTEM, 0, 200 + i, 0);
    mpp_request_remove(tail[0]);
    mpp_request_remove(head[1]);
    mpp_request_remove(tail[2]);
    for (int i = 0; i < 4; i++) {
        if (i == 0 || i == 2)
            expect_missing(tail[i]);
        else
            expect_found(tail[i], MPP_CAT_COLLECTIVE, 0, 100 + i, 0);
    }
    expect_found(head[0], MPP_CAT_SYSTEM, 0, 200, 0);
    expect_missing(head[1]);
    expect_found(head[2], MPP_CAT_SYSTEM, 0, 202, 0);
    ck_assert_uint_eq(mpp_requests_outstanding(), 4);
}
END_TEST

START_TEST(test_requests_remove_every_other)
{
    enum { N = 10000 };
    for (uint64_t i = 1; i <= N; i++)
        mpp_request_add(i * 8, (int)(i % MPP_NCAT), (int)(i % 2), (int64_t)i, -(int64_t)i);
    ck_assert_uint_eq(mpp_requests_outstanding(), N);
    for (uint64_t i = 1; i <= N; i += 2)
        mpp_request_remove(i * 8);
    ck_assert_uint_eq(mpp_requests_outstanding(), N / 2);
    for (uint64_t i = 1; i <= N; i++) {
        if (i % 2)
            expect_missing(i * 8);
        else
            expect_found(i * 8, (int)(i % MPP_NCAT), 0, (int64_t)i, -(int64_t)i);
    }
    /* and back */
    for (uint64_t i = 1; i <= N; i += 2)
        mpp_request_add(i * 8, MPP_CAT_IO, 1, 1, 2);
    ck_assert_uint_eq(mpp_requests_outstanding(), N);
    for (uint64_t i = 1; i <= N; i += 2)
        expect_found(i * 8, MPP_CAT_IO, 1, 1, 2);
}
END_TEST

START_TEST(test_requests_growth)
{
    /* handles as MPICH hands them out: a fixed high part, a counter below */
    enum { N = 50000 };
    for (uint64_t i = 0; i < N; i++) {
        mpp_request_add(0xac000000u + i, MPP_CAT_SENDRECV, 0, (int64_t)i, 0);
        ck_assert_uint_eq(mpp_requests_outstanding(), i + 1);
    }
    for (uint64_t i = 0; i < N; i++)
        expect_found(0xac000000u + i, MPP_CAT_SENDRECV, 0, (int64_t)i, 0);
    for (uint64_t i = 0; i < N; i++)
        mpp_request_remove(0xac000000u + i);
    ck_assert_uint_eq(mpp_requests_outstanding(), 0);
    expect_missing(0xac000000u);
    /* reset forgets everything */
    mpp_request_add(5, MPP_CAT_SENDRECV, 0, 0, 0);
    mpp_requests_reset();
    ck_assert_uint_eq(mpp_requests_outstanding(), 0);
    expect_missing(5);
}
END_TEST

/* --- bad arguments --- */

START_TEST(test_requests_bad_args)
{
    /* before anything was added */
    expect_missing(7);
    mpp_request_remove(7);
    ck_assert_uint_eq(mpp_requests_outstanding(), 0);
    /* handle 0 is never tracked */
    mpp_request_add(0, MPP_CAT_SENDRECV, 0, 1, 1);
    ck_assert_uint_eq(mpp_requests_outstanding(), 0);
    expect_missing(0);
    mpp_request_add(9, MPP_CAT_SENDRECV, 0, 1, 1);
    mpp_request_remove(0);
    ck_assert_uint_eq(mpp_requests_outstanding(), 1);
    expect_missing(0);
    /* the largest handle */
    mpp_request_add(UINT64_MAX, MPP_CAT_SYSTEM, 1, INT64_MAX, INT64_MIN);
    expect_found(UINT64_MAX, MPP_CAT_SYSTEM, 1, INT64_MAX, INT64_MIN);
    /* reset twice, then the locking variant */
    mpp_requests_reset();
    mpp_requests_reset();
    mpp_requests_init(1);
    mpp_request_add(11, MPP_CAT_IO, 0, 3, 4);
    expect_found(11, MPP_CAT_IO, 0, 3, 4);
    mpp_request_remove(11);
    expect_missing(11);
}
END_TEST

/* The correctness checks' fields: with shared handles counted, a request
 * made with a live request's handle adds to it, and each completion or free
 * takes one off before the slot goes; sites and active persistent requests. */
START_TEST(test_requests_shared_counted)
{
    mpp_request_add(0x2c000001, 0, 0, 0, 0); /* a table before the checks start: they get theirs */
    mpp_requests_count_shared(1);
    uint32_t serial = 0;
    uintptr_t frames[2] = {0x401000, 0x402000};
    for (int i = 0; i < 3; i++) {
        serial = mpp_request_add_started(0x6c000001, 0, 0, 4, 0, NULL, 0.0, 0, NULL);
        mpp_request_set_site(0x6c000001, serial, 7, frames, 2);
    }
    mpp_request_check_t c;
    ck_assert(mpp_request_check_find(0x6c000001, serial, &c));
    ck_assert_uint_eq(c.more, 2);
    ck_assert(c.checked);
    ck_assert_uint_eq(c.site_fid, 7);
    ck_assert_ptr_eq(c.site, frames);
    ck_assert_int_eq(c.site_depth, 2);
    mpp_request_origin_t origin;
    uint64_t overlap = 0;
    mpp_request_complete(0x6c000001, serial, 0, 1, NULL, &origin, &overlap, NULL);
    mpp_request_remove_instance(0x6c000001, serial);
    ck_assert(mpp_request_check_find(0x6c000001, serial, &c));
    ck_assert_uint_eq(c.more, 0);
    mpp_request_check_t all[4];
    ck_assert_uint_eq(mpp_requests_check_list(all, 4), 2);
    for (uint64_t h = 1; h <= 3000; h++) /* growth moves what the checks keep along */
        mpp_request_add(0x9c000000 + h, 0, 0, 0, 0);
    ck_assert(mpp_request_check_find(0x6c000001, serial, &c));
    ck_assert_uint_eq(c.site_fid, 7);
    for (uint64_t h = 1; h <= 3000; h++) /* so do removals (backward shifts) */
        mpp_request_remove(0x9c000000 + h);
    ck_assert(mpp_request_check_find(0x6c000001, serial, &c));
    ck_assert_ptr_eq(c.site, frames);
    mpp_request_complete(0x6c000001, serial, 0, 1, NULL, &origin, &overlap, NULL);
    expect_missing(0x6c000001);
    /* a persistent request: active from its start to its completion */
    uint32_t p = mpp_request_add_started(0x2c000005, 0, 1, 4, 0, NULL, 0.0, 0, NULL);
    mpp_request_set_site(0x2c000005, p, 8, NULL, 0);
    mpp_request_set_pending(0x2c000005, p, 1);
    ck_assert(mpp_request_check_find(0x2c000005, p, &c));
    ck_assert(c.pending && c.persistent);
    ck_assert(!mpp_request_check_find(0x2c000005, p + 1, &c)); /* another instance */
    mpp_request_set_pending(0x2c000005, p, 0);
    ck_assert(mpp_request_check_find(0x2c000005, p, &c));
    ck_assert(!c.pending);
    mpp_requests_count_shared(0);
}
END_TEST

START_TEST(test_requests_shared_replaced)
{
    uint32_t serial = 0;
    for (int i = 0; i < 3; i++) /* not counted: the last one replaces the others */
        serial = mpp_request_add_started(0x6c000001, 0, 0, 4, 0, NULL, 0.0, 0, NULL);
    mpp_request_check_t c;
    ck_assert(!mpp_request_check_find(0x6c000001, serial, &c)); /* nothing kept for the checks */
    mpp_request_set_pending(0x6c000001, serial, 1);             /* (does nothing) */
    mpp_request_origin_t origin;
    uint64_t overlap = 0;
    mpp_request_complete(0x6c000001, serial, 0, 1, NULL, &origin, &overlap, NULL);
    expect_missing(0x6c000001);
}
END_TEST

Suite *requests_suite(void)
{
    Suite *s = suite_create("requests");
    TCase *tc;

    tc = tcase_create("add_find_remove");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_requests_add_find_remove);
    tcase_add_test(tc, test_requests_add_again_replaces);
    tcase_add_test(tc, test_requests_remove_instance);
    tcase_add_test(tc, test_requests_shared_counted);
    tcase_add_test(tc, test_requests_shared_replaced);
    suite_add_tcase(s, tc);

    tc = tcase_create("overlap");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_requests_overlap_nonblocking);
    tcase_add_test(tc, test_requests_overlap_persistent);
    tcase_add_test(tc, test_requests_overlap_shared);
    tcase_add_test(tc, test_requests_overlap_none);
    suite_add_tcase(s, tc);

    tc = tcase_create("clusters");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_requests_remove_in_cluster);
    tcase_add_test(tc, test_requests_remove_in_wrapping_cluster);
    tcase_add_test(tc, test_requests_remove_every_other);
    suite_add_tcase(s, tc);

    tc = tcase_create("growth");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_requests_growth);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_requests_bad_args);
    suite_add_tcase(s, tc);
    return s;
}
