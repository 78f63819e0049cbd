/* bench/scaling: what mpiprof's MPI_Init and MPI_Finalize do between
 * processes, at P processes, with P threads standing for them (the
 * in-memory exchange of exchange.h, the one mpiprof-merge reduces with),
 * or for real under mpiexec (see bench/README.md, "Scaling").
 *
 *   scaling [--sites S] [--intervals I] [--per-node K] [--ranks SPEC] P ...
 *   mpiexec -n N scaling --mpi [--sites S] [--intervals I] [--per-node K] [--ranks SPEC]
 *
 * Per P, per step of MPI_Init and MPI_Finalize that exchanges messages, one
 * line "STEP P=... step=... rounds=... messages=... bytes=... seconds=...":
 *   rounds    the longest chain of messages the step's processes waited for
 *             one after the other (each message carries its sender's count
 *             plus one; a receiver keeps the largest): latency-bound time
 *             is rounds x latency
 *   messages, bytes   sent by the busiest process (each the largest over
 *             the processes)
 *   seconds   the step's time, the slowest process (threads share 2 cores
 *             here, and MPI runs are oversubscribed: not a network's time)
 * and a "TOTAL" line per P with the protocol's size (text, written by the
 * reduction's result as MPI_Finalize writes it).
 *
 * The steps are the profiler's own, in order, with their message sizes
 * (lifecycle.c, calibrate.c, clocksync.c, waitstates/exchange.c): collectives by
 * point-to-point messages along binomial trees (ptp_collectives.c, 64 KiB
 * chunks), the clock alignment's tree of ping-pongs, the wait-state
 * exchange's termination rounds over its world tree (treereduce.h), the
 * calibration's ping-pongs between two pairs of processes, and the
 * reduction itself: the library's mpp_reduce_exchange over every process's
 * profile of S SRC points in each of I intervals.  Ping-pongs take the
 * counts of a quiet node (MPP_CLOCKSYNC_ROUNDS; calibrate.c's WARMUP +
 * SMALL_REPS and WARMUP + LARGE_REPS): a noisy one adds round trips,
 * never processes.  Communicator ids need no message at all (commids.h).
 * MPI's own collectives the profiler calls (one MPI_Comm_dup, and with
 * several nodes one MPI_Comm_split, at MPI_Init) are MPI's cost, not
 * listed. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "accumulate/waitstates/commids.h"
#include "accumulate/waitstates/treereduce.h"
#include "analyze/model.h"
#include "context/config.h"
#include "reduce/clocksync.h"
#include "reduce/exchange.h"
#include "util/srckey.h"
#include "write/report.h"

/* calibrate.c's counts on a quiet node (its WARMUP, SMALL_REPS, LARGE_REPS)
 * and the size of its settings (int + MPP_CONFIG_STRING_MAX) */
enum { CAL_WARMUP = 2, CAL_SMALL_REPS = 32, CAL_LARGE_REPS = 6, CAL_SETTINGS = 4 + MPP_CONFIG_STRING_MAX };
enum { CHUNK = 64 * 1024 }; /* ptp_collectives.c */
enum { TAG_COLL = 1, TAG_PING, TAG_RESULT, TAG_ROUND };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---- counted messages over an exchange ------------------------------------ */

typedef struct {
    mpp_exchange_t x;    /* what the steps and the reduction use: counted */
    mpp_exchange_t *raw; /* the in-memory exchange, or MPI */
    double depth;        /* rounds: the longest chain of messages ending here */
    double messages, bytes;
} counted_t;

static counted_t *counted_of(mpp_exchange_t *x) { return x->ctx; }

static void counted_send(mpp_exchange_t *x, const void *buf, size_t len, int dest, int tag)
{
    counted_t *c = counted_of(x);
    unsigned char *m = malloc(sizeof(double) + len);
    if (!m)
        abort(); /* a benchmark: no partial figures */
    double stamp = c->depth + 1;
    memcpy(m, &stamp, sizeof stamp);
    memcpy(m + sizeof stamp, buf, len);
    c->raw->send(c->raw, m, sizeof stamp + len, dest, tag);
    free(m);
    c->messages++;
    c->bytes += (double)len;
}

