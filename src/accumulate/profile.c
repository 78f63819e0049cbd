#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/intervals.h"
#include "accumulate/profile.h"
#include "analyze/model.h"
#include "check/finding_list.h"
#include "util/handlemap.h"
#include "util/srckey.h"
#include "util/strmap.h"

static char *interval_key(const mpp_local_interval_t *parent, const mpp_interval_t *in)
{
    char *key = NULL;
    if (!parent)
        return strdup("0");
    if (asprintf(&key, "%s%c%s%c%s%c%d", parent->key, MPP_RS, in->name, MPP_US, in->file, MPP_US, in->line) < 0)
        return NULL;
    return key;
}

/* "MPI_Send" RS frame RS frame ... (srckey.h): the frames of each return
 * address (one, or more where functions were inlined), down to main or a
 * thread's start routine; the C library's frames below are the same for
 * every call. */
char *mpp_profile_src_key(uint32_t fid, const uintptr_t *frames, int depth, mpp_resolve_fn resolve, void *ctx,
                          mpp_function_name_fn function_name)
{
    size_t cap = 256, len = 0;
    char *key = malloc(cap);
    if (!key)
        return NULL;
    len = (size_t)snprintf(key, cap, "%s", function_name(fid));
    int any = 0;
    for (int i = 0; i < depth && frames[i]; i++) {
        const char *frame = resolve(ctx, frames[i]);
        int end = mpp_srckey_stack_end(frame);
        if (end == MPP_STACK_RUNTIME && any)
            break;
        size_t need = len + strlen(frame) + 2;
        if (need > cap) {
            cap = need * 2;
            char *grown = realloc(key, cap);
            if (!grown) {
                free(key);
                return NULL;
            }
            key = grown;
        }
        key[len++] = MPP_RS;
        strcpy(key + len, frame);
        len += strlen(frame);
        any = 1;
        if (end == MPP_STACK_ENTRY)
            break;
    }
    if (!any) { /* folded cells: calls beyond MPIPROF_MAX_SRC */
        char *folded = NULL;
        if (asprintf(&folded, "%s%c%c0%c%c[other call sites]", key, MPP_RS, MPP_US, MPP_US, MPP_US) < 0)
            folded = NULL;
        free(key);
        return folded;
    }
    return key;
}

/* MPI_THREAD_MULTIPLE: threads inside MPI at the same time add up to more
 * than the wall time.  A process's time in MPI is the wall time during which
 * one of its threads was inside (intervals.h); each interval's categories
 * share it in proportion to their summed times.  SRC points keep the
 * summed time of all threads. */
static void scale_to_union(mpp_local_profile_t *p, const mpp_interval_t *intervals, int nintervals,
                           double (*to_seconds)(uint64_t))
{
    if (!mpp_union_measured)
        return;
    double *in_mpi = calloc((size_t)nintervals + 1, sizeof *in_mpi);
    if (!in_mpi)
        return;
    for (int i = 0; i < nintervals; i++) /* inclusive, like every interval total */
        for (int in = i; in >= 0; in = p->intervals[in].parent)
            in_mpi[in] += to_seconds(intervals[i].mpi_union_ticks);
    for (int i = 0; i < nintervals; i++) {
        double summed = 0;
        for (int k = 0; k < MPP_NCAT; k++)
            summed += p->intervals[i].cat[k];
        if (summed > in_mpi[i] && summed > 0) {
            for (int k = 0; k < MPP_NCAT; k++)
                p->intervals[i].cat[k] *= in_mpi[i] / summed;
            /* Real sync overlaps as the receiving calls it happened in do;
             * Potential sync and Time variation are shared by the threads
             * already (each instant of the process's time counts once). */
            p->intervals[i].wait[MPP_WAIT_REALSYNC] *= in_mpi[i] / summed;
        }
    }
    free(in_mpi);
}

/* The profile's intervals, in the order of `intervals` (the process's
 * interval table), with their keys and times; -1 when memory ran out. */
