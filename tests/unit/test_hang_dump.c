/* The hang dump's format (src/write/hang_dump.c), as mpiprof-hang(1)
 * documents it and reads it: header lines, a call's block with every kind
 * of argument, special ranks and tags, requests, the end lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suites.h"
#include "write/hang_dump.h"

static char *text;
static size_t size;
static FILE *out;

static void setup(void)
{
    text = NULL;
    out = open_memstream(&text, &size);
    ck_assert_ptr_nonnull(out);
}

static void teardown(void)
{
    if (out)
        fclose(out);
    free(text);
}

/* What was written; the stream is closed. */
static const char *written(void)
{
    fclose(out);
    out = NULL;
    return text;
}

static mpp_watch_call_t bare_call(void)
{
    mpp_watch_call_t w;
    memset(&w, 0, sizeof w);
    w.dest = w.source = w.root = (mpp_watch_peer_t){MPP_WATCH_NONE, MPP_WATCH_UNKNOWN};
    w.tag = w.sendtag = MPP_WATCH_NONE;
    w.count = -1;
    return w;
}

START_TEST(test_hang_dump_header)
{
    mpp_hang_header_t h = {.rank = 3,
                           .world_size = 8,
                           .timeout = 60,
                           .threads = 2,
                           .pid = 4242,
                           .run = "node1-4200-1700000000",
                           .host = "node\n1",
                           .program = "./app -x\t1",
                           .written = 1700000060.5};
    mpp_hang_write_header(out, &h);
    ck_assert_str_eq(written(), "mpiprof-hang-dump 1\n"
                                "run node1-4200-1700000000\n"
                                "rank 3\n"
                                "world_size 8\n"
                                "pid 4242\n"
                                "host node?1\n" /* one line whatever a name holds */
                                "program ./app -x?1\n"
                                "timeout 60\n"
                                "threads 2\n"
                                "written 1700000060.500000\n");
}
END_TEST

START_TEST(test_hang_dump_recv)
{
    mpp_watch_comm_t comm = {.size = 4, .inter = 0, .id = 0xabcdefull, .members = "0-1,5,7"};
    mpp_watch_call_t w = bare_call();
    w.comm = &comm;
    w.source = (mpp_watch_peer_t){2, 5};
    w.tag = 7;
    w.count = 100;
    w.depth = 4;
    const char *frames[MPP_MAX_DEPTH] = {"solver.c:88 (exchange)", "main.c:40 (main)"};
    mpp_watch_request_t requests[] = {
        {.handle = 0x2c000001,
         .category = "SendRecv",
         .op = "MPI_Isend",
         .persistent = 0,
         .waited = 0,
         .has_peer = 1,
         .peer_world = 5,
         .tag = 8},
        {.handle = 0x2c000002, .category = "Collective", .op = "", .has_peer = 0},
    };
    mpp_hang_call_t c = {.tid = 99,
                         .function = "MPI_Recv",
                         .category = "SendRecv",
                         .entered = 10.25,
                         .stuck_for = 61.0,
                         .call = &w,
                         .frames = frames,
                         .noutstanding = 3,
                         .nlisted = 2,
                         .requests = requests};
    mpp_hang_write_call(out, &c);
    mpp_hang_write_end(out, 0, 0);
    ck_assert_str_eq(written(), "call\n"
                                "thread 99\n"
                                "function MPI_Recv\n"
                                "category SendRecv\n"
                                "entered 10.250000\n"
                                "stuck_for 61.000\n"
                                "comm size=4 inter=0 id=0000000000abcdef members=0-1,5,7\n"
                                "source rank=2 world=5\n"
                                "tag 7\n"
                                "count 100\n"
                                "frame solver.c:88 (exchange)\n"
                                "frame main.c:40 (main)\n"
                                "outstanding 3\n"
                                "request handle=0x2c000001 category=SendRecv op=MPI_Isend persistent=0 waited=0"
                                " peer=5 tag=8\n"
                                "request handle=0x2c000002 category=Collective op=? persistent=0 waited=0\n"
                                "end\n");
}
END_TEST

/* MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_PROC_NULL, MPI_ROOT, an unknown world
 * rank, Sendrecv's two tags, a communicator too large to list, no count,
 * a returned call. */