static void *counted_recv(mpp_exchange_t *x, int source, int tag, size_t *len)
{
    counted_t *c = counted_of(x);
    size_t n = 0;
    unsigned char *m = c->raw->recv(c->raw, source, tag, &n);
    if (!m || n < sizeof(double))
        abort();
    double stamp;
    memcpy(&stamp, m, sizeof stamp);
    if (stamp > c->depth)
        c->depth = stamp;
    *len = n - sizeof stamp;
    memmove(m, m + sizeof stamp, *len);
    return m;
}

/* A group of positions (a communicator): members[] ascending, me its index. */
typedef struct {
    const int *members;
    int size, me;
} group_t;

/* ptp_collectives.c's binomial broadcast from the group's first member. */
static void tree_bcast(mpp_exchange_t *x, group_t g, void *buf, size_t len)
{
    int mask = 1;
    for (; mask < g.size; mask <<= 1)
        if (g.me & mask) {
            size_t n = 0;
            void *m = counted_recv(x, g.members[g.me - mask], TAG_COLL, &n);
            memcpy(buf, m, n < len ? n : len);
            free(m);
            break;
        }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (g.me + mask < g.size)
            counted_send(x, buf, len, g.members[g.me + mask], TAG_COLL);
}

typedef void (*combine_fn)(void *acc, const void *other, size_t n); /* acc holds lower ranks' */

/* ptp_collectives.c's binomial reduction to the first member, in chunks
 * of 64 KiB of `elem`-byte elements; then to all when `all`. */
static void tree_reduce(mpp_exchange_t *x, group_t g, const void *in, void *out, size_t n, size_t elem,
                        combine_fn combine, int all)
{
    size_t per = CHUNK / elem > 0 ? CHUNK / elem : 1;
    unsigned char *acc = malloc(per * elem);
    if (!acc)
        abort();
    for (size_t done = 0; done < n || (n == 0 && done == 0); done += per) {
        size_t k = n - done < per ? n - done : per, bytes = k * elem;
        memcpy(acc, (const unsigned char *)in + done * elem, bytes);
        int sent = 0;
        for (int mask = 1; mask < g.size && !sent; mask <<= 1) {
            if (g.me & mask) {
                counted_send(x, acc, bytes, g.members[g.me - mask], TAG_COLL);
                sent = 1;
            } else if (g.me + mask < g.size) {
                size_t got = 0;
                void *m = counted_recv(x, g.members[g.me + mask], TAG_COLL, &got);
                if (combine && got == bytes)
                    combine(acc, m, k);
                free(m);
            }
        }
        if (!sent && out)
            memcpy((unsigned char *)out + done * elem, acc, bytes);
        if (n == 0)
            break;
    }
    free(acc);
    if (all)
        tree_bcast(x, g, out, n * elem);
}

static void sum_doubles(void *acc, const void *other, size_t n)
{
    double *a = acc;
    const double *b = other;
    for (size_t i = 0; i < n; i++)
        a[i] += b[i];
}

static void max_doubles(void *acc, const void *other, size_t n)
{
    double *a = acc;
    const double *b = other;
    for (size_t i = 0; i < n; i++)
        a[i] = fmax(a[i], b[i]);
}

static void minloc(void *acc, const void *other, size_t n)
{
    mpp_double_int_t *a = acc;
    const mpp_double_int_t *b = other;
    for (size_t i = 0; i < n; i++)
        if (b[i].value < a[i].value || (b[i].value == a[i].value && b[i].rank < a[i].rank))
            a[i] = b[i];
}

static void maxloc(void *acc, const void *other, size_t n)
{
    mpp_double_int_t *a = acc;
    const mpp_double_int_t *b = other;
    for (size_t i = 0; i < n; i++)
        if (b[i].value > a[i].value || (b[i].value == a[i].value && b[i].rank < a[i].rank))
            a[i] = b[i];
}

static const int *identity_members;

static group_t world_of(const mpp_exchange_t *x) { return (group_t){identity_members, x->size, x->position}; }

/* The reduction's collectives (exchange.h), as exchange_mpi.c does them. */
static void counted_bcast(mpp_exchange_t *x, void *buf, size_t len) { tree_bcast(x, world_of(x), buf, len); }

