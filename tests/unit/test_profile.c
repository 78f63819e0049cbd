/* The process profile built from the threads' tables
 * (src/accumulate/profile.c): call stacks resolved by a fake resolver,
 * cells merged by resolved stack, times attributed inclusively. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/profile.h"
#include "accumulate/table.h"
#include "analyze/model.h"
#include "suites.h"
#include "util/srckey.h"

#define TOL 1e-12

/* Return addresses and their frame records (path US line US function US text). */
enum {
    A_WORK = 0x1000,    /* a.c:20 in work() */
    A_WORK2 = 0x1004,   /* another address of the same line */
    A_MAIN = 0x2000,    /* a.c:40 in main() */
    A_LIBC = 0x3000,    /* below main: the C runtime */
    A_SOLVE = 0x5000,   /* b.c:7 in solve() */
    A_FMAIN = 0x6000,   /* prog.f90:3 in MAIN__ (gfortran main program) */
    A_FSTART = 0x7000,  /* main() of the Fortran runtime, below MAIN__ */
    A_NOLINE = 0x8000,  /* a module without line information */
    A_INLINED = 0x9000, /* c.c:5 in exchange(), inlined into main() at c.c:30 */
    A_THREAD = 0xa000,  /* t.c:27 in worker(), a thread's start routine */
    A_START = 0xb000,   /* start_thread, below it */
    A_CLONE = 0xc000,   /* clone3, below that */
};

#define R_WORK     \
    "/src/a.c\x1f" \
    "20\x1f"       \
    "work\x1f"     \
    "a.c:20 (work)"
#define R_MAIN     \
    "/src/a.c\x1f" \
    "40\x1f"       \
    "main\x1f"     \
    "a.c:40 (main)"
#define R_SOLVE    \
    "/src/b.c\x1f" \
    "7\x1f"        \
    "solve\x1f"    \
    "b.c:7 (solve)"
#define R_FMAIN         \
    "/src/prog.f90\x1f" \
    "3\x1f"             \
    "MAIN__\x1f"        \
    "prog.f90:3 (MAIN__)"
#define R_NOLINE           \
    "/usr/lib/libx.so\x1f" \
    "0\x1f"                \
    "helper\x1f"           \
    "libx.so+0x8000"
#define RS "\x1e"
#define US "\x1f"
#define R_INLINED                                                                                         \
    "/src/c.c" US "5" US "exchange" US "c.c:5 (exchange)" US "inlined" RS "/src/c.c" US "30" US "main" US \
    "c.c:30 (main)" US "line"
#define R_THREAD "/src/t.c" US "27" US "worker" US "t.c:27 (worker)" US "line"

static int resolved_below_main;
static int resolve_calls;

static const char *fake_resolve(void *ctx, uintptr_t address)
{
    ck_assert_ptr_eq(ctx, &resolve_calls);
    resolve_calls++;
    switch (address) {
    case A_WORK:
    case A_WORK2:
        return R_WORK;
    case A_MAIN:
        return R_MAIN;
    case A_SOLVE:
        return R_SOLVE;
    case A_FMAIN:
        return R_FMAIN;
    case A_NOLINE:
        return R_NOLINE;
    case A_INLINED:
        return R_INLINED;
    case A_THREAD:
        return R_THREAD;
    case A_START:
        return "/glibc/pthread_create.c" US "442" US "start_thread" US "pthread_create.c:442 (start_thread)" US
               "line";
    case A_CLONE:
        resolved_below_main++; /* below the start routine */
        return "/lib/libc.so.6" US "0" US "__GI___clone3" US "__GI___clone3+0x2c" US "symbol";
    case A_LIBC:
    case A_FSTART:
        resolved_below_main++;
        return "/lib/libc.so.6\x1f"
               "0\x1f"
               "__libc_start_main\x1f"
               "libc.so.6+0x3000";
    default:
        ck_abort_msg("resolver asked for unknown address %#lx", (unsigned long)address);
        return NULL;
    }
}

static const char *fake_function_name(uint32_t fid)
{
    static const char *names[] = {"MPI_Send", "MPI_Allreduce", "MPI_Comm_rank", "MPI_File_write"};
    ck_assert_uint_lt(fid, 4);
    return names[fid];
}

