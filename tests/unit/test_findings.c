/* The findings of a process (src/check/findings.c): one entry per kind
 * and call site with its count and first details, bounded, what does not
 * fit counted; read whole by a child forked while a thread adds. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check/finding_list.h"
#include "check/findings.h"
#include "suites.h"

START_TEST(test_findings_by_site)
{
    mpp_findings_init(3);
    uintptr_t a[2] = {0x401000, 0x402000}, b[2] = {0x401000, 0x403000};
    for (int i = 0; i < 5; i++)
        mpp_findings_add(MPP_FIND_WRONG_DATATYPE, 7, a, 2, 1, 8, 99, i ? "later" : "first");
    mpp_findings_add(MPP_FIND_WRONG_DATATYPE, 7, b, 2, 1, 8, 99, "another stack");
    mpp_findings_add(MPP_FIND_INCORRECT_SEND_SIZE, 7, a, 2, -1, MPP_FINDING_NO_FUNCTION, 0, NULL);
    mpp_findings_add(MPP_FIND_RESOURCE_LEAK, 9, NULL, 0, -1, MPP_FINDING_NO_FUNCTION, 0, "3 communicators");
    size_t n;
    uint64_t dropped, errors, warnings;
    mpp_finding_t *f = mpp_findings_take(&n, &dropped);
    ck_assert_uint_eq(n, 3);
    ck_assert_uint_eq(dropped, 1); /* the fourth entry did not fit */
    ck_assert_int_eq(f[0].kind, MPP_FIND_WRONG_DATATYPE);
    ck_assert_uint_eq(f[0].count, 5);
    ck_assert_str_eq(f[0].detail, "first");
    ck_assert_int_eq(f[0].peer, 1);
    ck_assert_uint_eq(f[0].other_site, 99);
    ck_assert_uint_eq(f[1].count, 1);
    ck_assert_str_eq(f[1].detail, "another stack");
    ck_assert_str_eq(f[2].detail, "");
    mpp_findings_counts(&errors, &warnings);
    ck_assert_uint_eq(errors, 6);
    ck_assert_uint_eq(warnings, 2); /* incorrect-send-size and resource-leak */
    free(f);
    mpp_findings_free();
    f = mpp_findings_take(&n, &dropped);
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(f);
}
END_TEST

START_TEST(test_findings_bad_args)
{
    mpp_findings_init(4);
    mpp_findings_add(-1, 0, NULL, 0, -1, 0, 0, NULL);
    mpp_findings_add(MPP_NFIND, 0, NULL, 0, -1, 0, 0, NULL);
    uintptr_t deep[MPP_MAX_DEPTH + 4] = {1};
    mpp_findings_add(MPP_FIND_ABORT, 0, deep, MPP_MAX_DEPTH + 4, -1, 0, 0, NULL); /* cut to the deepest kept */
    size_t n;
    uint64_t dropped;
    mpp_finding_t *f = mpp_findings_take(&n, &dropped);
    ck_assert_uint_eq(n, 1);
    ck_assert_int_eq(f[0].depth, MPP_MAX_DEPTH);
    free(f);
    mpp_findings_free();
}
END_TEST

/* A thread that adds findings at many sites (the store growing, its lock
 * held most of the time), until told to stop. */
static atomic_int adding;
static atomic_ulong added;

static void *adder(void *arg)
{
    (void)arg;
    for (uintptr_t i = 0; atomic_load(&adding); i++) {
        uintptr_t frame[1] = {i % 3000 + 1};
        mpp_findings_add(MPP_FIND_MPI_ERROR, 1, frame, 1, -1, 0, 0, "x");
        atomic_fetch_add(&added, 1);
    }
    return NULL;
}

/* AddressSanitizer's allocator (GCC 12's) keeps its lock across fork: a
 * child forked while the adder grows the store (malloc, free) would wait
 * for it forever in its own malloc.  Glibc's malloc is fork-safe, so only
 * a sanitizer build forks after the growth (all 3000 sites in). */
static void wait_for_growth(void)
{
#if defined(__SANITIZE_ADDRESS__)
    while (atomic_load(&added) < 3000)
        usleep(100);
#endif
}

/* In a child forked meanwhile (as for a partial protocol), the store after
 * mpp_findings_forked: whole entries, and no wait for the lock that the
 * adding thread, absent from the child, held at the fork. */