static void counted_reduce(mpp_exchange_t *x, const void *in, void *out, size_t n, mpp_xop_t op, int all)
{
    static const combine_fn fn[] = {sum_doubles, max_doubles, minloc, maxloc};
    size_t elem = op == MPP_XOP_SUM || op == MPP_XOP_MAX ? sizeof(double) : sizeof(mpp_double_int_t);
    void *result = out ? out : malloc(n * elem + 1);
    tree_reduce(x, world_of(x), in, result, n, elem, fn[op], all);
    if (!out)
        free(result);
}

/* ---- the steps ---------------------------------------------------------------- */

typedef struct {
    int sites, intervals, per_node;
    const char *ranks_spec;
    int mpi;
} options_t;

static void allreduce_bytes(mpp_exchange_t *x, size_t bytes)
{
    unsigned char in[64] = {0}, out[64];
    tree_reduce(x, world_of(x), in, out, bytes, 1, NULL, 1);
}

/* The processes of one node: K consecutive positions. */
static group_t node_of(const mpp_exchange_t *x, int per_node)
{
    int first = x->position / per_node * per_node, size = x->size - first < per_node ? x->size - first : per_node;
    return (group_t){identity_members + first, size, x->position - first};
}

static void pingpongs(mpp_exchange_t *x, int a, int b, size_t bytes, int round_trips)
{
    static unsigned char buf[128 * 1024];
    for (int i = 0; i < round_trips; i++) {
        size_t n = 0;
        if (x->position == a) {
            counted_send(x, buf, bytes, b, TAG_PING);
            free(counted_recv(x, b, TAG_PING, &n));
        } else if (x->position == b) {
            free(counted_recv(x, a, TAG_PING, &n));
            counted_send(x, buf, bytes, a, TAG_PING);
        }
    }
}

/* calibrate.c's ping-pongs: 8 bytes and 128 KiB, within the first node
 * (its first two processes) and between the first two nodes' leaders. */
static void calibration_pingpongs(mpp_exchange_t *x, int per_node)
{
    if (x->size > 1 && per_node > 1) {
        pingpongs(x, 0, 1, MPP_CALIBRATION_SMALL, CAL_WARMUP + CAL_SMALL_REPS);
        pingpongs(x, 0, 1, MPP_CALIBRATION_LARGE, CAL_WARMUP + CAL_LARGE_REPS);
    }
    if (x->size > per_node) {
        pingpongs(x, 0, per_node, MPP_CALIBRATION_SMALL, CAL_WARMUP + CAL_SMALL_REPS);
        pingpongs(x, 0, per_node, MPP_CALIBRATION_LARGE, CAL_WARMUP + CAL_LARGE_REPS);
    }
}

/* clocksync.c: in round j the processes 2^j..2^(j+1)-1 measure against the
 * one 2^j below (pings of 3 int64, pongs of 4), then get its alignment. */
static void clock_alignment(mpp_exchange_t *x)
{
    int64_t ping[3] = {0}, pong[4] = {0}, result[3] = {0};
    int rank = x->position;
    for (int mask = 1; mask < x->size; mask <<= 1) {
        size_t n = 0;
        if (rank < mask && rank + mask < x->size) {
            for (int i = 0; i < MPP_CLOCKSYNC_ROUNDS; i++) {
                free(counted_recv(x, rank + mask, TAG_PING, &n));
                counted_send(x, pong, sizeof pong, rank + mask, TAG_PING);
            }
            counted_send(x, result, sizeof result, rank + mask, TAG_RESULT);
        } else if (rank >= mask && rank < 2 * mask) {
            for (int i = 0; i < MPP_CLOCKSYNC_ROUNDS; i++) {
                counted_send(x, ping, sizeof ping, rank - mask, TAG_PING);
                free(counted_recv(x, rank - mask, TAG_PING, &n));
            }
            free(counted_recv(x, rank - mask, TAG_RESULT, &n));
        }
    }
}

/* waitstates/exchange.c's end: rounds of a sum of (sent, received) over the tree of
 * all processes (treereduce.h), each part and result a header of 24 bytes
 * and 2 values, until two rounds agree: 2 rounds when nothing is in flight. */