/* One tick is a quarter second: every sum below is exact. */
static double quarter_seconds(uint64_t ticks) { return (double)ticks * 0.25; }

static mpp_table_t T1, T2;
static mpp_interval_t intervals[2];
static mpp_local_profile_t *P;

static void setup(void)
{
    unit_reset_warnings();
    resolved_below_main = resolve_calls = 0;
    ck_assert_int_eq(mpp_table_init(&T1, 1000, 4), 0);
    ck_assert_int_eq(mpp_table_init(&T2, 1000, 4), 0);
    memset(intervals, 0, sizeof intervals);
    strcpy(intervals[0].name, "whole program");
    strcpy(intervals[0].file, "a.c");
    intervals[0].line = 35;
    intervals[0].parent = -1;
    intervals[0].executions = 1;
    intervals[0].first_entry = 0;
    intervals[0].ticks = 400;   /* 100 s */
    intervals[0].seq_ticks = 8; /* 2 s */
    intervals[0].cpu = 60;
    intervals[0].sys = 5;
    strcpy(intervals[1].name, "loop");
    strcpy(intervals[1].file, "a.c");
    intervals[1].line = 10;
    intervals[1].parent = 0;
    intervals[1].level = 1;
    intervals[1].executions = 100;
    intervals[1].first_entry = 40; /* 10 s */
    intervals[1].ticks = 200;      /* 50 s */
    intervals[1].cpu = 30;
    intervals[1].sys = 2;
    P = NULL;
}

static void teardown(void)
{
    mpp_profile_free(P);
    P = NULL;
    mpp_table_free(&T1);
    mpp_table_free(&T2);
}

/* Record `calls` calls of fid in `interval` with `ticks` in category cat. */
static void record(mpp_table_t *t, uint32_t fid, uint32_t interval, uintptr_t a, uintptr_t b, uintptr_t c,
                   uintptr_t d, uint64_t calls, int cat, uint64_t ticks, uint64_t sent, uint64_t recv)
{
    uintptr_t frames[MPP_MAX_DEPTH] = {a, b, c, d};
    mpp_cell_t *cell = mpp_table_lookup(t, fid, interval, frames);
    ck_assert_ptr_nonnull(cell);
    cell->stats.calls += calls;
    cell->stats.ticks[cat] += ticks;
    cell->stats.bytes_sent += sent;
    cell->stats.bytes_recv += recv;
}

static void build(void)
{
    const mpp_table_t *tables[2] = {&T1, &T2};
    P = mpp_profile_build(tables, 2, intervals, 2, quarter_seconds, fake_resolve, &resolve_calls, fake_function_name);
    ck_assert_ptr_nonnull(P);
}

static const mpp_local_cell_t *cell_of(int interval, const char *src)
{
    const mpp_local_cell_t *found = NULL;
    for (int i = 0; i < P->ncells; i++)
        if (P->cells[i].interval == interval && !strcmp(P->cells[i].src, src)) {
            ck_assert_msg(found == NULL, "two cells for the same interval and SRC key");
            found = &P->cells[i];
        }
    ck_assert_msg(found != NULL, "no cell in interval %d for the expected SRC key", interval);
    return found;
}

/* --- intervals --- */

START_TEST(test_profile_intervals)
{
    build();
    ck_assert_int_eq(P->nintervals, 2);
    const mpp_local_interval_t *w = &P->intervals[0], *l = &P->intervals[1];
    ck_assert_str_eq(w->key, "0");
    ck_assert_str_eq(l->key, "0" RS "loop\x1f"
                             "a.c\x1f"
                             "10");
    ck_assert_ptr_eq(w->info, &intervals[0]);
    ck_assert_ptr_eq(l->info, &intervals[1]);
    ck_assert_int_eq(w->parent, -1);
    ck_assert_int_eq(l->parent, 0);
    ck_assert_double_eq_tol(w->exec, 100, TOL);
    ck_assert_double_eq_tol(l->exec, 50, TOL);
    ck_assert_double_eq_tol(w->seq, 2, TOL);
    ck_assert_double_eq_tol(l->seq, 0, TOL);
    ck_assert_double_eq_tol(w->first_entry, 0, TOL);
    ck_assert_double_eq_tol(l->first_entry, 10, TOL);
    ck_assert_double_eq_tol(w->cpu, 60, TOL);
    ck_assert_double_eq_tol(w->sys, 5, TOL);
    ck_assert_double_eq_tol(l->cpu, 30, TOL);
    ck_assert_double_eq_tol(l->sys, 2, TOL);
    for (int k = 0; k < MPP_NCAT; k++)
        ck_assert_double_eq_tol(w->cat[k], 0, TOL);
    ck_assert_int_eq(P->ncells, 0);
}
END_TEST

