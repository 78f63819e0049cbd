/* mpibench: the MPI microbenchmark of bench/run (see bench/README.md).
 *
 * One source, built twice by bench/run: with plain mpicc (run unprofiled and
 * with LD_PRELOAD=libmpiprof.so) and with mpicc-prof (the linked variant).
 * The program knows nothing about the profiler: it does the same thing in
 * every variant and prints one "RESULT key=value ..." line per measurement.
 *
 *   mpibench [--serialized] [--intervals] TEST=ARG ...
 *
 * Tests run in the order given; finalize must be last.
 *   local=N         N x MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD) with
 *                   nothing pending (no communication); per process
 *   floor=N         the same loop without and with two __rdtsc() reads around
 *                   each call (t0 = __rdtsc(); MPI_Iprobe; t1 = __rdtsc();
 *                   acc += t1 - t0), N calls each, alternated slice by slice
 *   paired=N        in this one process, three loops of N calls each,
 *                   alternated in PAIRED_SLICES short slices (rotated order):
 *                   PMPI_Iprobe (never profiled), PMPI_Iprobe between two
 *                   __rdtsc() reads (the floor), MPI_Iprobe (profiled when a
 *                   profiler is linked or preloaded; the same function as
 *                   PMPI_Iprobe when not).  Each slice triple runs within
 *                   a fraction of a millisecond, so the machine is in the
 *                   same state for the three (see bench/README.md); the
 *                   result is the median over the triples of each one's
 *                   added cost, floor and their ratio
 *   paired_query=N  local queries in hot loops, against MPI_Iprobe, in this
 *                   one process: MPI_Type_size from one call site reached
 *                   through a recursion 1, 2 and 3 deep in turn (three
 *                   stacks at one site, as MPICH's datatype library checks
 *                   its buffers), MPI_Comm_rank in a plain loop, and
 *                   MPI_Iprobe, each with its PMPI_ version, N calls of
 *                   each alternated in PAIRED_SLICES slices; per slice the
 *                   added cost of each and its ratio to MPI_Iprobe's
 *   paired_threads=N  short-lived threads, in this one process (run with
 *                   --serialized): N threads one after the other, each
 *                   asking MPI_Comm_rank and MPI_Type_size once and ending,
 *                   against N threads asking the PMPI_ versions (which the
 *                   profiler never sees: no thread state of its own),
 *                   alternated in PAIRED_SLICES slices; per slice the time
 *                   per thread of each (creation to join) and their ratio
 *   paired_pingpong=N, paired_allreduce=N, paired_nonblocking=N
 *                   the two-process loops the same way: PMPI_ and MPI_
 *                   versions alternated in PAIRED_SLICES / 2 slice pairs
 *   pingpong=N      N round trips of 8 bytes between ranks 0 and 1
 *                   (MPI_Send + MPI_Recv: 2 calls per process per round trip)
 *   allreduce=N     N x MPI_Allreduce of 1 int (MPI_SUM)
 *   nonblocking=N   N x { MPI_Irecv, MPI_Isend, MPI_Waitall(2) } of 8 bytes
 *                   with the other rank (3 calls per process per iteration)
 *   rma=N           N x { RMA_PUTS x MPI_Put of 8 bytes to the other rank's
 *                   window, MPI_Win_fence } (RMA_PUTS + 1 calls per process
 *                   per iteration; paired_rma=N the same way as above)
 *   memory=A,B      RSS (/proc/self/statm) after A and after B MPI_Comm_rank
 *                   calls from BENCH_MEMORY_SITES distinct call sites
 *                   (bench_sites.c), spread over BENCH_INTERVALS intervals
 *   finalize=K      K distinct call sites (each called twice), then the time
 *                   from MPI_Finalize's entry to its return on this process
 *
 * Every run first prints MPI_Init's time (test=init: from the last
 * process's entry to the last one's return; one host's clock).
 *
 * Every timed loop is preceded by an untimed warm-up of a tenth of it (at
 * least 10 iterations) and runs in SLICES (10) equal slices, each after a
 * barrier and timed on its own (CLOCK_MONOTONIC, the maximum over the
 * processes).  A RESULT gives the whole loop (the sum of the slices) and the
 * fastest slice, both per MPI call of one process.
 *
 * --serialized MPI_Init_thread(MPI_THREAD_SERIALIZED) instead of MPI_Init
 *              (paired_threads=: other threads call MPI).
 * --intervals  enter and leave one of BENCH_INTERVALS named intervals with
 *              MPI_Pcontrol(1, name) / MPI_Pcontrol(-1, name) around the calls
 *              of memory= and finalize= (bench/run passes it unless
 *              --no-intervals). */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "bench_sites.h"