static void termination_rounds(mpp_exchange_t *x)
{
    mpp_tree_t tree;
    mpp_tree_place(&tree, identity_members, x->size, x->position, MPP_COMM_ID_CONTROL);
    unsigned char message[24 + 2 * sizeof(int64_t)] = {0};
    for (int round = 0; round < 2; round++) {
        size_t n = 0;
        for (int i = 0; i < tree.nchildren; i++)
            free(counted_recv(x, tree.children[i], TAG_ROUND, &n));
        if (tree.parent >= 0) {
            counted_send(x, message, sizeof message, tree.parent, TAG_ROUND);
            free(counted_recv(x, tree.parent, TAG_ROUND, &n));
        }
        for (int i = 0; i < tree.nchildren; i++)
            counted_send(x, message, sizeof message, tree.children[i], TAG_ROUND);
    }
}

/* A profile of S call sites in each of I intervals, as mpp_profile_build
 * would give it (the values differ from process to process). */
typedef struct {
    mpp_interval_t *info;
    mpp_local_interval_t *intervals;
    mpp_local_cell_t *cells;
    char **keys;
    mpp_local_profile_t profile;
} fake_profile_t;

static void fake_profile(fake_profile_t *f, int rank, int sites, int intervals)
{
    int ni = intervals + 1, nc = sites * intervals;
    f->info = calloc((size_t)ni, sizeof *f->info);
    f->intervals = calloc((size_t)ni, sizeof *f->intervals);
    f->cells = calloc((size_t)nc, sizeof *f->cells);
    f->keys = calloc((size_t)(ni + nc), sizeof *f->keys);
    if (!f->info || !f->intervals || !f->cells || !f->keys)
        abort();
    double work = 1.0 + 0.01 * (rank % 7);
    for (int i = 0; i < ni; i++) {
        char key[96];
        if (i == 0)
            snprintf(key, sizeof key, "0");
        else
            snprintf(key, sizeof key, "0%cinterval%d%cbench.c%c%d", MPP_RS, i, MPP_US, MPP_US, 100 + i);
        f->keys[i] = strdup(key);
        f->info[i].executions = 1;
        f->intervals[i] = (mpp_local_interval_t){
            .key = f->keys[i], .info = &f->info[i], .parent = i ? 0 : -1, .exec = i ? work / intervals : work + 0.1};
    }
    for (int c = 0; c < nc; c++) {
        char src[128];
        int site = c % sites, in = 1 + c / sites;
        snprintf(src, sizeof src, "MPI_Send%cbench_sites.c%c%d%csite%d%cbench_sites.c:%d (site%d)", MPP_RS, MPP_US,
                 10 + site, MPP_US, site, MPP_US, 10 + site, site);
        f->keys[ni + c] = strdup(src);
        double t = 1e-4 * (1 + (rank + c) % 5);
        f->cells[c] =
            (mpp_local_cell_t){.interval = in, .src = f->keys[ni + c], .calls = 10, .bytes_sent = 80, .time = t};
        f->cells[c].cat[MPP_CAT_SENDRECV] = t;
        f->intervals[in].cat[MPP_CAT_SENDRECV] += t;
        f->intervals[0].cat[MPP_CAT_SENDRECV] += t;
    }
    f->profile = (mpp_local_profile_t){.intervals = f->intervals, .nintervals = ni, .cells = f->cells, .ncells = nc};
    f->profile.context.machine_na = "not in this benchmark";
    f->profile.context.counters_na = "not in this benchmark";
    static const char *const none[1];
    f->profile.context.warnings = none;
}

static void fake_profile_free(fake_profile_t *f)
{
    for (int i = 0; i < f->profile.nintervals + f->profile.ncells; i++)
        free(f->keys[i]);
    free(f->keys), free(f->cells), free(f->intervals), free(f->info);
}

enum { NSTEPS = 12 };
static const char *const step_names[NSTEPS] = {
    "init:output_name",       "init:calibration_settings", "init:calibration_nodes", "init:calibration_pingpongs",
    "init:calibration_speed", "init:waitstate_settings",   "init:clock_alignment",   "init:threshold_started",
    "fin:waitstate_end",      "fin:clock_alignment",       "fin:waitstate_figures",  "fin:calibration_again"};

