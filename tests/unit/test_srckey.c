/* Unit tests of SRC keys and frame records (src/util/srckey.c): the
 * fifth field (a frame's source), a record of several frames (functions
 * inlined at one return address), where a stack ends (main, a thread's
 * start routine), and the texts of a record. */
#include <stdlib.h>

#include "suites.h"
#include "util/srckey.h"

#define RS "\x1e"
#define US "\x1f"

/* Field<double>::exchange(int) inlined into main at halo.cc:20 */
#define EXCHANGE "Field<double>::exchange(int)"
#define INLINED "/src/halo.cc" US "8" US EXCHANGE US "halo.cc:8 (" EXCHANGE ")" US "inlined"
#define IN_MAIN "/src/halo.cc" US "20" US "main" US "halo.cc:20 (main)" US "line"
#define WORKER "/src/t.c" US "27" US "worker" US "t.c:27 (worker)" US "line"
#define START "/glibc/pthread_create.c" US "442" US "start_thread" US "pthread_create.c:442 (start_thread)" US "line"
#define CLONE "/lib/libc.so.6" US "0" US "__GI___clone3" US "__GI___clone3+0x2c" US "symbol"

START_TEST(test_srckey_parse_sources)
{
    char *function = NULL;
    mpp_frame_t *f = NULL;
    int n = mpp_srckey_parse("MPI_Send" RS INLINED RS IN_MAIN RS "/bin/p" US "0" US "" US "p+0x10f1" US "unresolved",
                             &function, &f);
    ck_assert_int_eq(n, 3);
    ck_assert_str_eq(function, "MPI_Send");
    ck_assert_str_eq(f[0].function, "Field<double>::exchange(int)");
    ck_assert_int_eq(f[0].line, 8);
    ck_assert_str_eq(f[0].text, "halo.cc:8 (Field<double>::exchange(int))");
    ck_assert_str_eq(f[0].origin, MPP_ORIGIN_INLINED);
    ck_assert_str_eq(f[1].file, "halo.cc");
    ck_assert_str_eq(f[1].origin, MPP_ORIGIN_LINE);
    ck_assert_str_eq(f[2].text, "p+0x10f1");
    ck_assert_str_eq(f[2].origin, MPP_ORIGIN_UNRESOLVED);
    free(function);
    mpp_srckey_free_frames(f, n);
}
END_TEST

/* a key of four fields a frame (a folded SRC point, an older trace) */
START_TEST(test_srckey_parse_without_source)
{
    char *function = NULL;
    mpp_frame_t *f = NULL;
    int n = mpp_srckey_parse("MPI_Recv" RS "/a/b.c" US "3" US "f" US "b.c:3 (f)" RS US "0" US US "[other call sites]",
                             &function, &f);
    ck_assert_int_eq(n, 2);
    ck_assert_str_eq(f[0].text, "b.c:3 (f)");
    ck_assert_str_eq(f[0].origin, "");
    ck_assert_str_eq(f[1].text, "[other call sites]");
    ck_assert_str_eq(f[1].origin, "");
    free(function);
    mpp_srckey_free_frames(f, n);
}
END_TEST

/* by a record's outermost frame: inlined into main ends the stack */
START_TEST(test_srckey_stack_end)
{
    ck_assert_int_eq(mpp_srckey_stack_end(INLINED RS IN_MAIN), MPP_STACK_ENTRY);
    ck_assert_int_eq(mpp_srckey_stack_end(IN_MAIN), MPP_STACK_ENTRY);
    ck_assert_int_eq(mpp_srckey_stack_end("/f/p.f90" US "3" US "MAIN__" US "p.f90:3 (MAIN__)"), MPP_STACK_ENTRY);
    ck_assert_int_eq(mpp_srckey_stack_end(WORKER), MPP_STACK_GOES_ON);
    ck_assert_int_eq(mpp_srckey_stack_end(IN_MAIN RS WORKER), MPP_STACK_GOES_ON); /* main inlined into worker */
    ck_assert_int_eq(mpp_srckey_stack_end(START), MPP_STACK_RUNTIME);
    ck_assert_int_eq(mpp_srckey_stack_end(CLONE), MPP_STACK_RUNTIME);
    ck_assert_int_eq(mpp_srckey_stack_end("/lib/libc.so.6" US "0" US "__libc_start_call_main" US "x"),
                     MPP_STACK_RUNTIME);
    ck_assert_int_eq(mpp_srckey_stack_end("/lib/libc.so.6" US "0" US "" US "libc.so.6+0x271ca" US "unresolved"),
                     MPP_STACK_GOES_ON);
    ck_assert_int_eq(mpp_srckey_stack_end("/l.so" US "0" US "__libc_start_main@GLIBC_2.2.5" US "x"),
                     MPP_STACK_RUNTIME);
    ck_assert_int_eq(mpp_srckey_stack_end("/a" US "1" US "mainly" US "a:1 (mainly)"), MPP_STACK_GOES_ON);
    ck_assert_int_eq(mpp_srckey_stack_end("??"), MPP_STACK_GOES_ON);
}
END_TEST

/* the frames of the first return address: its inlined ones and the next */
START_TEST(test_srckey_address_end)
{
    const char *key = "MPI_Send" RS INLINED RS IN_MAIN RS WORKER;
    const char *first = key + strlen("MPI_Send" RS);
    const char *end = mpp_srckey_address_end(first);
    ck_assert_int_eq((int)(end - first), (int)strlen(INLINED RS IN_MAIN));
    ck_assert_str_eq(mpp_srckey_address_end(end + 1), "");
    const char *plain = "W" RS WORKER RS IN_MAIN;
    ck_assert_int_eq((int)(mpp_srckey_address_end(plain + 2) - plain), (int)strlen("W" RS WORKER));
}
END_TEST

START_TEST(test_srckey_record_text)
{
    char out[128];
    mpp_srckey_record_text(INLINED RS IN_MAIN, out, sizeof out);
    ck_assert_str_eq(out, "halo.cc:8 (Field<double>::exchange(int)) <- halo.cc:20 (main)");
    mpp_srckey_record_text("??", out, sizeof out);
    ck_assert_str_eq(out, "??");
    mpp_srckey_record_text(INLINED RS IN_MAIN, out, 12); /* truncated, terminated */
    ck_assert_str_eq(out, "halo.cc:8 (");
}
END_TEST

Suite *srckey_suite(void)
{
    Suite *s = suite_create("srckey");
    TCase *tc = tcase_create("records");
    tcase_add_test(tc, test_srckey_parse_sources);
    tcase_add_test(tc, test_srckey_parse_without_source);
    tcase_add_test(tc, test_srckey_stack_end);
    tcase_add_test(tc, test_srckey_address_end);
    tcase_add_test(tc, test_srckey_record_text);
    suite_add_tcase(s, tc);
    return s;
}