static int local_intervals(mpp_local_profile_t *p, const mpp_interval_t *intervals, int nintervals,
                           double (*to_seconds)(uint64_t))
{
    p->intervals = calloc((size_t)nintervals + 1, sizeof *p->intervals);
    if (!p->intervals)
        return -1;
    p->nintervals = nintervals;
    for (int i = 0; i < nintervals; i++) {
        const mpp_interval_t *in = &intervals[i];
        mpp_local_interval_t *li = &p->intervals[i];
        li->info = in;
        li->parent = in->parent;
        li->key = interval_key(in->parent >= 0 ? &p->intervals[in->parent] : NULL, in);
        li->first_entry = to_seconds(in->first_entry);
        li->exec = to_seconds(in->ticks);
        li->seq = to_seconds(in->seq_ticks);
        li->cpu = in->cpu;
        li->sys = in->sys;
    }
    return 0;
}

/* A call site: its SRC key and the key's ordinal. */
typedef struct {
    const char *src;  /* the canonical copy, in p->srcs */
    uint64_t ordinal; /* its value in `unique` */
} site_t;

/* A call site appears in several intervals: resolve and build its SRC key
 * once (by_stack: by the 64-bit hash of function and frames, as the table
 * itself tells cells apart), keep one copy per distinct key in p->srcs
 * (unique, two addresses can resolve to the same line; its value is the
 * key's ordinal there), and find cells by (interval, that ordinal). */
typedef struct {
    mpp_local_profile_t *p;
    mpp_handlemap_t by_stack, index; /* values: site_t, the cell's position in p->cells */
    mpp_strmap_t unique;
    mpp_resolve_fn resolve;
    void *resolve_ctx;
    mpp_function_name_fn function_name;
    double (*to_seconds)(uint64_t);
} cells_builder_t;

/* The call site of a table's cell (NULL when memory ran out). */
static const site_t *call_site(cells_builder_t *b, const mpp_table_t *table, const mpp_cell_t *c)
{
    mpp_local_profile_t *p = b->p;
    int inserted;
    site_t *known = mpp_handlemap_put(&b->by_stack, mpp_key_hash(c->fid, 0, c->frames, table->depth), &inserted);
    if (!known)
        return NULL;
    if (inserted) {
        char *src =
            mpp_profile_src_key(c->fid, c->frames, table->depth, b->resolve, b->resolve_ctx, b->function_name);
        uintptr_t *u = src ? mpp_strmap_put(&b->unique, src, (uintptr_t)p->nsrcs, &inserted) : NULL;
        if (!u) {
            free(src);
            mpp_handlemap_remove(&b->by_stack, mpp_key_hash(c->fid, 0, c->frames, table->depth), NULL);
            return NULL;
        }
        if (inserted)
            p->srcs[p->nsrcs++] = src;
        else
            free(src);
        *known = (site_t){p->srcs[*u], *u};
    }
    return known;
}

/* The profile's cell of a table's cell at that call site: found, or added
 * (NULL when memory ran out). */
static mpp_local_cell_t *local_cell(cells_builder_t *b, const mpp_cell_t *c, const site_t *site)
{
    mpp_local_profile_t *p = b->p;
    int inserted;
    int *slot = mpp_handlemap_put(&b->index, (uint64_t)c->interval << 32 | site->ordinal, &inserted);
    if (!slot)
        return NULL;
    if (inserted)
        *slot = p->ncells;
    mpp_local_cell_t *lc = &p->cells[*slot];
    if (inserted) {
        lc->interval = (int)c->interval;
        lc->src = site->src;
        lc->fid = c->fid;
        p->ncells++;
    }
    return lc;
}

/* A table's cell added to the profile's: its counts, price, Overlap, wait
 * states and times, those also to its interval and every enclosing one. */