/* One step of this process: its messages. */
static void run_step(mpp_exchange_t *x, int step, const options_t *o)
{
    unsigned char buf[CAL_SETTINGS] = {0};
    switch (step) {
    case 0: /* lifecycle.c: the protocol's unique name */
        tree_bcast(x, world_of(x), buf, 64);
        break;
    case 1: /* calibrate.c 1. */
        tree_bcast(x, world_of(x), buf, CAL_SETTINGS);
        break;
    case 2: /* calibrate.c 2. and 3.: one node or several (the least colours), leader's host (and, with
             * several nodes, rank in each node, then nodes), who measures, crowded */
        allreduce_bytes(x, 2 * sizeof(int));
        if (x->size <= o->per_node) {
            tree_bcast(x, world_of(x), buf, 256);
        } else {
            tree_bcast(x, node_of(x, o->per_node), buf, 256);
            tree_bcast(x, node_of(x, o->per_node), buf, sizeof(int));
            allreduce_bytes(x, sizeof(int));
        }
        allreduce_bytes(x, 4 * sizeof(int));
        allreduce_bytes(x, sizeof(int));
        break;
    case 3: /* calibrate.c 4. */
        calibration_pingpongs(x, o->per_node);
        break;
    case 4: /* calibrate.c 5. and 6.: barrier, loop sum, speed MINLOC and MAXLOC, the measurements */
        allreduce_bytes(x, sizeof(int));
        allreduce_bytes(x, sizeof(double));
        allreduce_bytes(x, sizeof(mpp_double_int_t));
        allreduce_bytes(x, sizeof(mpp_double_int_t));
        allreduce_bytes(x, (3 * MPP_NLINKS + 1) * sizeof(double));
        break;
    case 5: /* waitstates/run.c: MPIPROF_WAITSTATES, _SYNC_BATCH and _CHECK of rank 0; matrix_hook.c:
             * MPIPROF_MATRIX and _MATRIX_RANKS of rank 0 */
        tree_bcast(x, world_of(x), buf, 3 * sizeof(int));
        tree_bcast(x, world_of(x), buf, 2 * sizeof(int));
        break;
    case 6:
    case 9:
        clock_alignment(x);
        break;
    case 7: /* the largest uncertainty, started everywhere */
        allreduce_bytes(x, sizeof(int64_t));
        allreduce_bytes(x, sizeof(int));
        break;
    case 8:
        termination_rounds(x);
        break;
    case 10: { /* lifecycle.c finish_waitstates: WS_NLARGEST maxima, 9 sums to rank 0 */
        unsigned char in[72] = {0}, out[72];
        allreduce_bytes(x, 5 * sizeof(int64_t));
        tree_reduce(x, world_of(x), in, out, sizeof in, 1, NULL, 0);
        break;
    }
    case 11: /* calibrate.c mpp_calibrate_again */
        calibration_pingpongs(x, o->per_node);
        allreduce_bytes(x, (3 * MPP_NLINKS + 1) * sizeof(double));
        break;
    }
}

/* Per step: rounds, messages, bytes, seconds (the maximum over the
 * processes: counted with the raw exchange's reduction, not counted). */
typedef struct {
    double v[4];
} figures_t;

static figures_t measure(counted_t *c, void (*fn)(mpp_exchange_t *, void *), void *arg)
{
    double zero = 0;
    c->raw->reduce(c->raw, &zero, NULL, 1, MPP_XOP_SUM, 0); /* everyone starts together */
    c->depth = c->messages = c->bytes = 0;
    double t0 = now();
    fn(&c->x, arg);
    figures_t mine = {{c->depth, c->messages, c->bytes, now() - t0}}, all;
    c->raw->reduce(c->raw, mine.v, all.v, 4, MPP_XOP_MAX, 0);
    return all;
}

typedef struct {
    int step;
    const options_t *o;
} step_arg_t;

static void step_fn(mpp_exchange_t *x, void *arg)
{
    const step_arg_t *s = arg;
    run_step(x, s->step, s->o);
}

typedef struct {
    const options_t *o;
    fake_profile_t profile;
    mpp_reduced_t *result;
} reduction_arg_t;