START_TEST(test_profile_nested_key)
{
    mpp_interval_t three[3];
    memcpy(three, intervals, sizeof intervals);
    memset(&three[2], 0, sizeof three[2]);
    strcpy(three[2].name, "exchange");
    strcpy(three[2].file, "/src/halo.c");
    three[2].line = 77;
    three[2].parent = 1;
    P = mpp_profile_build(NULL, 0, three, 3, quarter_seconds, fake_resolve, &resolve_calls, fake_function_name);
    ck_assert_ptr_nonnull(P);
    ck_assert_str_eq(P->intervals[2].key, "0" RS "loop\x1f"
                                          "a.c\x1f"
                                          "10" RS "exchange\x1f/src/halo.c\x1f"
                                          "77");
    ck_assert_int_eq(P->intervals[2].parent, 1);
}
END_TEST

/* --- cells --- */

START_TEST(test_profile_same_resolved_stack_merges)
{
    /* thread 1: two addresses of the same line; thread 2: the first again */
    record(&T1, 0, 1, A_WORK, A_MAIN, A_LIBC, 0, 2, MPP_CAT_SENDRECV, 8, 100, 0);
    record(&T1, 0, 1, A_WORK2, A_MAIN, A_LIBC, 0, 3, MPP_CAT_SENDRECV, 4, 50, 0);
    record(&T2, 0, 1, A_WORK, A_MAIN, A_LIBC, 0, 1, MPP_CAT_SENDRECV, 4, 0, 10);
    build();
    ck_assert_int_eq(P->ncells, 1);
    const mpp_local_cell_t *c = cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    ck_assert_uint_eq(c->calls, 6);
    ck_assert_uint_eq(c->bytes_sent, 150);
    ck_assert_uint_eq(c->bytes_recv, 10);
    ck_assert_double_eq_tol(c->time, 4.0, TOL); /* (8 + 4 + 4) / 4 */
}
END_TEST

/* Per-thread times at the merge: each table is a thread's (its index); a
 * thread whose cells of two stacks reach one SRC point counts once; threads
 * from index MPP_THREAD_SLOTS on are summed, with their number. */
START_TEST(test_profile_thread_times)
{
    T1.thread = 0;
    T2.thread = 3;
    record(&T1, 0, 1, A_WORK, A_MAIN, A_LIBC, 0, 2, MPP_CAT_SENDRECV, 8, 0, 0);
    record(&T2, 0, 1, A_WORK, A_MAIN, A_LIBC, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0);
    record(&T2, 0, 1, A_WORK2, A_MAIN, A_LIBC, 0, 1, MPP_CAT_SENDRECV, 2, 0, 0);
    mpp_table_t more[MPP_THREAD_SLOTS + 2];
    const mpp_table_t *tables[2 + MPP_THREAD_SLOTS + 2] = {&T1, &T2};
    for (int k = 0; k < MPP_THREAD_SLOTS + 2; k++) { /* indexes 8..17: beyond the slots */
        ck_assert_int_eq(mpp_table_init(&more[k], 100, 4), 0);
        more[k].thread = MPP_THREAD_SLOTS + k;
        record(&more[k], 0, 1, A_WORK, A_MAIN, A_LIBC, 0, 1, MPP_CAT_SENDRECV, 1, 0, 0);
        record(&more[k], 0, 1, A_WORK2, A_MAIN, A_LIBC, 0, 1, MPP_CAT_SENDRECV, 1, 0, 0);
        tables[2 + k] = &more[k];
    }
    P = mpp_profile_build(tables, 2 + MPP_THREAD_SLOTS + 2, intervals, 2, quarter_seconds, fake_resolve,
                          &resolve_calls, fake_function_name);
    ck_assert_ptr_nonnull(P);
    const mpp_local_cell_t *c = cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    ck_assert_int_eq(c->nthreads, 2 + MPP_THREAD_SLOTS + 2);
    ck_assert_uint_eq(c->thread_mask, 1u << 0 | 1u << 3);
    ck_assert_double_eq_tol(c->thread_time[0], 2.0, TOL); /* 8 ticks */
    ck_assert_double_eq_tol(c->thread_time[3], 1.5, TOL); /* 4 + 2 ticks, two stacks */
    ck_assert_double_eq_tol(c->thread_time[1], 0.0, TOL);
    ck_assert_int_eq(c->rest_threads, MPP_THREAD_SLOTS + 2); /* each counted once, though two cells each */
    ck_assert_double_eq_tol(c->rest_time, (MPP_THREAD_SLOTS + 2) * 0.5, TOL);
    for (int k = 0; k < MPP_THREAD_SLOTS + 2; k++)
        mpp_table_free(&more[k]);
}
END_TEST