static void add_stats(mpp_local_profile_t *p, mpp_local_cell_t *lc, const mpp_cell_t *c,
                      double (*to_seconds)(uint64_t))
{
    lc->calls += c->stats.calls;
    lc->bytes_sent += c->stats.bytes_sent;
    lc->bytes_recv += c->stats.bytes_recv;
    mpp_price_add(lc->price, c->stats.model);
    lc->overlap += to_seconds(c->stats.overlap);
    for (int w = 0; w < MPP_NWAIT; w++) {
        double seconds = to_seconds(c->stats.wait[w]);
        lc->wait[w] += seconds;
        for (int in = (int)c->interval; in >= 0; in = p->intervals[in].parent)
            p->intervals[in].wait[w] += seconds;
    }
    for (int k = 0; k < MPP_NCAT; k++) {
        double seconds = to_seconds(c->stats.ticks[k]);
        lc->time += seconds;
        lc->cat[k] += seconds;
        /* inclusive: the interval and every enclosing one */
        for (int in = (int)c->interval; in >= 0; in = p->intervals[in].parent)
            p->intervals[in].cat[k] += seconds;
    }
}

/* The time a thread spent at a cell (its table's cell c) to the thread's
 * slot; `first`: the first of its table's cells that reach this one. */
static void add_thread_time(mpp_local_cell_t *lc, const mpp_cell_t *c, int thread, int first, double seconds)
{
    if (!c->stats.calls)
        return;
    if (thread >= 0 && thread < MPP_THREAD_SLOTS) {
        lc->thread_time[thread] += seconds;
        if (!(lc->thread_mask & 1u << thread))
            lc->nthreads++;
        lc->thread_mask |= 1u << thread;
    } else {
        lc->rest_time += seconds;
        lc->rest_threads += first;
        lc->nthreads += first;
    }
}

/* Every thread's table into the profile's SRC points and cells.
 * seen[cell]: the last table (+1) that added to it, so that a thread whose
 * cells of several stacks reach one call site counts once. */
static void add_cells(cells_builder_t *b, const mpp_table_t *const *tables, int ntables, int *seen)
{
    for (int t = 0; t < ntables; t++) {
        const mpp_table_t *table = tables[t];
        for (size_t s = 0; s < table->capacity; s++) {
            const mpp_cell_t *c = &table->cells[s];
            if (!c->hash ||
                (!c->stats.calls && !c->stats.overlap && !c->stats.wait[0] && !c->stats.wait[1] && !c->stats.wait[2]))
                continue; /* calls == 0: Overlap (or a wait state) of a call of another thread's at this site */
            const site_t *site = call_site(b, table, c);
            if (!site)
                continue;
            mpp_local_cell_t *lc = local_cell(b, c, site);
            if (!lc)
                continue;
            double before = lc->time;
            add_stats(b->p, lc, c, b->to_seconds);
            int *last = seen ? &seen[lc - b->p->cells] : NULL;
            add_thread_time(lc, c, table->thread, !last || *last != t + 1, lc->time - before);
            if (last && c->stats.calls)
                *last = t + 1;
        }
    }
}

mpp_local_profile_t *mpp_profile_build(const mpp_table_t *const *tables, int ntables, const mpp_interval_t *intervals,
                                       int nintervals, double (*to_seconds)(uint64_t), mpp_resolve_fn resolve,
                                       void *resolve_ctx, mpp_function_name_fn function_name)
{
    mpp_local_profile_t *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (local_intervals(p, intervals, nintervals, to_seconds) != 0) {
        free(p);
        return NULL;
    }
    size_t total = 0;
    for (int t = 0; t < ntables; t++)
        total += tables[t]->count + 8;
    p->cells = calloc(total ? total : 1, sizeof *p->cells);
    p->srcs = calloc(total ? total : 1, sizeof *p->srcs);
    if (!p->cells || !p->srcs) {
        mpp_profile_free(p);
        return NULL;
    }
    cells_builder_t b = {.p = p,
                         .resolve = resolve,
                         .resolve_ctx = resolve_ctx,
                         .function_name = function_name,
                         .to_seconds = to_seconds};
    mpp_handlemap_init(&b.by_stack, sizeof(site_t));
    mpp_handlemap_init(&b.index, sizeof(int));
    mpp_strmap_init(&b.unique);
    int *seen = calloc(total ? total : 1, sizeof *seen);
    add_cells(&b, tables, ntables, seen);
    free(seen);
    mpp_handlemap_free(&b.by_stack);
    mpp_handlemap_free(&b.index);
    mpp_strmap_free(&b.unique);
    scale_to_union(p, intervals, nintervals, to_seconds);
    return p;
}