static int child_reads_whole(void)
{
    sigset_t alrm;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    sigprocmask(SIG_UNBLOCK, &alrm, NULL);
    signal(SIGALRM, SIG_DFL);
    alarm(2); /* a lock never released: killed */
    mpp_findings_forked();
    size_t n;
    uint64_t dropped;
    mpp_finding_t *f = mpp_findings_take(&n, &dropped);
    int ok = n <= 3000;
    for (size_t i = 0; i < n && ok; i++)
        ok = f[i].kind == MPP_FIND_MPI_ERROR && f[i].count >= 1 && f[i].depth == 1 && f[i].frames[0] >= 1 &&
             f[i].frames[0] <= 3000 && !strcmp(f[i].detail, "x");
    mpp_findings_add(MPP_FIND_ABORT, 2, NULL, 0, -1, 0, 0, "the child's own");
    free(f);
    f = mpp_findings_take(&n, &dropped);
    ok = ok && n >= 1 && f[n - 1].kind == MPP_FIND_ABORT;
    return ok ? 0 : 1;
}

START_TEST(test_findings_forked)
{
    for (int round = 0; round < 4; round++) {
        mpp_findings_init(4096);
        atomic_store(&added, 0);
        atomic_store(&adding, 1);
        pthread_t thread;
        ck_assert_int_eq(pthread_create(&thread, NULL, adder, NULL), 0);
        for (int k = 0; k < 10; k++) {
            usleep((useconds_t)(k * 300));
            wait_for_growth();
            pid_t pid = fork();
            if (pid == 0)
                _exit(child_reads_whole());
            int status = 0;
            ck_assert_int_eq(waitpid(pid, &status, 0), pid);
            ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "round %d, fork %d: status %d", round, k,
                          status);
        }
        atomic_store(&adding, 0);
        pthread_join(thread, NULL);
    }
    mpp_findings_free();
}
END_TEST

/* ---- the lists the protocol reports (src/check/finding_list.c) ---- */

static mpp_finding_record_t record(int kind, const char *src, const char *other, int rank, uint64_t count,
                                   const char *detail)
{
    return (mpp_finding_record_t){.kind = kind,
                                  .severity = mpp_finding_kinds[kind].severity,
                                  .src = (char *)src,
                                  .other = (char *)other,
                                  .count = count,
                                  .first_rank = rank,
                                  .last_rank = rank,
                                  .nprocs = 1,
                                  .peer = rank ? 0 : 1,
                                  .detail = (char *)detail};
}

/* One process's list through its serialized form, merged into another's. */
static void merge_via_bytes(mpp_finding_list_t *into, const mpp_finding_list_t *from, size_t max)
{
    char *buf;
    size_t len;
    mpp_finding_list_t copy = {.level = -1};
    ck_assert_int_eq(mpp_finding_list_serialize(from, &buf, &len), 0);
    ck_assert_int_eq(mpp_finding_list_load(&copy, buf, len), 0);
    ck_assert_int_eq(mpp_finding_list_merge(into, &copy, max), 0);
    mpp_finding_list_free(&copy);
    free(buf);
}