START_TEST(test_hang_dump_special)
{
    mpp_watch_comm_t comm = {.size = 100000, .inter = 1, .id = 1, .members = ""};
    mpp_watch_call_t w = bare_call();
    w.comm = &comm;
    w.dest = (mpp_watch_peer_t){MPP_WATCH_PROC_NULL, MPP_WATCH_PROC_NULL};
    w.source = (mpp_watch_peer_t){MPP_WATCH_ANY, MPP_WATCH_ANY};
    w.root = (mpp_watch_peer_t){MPP_WATCH_ROOT, MPP_WATCH_ROOT};
    w.sendtag = 3;
    w.tag = -1;
    w.nrequests = 2;
    const char *frames[MPP_MAX_DEPTH] = {0};
    mpp_watch_request_t requests[] = {
        {.handle = 1,
         .category = "SendRecv",
         .op = "MPI_Irecv",
         .waited = 1,
         .has_peer = 1,
         .peer_world = MPP_WATCH_ANY,
         .tag = -1},
        {.handle = 2,
         .category = "SendRecv",
         .op = "MPI_Isend",
         .waited = 1,
         .has_peer = 1,
         .peer_world = MPP_WATCH_PROC_NULL,
         .tag = MPP_WATCH_NONE},
    };
    mpp_hang_call_t c = {.tid = 1,
                         .function = "MPI_Sendrecv",
                         .category = "SendRecv",
                         .call = &w,
                         .frames = frames,
                         .noutstanding = 2,
                         .nlisted = 2,
                         .requests = requests};
    mpp_hang_write_call(out, &c);
    mpp_hang_write_end(out, 1, 12.5);
    const char *s = written();
    ck_assert_ptr_nonnull(strstr(s, "comm size=100000 inter=1 id=0000000000000001 members=?\n"));
    ck_assert_ptr_nonnull(strstr(s, "dest rank=proc_null\n"));
    ck_assert_ptr_nonnull(strstr(s, "source rank=any\n"));
    ck_assert_ptr_nonnull(strstr(s, "root rank=root\n"));
    ck_assert_ptr_nonnull(strstr(s, "sendtag 3\nrecvtag any\n"));
    ck_assert_ptr_null(strstr(s, "\ntag "));
    ck_assert_ptr_null(strstr(s, "count"));
    ck_assert_ptr_null(strstr(s, "frame"));
    ck_assert_ptr_nonnull(strstr(s, "handles 2\noutstanding 2\n"));
    ck_assert_ptr_nonnull(strstr(s, "op=MPI_Irecv persistent=0 waited=1 peer=any tag=any\n"));
    ck_assert_ptr_nonnull(strstr(s, "op=MPI_Isend persistent=0 waited=1 peer=proc_null\n"));
    ck_assert_ptr_nonnull(strstr(s, "resumed 12.500000\nend\n"));
}
END_TEST

/* A partner whose world rank is not known (a process of another
 * MPI_COMM_WORLD); a call without communicator or any argument. */
START_TEST(test_hang_dump_bad_args)
{
    mpp_watch_call_t w = bare_call();
    w.dest = (mpp_watch_peer_t){4, MPP_WATCH_UNKNOWN};
    const char *frames[MPP_MAX_DEPTH] = {0};
    mpp_hang_call_t c = {.tid = 1, .function = "MPI_Send", .category = "SendRecv", .call = &w, .frames = frames};
    mpp_hang_write_call(out, &c);
    const char *s = written();
    ck_assert_ptr_nonnull(strstr(s, "dest rank=4 world=?\n"));
    ck_assert_ptr_null(strstr(s, "comm"));
    ck_assert_ptr_null(strstr(s, "source"));
    ck_assert_ptr_nonnull(strstr(s, "outstanding 0\n"));
}
END_TEST

Suite *hang_dump_suite(void)
{
    Suite *s = suite_create("hang_dump");
    TCase *format = tcase_create("format");
    tcase_add_checked_fixture(format, setup, teardown);
    tcase_add_test(format, test_hang_dump_header);
    tcase_add_test(format, test_hang_dump_recv);
    tcase_add_test(format, test_hang_dump_special);
    tcase_add_test(format, test_hang_dump_bad_args);
    suite_add_tcase(s, format);
    return s;
}