START_TEST(test_profile_stack_stops_after_main)
{
    record(&T1, 1, 0, A_SOLVE, A_MAIN, A_LIBC, A_LIBC, 1, MPP_CAT_COLLECTIVE, 16, 8, 8);
    record(&T2, 0, 0, A_FMAIN, A_FSTART, A_LIBC, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0); /* Fortran */
    build();
    ck_assert_int_eq(P->ncells, 2);
    ck_assert_int_eq(resolved_below_main, 0); /* frames below main are never even resolved */
    const mpp_local_cell_t *c = cell_of(0, "MPI_Allreduce" RS R_SOLVE RS R_MAIN);
    ck_assert_uint_eq(c->calls, 1);
    ck_assert_double_eq_tol(c->time, 4.0, TOL);
    cell_of(0, "MPI_Send" RS R_FMAIN);
}
END_TEST

/* a return address in main's code where a function was inlined: its
 * frames are the inlined function's and main's, and the stack ends there */
START_TEST(test_profile_inlined_into_main_ends)
{
    record(&T1, 0, 0, A_INLINED, A_LIBC, 0, 0, 1, MPP_CAT_SENDRECV, 4, 4, 0);
    build();
    ck_assert_int_eq(resolved_below_main, 0);
    cell_of(0, "MPI_Send" RS R_INLINED);
}
END_TEST

/* a thread's calls: its start routine's caller and all below are dropped */
START_TEST(test_profile_stack_stops_at_thread_start)
{
    record(&T1, 0, 0, A_THREAD, A_START, A_CLONE, 0, 1, MPP_CAT_SENDRECV, 4, 4, 0);
    build();
    ck_assert_int_eq(resolved_below_main, 0);
    cell_of(0, "MPI_Send" RS R_THREAD);
}
END_TEST

START_TEST(test_profile_different_keys_stay_apart)
{
    record(&T1, 0, 1, A_WORK, A_MAIN, 0, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0);
    record(&T1, 0, 0, A_WORK, A_MAIN, 0, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0);         /* another interval */
    record(&T2, 1, 1, A_WORK, A_MAIN, 0, 0, 1, MPP_CAT_COLLECTIVE, 4, 0, 0);       /* another function */
    record(&T2, 0, 1, A_SOLVE, A_MAIN, 0, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0);        /* another stack */
    record(&T2, 0, 1, A_NOLINE, A_SOLVE, A_MAIN, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0); /* unresolved line */
    build();
    ck_assert_int_eq(P->ncells, 5);
    cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    cell_of(0, "MPI_Send" RS R_WORK RS R_MAIN);
    cell_of(1, "MPI_Allreduce" RS R_WORK RS R_MAIN);
    cell_of(1, "MPI_Send" RS R_SOLVE RS R_MAIN);
    cell_of(1, "MPI_Send" RS R_NOLINE RS R_SOLVE RS R_MAIN);
}
END_TEST

