/* The replay (replay.h): each traced call of a process added to its
 * location's table as the wrappers add a call at run time (its cell by
 * function, interval and call stack; calls, time by category, bytes; the
 * wait states where the dynamic mode's batches add them), then the
 * process's profile built by the same mpp_profile_build as MPI_Finalize's.
 *
 * A call site is one synthetic return address per site of the trace
 * (its index + 1), resolved to the site's frame records: the SRC key is
 * then the function and the frames mpiprof recorded, or, for a trace
 * without call sites, the function and one frame saying so. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/intervals.h"
#include "check/finding_list.h"
#include "context/threads.h"
#include "gen/function_table.h"
#include "replay/replay.h"
#include "util/srckey.h"

/* The frame of a call whose trace gives no call site: the SRC point is
 * the MPI function alone (path, line, function empty; its text). */
#define REGION_ALONE \
    "\x1f"           \
    "0\x1f\x1f[no call site in the trace: the MPI function alone]"

static double ticks_per_second = 1e9;

double rp_seconds(uint64_t ticks) { return (double)ticks / ticks_per_second; }

static const char *resolve_site(void *ctx, uintptr_t address)
{
    const rp_trace_t *t = ctx;
    uint32_t site = (uint32_t)(address - 1);
    return site > 0 && site < t->nsites ? t->sites[site] : REGION_ALONE;
}

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }

/* As the wrappers split it (mpp_call_ticks_split, by mpp_split_ticks): by
 * the kinds of the requests the call completed or, completing none, of
 * those it began (a start's persistent sends, receives and collectives). */
void rp_split_time(const rp_call_t *c, uint64_t dt, uint64_t share[MPP_NCAT])
{
    const mpp_function_info_t *f = &mpp_functions[c->fid];
    int completed = c->p2p_done + c->coll_done + c->io_done > 0;
    uint32_t count[MPP_NCAT] = {0};
    count[MPP_CAT_SENDRECV] = completed ? c->p2p_done : c->p2p_begun;
    count[MPP_CAT_COLLECTIVE] = completed ? c->coll_done : c->coll_begun;
    count[MPP_CAT_IO] = c->io_done;
    if (!f->by_request || !(count[MPP_CAT_SENDRECV] + count[MPP_CAT_COLLECTIVE] + count[MPP_CAT_IO])) {
        for (int k = 0; k < MPP_NCAT; k++)
            share[k] = 0;
        share[f->category] = dt;
        return;
    }
    mpp_split_ticks(dt, count, share);
}

static void add_time(mpp_stats_t *s, const rp_call_t *c, uint64_t dt)
{
    uint64_t share[MPP_NCAT];
    rp_split_time(c, dt, share);
    for (int k = 0; k < MPP_NCAT; k++)
        s->ticks[k] += share[k];
}

/* One call into its location's table, in the interval open now. */
static int replay_call(const rp_call_t *c, mpp_table_t *table)
{
    uintptr_t frames[MPP_MAX_DEPTH] = {(uintptr_t)c->site + 1};
    mpp_cell_t *cell = mpp_table_lookup(table, c->fid, mpp_current_interval, frames);
    if (!cell)
        return -1;
    uint64_t dt = c->leave > c->enter ? (uint64_t)(c->leave - c->enter) : 0;
    cell->stats.calls++;
    add_time(&cell->stats, c, dt);
    cell->stats.bytes_sent += c->bytes_sent;
    cell->stats.bytes_recv += c->bytes_recv;
    for (int w = 0; w < MPP_NWAIT; w++)
        cell->stats.wait[w] += c->wait[w] > 0 ? (uint64_t)c->wait[w] : 0;
    return 0;
}

static void replay_mark(const rp_trace_t *t, const rp_mark_t *m, uintptr_t thread)
{
    const rp_region_t *r = &t->regions[m->region];
    mpp_mark_t mark = {r->file, r->line, 0};
    uint64_t at = m->time > 0 ? (uint64_t)m->time : 0;
    if (r->kind == RP_REGION_SEQ)
        (m->begin ? mpp_seq_begin : mpp_seq_end)(&mark, at);
    else if (m->begin)
        mpp_interval_begin(r->name, &mark, at, thread);
    else
        mpp_interval_end(r->name, &mark, at, thread);
}

/* What becomes of a call of the process's location l (its index among
 * the process's) in the replay: into its table, or rp_each_call's. */
typedef int (*call_fn)(void *ctx, int l, const rp_call_t *c);

/* The replay into the tables, with the periods during which one of the
 * process's threads was inside MPI (its calls' union over its locations,
 * [start, end) pairs in time order): each is added to the interval open
 * when it ends, as the dynamic mode does at MPI_THREAD_MULTIPLE
 * (intervals.h, mpi_union_ticks).  A period ends at a call's return: that
 * call's turn in the replay is its place. */