START_TEST(test_finding_list_merge)
{
    mpp_finding_list_t a = {.level = 2}, b = {.level = 2}, all = {.level = -1};
    mpp_finding_record_t r;
    r = record(MPP_FIND_WRONG_DATATYPE, "MPI_Recv\x1ex.c", "MPI_Send\x1ex.c", 3, 2, "on rank 3");
    ck_assert_int_eq(mpp_finding_list_add(&a, &r), 0);
    r = record(MPP_FIND_RESOURCE_LEAK, "MPI_Comm_dup\x1ey.c", NULL, 3, 1, "1 communicator");
    ck_assert_int_eq(mpp_finding_list_add(&a, &r), 0);
    r = record(MPP_FIND_WRONG_DATATYPE, "MPI_Recv\x1ex.c", "MPI_Send\x1ex.c", 1, 5, "on rank 1");
    ck_assert_int_eq(mpp_finding_list_add(&b, &r), 0);
    r = record(MPP_FIND_WRONG_DATATYPE, "MPI_Recv\x1ex.c", NULL, 1, 1, "no other side: another finding");
    ck_assert_int_eq(mpp_finding_list_add(&b, &r), 0);
    b.dropped = 4;
    merge_via_bytes(&all, &a, 16);
    merge_via_bytes(&all, &b, 16);
    mpp_finding_list_sort(&all);
    ck_assert_int_eq(all.level, 2);
    ck_assert_int_eq(all.n, 3);
    ck_assert_uint_eq(all.dropped, 4);
    /* errors first; the merged one: counts and processes add up, ranks widen, the lower rank's details */
    ck_assert_ptr_null(all.items[0].other); /* the same SRC point: without an other side first */
    const mpp_finding_record_t *w = &all.items[1];
    ck_assert_int_eq(w->kind, MPP_FIND_WRONG_DATATYPE);
    ck_assert_uint_eq(w->count, 7);
    ck_assert_int_eq(w->nprocs, 2);
    ck_assert_int_eq(w->first_rank, 1);
    ck_assert_int_eq(w->last_rank, 3);
    ck_assert_str_eq(w->detail, "on rank 1");
    ck_assert_int_eq(w->peer, 0);
    ck_assert_ptr_nonnull(w->other);
    ck_assert_int_eq(all.items[2].kind, MPP_FIND_RESOURCE_LEAK);
    uint64_t errors, warnings;
    mpp_finding_list_counts(&all, &errors, &warnings);
    ck_assert_uint_eq(errors, 8);
    ck_assert_uint_eq(warnings, 1);
    mpp_finding_list_free(&a), mpp_finding_list_free(&b), mpp_finding_list_free(&all);
}
END_TEST

START_TEST(test_finding_list_bounded)
{
    mpp_finding_list_t one = {.level = 1}, all = {.level = -1};
    char src[32];
    for (int i = 0; i < 5; i++) {
        snprintf(src, sizeof src, "MPI_Send\x1e%d.c", i);
        mpp_finding_record_t r = record(MPP_FIND_NONPAIRED_SEND, src, NULL, 0, 3, "");
        ck_assert_int_eq(mpp_finding_list_add(&one, &r), 0);
    }
    merge_via_bytes(&all, &one, 2);
    merge_via_bytes(&all, &one, 2); /* the kept two add up; the others stay dropped */
    ck_assert_int_eq(all.n, 2);
    ck_assert_uint_eq(all.items[0].count, 6);
    ck_assert_uint_eq(all.dropped, 18);
    mpp_finding_list_free(&one), mpp_finding_list_free(&all);
}
END_TEST

START_TEST(test_finding_list_corrupt)
{
    mpp_finding_list_t l = {.level = 1}, back = {.level = -1};
    mpp_finding_record_t r = record(MPP_FIND_ABORT, "MPI_Abort\x1ez.c", NULL, 0, 1, "code 3");
    ck_assert_int_eq(mpp_finding_list_add(&l, &r), 0);
    char *buf;
    size_t len;
    ck_assert_int_eq(mpp_finding_list_serialize(&l, &buf, &len), 0);
    for (size_t cut = 0; cut < len; cut++) { /* every truncation is refused */
        ck_assert_int_eq(mpp_finding_list_load(&back, buf, cut), -1);
        mpp_finding_list_free(&back);
    }
    buf[len - 3] = '\0'; /* a NUL inside a string */
    ck_assert_int_eq(mpp_finding_list_load(&back, buf, len), -1);
    mpp_finding_list_free(&back);
    free(buf);
    mpp_finding_list_free(&l);
    ck_assert_str_eq(mpp_check_level_text(2 | 4), "full,checksum");
    ck_assert_str_eq(mpp_check_level_text(0), "off");
}
END_TEST

/* Trace mode's text form (mpiprof-trace(5)): every field back as it was,
 * strings with separators, '%', spaces and newlines escaped; an empty
 * string and none told apart; malformed text refused. */