START_TEST(test_profile_times_inclusive_by_category)
{
    record(&T1, 0, 1, A_WORK, A_MAIN, 0, 0, 4, MPP_CAT_SENDRECV, 12, 0, 0);   /* 3 s in loop */
    record(&T2, 1, 1, A_SOLVE, A_MAIN, 0, 0, 2, MPP_CAT_COLLECTIVE, 8, 0, 0); /* 2 s in loop */
    record(&T1, 2, 0, A_MAIN, 0, 0, 0, 1, MPP_CAT_SYSTEM, 2, 0, 0);           /* 0.5 s in 0 */
    record(&T2, 3, 1, A_SOLVE, A_MAIN, 0, 0, 1, MPP_CAT_IO, 4, 0, 0);         /* 1 s in loop */
    record(&T1, 1, 0, A_MAIN, 0, 0, 0, 1, MPP_CAT_COLLECTIVE, 1, 0, 0);       /* 0.25 s in 0 */
    build();
    const double *loop = P->intervals[1].cat, *whole = P->intervals[0].cat;
    ck_assert_double_eq_tol(loop[MPP_CAT_SENDRECV], 3, TOL);
    ck_assert_double_eq_tol(loop[MPP_CAT_COLLECTIVE], 2, TOL);
    ck_assert_double_eq_tol(loop[MPP_CAT_SYSTEM], 0, TOL);
    ck_assert_double_eq_tol(loop[MPP_CAT_IO], 1, TOL);
    ck_assert_double_eq_tol(whole[MPP_CAT_SENDRECV], 3, TOL);
    ck_assert_double_eq_tol(whole[MPP_CAT_COLLECTIVE], 2.25, TOL);
    ck_assert_double_eq_tol(whole[MPP_CAT_SYSTEM], 0.5, TOL);
    ck_assert_double_eq_tol(whole[MPP_CAT_IO], 1, TOL);
    /* a cell's time is its total over categories */
    ck_assert_double_eq_tol(cell_of(1, "MPI_File_write" RS R_SOLVE RS R_MAIN)->time, 1, TOL);
    ck_assert_double_eq_tol(cell_of(0, "MPI_Comm_rank" RS R_MAIN)->time, 0.5, TOL);
}
END_TEST

START_TEST(test_profile_split_categories_in_one_cell)
{
    /* a call that completed requests of several kinds has ticks in several categories */
    uintptr_t frames[MPP_MAX_DEPTH] = {A_WORK, A_MAIN};
    mpp_cell_t *cell = mpp_table_lookup(&T1, 0, 1, frames);
    cell->stats.calls = 1;
    cell->stats.ticks[MPP_CAT_SENDRECV] = 4;
    cell->stats.ticks[MPP_CAT_COLLECTIVE] = 8;
    build();
    ck_assert_double_eq_tol(cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN)->time, 3, TOL);
    ck_assert_double_eq_tol(P->intervals[1].cat[MPP_CAT_SENDRECV], 1, TOL);
    ck_assert_double_eq_tol(P->intervals[1].cat[MPP_CAT_COLLECTIVE], 2, TOL);
    ck_assert_double_eq_tol(P->intervals[0].cat[MPP_CAT_COLLECTIVE], 2, TOL);
}
END_TEST

/* The cells of an SRC point share one copy of its key, listed once in
 * srcs: the reduction takes each key once (reduce.c), not once per cell. */
START_TEST(test_profile_cells_share_src)
{
    record(&T1, 0, 1, A_WORK, A_MAIN, 0, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0);
    record(&T1, 0, 0, A_WORK, A_MAIN, 0, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0);   /* another interval */
    record(&T2, 0, 0, A_WORK2, A_MAIN, 0, 0, 1, MPP_CAT_SENDRECV, 4, 0, 0);  /* same line, other address */
    record(&T2, 1, 1, A_WORK, A_MAIN, 0, 0, 1, MPP_CAT_COLLECTIVE, 4, 0, 0); /* another function */
    build();
    ck_assert_int_eq(P->ncells, 3);
    ck_assert_int_eq(P->nsrcs, 2);
    const mpp_local_cell_t *in1 = cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    const mpp_local_cell_t *in0 = cell_of(0, "MPI_Send" RS R_WORK RS R_MAIN);
    const mpp_local_cell_t *other = cell_of(1, "MPI_Allreduce" RS R_WORK RS R_MAIN);
    ck_assert_ptr_eq(in1->src, in0->src);
    ck_assert_ptr_ne(in1->src, other->src);
    for (int c = 0; c < P->ncells; c++)
        ck_assert(P->cells[c].src == P->srcs[0] || P->cells[c].src == P->srcs[1]);
}
END_TEST