typedef struct {
    mpp_table_t *tables;
    int64_t *spans;
    size_t nspans, next;
} tables_t;

static int table_call(void *ctx, int l, const rp_call_t *c)
{
    tables_t *tt = ctx;
    for (; tt->next < tt->nspans && tt->spans[2 * tt->next + 1] <= c->leave; tt->next++)
        mpp_intervals[mpp_current_interval].mpi_union_ticks +=
            (uint64_t)(tt->spans[2 * tt->next + 1] - tt->spans[2 * tt->next]);
    return replay_call(c, &tt->tables[l]);
}

static int by_time(const void *a, const void *b)
{
    const int64_t *x = a, *y = b; /* time, +1 enter / -1 leave: a leave first at one instant */
    return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* The union of the calls of the process's locations (tt->spans); -1 when
 * memory ran out. */
static int union_spans(const rp_trace_t *t, const rp_process_t *proc, tables_t *tt)
{
    size_t n = 0, k = 0;
    for (int l = 0; l < proc->nlocations; l++)
        n += t->locations[proc->locations[l]].ncalls;
    int64_t *ev = malloc((2 * n + 1) * 2 * sizeof *ev);
    tt->spans = malloc((2 * n + 1) * sizeof *tt->spans);
    if (!ev || !tt->spans) {
        free(ev);
        return -1;
    }
    for (int l = 0; l < proc->nlocations; l++) {
        const rp_location_t *loc = &t->locations[proc->locations[l]];
        for (size_t c = 0; c < loc->ncalls; c++) {
            int64_t enter = loc->calls[c].enter, leave = loc->calls[c].leave > enter ? loc->calls[c].leave : enter;
            ev[2 * k] = enter, ev[2 * k + 1] = 1, k++;
            ev[2 * k] = leave, ev[2 * k + 1] = -1, k++;
        }
    }
    qsort(ev, k, 2 * sizeof *ev, by_time);
    int inside = 0;
    for (size_t e = 0; e < k; e++) {
        if (ev[2 * e + 1] > 0 && inside++ == 0)
            tt->spans[2 * tt->nspans] = ev[2 * e];
        else if (ev[2 * e + 1] < 0 && --inside == 0)
            tt->spans[2 * tt->nspans++ + 1] = ev[2 * e];
    }
    free(ev);
    return 0;
}

/* The process's calls and marks, all its locations merged in time order
 * (a call before a mark at its return's instant: the wrapper read its
 * clock first), into `fn` and the interval stage (no fn: the marks
 * alone). */
static int replay_process(const rp_trace_t *t, const rp_process_t *proc, call_fn fn, void *ctx)
{
    size_t *call = calloc((size_t)proc->nlocations, sizeof *call),
           *mark = calloc((size_t)proc->nlocations, sizeof *mark);
    int rc = call && mark ? 0 : -1;
    while (rc == 0) {
        int best = -1, best_is_call = 0;
        int64_t best_time = INT64_MAX;
        for (int l = 0; l < proc->nlocations; l++) {
            const rp_location_t *loc = &t->locations[proc->locations[l]];
            if (fn && call[l] < loc->ncalls && loc->calls[call[l]].leave < best_time)
                best = l, best_is_call = 1, best_time = loc->calls[call[l]].leave;
            if (mark[l] < loc->nmarks && loc->marks[mark[l]].time < best_time)
                best = l, best_is_call = 0, best_time = loc->marks[mark[l]].time;
        }
        if (best < 0)
            break;
        const rp_location_t *loc = &t->locations[proc->locations[best]];
        if (best_is_call)
            rc = fn(ctx, best, &loc->calls[call[best]++]);
        else
            replay_mark(t, &loc->marks[mark[best]++], (uintptr_t)best + 1);
    }
    free(call), free(mark);
    return rc;
}

/* Interval 0 of process p: from MPI_Init's return to MPI_Finalize's
 * entry, or its first and last events where the trace has neither. */
static void interval0_of(const rp_trace_t *t, const rp_process_t *proc, int64_t *from, int64_t *to)
{
    const rp_location_t *master = &t->locations[proc->locations[0]];
    *from = master->init_leave >= 0 ? master->init_leave : master->first;
    *to = master->finalize_enter >= 0 ? master->finalize_enter : master->last;
    if (*from < 0)
        *from = 0;
    if (*to < *from)
        *to = *from;
}

/* The interval stage for process p (intervals.c: one process at a time),
 * interval 0 open; 0, or -1 when memory ran out. */
static int start_intervals(const rp_trace_t *t, const rp_process_t *proc, int max_intervals, int max_nesting)
{
    int64_t from, to;
    interval0_of(t, proc, &from, &to);
    /* no CPU times in a trace: the interval stage reads them as 0 */
    static const double no_cpu[2];
    mpp_intervals_end_at(
        t->locations[proc->locations[0]].finalize_enter >= 0 ? "MPI_Finalize" : "the end of its trace", no_cpu);
    /* every boundary of the process kept: interval 0's two and its marks' */
    size_t boundaries = 2;
    for (int l = 0; l < proc->nlocations; l++)
        boundaries += t->locations[proc->locations[l]].nmarks;
    if (mpp_interval_log_init(boundaries) != 0)
        return -1;
    return mpp_intervals_init((uint32_t)max_intervals + 1, (uint32_t)max_nesting, (uint64_t)from);
}

int rp_intervals(const rp_trace_t *t, int p, int max_intervals, int max_nesting)
{
    const rp_process_t *proc = &t->processes[p];
    int64_t from, to;
    interval0_of(t, proc, &from, &to);
    if (start_intervals(t, proc, max_intervals, max_nesting) != 0 || replay_process(t, proc, NULL, NULL) != 0)
        return -1;
    mpp_intervals_close_all((uint64_t)to);
    return 0;
}

/* rp_each_call's function and its argument, for each call */
typedef struct {
    rp_call_fn fn;
    void *ctx;
} each_t;

static int each_call(void *ctx, int l, const rp_call_t *c)
{
    (void)l;
    const each_t *each = ctx;
    return each->fn(each->ctx, c, mpp_current_interval);
}

int rp_each_call(const rp_trace_t *t, int p, int max_intervals, int max_nesting, rp_call_fn fn, void *ctx)
{
    const rp_process_t *proc = &t->processes[p];
    each_t each = {fn, ctx};
    int64_t from, to;
    interval0_of(t, proc, &from, &to);
    if (start_intervals(t, proc, max_intervals, max_nesting) != 0 || replay_process(t, proc, each_call, &each) != 0)
        return -1;
    mpp_intervals_close_all((uint64_t)to);
    return 0;
}

/* The process's Threads parameter: as trace mode recorded it, else what
 * the trace gives (its locations with calls: the threads that called MPI;
 * the rest n/a, said by mpiprof-analyze's Warnings). */
static char *threads_fact(const rp_trace_t *t, const rp_process_t *proc)
{
    mpp_thread_counts_t c = {-1, 0, -1, MPP_OMP_UNKNOWN};
    if (!proc->threads || sscanf(proc->threads, "%d %d %d %d", &c.alive, &c.mpi, &c.omp, &c.source) != 4) {
        c = (mpp_thread_counts_t){-1, 0, -1, MPP_OMP_UNKNOWN};
        for (int l = 0; l < proc->nlocations; l++)
            c.mpi += t->locations[proc->locations[l]].ncalls > 0;
    }
    return mpp_threads_fact(proc->host, &c);
}

int rp_profile(const rp_trace_t *t, int p, int max_src, int max_intervals, int max_nesting, rp_local_t *out)
{
    memset(out, 0, sizeof *out);
    ticks_per_second = t->resolution ? (double)t->resolution : 1e9;
    const rp_process_t *proc = &t->processes[p];
    int64_t from, to;
    interval0_of(t, proc, &from, &to);
    mpp_table_t *tables = calloc((size_t)proc->nlocations, sizeof *tables);
    const mpp_table_t **views = calloc((size_t)proc->nlocations, sizeof *views);
    int rc = tables && views && start_intervals(t, proc, max_intervals, max_nesting) == 0 ? 0 : -1;
    for (int l = 0; rc == 0 && l < proc->nlocations; l++) {
        rc = mpp_table_init(&tables[l], (size_t)max_src, 1);
        tables[l].thread = l; /* OTF2 locations are threads: the process's first (MPI_Init's) is 0 */
        views[l] = &tables[l];
    }
    /* threads inside MPI at once (several locations): their union, as at
     * MPI_THREAD_MULTIPLE (profile.c scales the categories to it) */
    tables_t tt = {tables, NULL, 0, 0};
    if (rc == 0 && proc->nlocations > 1)
        rc = union_spans(t, proc, &tt);
    if (rc == 0)
        rc = replay_process(t, proc, table_call, &tt);
    for (; rc == 0 && tt.next < tt.nspans; tt.next++) /* those ending at the last calls */
        mpp_intervals[mpp_current_interval].mpi_union_ticks +=
            (uint64_t)(tt.spans[2 * tt.next + 1] - tt.spans[2 * tt.next]);
    free(tt.spans);
    if (rc == 0) {
        mpp_intervals_close_all((uint64_t)to);
        out->nintervals = (int)mpp_nintervals;
        out->intervals = malloc((size_t)out->nintervals * sizeof *out->intervals);
        rc = out->intervals ? 0 : -1;
    }
    if (rc == 0) {
        memcpy(out->intervals, mpp_intervals, (size_t)out->nintervals * sizeof *out->intervals);
        mpp_union_measured = proc->nlocations > 1;
        out->profile = mpp_profile_build(views, proc->nlocations, out->intervals, out->nintervals, rp_seconds,
                                         resolve_site, (void *)t, function_name);
        mpp_union_measured = 0;
        rc = out->profile ? 0 : -1;
    }
    if (rc == 0) {
        mpp_local_context_t *ctx = &out->profile->context;
        ctx->machine_na = "the trace does not describe the machine (hwloc is read at run time only)";
        ctx->counters_na = "the trace records no hardware counters";
        if ((out->facts[0] = threads_fact(t, proc)) != NULL)
            ctx->facts = out->facts, ctx->nfacts = 1;
        out->profile->waitstates = 1;
        out->profile->thread_times = proc->nlocations > 1; /* the locations are threads */
        out->profile->speed = 1.0;
        /* its findings as its MPI_Finalize gave them to the reduction (a
         * process without them in the trace: none, at the run's level);
         * unreadable ones as far as they could be read (rp_trace_t) */
        mpp_finding_list_t *f = &out->profile->findings;
        *f = (mpp_finding_list_t){.level = t->check_level};
        size_t max = 0;
        if (proc->findings && mpp_finding_list_from_text(f, &max, proc->findings) != 0)
            f->level = t->check_level;
        out->profile->findings_max = max ? max : t->findings_max;
        /* the kinds the events give, from them (checks.c) */
        rc = rp_check_findings(t, p, out->profile->findings_max, f);
    }
    for (int l = 0; tables && l < proc->nlocations; l++)
        mpp_table_free(&tables[l]);
    free(tables);
    free(views);
    if (rc != 0)
        rp_local_free(out);
    return rc;
}

void rp_local_free(rp_local_t *l)
{
    free(l->facts[0]);
    mpp_profile_free(l->profile);
    free(l->intervals);
    memset(l, 0, sizeof *l);
}

void rp_share(int nprocesses, int part, int nparts, int *first, int *end)
{
    int parts = nparts < nprocesses ? nparts : nprocesses;
    *first = *end = nprocesses;
    if (part < parts) {
        *first = (int)((int64_t)part * nprocesses / parts);
        *end = (int)((int64_t)(part + 1) * nprocesses / parts);
    }
}

int rp_share_owner(int nprocesses, int nparts, int p)
{
    int64_t parts = nparts < nprocesses ? nparts : nprocesses;
    return (int)(((int64_t)(p + 1) * parts - 1) / nprocesses);
}

int rp_untraced(const char *function)
{
    static const char *const untraced[] = {"MPI_Start",   "MPI_Startall", "MPI_Mrecv",
                                           "MPI_Mrecv_c", "MPI_Imrecv",   "MPI_Imrecv_c"};
    for (size_t i = 0; i < sizeof untraced / sizeof *untraced; i++)
        if (!strcmp(function, untraced[i]))
            return 1;
    return 0;
}

void rp_totals(const rp_trace_t *t, uint64_t sends, rp_totals_t *out)
{
    memset(out, 0, sizeof *out);
    out->events = t->events;
    out->mpi_events = t->mpi_events;
    out->sends = sends;
    out->recvs = t->nrecvs;
    out->collectives = t->ncollectives;
    out->unmatched_receives = t->unmatched_receives;
    out->unmatched_sends = t->unmatched_sends;
    out->unmatched_collectives = t->unmatched_collectives;
    out->untraced = t->untraced;
    out->first = INT64_MAX;
    out->last = INT64_MIN;
    for (int l = 0; l < t->nlocations; l++) {
        const rp_location_t *loc = &t->locations[l];
        if (loc->process < 0 || !loc->events)
            continue;
        out->first = loc->first < out->first ? loc->first : out->first;
        out->last = loc->last > out->last ? loc->last : out->last;
        out->offsets += loc->noffsets > 0;
        out->drifting += loc->noffsets > 1 && !loc->offset_constant;
        int rank = t->processes[loc->process].rank;
        for (int i = 0; i < loc->noffsets; i++) {
            out->inexact += loc->offset[i] || loc->offset_dev[i];
            int64_t u = (int64_t)loc->offset_dev[i];
            int which = i == loc->noffsets - 1 && i > 0;
            if (u > out->uncertain[which] || (u == out->uncertain[which] && rank < out->uncertain_rank[which]))
                out->uncertain[which] = u, out->uncertain_rank[which] = rank;
        }
    }
    out->from_mpiprof = t->from_mpiprof;
    out->incomplete = t->incomplete;
    snprintf(out->incomplete_why, sizeof out->incomplete_why, "%s", t->incomplete_why);
}
