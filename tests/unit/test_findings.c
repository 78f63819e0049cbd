/* The findings of a process (src/check/findings.c): one entry per kind
 * and call site with its count and first details, bounded, what does not
 * fit counted; read whole by a child forked while a thread adds. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

static void *adder(void *arg)
{
    (void)arg;
    for (uintptr_t i = 0; atomic_load(&adding); i++) {
        uintptr_t frame[1] = {i % 3000 + 1};
        mpp_findings_add(MPP_FIND_MPI_ERROR, 1, frame, 1, -1, 0, 0, "x");
    }
    return NULL;
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
        atomic_store(&adding, 1);
        pthread_t thread;
        ck_assert_int_eq(pthread_create(&thread, NULL, adder, NULL), 0);
        for (int k = 0; k < 10; k++) {
            usleep((useconds_t)(k * 300));
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

Suite *findings_suite(void)
{
    Suite *s = suite_create("findings");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, test_findings_by_site);
    tcase_add_test(tc, test_findings_bad_args);
    tcase_add_test(tc, test_findings_forked);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}
