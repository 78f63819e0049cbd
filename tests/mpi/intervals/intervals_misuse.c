/* intervals_misuse: every misuse of the marks, for
 * tests/mpi/intervals/test_intervals_misuse.sh.  Each must give its warning and leave
 * a valid protocol; the program must exit 0.
 *
 *   intervals_misuse marks      (default configuration)
 *     a begin mark before MPI_Init; an end mark without an open interval; a
 *     replicated-code end without a begin; MPI_Pcontrol(-1, "nosuch") while
 *     "open" is open (name mismatch); MPI_Pcontrol(-1, "outer") while
 *     "inner" is open inside "outer"; intervals begun in one thread and
 *     ended in another: "threaded" (both threads alive), "threaded2" (ended
 *     in the main thread), "threaded3" (ended in a thread created after the
 *     one that began it was joined); "left_open" (with replicated code in
 *     it) still open at MPI_Finalize; end and begin marks after
 *     MPI_Finalize.
 *   intervals_misuse caps       (run with MPIPROF_MAX_INTERVALS=2)
 *     5 distinct intervals: "P" with children "c1" (twice), "c2", "c3" and
 *     "c4" (in "c3"); "c2", "c3", "c4" are past the cap.
 *   intervals_misuse nesting    (run with MPIPROF_MAX_NESTING=1)
 *     "n1" > "n2" > "n3": nesting depth 3.
 *
 * The MPI calls are made in the main thread only (MPI_THREAD_FUNNELED).
 * In "marks" mode each rank prints, after MPI_Finalize,
 *   rank=R left_open=S seq=S
 * its time from just before the begin mark of "left_open" to MPI_Finalize,
 * and the time of the replicated code left open in it.  The test finds the
 * lines of the marks and calls by their MARK: comments.  Computation is a
 * busy loop on the clock, not sleep.  Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mpiprof.h"

#define T_LEFT 0.030
#define T_SEQ 0.040

#include "../lib/busy.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int begun, ended;

/* Begins "threaded" and stays alive until it has been ended elsewhere. */
static void *begin_threaded(void *arg)
{
    (void)arg;
    MPIPROF_INTERVAL_BEGIN("threaded"); /* MARK:threaded */
    pthread_mutex_lock(&lock);
    begun = 1;
    pthread_cond_broadcast(&cond);
    while (!ended)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *end_threaded(void *arg)
{
    (void)arg;
    MPIPROF_INTERVAL_END(); /* MARK:threaded_end */
    return NULL;
}

static void *begin_threaded2(void *arg)
{
    (void)arg;
    MPIPROF_INTERVAL_BEGIN("threaded2"); /* MARK:threaded2 */
    return NULL;
}

static void *begin_threaded3(void *arg)
{
    (void)arg;
    MPIPROF_INTERVAL_BEGIN("threaded3"); /* MARK:threaded3 */
    return NULL;
}

static void *end_threaded3(void *arg)
{
    (void)arg;
    MPIPROF_INTERVAL_END(); /* MARK:threaded3_end */
    return NULL;
}

static int in_thread(void *(*fn)(void *))
{
    pthread_t t;
    if (pthread_create(&t, NULL, fn, NULL) != 0)
        return 1;
    return pthread_join(t, NULL) != 0;
}

/* "left_open" and its replicated code run until MPI_Finalize: their times
 * end just before it, where the profiler closes them (not at a printf a
 * few milliseconds earlier on a busy node). */
static double left_open_start, seq_start;

static int marks(int rank)
{
    int errors = 0;
    double t;

    MPIPROF_INTERVAL_END(); /* MARK:stray_end */
    MPIPROF_SEQ_END(); /* MARK:stray_seq_end */

    MPIPROF_INTERVAL_BEGIN("open"); /* MARK:open */
    MPI_Pcontrol(-1, "nosuch"); /* MARK:nosuch */
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:open_barrier */
    MPIPROF_INTERVAL_END();

    MPI_Pcontrol(1, "outer"); /* MARK:outer */
    MPI_Pcontrol(1, "inner"); /* MARK:inner */
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:inner_barrier */
    MPI_Pcontrol(-1, "outer"); /* MARK:outer_end */
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:after_outer_barrier */

    /* "threaded": begun in thread A, ended in thread B while A still runs. */
    pthread_t a;
    errors += pthread_create(&a, NULL, begin_threaded, NULL) != 0;
    pthread_mutex_lock(&lock);
    while (!errors && !begun)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:threaded_barrier */
    errors += in_thread(end_threaded);
    pthread_mutex_lock(&lock);
    ended = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    errors += !errors && pthread_join(a, NULL) != 0;
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:after_threaded_barrier */

    /* "threaded2": begun in a thread (joined), ended in the main thread. */
    errors += in_thread(begin_threaded2);
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:threaded2_barrier */
    MPIPROF_INTERVAL_END(); /* MARK:threaded2_end */

    /* "threaded3": begun in a thread, ended in another thread created after
     * the first was joined (the system may give it the same pthread_t). */
    errors += in_thread(begin_threaded3);
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:threaded3_barrier */
    errors += in_thread(end_threaded3);
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:after_threaded3_barrier */

    t = now();
    MPIPROF_INTERVAL_BEGIN("left_open"); /* MARK:left_open */
    busy(T_LEFT);
    seq_start = now();
    MPIPROF_SEQ_BEGIN();
    busy(T_SEQ);
    if (errors)
        fprintf(stderr, "intervals_misuse: rank %d: a thread failed\n", rank);
    left_open_start = t; /* until MPI_Finalize: main prints them */
    return errors;
}

static void caps(void)
{
    int k;
    MPIPROF_INTERVAL_BEGIN("P"); /* MARK:cap_P */
    for (k = 0; k < 2; k++) {
        MPIPROF_INTERVAL_BEGIN("c1"); /* MARK:cap_c1 */
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:cap_c1_barrier */
        MPIPROF_INTERVAL_END();
        MPIPROF_INTERVAL_BEGIN("c2"); /* MARK:cap_c2 */
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:cap_c2_barrier */
        MPIPROF_INTERVAL_END();
        MPIPROF_INTERVAL_BEGIN("c3"); /* MARK:cap_c3 */
        MPIPROF_INTERVAL_BEGIN("c4"); /* MARK:cap_c4 */
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:cap_c4_barrier */
        MPIPROF_INTERVAL_END();
        MPIPROF_INTERVAL_END();
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:cap_P_barrier */
    }
    MPIPROF_INTERVAL_END();
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:cap_after_barrier */
}

static void nesting(void)
{
    MPIPROF_INTERVAL_BEGIN("n1"); /* MARK:n1 */
    MPIPROF_INTERVAL_BEGIN("n2"); /* MARK:n2 */
    MPIPROF_INTERVAL_BEGIN("n3"); /* MARK:n3 */
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:n3_barrier */
    MPIPROF_INTERVAL_END();
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:n2_barrier */
    MPIPROF_INTERVAL_END();
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:n1_barrier */
    MPIPROF_INTERVAL_END();
    MPI_Barrier(MPI_COMM_WORLD); /* MARK:nest_after_barrier */
}

int main(int argc, char **argv)
{
    int rank, size, provided, errors = 0;
    const char *mode = argc > 1 ? argv[1] : "marks";

    if (strcmp(mode, "marks") == 0) {
        MPIPROF_INTERVAL_BEGIN("early"); /* MARK:early */
    }
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || provided < MPI_THREAD_FUNNELED) {
        if (rank == 0)
            fprintf(stderr, "intervals_misuse: run with 2 processes (not %d) and MPI_THREAD_FUNNELED\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    if (strcmp(mode, "marks") == 0)
        errors = marks(rank);
    else if (strcmp(mode, "caps") == 0)
        caps();
    else if (strcmp(mode, "nesting") == 0)
        nesting();
    else {
        fprintf(stderr, "intervals_misuse: unknown mode %s\n", mode);
        errors = 1;
    }

    double finalize = now();
    MPI_Finalize();
    if (strcmp(mode, "marks") == 0) {
        printf("rank=%d left_open=%.6f seq=%.6f\n", rank, finalize - left_open_start, finalize - seq_start);
        fflush(stdout);
        MPIPROF_INTERVAL_END(); /* MARK:late_end */
        MPIPROF_INTERVAL_BEGIN("late"); /* MARK:late */
        MPIPROF_INTERVAL_END();
    }
    if (rank == 0 && !errors)
        printf("intervals_misuse %s: ok\n", mode);
    return errors != 0;
}