START_TEST(test_profile_folded_cell)
{
    /* calls beyond MPIPROF_MAX_SRC have no stack */
    record(&T1, 0, 1, 0, 0, 0, 0, 5, MPP_CAT_SENDRECV, 4, 0, 0);
    build();
    ck_assert_int_eq(resolve_calls, 0);
    const mpp_local_cell_t *c = cell_of(1, "MPI_Send" RS "\x1f"
                                           "0\x1f\x1f[other call sites]");
    ck_assert_uint_eq(c->calls, 5);
    char *function;
    mpp_frame_t *frames;
    int n = mpp_srckey_parse(c->src, &function, &frames);
    ck_assert_int_eq(n, 1);
    ck_assert_str_eq(frames[0].text, "[other call sites]");
    free(function);
    mpp_srckey_free_frames(frames, n);
}
END_TEST

/* --- the communication model's part --- */

/* fake function ids: MPI_Send p2p, MPI_Allreduce allreduce, MPI_Comm_rank and MPI_File_write measured */
static int fake_model_op(uint32_t fid)
{
    static const int ops[] = {MPP_OP_P2P, MPP_OP_ALLREDUCE, MPP_OP_MEASURED, MPP_OP_MEASURED};
    ck_assert_uint_lt(fid, 4);
    return ops[fid];
}

/* Intra-node latency 0.5 s, 1000 B/s (the model of the predicted-time
 * test); inter-node 2 s, 100 B/s. */
static const mpp_model_t MODEL = {.latency = {0.5, 2}, .bandwidth = {1000, 100}};

START_TEST(test_profile_predicted)
{
    uintptr_t work[MPP_MAX_DEPTH] = {A_WORK, A_MAIN}, solve[MPP_MAX_DEPTH] = {A_SOLVE, A_MAIN};
    /* MPI_Send in the loop: 2 s measured, 1.5 s by the model (1 latency and
     * 1000 bytes), of which 0.5 s hidden by Overlap (2 ticks), the Overlap
     * added by thread 2 (it completed the requests: a cell with no call of
     * its own) */
    record(&T1, 0, 1, A_WORK, A_MAIN, 0, 0, 10, MPP_CAT_SENDRECV, 8, 1000, 0);
    mpp_table_lookup(&T1, 0, 1, work)->stats.model[MPP_PRICE_UNITS] = 1;
    mpp_table_lookup(&T1, 0, 1, work)->stats.model[MPP_PRICE_BYTES] = 1000;
    mpp_table_lookup(&T2, 0, 1, work)->stats.overlap = 2;
    /* MPI_Allreduce in the loop, its time split between collective and system
     * (as a wait's can be): the predicted 0.75 s is split the same way */
    record(&T1, 1, 1, A_SOLVE, A_MAIN, 0, 0, 3, MPP_CAT_COLLECTIVE, 3, 0, 0);
    record(&T1, 1, 1, A_SOLVE, A_MAIN, 0, 0, 0, MPP_CAT_SYSTEM, 1, 0, 0);
    mpp_table_lookup(&T1, 1, 1, solve)->stats.model[MPP_PRICE_UNITS] = 1.5;
    /* measured: MPI_Comm_rank (system) in 0, MPI_File_write (I/O) in the loop */
    record(&T1, 2, 0, A_MAIN, 0, 0, 0, 1, MPP_CAT_SYSTEM, 2, 0, 0);
    record(&T2, 3, 1, A_SOLVE, A_MAIN, 0, 0, 1, MPP_CAT_IO, 4, 0, 0);
    build();
    mpp_profile_predict(P, fake_model_op, &MODEL);
    const mpp_local_cell_t *send = cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    ck_assert_uint_eq(send->calls, 10);
    ck_assert_double_eq_tol(send->time, 2, TOL);
    ck_assert_double_eq_tol(send->model, 1.5, TOL);
    ck_assert_double_eq_tol(send->overlap, 0.5, TOL);
    ck_assert_double_eq_tol(send->predicted, 1.0, TOL);
    ck_assert_double_eq_tol(cell_of(1, "MPI_Allreduce" RS R_SOLVE RS R_MAIN)->predicted, 0.75, TOL);
    ck_assert_double_eq_tol(cell_of(0, "MPI_Comm_rank" RS R_MAIN)->predicted, 0.5, TOL);
    ck_assert_double_eq_tol(cell_of(1, "MPI_File_write" RS R_SOLVE RS R_MAIN)->predicted, 1, TOL);
    const mpp_local_interval_t *loop = &P->intervals[1], *whole = &P->intervals[0];
    ck_assert_double_eq_tol(loop->pcat[MPP_CAT_SENDRECV], 1.0, TOL);
    ck_assert_double_eq_tol(loop->pcat[MPP_CAT_COLLECTIVE], 0.75 * 0.75, TOL);
    ck_assert_double_eq_tol(loop->pcat[MPP_CAT_SYSTEM], 0.75 * 0.25, TOL);
    ck_assert_double_eq_tol(loop->pcat[MPP_CAT_IO], 1, TOL);
    ck_assert_double_eq_tol(loop->overlap, 0.5, TOL);
    ck_assert_double_eq_tol(whole->pcat[MPP_CAT_SYSTEM], 0.75 * 0.25 + 0.5, TOL); /* inclusive */
    ck_assert_double_eq_tol(whole->pcat[MPP_CAT_SENDRECV], 1.0, TOL);
    ck_assert_double_eq_tol(whole->overlap, 0.5, TOL);
    /* Overlap more than the model (the tick rate of MPI_Init against the
     * final one): capped at the model time, nothing negative */
    mpp_table_lookup(&T2, 0, 1, work)->stats.overlap = 100;
    mpp_profile_free(P);
    build();
    mpp_profile_predict(P, fake_model_op, &MODEL);
    send = cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    ck_assert_double_eq_tol(send->predicted, 0, TOL);
    ck_assert_double_eq_tol(send->overlap, 1.5, TOL);
    ck_assert_double_eq_tol(P->intervals[1].pcat[MPP_CAT_SENDRECV], 0, TOL);
    ck_assert_double_eq_tol(P->intervals[1].overlap, 1.5, TOL);
}
END_TEST