void mpp_profile_predict(mpp_local_profile_t *p, int (*op)(uint32_t fid), const mpp_model_t *model)
{
    for (int i = 0; i < p->nintervals; i++) {
        for (int k = 0; k < MPP_NCAT; k++)
            p->intervals[i].pcat[k] = 0;
        p->intervals[i].overlap = 0;
    }
    for (int c = 0; c < p->ncells; c++) {
        mpp_local_cell_t *lc = &p->cells[c];
        lc->model = mpp_model_price_seconds(model, lc->price);
        double pcat[MPP_NCAT] = {0};
        pcat[MPP_CAT_IO] = lc->cat[MPP_CAT_IO];
        int o = op(lc->fid);
        if (o == MPP_OP_MEASURED) {
            for (int k = 0; k < MPP_CAT_IO; k++)
                pcat[k] = lc->cat[k];
        } else {
            /* A request's Overlap never exceeds its transfer, which is in
             * this cell's model time (the cell of the call that started it);
             * it is measured in ticks against a transfer time priced at
             * MPI_Init's parameters, turned into ticks at the rate estimated
             * there (which differs from the final one by ~1e-5): keep the
             * sum within the model's.  When MPI_Finalize's parameters are
             * kept (smaller: a faster link), that bounds Overlap by the
             * re-priced transfers. */
            if (lc->overlap > lc->model)
                lc->overlap = lc->model;
            double rest = lc->model - lc->overlap, measured = 0;
            for (int k = 0; k < MPP_CAT_IO; k++)
                measured += lc->cat[k];
            for (int k = 0; k < MPP_CAT_IO; k++)
                pcat[k] = measured > 0 ? rest * lc->cat[k] / measured : 0;
            if (measured <= 0 && rest > 0) /* no time measured here: the operation's category */
                pcat[o >= MPP_OP_BARRIER ? MPP_CAT_COLLECTIVE : MPP_CAT_SENDRECV] = rest;
        }
        lc->predicted = 0;
        for (int k = 0; k < MPP_NCAT; k++)
            lc->predicted += pcat[k];
        for (int in = lc->interval; in >= 0; in = p->intervals[in].parent) {
            for (int k = 0; k < MPP_NCAT; k++)
                p->intervals[in].pcat[k] += pcat[k];
            p->intervals[in].overlap += lc->overlap;
        }
    }
}

void mpp_profile_free(mpp_local_profile_t *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nintervals; i++) {
        free(p->intervals[i].key);
        free(p->intervals[i].hw);
    }
    for (int s = 0; s < p->nsrcs; s++)
        free(p->srcs[s]);
    free(p->srcs);
    free(p->intervals);
    free(p->cells);
    mpp_finding_list_free(&p->findings);
    free(p);
}

int mpp_profile_set_counters(mpp_local_profile_t *p, const double *values)
{
    size_t width = (size_t)p->context.nevents * MPP_HW_NV;
    if (!width || !values)
        return 0;
    for (int i = 0; i < p->nintervals; i++) {
        free(p->intervals[i].hw);
        p->intervals[i].hw = malloc(width * sizeof(double));
        if (!p->intervals[i].hw)
            return -1;
        memcpy(p->intervals[i].hw, values + (size_t)i * width, width * sizeof(double));
    }
    return 0;
}
