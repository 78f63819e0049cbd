/* mpibench: the MPI microbenchmark of bench/run (see bench/README.md).
 *
 * One source, built twice by bench/run: with plain mpicc (run unprofiled and
 * with LD_PRELOAD=libmpiprof.so) and with mpicc-prof (the linked variant).
 * The program knows nothing about the profiler: it does the same thing in
 * every variant and prints one "RESULT key=value ..." line per measurement.
 *
 *   mpibench [--intervals] TEST=ARG ...
 *
 * Tests run in the order given; finalize must be last.
 *   local=N         N x MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD) with
 *                   nothing pending (no communication); per process
 *   floor=N         the same loop without and with two __rdtsc() reads around
 *                   each call (t0 = __rdtsc(); MPI_Iprobe; t1 = __rdtsc();
 *                   acc += t1 - t0), N calls each, alternated in halves
 *   pingpong=N      N round trips of 8 bytes between ranks 0 and 1
 *                   (MPI_Send + MPI_Recv: 2 calls per process per round trip)
 *   allreduce=N     N x MPI_Allreduce of 1 int (MPI_SUM)
 *   nonblocking=N   N x { MPI_Irecv, MPI_Isend, MPI_Waitall(2) } of 8 bytes
 *                   with the other rank (3 calls per process per iteration)
 *   memory=A,B      RSS (/proc/self/statm) after A and after B MPI_Comm_rank
 *                   calls from BENCH_MEMORY_SITES distinct call sites
 *                   (bench_sites.c), spread over BENCH_INTERVALS intervals
 *   finalize=K      K distinct call sites (each called twice), then the time
 *                   from MPI_Finalize's entry to its return on this process
 *
 * Every timed loop is preceded by an untimed warm-up of a tenth of it (at
 * least 10 iterations) and a barrier; its time is the maximum over the
 * processes of the wall time (CLOCK_MONOTONIC) of the loop.
 *
 * --intervals  enter and leave one of BENCH_INTERVALS named intervals with
 *              MPI_Pcontrol(1, name) / MPI_Pcontrol(-1, name) around the calls
 *              of memory= and finalize=.  Off by default: mpiprof does not
 *              implement intervals yet (MPI_Pcontrol(level != 0) only
 *              resumes collection), so the output then says so. */
#include <mpi.h>
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

/* Loops over passes and phases must make their calls from one call
 * instruction (one SRC point at every MPIPROF_DEPTH): a volatile bound keeps
 * the compiler from unrolling them into one copy per pass. */
static volatile int two = 2, three = 3;

static long warmup_of(long n) { return n / 10 > 10 ? n / 10 : 10; }

/* Maximum over the processes of a local duration (outside every timed loop). */
static double max_over_ranks(double local)
{
    double global = local;
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return global;
}

static void report(const char *test, long calls_per_process, double seconds, const char *extra)
{
    if (rank == 0)
        printf("RESULT test=%s nprocs=%d calls=%ld seconds=%.9f ns_per_call=%.3f%s%s\n", test, nprocs,
               calls_per_process, seconds, 1e9 * seconds / (double)calls_per_process, extra ? " " : "",
               extra ? extra : "");
}

/* ---- local: MPI_Iprobe with nothing pending -------------------------------- */

static void __attribute__((noinline)) iprobe_loop(long n)
{
    int flag;
    for (long i = 0; i < n; i++)
        MPI_Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
}

/* The same loop, with what every profiler has to do at least: read the clock
 * before and after the call and keep the difference. */
static void __attribute__((noinline)) iprobe_rdtsc_loop(long n)
{
    int flag;
    uint64_t acc = 0;
    for (long i = 0; i < n; i++) {
        uint64_t t0 = __rdtsc();
        MPI_Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        uint64_t t1 = __rdtsc();
        acc += t1 - t0;
    }
    sink_ticks += acc;
}

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

/* The untimed warm-up and the timed loop make their MPI calls from the same
 * call stack (same SRC point at every MPIPROF_DEPTH), so the table cells the
 * timed loop uses exist before it starts. */
static double warm_and_time(void (*loop)(long), long n)
{
    double dt = 0;
    for (int pass = 0; pass < two; pass++) {
        MPI_Barrier(MPI_COMM_WORLD);
        dt = timed(loop, pass ? n : warmup_of(n));
    }
    return max_over_ranks(dt);
}

static void test_local(long n)
{
    report("local", n, warm_and_time(iprobe_loop, n), NULL);
}

static void test_floor(long n)
{
    long half = n / 2 > 0 ? n / 2 : 1;
    double plain = 0, wrapped = 0, pair = 0;
    for (int pass = 0; pass < three; pass++) { /* pass 0: warm-up */
        long m = pass ? half : warmup_of(half);
        double p = timed(iprobe_loop, m), w = timed(iprobe_rdtsc_loop, m);
        if (pass) {
            plain += p;
            wrapped += w;
        }
    }
    for (int pass = 0; pass < two; pass++)
        pair = timed(rdtsc_pair_loop, pass ? n : warmup_of(n));
    plain = max_over_ranks(plain);
    wrapped = max_over_ranks(wrapped);
    pair = max_over_ranks(pair);
    char extra[128];
    snprintf(extra, sizeof extra, "rdtsc_pair_alone_ns=%.3f", 1e9 * pair / (double)n);
    report("floor_plain", 2 * half, plain, NULL);
    report("floor_rdtsc", 2 * half, wrapped, extra);
}

/* ---- two-process workloads -------------------------------------------------- */

static void __attribute__((noinline)) pingpong_loop(long n)
{
    double buf = 0;
    for (long i = 0; i < n; i++) {
        if (rank == 0) {
            MPI_Send(&buf, 8, MPI_BYTE, 1, TAG, MPI_COMM_WORLD);
            MPI_Recv(&buf, 8, MPI_BYTE, 1, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(&buf, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&buf, 8, MPI_BYTE, 0, TAG, MPI_COMM_WORLD);
        }
    }
}

static void __attribute__((noinline)) allreduce_loop(long n)
{
    int in = rank, out = 0;
    for (long i = 0; i < n; i++)
        MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

/* GCC (12) mistakes MPI_STATUSES_IGNORE for an array of size 0. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
static void __attribute__((noinline)) nonblocking_loop(long n)
{
    double out = rank, in = 0;
    MPI_Request req[2];
    for (long i = 0; i < n; i++) {
        MPI_Irecv(&in, 8, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[0]);
        MPI_Isend(&out, 8, MPI_BYTE, peer, TAG, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    }
}
#pragma GCC diagnostic pop

static void test_pair(const char *name, void (*loop)(long), long n, int calls_per_iteration)
{
    if (nprocs != 2)
        die("pingpong, allreduce and nonblocking need exactly 2 processes");
    report(name, n * calls_per_iteration, warm_and_time(loop, n), NULL);
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
               nprocs, BENCH_MEMORY_SITES, BENCH_INTERVALS, use_intervals, done[0], done[1], rss[0], rss[1],
               rss[2]);
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

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    peer = rank ^ 1;
    for (int i = 1; i < argc; i++) {
        char *arg = argv[i];
        char *eq = strchr(arg, '=');
        long a = eq ? atol(eq + 1) : 0;
        if (strcmp(arg, "--intervals") && a <= 0)
            die("a test needs a positive count");
        if (!strcmp(arg, "--intervals"))
            use_intervals = 1;
        else if (!strncmp(arg, "local=", 6))
            test_local(a);
        else if (!strncmp(arg, "floor=", 6))
            test_floor(a);
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
    fflush(stdout);
    MPI_Finalize();
    return 0;
}