/* The price is kept until MPI_Finalize: the same calls priced at other
 * parameters (a faster link measured there), per link, exactly; Overlap,
 * measured against MPI_Init's transfers, at most the re-priced model. */
START_TEST(test_profile_predicted_repriced)
{
    uintptr_t work[MPP_MAX_DEPTH] = {A_WORK, A_MAIN};
    record(&T1, 0, 1, A_WORK, A_MAIN, 0, 0, 10, MPP_CAT_SENDRECV, 8, 1000, 0);
    mpp_cell_t *c = mpp_table_lookup(&T1, 0, 1, work);
    c->stats.model[MPP_PRICE_UNITS] = 1; /* intra: 1 latency and 1000 bytes */
    c->stats.model[MPP_PRICE_BYTES] = 1000;
    c->stats.model[2 * MPP_LINK_INTER + MPP_PRICE_UNITS] = 2; /* inter: 2 latencies and 50 bytes */
    c->stats.model[2 * MPP_LINK_INTER + MPP_PRICE_BYTES] = 50;
    c->stats.overlap = 2; /* 0.5 s */
    build();
    mpp_profile_predict(P, fake_model_op, &MODEL);
    const mpp_local_cell_t *send = cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    ck_assert_double_eq_tol(send->model, 0.5 + 1 + 2 * 2 + 0.5, TOL);
    ck_assert_double_eq_tol(send->predicted, 6 - 0.5, TOL);
    mpp_profile_free(P);
    build();
    const mpp_model_t faster = {.latency = {0.05, 0.5}, .bandwidth = {4000, 1000}};
    mpp_profile_predict(P, fake_model_op, &faster);
    send = cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    ck_assert_double_eq_tol(send->model, 0.05 + 0.25 + 1 + 0.05, TOL);
    ck_assert_double_eq_tol(send->overlap, 0.5, TOL);
    ck_assert_double_eq_tol(send->predicted, 1.35 - 0.5, TOL);
    mpp_profile_free(P);
    build();
    const mpp_model_t fastest = {.latency = {0.01, 0.01}, .bandwidth = {1e6, 1e6}};
    mpp_profile_predict(P, fake_model_op, &fastest);
    send = cell_of(1, "MPI_Send" RS R_WORK RS R_MAIN);
    ck_assert_double_eq_tol(send->overlap, send->model, TOL); /* all hidden, no more */
    ck_assert_double_eq_tol(send->predicted, 0, TOL);
}
END_TEST