static void reduction_fn(mpp_exchange_t *x, void *arg)
{
    reduction_arg_t *r = arg;
    r->result = mpp_reduce_exchange(&r->profile.profile, x, r->o->ranks_spec, "node");
}

/* The protocol's size: the reduced data written as MPI_Finalize writes it. */
static long protocol_bytes(mpp_reduced_t *rd, int nprocs)
{
    char path[] = "/tmp/mpiprof-scaling.XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    mpp_run_info_t run;
    memset(&run, 0, sizeof run);
    run.nprocs = nprocs;
    snprintf(run.program, sizeof run.program, "scaling");
    snprintf(run.program_name, sizeof run.program_name, "scaling");
    snprintf(run.waitstates, sizeof run.waitstates, "on");
    mpp_report_input_t in = {.run = &run, .config = &mpp_config, .waitstates_na = "not in this benchmark"};
    long size = -1;
    if (mpp_report_write(rd, &in, path, MPP_FORMAT_TEXT) == 0) {
        FILE *f = fopen(path, "r");
        if (f && fseek(f, 0, SEEK_END) == 0)
            size = ftell(f);
        if (f)
            fclose(f);
    }
    unlink(path);
    return size;
}

static void print_step(const options_t *o, int p, const char *name, figures_t f)
{
    printf("STEP P=%d step=%s rounds=%.0f messages=%.0f bytes=%.0f seconds=%.6f%s\n", p, name, f.v[0], f.v[1], f.v[2],
           f.v[3], o->mpi && p > 2 ? " oversubscribed" : "");
}

/* Every process: the steps in order; position 0 prints. */
static void run_all(counted_t *c, const options_t *o)
{
    mpp_exchange_t *x = &c->x;
    figures_t total = {{0}};
    for (int s = 0; s < NSTEPS; s++) {
        step_arg_t arg = {s, o};
        figures_t f = measure(c, step_fn, &arg);
        for (int k = 0; k < 4; k++)
            total.v[k] += f.v[k];
        if (x->position == 0)
            print_step(o, x->size, step_names[s], f);
    }
    reduction_arg_t r = {o, {0}, NULL};
    fake_profile(&r.profile, x->position, o->sites, o->intervals);
    figures_t f = measure(c, reduction_fn, &r);
    for (int k = 0; k < 4; k++)
        total.v[k] += f.v[k];
    if (x->position == 0) {
        print_step(o, x->size, "fin:reduction", f);
        long bytes = r.result ? protocol_bytes(r.result, x->size) : -1;
        printf("TOTAL P=%d rounds=%.0f messages=%.0f bytes=%.0f seconds=%.6f protocol_bytes=%ld sites=%d "
               "intervals=%d%s\n",
               x->size, total.v[0], total.v[1], total.v[2], total.v[3], bytes, o->sites, o->intervals,
               o->mpi && x->size > 2 ? " oversubscribed" : "");
        fflush(stdout);
    }
    mpp_reduced_free(r.result);
    fake_profile_free(&r.profile);
}

/* ---- in memory: P threads ------------------------------------------------------ */

static void thread_main(mpp_exchange_t *raw, void *arg)
{
    counted_t c = {{raw->position, raw->size, raw->nprocs, NULL, NULL, counted_send, counted_recv, counted_bcast,
                    counted_reduce},
                   raw,
                   0,
                   0,
                   0};
    c.x.ctx = &c;
    run_all(&c, arg);
}

static int run_threads(int p, const options_t *o)
{
    void **args = malloc((size_t)p * sizeof *args);
    if (!args)
        return -1;
    for (int i = 0; i < p; i++)
        args[i] = (void *)o;
    int rc = mpp_exchange_in_memory(p, p, NULL, thread_main, args);
    free(args);
    return rc;
}

/* ---- under mpiexec --------------------------------------------------------------- */

static MPI_Comm bench_comm;

static void mpi_send(mpp_exchange_t *x, const void *buf, size_t len, int dest, int tag)
{
    (void)x;
    PMPI_Send(buf, (int)len, MPI_BYTE, dest, tag, bench_comm);
}