START_TEST(test_finding_list_text)
{
    mpp_finding_list_t l = {.level = 2 | 4, .dropped = 7}, back = {.level = -1};
    mpp_finding_record_t r = record(MPP_FIND_WRONG_DATATYPE,
                                    "MPI_Recv\x1ex.c\x1f"
                                    "12\x1fmain\x1fx.c:12 (main)",
                                    "MPI_Send\x1ey.c", 3, 5, "sent 4 x MPI_INT, 100% \"odd\"\nsecond line");
    r.severity = MPP_FINDING_WARNING; /* as reported, not the kind's */
    r.last_rank = 6, r.nprocs = 2, r.peer = -1;
    ck_assert_int_eq(mpp_finding_list_add(&l, &r), 0);
    r = record(MPP_FIND_RESOURCE_LEAK, "MPI_Comm_dup", NULL, 0, 1, "");
    ck_assert_int_eq(mpp_finding_list_add(&l, &r), 0);
    char *text = NULL;
    ck_assert_int_eq(mpp_finding_list_text(&l, 1024, &text), 0);
    ck_assert_ptr_nonnull(strstr(text,
                                 "wrong-datatype 0 5 3 6 2 -1 =MPI_Recv%1Ex.c%1F12%1Fmain%1Fx.c:12%20(main) "
                                 "=MPI_Send%1Ey.c =sent%204%20x%20MPI_INT,%20100%25%20\"odd\"%0Asecond%20line\n"));
    ck_assert_ptr_nonnull(strstr(text, "resource-leak 0 1 0 0 1 1 =MPI_Comm_dup - =\n"));
    ck_assert_int_eq(strncmp(text, "mpiprof-findings 1 6 7 1024 2\n", 30), 0);
    size_t max = 0;
    back.dropped = 1;
    ck_assert_int_eq(mpp_finding_list_from_text(&back, &max, text), 0);
    ck_assert_uint_eq(max, 1024);
    ck_assert_int_eq(back.level, 6);
    ck_assert_uint_eq(back.dropped, 8); /* appended */
    ck_assert_int_eq(back.n, 2);
    for (int i = 0; i < 2; i++) {
        const mpp_finding_record_t *a = &l.items[i], *b = &back.items[i];
        ck_assert_int_eq(a->kind, b->kind);
        ck_assert_int_eq(a->severity, b->severity);
        ck_assert_uint_eq(a->count, b->count);
        ck_assert_int_eq(a->first_rank, b->first_rank);
        ck_assert_int_eq(a->last_rank, b->last_rank);
        ck_assert_int_eq(a->nprocs, b->nprocs);
        ck_assert_int_eq(a->peer, b->peer);
        ck_assert_str_eq(a->src, b->src);
        ck_assert_str_eq(a->detail, b->detail);
        if (a->other)
            ck_assert_str_eq(a->other, b->other);
        else
            ck_assert_ptr_null(b->other);
    }
    mpp_finding_list_free(&back);
    /* every truncation is refused */
    size_t len = strlen(text);
    for (size_t cut = 0; cut < len; cut++) {
        char *part = strndup(text, cut);
        ck_assert_int_eq(mpp_finding_list_from_text(&back, NULL, part), -1);
        mpp_finding_list_free(&back);
        free(part);
    }
    /* an escaped NUL, a bad escape, another magic, a kind unknown here (dropped) */
    static const char *const bad[] = {"mpiprof-findings 1 2 0 9 1\nabort 1 1 0 0 1 -1 =a%00b - =\n",
                                      "mpiprof-findings 1 2 0 9 1\nabort 1 1 0 0 1 -1 =a%4 - =\n",
                                      "mpiprof-findings 2 2 0 9 0\n", "mpiprof-findings 1 2 0 9 1\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ck_assert_int_eq(mpp_finding_list_from_text(&back, NULL, bad[i]), -1);
        mpp_finding_list_free(&back);
    }
    back.dropped = 0;
    ck_assert_int_eq(mpp_finding_list_from_text(&back, NULL,
                                                "mpiprof-findings 1 1 0 9 1\nno-such-kind 1 3 0 0 1 -1 "
                                                "=a - =\n"),
                     0);
    ck_assert_int_eq(back.n, 0);
    ck_assert_uint_eq(back.dropped, 3);
    free(text);
    mpp_finding_list_free(&l);
}
END_TEST

Suite *findings_suite(void)
{
    Suite *s = suite_create("findings");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_findings_by_site);
    tcase_add_test(tc, test_findings_bad_args);
    tcase_add_test(tc, test_findings_forked);
    tcase_add_test(tc, test_finding_list_merge);
    tcase_add_test(tc, test_finding_list_bounded);
    tcase_add_test(tc, test_finding_list_corrupt);
    tcase_add_test(tc, test_finding_list_text);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