/* --- bad arguments --- */

START_TEST(test_profile_bad_args)
{
    /* cells without calls are skipped; no tables at all is fine */
    record(&T1, 0, 1, A_WORK, A_MAIN, 0, 0, 0, MPP_CAT_SENDRECV, 0, 0, 0);
    build();
    ck_assert_int_eq(P->ncells, 0);
    ck_assert_int_eq(resolve_calls, 0);
    mpp_profile_free(P);
    P = mpp_profile_build(NULL, 0, intervals, 2, quarter_seconds, fake_resolve, &resolve_calls, fake_function_name);
    ck_assert_ptr_nonnull(P);
    ck_assert_int_eq(P->ncells, 0);
    ck_assert_int_eq(P->nintervals, 2);
    mpp_profile_free(NULL); /* harmless */
}
END_TEST

/* The resolver and names of the test above, without Check's assertions
 * (which allocate, and exit when they cannot). */
static const char *plain_resolve(void *ctx, uintptr_t address)
{
    (void)ctx;
    return address == A_MAIN ? R_MAIN : address == A_SOLVE ? R_SOLVE : R_WORK;
}

static const char *plain_function_name(uint32_t fid) { return fid ? "MPI_Allreduce" : "MPI_Send"; }

/* Out of memory at any of its allocations, the build returns a profile or
 * NULL, but never crashes (it once wrote through a failed calloc). */
START_TEST(test_profile_out_of_memory)
{
    if (!unit_allocation_failures_testable())
        return; /* AddressSanitizer's allocator: the plain build tests this */
    record(&T1, 0, 1, A_WORK, A_MAIN, 0, 0, 3, MPP_CAT_SENDRECV, 40, 8, 0);
    record(&T2, 1, 0, A_SOLVE, A_MAIN, 0, 0, 1, MPP_CAT_COLLECTIVE, 4, 0, 0);
    const mpp_table_t *tables[2] = {&T1, &T2};
    int failed = 0;
    for (int nth = 1; nth <= 40; nth++) {
        unit_fail_allocation(nth);
        P = mpp_profile_build(tables, 2, intervals, 2, quarter_seconds, plain_resolve, NULL, plain_function_name);
        unit_fail_allocation(0);
        failed += P == NULL;
        mpp_profile_free(P);
        P = NULL;
    }
    ck_assert_int_gt(failed, 0);
}
END_TEST

Suite *profile_suite(void)
{
    Suite *s = suite_create("profile");
    TCase *tc;

    tc = tcase_create("intervals");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_profile_intervals);
    tcase_add_test(tc, test_profile_inlined_into_main_ends);
    tcase_add_test(tc, test_profile_stack_stops_at_thread_start);
    tcase_add_test(tc, test_profile_nested_key);
    tcase_add_test(tc, test_profile_times_inclusive_by_category);
    tcase_add_test(tc, test_profile_split_categories_in_one_cell);
    suite_add_tcase(s, tc);

    tc = tcase_create("cells");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_profile_same_resolved_stack_merges);
    tcase_add_test(tc, test_profile_thread_times);
    tcase_add_test(tc, test_profile_stack_stops_after_main);
    tcase_add_test(tc, test_profile_different_keys_stay_apart);
    tcase_add_test(tc, test_profile_cells_share_src);
    tcase_add_test(tc, test_profile_folded_cell);
    tcase_add_test(tc, test_profile_predicted);
    tcase_add_test(tc, test_profile_predicted_repriced);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_args");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_profile_bad_args);
    tcase_add_test(tc, test_profile_out_of_memory);
    suite_add_tcase(s, tc);
    return s;
}