static void *mpi_recv(mpp_exchange_t *x, int source, int tag, size_t *len)
{
    (void)x;
    MPI_Status st;
    int n = 0;
    PMPI_Probe(source, tag, bench_comm, &st);
    PMPI_Get_count(&st, MPI_BYTE, &n);
    void *buf = malloc(n ? (size_t)n : 1);
    PMPI_Recv(buf, n, MPI_BYTE, source, tag, bench_comm, MPI_STATUS_IGNORE);
    *len = (size_t)n;
    return buf;
}

/* Only the bookkeeping between steps: a barrier, the maxima (not counted). */
static void mpi_reduce(mpp_exchange_t *x, const void *in, void *out, size_t n, mpp_xop_t op, int all)
{
    (void)x, (void)all;
    if (!out) {
        PMPI_Barrier(bench_comm);
        return;
    }
    PMPI_Reduce(in, out, (int)n, MPI_DOUBLE, op == MPP_XOP_SUM ? MPI_SUM : MPI_MAX, 0, bench_comm);
}

static int run_mpi(int *argc, char ***argv, const options_t *o)
{
    PMPI_Init(argc, argv);
    PMPI_Comm_dup(MPI_COMM_WORLD, &bench_comm);
    mpp_exchange_t raw = {.send = mpi_send, .recv = mpi_recv, .reduce = mpi_reduce};
    PMPI_Comm_rank(bench_comm, &raw.position);
    PMPI_Comm_size(bench_comm, &raw.size);
    raw.nprocs = raw.size;
    int *members = malloc((size_t)raw.size * sizeof *members);
    for (int i = 0; members && i < raw.size; i++)
        members[i] = i;
    identity_members = members;
    options_t mine = *o;
    mine.mpi = 1;
    thread_main(&raw, &mine);
    free(members);
    PMPI_Comm_free(&bench_comm);
    PMPI_Finalize();
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: scaling [--sites S] [--intervals I] [--per-node K] [--ranks SPEC] P ...\n"
                    "       mpiexec -n N scaling --mpi [--sites S] [--intervals I] [--per-node K] [--ranks SPEC]\n"
                    "(see bench/README.md, Scaling)\n");
    exit(2);
}

int main(int argc, char **argv)
{
    options_t o = {.sites = 100, .intervals = 10, .per_node = 32, .ranks_spec = "0,1,2,3"};
    int mpi = 0, first_p = argc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--mpi")) {
            mpi = 1;
        } else if (i + 1 < argc && (!strcmp(a, "--sites") || !strcmp(a, "--intervals") || !strcmp(a, "--per-node"))) {
            int v = atoi(argv[++i]);
            if (v < 1) {
                fprintf(stderr, "scaling: %s %s: a positive number is needed\n", a, argv[i]);
                return 2;
            }
            *(!strcmp(a, "--sites") ? &o.sites : !strcmp(a, "--intervals") ? &o.intervals : &o.per_node) = v;
        } else if (i + 1 < argc && !strcmp(a, "--ranks")) {
            o.ranks_spec = argv[++i];
        } else if (a[0] >= '1' && a[0] <= '9') {
            first_p = i;
            break;
        } else {
            usage();
        }
    }
    mpp_config_parse(&mpp_config, NULL);
    snprintf(mpp_config.text[MPP_CFG_RANKS], MPP_CONFIG_STRING_MAX, "%s", o.ranks_spec);
    if (mpi)
        return run_mpi(&argc, &argv, &o);
    if (first_p >= argc)
        usage();
    int largest = 0;
    for (int i = first_p; i < argc; i++)
        largest = atoi(argv[i]) > largest ? atoi(argv[i]) : largest;
    int *members = malloc((size_t)(largest > 0 ? largest : 1) * sizeof *members);
    if (!members)
        return 1;
    for (int i = 0; i < largest; i++)
        members[i] = i;
    identity_members = members;
    int rc = 0;
    for (int i = first_p; i < argc; i++) {
        int p = atoi(argv[i]);
        if (p < 1) {
            fprintf(stderr, "scaling: %s: a number of processes is needed\n", argv[i]);
            return 2;
        }
        if (run_threads(p, &o) != 0) {
            printf("SKIPPED P=%d (not enough memory or threads for %d threads)\n", p, p);
            rc = 1;
        }
        fflush(stdout);
    }
    free(members);
    return rc;
}