#define BENCH_INTERVALS 10
#define BENCH_MEMORY_SITES 100
#define TAG 7
#define RMA_PUTS 16 /* puts per fence epoch (rma=) */

static int rank, nprocs, peer;
static int use_intervals;
static volatile uint64_t sink_ticks;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *msg)
{
    fprintf(stderr, "mpibench: %s\n", msg);
    MPI_Abort(MPI_COMM_WORLD, 2);
    exit(2);
}

/* Loops over passes, slices and phases must make their calls from one call
 * instruction (one SRC point at every MPIPROF_DEPTH): a volatile bound keeps
 * the compiler from unrolling them into one copy per pass. */
static volatile int two = 2;

/* Every timed loop runs in SLICES equal slices, each timed on its own. */
#define SLICES 10
static volatile int nslices = SLICES;

static long warmup_of(long n) { return n / 10 > 10 ? n / 10 : 10; }
static long slice_of(long n) { return n / SLICES > 0 ? n / SLICES : 1; }

/* Per slice, the maximum over the processes (outside every timed loop). */
static void max_over_ranks(double *t, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, t, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

typedef struct {
    double whole;   /* the sum of the slices: the whole loop */
    double fastest; /* the fastest slice */
    long calls;     /* MPI calls per process in the whole loop */
} timing_t;

static timing_t summarize(const double *t, long calls)
{
    timing_t r = {0, t[0], calls};
    for (int k = 0; k < SLICES; k++) {
        r.whole += t[k];
        if (t[k] < r.fastest)
            r.fastest = t[k];
    }
    return r;
}

static void report(const char *test, timing_t r, const char *extra)
{
    if (rank == 0)
        printf("RESULT test=%s nprocs=%d calls=%ld slices=%d seconds=%.9f ns_per_call=%.3f "
               "fastest_slice_ns_per_call=%.3f%s%s\n",
               test, nprocs, r.calls, SLICES, r.whole, 1e9 * r.whole / (double)r.calls,
               1e9 * r.fastest * SLICES / (double)r.calls, extra ? " " : "", extra ? extra : "");
}

/* ---- local: MPI_Iprobe with nothing pending -------------------------------- */

/* Every loop exists twice: calling MPI_x (profiled when a profiler is
 * linked or preloaded) and PMPI_x (never intercepted), for the
 * same-process comparisons (paired=, paired_*=). */
#define IPROBE_LOOP(name, P)                                                          \
    static void __attribute__((noinline)) name(long n)                                \
    {                                                                                 \
        int flag;                                                                     \
        for (long i = 0; i < n; i++)                                                  \
            P##Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); \
    }
IPROBE_LOOP(iprobe_loop, MPI_)
IPROBE_LOOP(pmpi_iprobe_loop, PMPI_)

/* The same loop, with what every profiler has to do at least: read the clock
 * before and after the call and keep the difference. */
#define IPROBE_RDTSC_LOOP(name, P)                                                    \
    static void __attribute__((noinline)) name(long n)                                \
    {                                                                                 \
        int flag;                                                                     \
        uint64_t acc = 0;                                                             \
        for (long i = 0; i < n; i++) {                                                \
            uint64_t t0 = __rdtsc();                                                  \
            P##Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); \
            uint64_t t1 = __rdtsc();                                                  \
            acc += t1 - t0;                                                           \
        }                                                                             \
        sink_ticks += acc;                                                            \
    }
IPROBE_RDTSC_LOOP(iprobe_rdtsc_loop, MPI_)
IPROBE_RDTSC_LOOP(pmpi_iprobe_rdtsc_loop, PMPI_)

static void __attribute__((noinline)) rdtsc_pair_loop(long n)
{
    uint64_t acc = 0;
    for (long i = 0; i < n; i++) {
        uint64_t t0 = __rdtsc();
        __asm__ volatile("" ::: "memory");
        uint64_t t1 = __rdtsc();
        acc += t1 - t0;
    }
    sink_ticks += acc;
}

static double timed(void (*loop)(long), long n)
{
    double t0 = now();
    loop(n);
    return now() - t0;
}

/* An untimed warm-up of a tenth of the loop, then the loop in SLICES timed
 * slices, each after a barrier.  All of them call from the same call stack
 * (same SRC point at every MPIPROF_DEPTH), so the table cells the timed
 * slices use exist before they start. */
static timing_t warm_and_time(void (*loop)(long), long n, int calls_per_iteration)
{
    double t[SLICES];
    long per = slice_of(n);
    for (int pass = 0; pass < two; pass++)
        for (int k = 0; k < (pass ? nslices : 1); k++) {
            MPI_Barrier(MPI_COMM_WORLD);
            t[k] = timed(loop, pass ? per : warmup_of(n));
        }
    max_over_ranks(t, SLICES);
    return summarize(t, per * SLICES * calls_per_iteration);
}

static void test_local(long n) { report("local", warm_and_time(iprobe_loop, n, 1), NULL); }

/* The plain and the rdtsc loop, alternated slice by slice. */
static void test_floor(long n)
{
    double plain[SLICES], wrapped[SLICES], pair = 0;
    long per = slice_of(n);
    for (int pass = 0; pass < two; pass++)
        for (int k = 0; k < (pass ? nslices : 1); k++) {
            long m = pass ? per : warmup_of(n);
            plain[k] = timed(iprobe_loop, m);
            wrapped[k] = timed(iprobe_rdtsc_loop, m);
        }
    for (int pass = 0; pass < two; pass++)
        pair = timed(rdtsc_pair_loop, pass ? n : warmup_of(n));
    max_over_ranks(plain, SLICES);
    max_over_ranks(wrapped, SLICES);
    max_over_ranks(&pair, 1);
    char extra[128];
    snprintf(extra, sizeof extra, "rdtsc_pair_alone_ns=%.3f", 1e9 * pair / (double)n);
    report("floor_plain", summarize(plain, per * SLICES), NULL);
    report("floor_rdtsc", summarize(wrapped, per * SLICES), extra);
}

#define PAIRED_SLICES 200

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Sorts v; its q-quantile (nearest rank). */
static double quantile(double *v, int n, double q)
{
    qsort(v, (size_t)n, sizeof *v, compare_doubles);
    int k = (int)(q * (n - 1) + 0.5);
    return v[k];
}

static void test_paired(long n)
{
    void (*loops[3])(long) = {pmpi_iprobe_loop, pmpi_iprobe_rdtsc_loop, iprobe_loop};
    static double plain[PAIRED_SLICES], floor_ns[PAIRED_SLICES], added[PAIRED_SLICES], ratio[PAIRED_SLICES];
    long per = n / PAIRED_SLICES > 0 ? n / PAIRED_SLICES : 1;
    for (int k = 0; k < 3; k++) /* warm-up: the profiler's cell exists before timing */
        loops[k](warmup_of(n));
    for (int s = 0; s < PAIRED_SLICES; s++) {
        double ns[3];
        for (int j = 0; j < 3; j++) {
            int k = (s + j) % 3;
            ns[k] = 1e9 * timed(loops[k], per) / (double)per;
        }
        plain[s] = ns[0];
        floor_ns[s] = ns[1] - ns[0];
        added[s] = ns[2] - ns[0];
        ratio[s] = floor_ns[s] > 0 ? added[s] / floor_ns[s] : 0;
    }
    if (rank == 0)
        printf("RESULT test=paired nprocs=%d calls=%ld slices=%d plain_ns=%.3f floor_ns=%.3f added_ns=%.3f "
               "ratio=%.4f ratio_q1=%.4f ratio_q3=%.4f\n",
               nprocs, per * PAIRED_SLICES, PAIRED_SLICES, quantile(plain, PAIRED_SLICES, 0.5),
               quantile(floor_ns, PAIRED_SLICES, 0.5), quantile(added, PAIRED_SLICES, 0.5),
               quantile(ratio, PAIRED_SLICES, 0.5), quantile(ratio, PAIRED_SLICES, 0.25),
               quantile(ratio, PAIRED_SLICES, 0.75));
}

/* Local queries (paired_query=): MPI_Type_size at the end of a
 * recursion of 1 to 3 levels, its depth changing every call, so that
 * consecutive calls come from one call site with different stacks; and
 * MPI_Comm_rank from one. */
#define QUERY_LOOPS(name, P)                                             \
    static int __attribute__((noinline)) name##_leaf(void)               \
    {                                                                    \
        int size;                                                        \
        P##Type_size(MPI_INT, &size);                                    \
        return size;                                                     \
    }                                                                    \
    static int __attribute__((noinline)) name##_down(int levels)         \
    {                                                                    \
        int size = levels > 1 ? name##_down(levels - 1) : name##_leaf(); \
        __asm__ volatile("" ::: "memory"); /* not a tail call */         \
        return size;                                                     \
    }                                                                    \
    static void __attribute__((noinline)) name##_loop(long n)            \
    {                                                                    \
        int sum = 0;                                                     \
        for (long i = 0; i < n; i++)                                     \
            sum += name##_down(1 + (int)(i % 3));                        \
        sink_ticks += (uint64_t)sum;                                     \
    }                                                                    \
    static void __attribute__((noinline)) name##_rank_loop(long n)       \
    {                                                                    \
        int r, sum = 0;                                                  \
        for (long i = 0; i < n; i++) {                                   \
            P##Comm_rank(MPI_COMM_WORLD, &r);                            \
            sum += r;                                                    \
        }                                                                \
        sink_ticks += (uint64_t)sum;                                     \
    }
QUERY_LOOPS(query, MPI_)
QUERY_LOOPS(pmpi_query, PMPI_)

static void test_paired_query(long n)
{
    enum { NLOOPS = 6 };
    /* pairs: PMPI_ then MPI_ version of Iprobe, the queries, Comm_rank */
    void (*loops[NLOOPS])(long) = {pmpi_iprobe_loop, iprobe_loop,          pmpi_query_loop,
                                   query_loop,       pmpi_query_rank_loop, query_rank_loop};
    static double added[3][PAIRED_SLICES], ratio[2][PAIRED_SLICES];
    long per = n / PAIRED_SLICES > 0 ? n / PAIRED_SLICES : 1;
    for (int k = 0; k < NLOOPS; k++)
        loops[k](warmup_of(n));
    for (int s = 0; s < PAIRED_SLICES; s++) {
        double ns[NLOOPS];
        for (int j = 0; j < NLOOPS; j++) {
            int k = (s + j) % NLOOPS;
            ns[k] = 1e9 * timed(loops[k], per) / (double)per;
        }
        for (int w = 0; w < 3; w++)
            added[w][s] = ns[2 * w + 1] - ns[2 * w];
        for (int w = 0; w < 2; w++)
            ratio[w][s] = added[0][s] > 0 ? added[w + 1][s] / added[0][s] : 0;
    }
    if (rank == 0)
        printf("RESULT test=paired_query nprocs=%d calls=%ld slices=%d iprobe_added_ns=%.3f type_size_added_ns=%.3f "
               "comm_rank_added_ns=%.3f type_size_ratio=%.4f type_size_ratio_q1=%.4f type_size_ratio_q3=%.4f "
               "comm_rank_ratio=%.4f\n",
               nprocs, per * PAIRED_SLICES, PAIRED_SLICES, quantile(added[0], PAIRED_SLICES, 0.5),
               quantile(added[1], PAIRED_SLICES, 0.5), quantile(added[2], PAIRED_SLICES, 0.5),
               quantile(ratio[0], PAIRED_SLICES, 0.5), quantile(ratio[0], PAIRED_SLICES, 0.25),
               quantile(ratio[0], PAIRED_SLICES, 0.75), quantile(ratio[1], PAIRED_SLICES, 0.5));
}

/* Short-lived threads (paired_threads=): each asks two local questions
 * and ends; the main thread waits for it before it starts the next (so
 * MPI_THREAD_SERIALIZED holds). */
#define THREAD_BODY(name, P)              \
    static void *name(void *arg)          \
    {                                     \
        int r, size;                      \
        P##Comm_rank(MPI_COMM_WORLD, &r); \
        P##Type_size(MPI_INT, &size);     \
        *(int *)arg += r + size;          \
        return NULL;                      \
    }
THREAD_BODY(query_thread, MPI_)
THREAD_BODY(pmpi_query_thread, PMPI_)

static void *(*thread_body)(void *);
static void threads_loop(long n)
{
    int sum = 0;
    for (long i = 0; i < n; i++) {
        pthread_t t;
        if (pthread_create(&t, NULL, thread_body, &sum) != 0)
            die("pthread_create failed");
        pthread_join(t, NULL);
    }
    sink_ticks += (uint64_t)sum;
}

static double timed_threads(void *(*body)(void *), long n)
{
    thread_body = body;
    return timed(threads_loop, n);
}

static void test_paired_threads(long n)
{
    int provided;
    MPI_Query_thread(&provided);
    if (provided < MPI_THREAD_SERIALIZED)
        die("paired_threads= needs --serialized (MPI_THREAD_SERIALIZED)");
    void *(*bodies[2])(void *) = {pmpi_query_thread, query_thread};
    static double plain_us[PAIRED_SLICES], added_us[PAIRED_SLICES], ratio[PAIRED_SLICES];
    long per = n / PAIRED_SLICES > 0 ? n / PAIRED_SLICES : 1;
    for (int k = 0; k < 2; k++)
        timed_threads(bodies[k], warmup_of(n));
    for (int s = 0; s < PAIRED_SLICES; s++) {
        double us[2];
        for (int j = 0; j < 2; j++) {
            int k = (s + j) % 2;
            us[k] = 1e6 * timed_threads(bodies[k], per) / (double)per;
        }
        plain_us[s] = us[0];
        added_us[s] = us[1] - us[0];
        ratio[s] = us[0] > 0 ? us[1] / us[0] : 0;
    }
    if (rank == 0)
        printf("RESULT test=paired_threads nprocs=%d threads=%ld slices=%d plain_us=%.3f added_us=%.3f ratio=%.4f "
               "ratio_q1=%.4f ratio_q3=%.4f\n",
               nprocs, per * PAIRED_SLICES, PAIRED_SLICES, quantile(plain_us, PAIRED_SLICES, 0.5),
               quantile(added_us, PAIRED_SLICES, 0.5), quantile(ratio, PAIRED_SLICES, 0.5),
               quantile(ratio, PAIRED_SLICES, 0.25), quantile(ratio, PAIRED_SLICES, 0.75));
}

/* ---- two-process workloads -------------------------------------------------- */

#define PINGPONG_LOOP(name, P)                                                         \
    static void __attribute__((noinline)) name(long n)                                 \
    {                                                                                  \
        double buf = 0;                                                                \
        for (long i = 0; i < n; i++) {                                                 \
            if (rank == 0) {                                                           \
                P##Send(&buf, 8, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);                    \
                P##Recv(&buf, 8, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); \
            } else if (rank == 1) {                                                    \
                P##Recv(&buf, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE); \
                P##Send(&buf, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);                    \
            }                                                                          \
        }                                                                              \
    }
PINGPONG_LOOP(pingpong_loop, MPI_)
PINGPONG_LOOP(pmpi_pingpong_loop, PMPI_)

#define ALLREDUCE_LOOP(name, P)                                           \
    static void __attribute__((noinline)) name(long n)                    \
    {                                                                     \
        int in = rank, out = 0;                                           \
        for (long i = 0; i < n; i++)                                      \
            P##Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); \
    }
ALLREDUCE_LOOP(allreduce_loop, MPI_)
ALLREDUCE_LOOP(pmpi_allreduce_loop, PMPI_)

/* GCC (12) mistakes MPI_STATUSES_IGNORE for an array of size 0. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#define NONBLOCKING_LOOP(name, P)                                            \
    static void __attribute__((noinline)) name(long n)                       \
    {                                                                        \
        double out = rank, in = 0;                                           \
        MPI_Request req[2];                                                  \
        for (long i = 0; i < n; i++) {                                       \
            P##Irecv(&in, 8, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[0]);  \
            P##Isend(&out, 8, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[1]); \
            P##Waitall(2, req, MPI_STATUSES_IGNORE);                         \
        }                                                                    \
    }
NONBLOCKING_LOOP(nonblocking_loop, MPI_)
NONBLOCKING_LOOP(pmpi_nonblocking_loop, PMPI_)
#pragma GCC diagnostic pop

/* One-sided: a window over both processes, made at the first loop (both
 * enter it together) and in a fence epoch from then on. */
static MPI_Win rma_win = MPI_WIN_NULL;
static double rma_base[RMA_PUTS];

static void rma_window(void)
{
    if (rma_win != MPI_WIN_NULL)
        return;
    /* (seen by the profiler: a window it follows, as a program's) */
    MPI_Win_create(rma_base, sizeof rma_base, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &rma_win);
    MPI_Win_fence(0, rma_win);
}

#define RMA_LOOP(name, P)                                                     \
    static void __attribute__((noinline)) name(long n)                        \
    {                                                                         \
        double out = rank;                                                    \
        rma_window();                                                         \
        for (long i = 0; i < n; i++) {                                        \
            for (int k = 0; k < RMA_PUTS; k++)                                \
                P##Put(&out, 1, MPI_DOUBLE, peer, k, 1, MPI_DOUBLE, rma_win); \
            P##Win_fence(0, rma_win);                                         \
        }                                                                     \
    }
RMA_LOOP(rma_loop, MPI_)
RMA_LOOP(pmpi_rma_loop, PMPI_)

static void test_pair(const char *name, void (*loop)(long), long n, int calls_per_iteration)
{
    if (nprocs != 2)
        die("pingpong, allreduce, nonblocking and rma need exactly 2 processes");
    report(name, warm_and_time(loop, n, calls_per_iteration), NULL);
}

/* Both processes alternate, slice by slice, the PMPI_ and the MPI_ version
 * of a two-process loop (a PMPI_Barrier before each slice, the slowest
 * process's time): the added cost per call measured as paired= does for
 * MPI_Iprobe.  PMPI slices are invisible to the profiler on both sides, so
 * what it pairs (messages, collectives) stays consistent. */
static void test_paired_pair(const char *name, void (*pmpi_loop)(long), void (*mpi_loop)(long), long n,
                             int calls_per_iteration)
{
    if (nprocs != 2)
        die("paired_pingpong, paired_allreduce, paired_nonblocking and paired_rma need exactly 2 processes");
    enum { S = PAIRED_SLICES / 2 };
    static double t[2][S], plain[S], added[S], ratio[S];
    long per = n / S > 0 ? n / S : 1;
    pmpi_loop(warmup_of(n));
    mpi_loop(warmup_of(n));
    for (int s = 0; s < S; s++)
        for (int j = 0; j < 2; j++) {
            int k = (s + j) % 2;
            PMPI_Barrier(MPI_COMM_WORLD);
            t[k][s] = timed(k ? mpi_loop : pmpi_loop, per);
        }
    PMPI_Allreduce(MPI_IN_PLACE, t, 2 * S, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    double calls = (double)per * calls_per_iteration;
    for (int s = 0; s < S; s++) {
        plain[s] = 1e9 * t[0][s] / calls;
        added[s] = 1e9 * (t[1][s] - t[0][s]) / calls;
        ratio[s] = t[0][s] > 0 ? t[1][s] / t[0][s] : 0;
    }
    if (rank == 0)
        printf("RESULT test=paired_%s nprocs=%d calls=%.0f slices=%d plain_ns=%.3f added_ns=%.3f added_q1=%.3f "
               "added_q3=%.3f ratio=%.4f\n",
               name, nprocs, calls * S, S, quantile(plain, S, 0.5), quantile(added, S, 0.5), quantile(added, S, 0.25),
               quantile(added, S, 0.75), quantile(ratio, S, 0.5));
}

/* ---- memory and finalize: many distinct call sites ---------------------------- */

static const char *interval_name(int k)
{
    static char names[BENCH_INTERVALS][16];
    if (!names[k][0])
        snprintf(names[k], sizeof names[k], "interval%d", k);
    return names[k];
}

/* Each of `sites` call sites `per_site` times in each interval:
 * BENCH_INTERVALS * sites * per_site calls in all. */
static void call_sites(int sites, long per_site)
{
    for (int k = 0; k < BENCH_INTERVALS; k++) {
        if (use_intervals)
            MPI_Pcontrol(1, interval_name(k));
        for (int s = 0; s < sites; s++)
            bench_site(s, per_site);
        if (use_intervals)
            MPI_Pcontrol(-1, interval_name(k));
    }
}

static long rss_kib(void)
{
    long size = 0, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &size, &resident) != 2)
        resident = -1;
    if (f)
        fclose(f);
    return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void test_memory(long first, long total)
{
    long unit = (long)BENCH_INTERVALS * BENCH_MEMORY_SITES;
    if (first < unit || total < first)
        die("memory=A,B needs 1000 <= A <= B");
    /* Both phases call from the same stack: the second adds calls, no sites. */
    long per_site[2] = {first / unit, (total - first) / unit}, rss[3];
    rss[0] = rss_kib();
    for (int phase = 0; phase < two; phase++) {
        call_sites(BENCH_MEMORY_SITES, per_site[phase]);
        rss[phase + 1] = rss_kib();
    }
    long done[2] = {per_site[0] * unit, (per_site[0] + per_site[1]) * unit};
    if (rank == 0)
        printf("RESULT test=memory nprocs=%d sites=%d intervals=%d intervals_used=%d calls1=%ld calls2=%ld "
               "rss0_kib=%ld rss1_kib=%ld rss2_kib=%ld\n",
               nprocs, BENCH_MEMORY_SITES, BENCH_INTERVALS, use_intervals, done[0], done[1], rss[0], rss[1], rss[2]);
}

static void test_finalize(int sites)
{
    if (sites < 1 || sites > BENCH_NSITES)
        die("finalize=K needs 1 <= K <= BENCH_NSITES");
    call_sites(sites, 1);
    fflush(stdout);
    MPI_Barrier(MPI_COMM_WORLD);
    int r = rank, n = nprocs;
    double t0 = now();
    MPI_Finalize();
    double t1 = now();
    /* After MPI_Finalize no communication: every process prints its own time,
     * bench/run takes the maximum. */
    printf("RESULT test=finalize nprocs=%d rank=%d sites=%d intervals_used=%d seconds=%.9f\n", n, r, sites,
           use_intervals, t1 - t0);
    fflush(stdout);
    exit(0);
}

/* MPI_Init's time: from the last process's entry to the last process's
 * return (CLOCK_MONOTONIC is one clock for the processes of one host).
 * The launcher starts the processes at different instants and MPI_Init
 * waits for the last one: from each one's own entry, that wait would count.
 * Also the least over the processes of each one's own time. */
static void report_init(double entered, double returned)
{
    double last[2] = {entered, returned}, own = returned - entered;
    PMPI_Allreduce(MPI_IN_PLACE, last, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    PMPI_Allreduce(MPI_IN_PLACE, &own, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0)
        printf("RESULT test=init nprocs=%d seconds=%.9f least_own_seconds=%.9f\n", nprocs, last[1] - last[0], own);
}

int main(int argc, char **argv)
{
    double init_entered = now();
    int serialized = argc > 1 && !strcmp(argv[1], "--serialized"), provided;
    if (serialized)
        MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
    else
        MPI_Init(&argc, &argv);
    double init_returned = now();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    peer = rank ^ 1;
    report_init(init_entered, init_returned);
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        char *eq = strchr(arg, '=');
        long a = eq ? atol(eq + 1) : 0;
        if (strcmp(arg, "--intervals") && strcmp(arg, "--serialized") && a <= 0)
            die("a test needs a positive count");
        if (!strcmp(arg, "--serialized"))
            continue; /* read before MPI_Init */
        if (!strcmp(arg, "--intervals"))
            use_intervals = 1;
        else if (!strncmp(arg, "local=", 6))
            test_local(a);
        else if (!strncmp(arg, "floor=", 6))
            test_floor(a);
        else if (!strncmp(arg, "paired=", 7))
            test_paired(a);
        else if (!strncmp(arg, "paired_query=", 13))
            test_paired_query(a);
        else if (!strncmp(arg, "paired_threads=", 15))
            test_paired_threads(a);
        else if (!strncmp(arg, "paired_pingpong=", 16))
            test_paired_pair("pingpong", pmpi_pingpong_loop, pingpong_loop, a, 2);
        else if (!strncmp(arg, "paired_allreduce=", 17))
            test_paired_pair("allreduce", pmpi_allreduce_loop, allreduce_loop, a, 1);
        else if (!strncmp(arg, "paired_nonblocking=", 19))
            test_paired_pair("nonblocking", pmpi_nonblocking_loop, nonblocking_loop, a, 3);
        else if (!strncmp(arg, "paired_rma=", 11))
            test_paired_pair("rma", pmpi_rma_loop, rma_loop, a, RMA_PUTS + 1);
        else if (!strncmp(arg, "rma=", 4))
            test_pair("rma", rma_loop, a, RMA_PUTS + 1);
        else if (!strncmp(arg, "pingpong=", 9))
            test_pair("pingpong", pingpong_loop, a, 2);
        else if (!strncmp(arg, "allreduce=", 10))
            test_pair("allreduce", allreduce_loop, a, 1);
        else if (!strncmp(arg, "nonblocking=", 12))
            test_pair("nonblocking", nonblocking_loop, a, 3);
        else if (!strncmp(arg, "memory=", 7)) {
            char *comma = strchr(arg, ',');
            test_memory(a, comma ? atol(comma + 1) : a);
        } else if (!strncmp(arg, "finalize=", 9))
            test_finalize((int)a);
        else
            die("unknown argument (see the comment at the top of bench/mpibench.c)");
    }
    if (rma_win != MPI_WIN_NULL)
        MPI_Win_free(&rma_win);
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
