/* The reduction of every process's profile to one reduced data set on one
 * process (reduced.h): union of the keys, sums, minima and maxima over the
 * processes, per-process values of the selected ones.  The messages go
 * through an exchange (exchange.h): MPI at MPI_Finalize (exchange_mpi.c),
 * memory for partial protocols and mpiprof-merge (exchange_memory.c).  The
 * steps are here; the reduced data is made of their result in
 * reduce_result.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/characteristics.h"
#include "analyze/counter_stats.h"
#include "context/config.h"
#include "records/machine.h"
#include "reduce/dictionary.h"
#include "reduce/exchange.h"
#include "reduce/reduce_steps.h"
#include "util/srckey.h"
#include "util/warnings.h"

enum { TAG_DICT = 7701, TAG_SELECTED = 7702, TAG_CONTEXT = 7703, TAG_FINDINGS = 7704 };

typedef mpp_double_int_t double_int_t;

/* Union of every process's dictionary on rank 0: in round k, ranks with bit
 * k set send theirs to rank - 2^k and leave.  `after_merge` (may be NULL)
 * runs on each merged dictionary: a process holds the records of a block of
 * consecutive ranks, which is what lets placement runs coalesce. */
static void tree_union(mpp_dict_t *d, mpp_exchange_t *x, int tag, int (*after_merge)(mpp_dict_t *))
{
    int rank = x->position, size = x->size;
    for (int step = 1; step < size; step <<= 1) {
        if (rank & step) {
            char *buf;
            size_t len;
            if (mpp_dict_serialize(d, &buf, &len) != 0)
                len = 0, buf = NULL;
            x->send(x, buf, len, rank - step, tag);
            free(buf);
            return;
        }
        if (rank + step < size) {
            size_t len = 0;
            char *buf = x->recv(x, rank + step, tag, &len);
            if (!buf || mpp_dict_merge_serialized(d, buf, len) != 0)
                mpp_warn("the profile of rank %d could not be merged (corrupt or out of memory)",
                         mpp_exchange_rank(x, rank + step));
            if (after_merge && after_merge(d) != 0)
                mpp_warn("placement runs could not be coalesced (out of memory)");
            free(buf);
        }
    }
}

static void broadcast_dict(mpp_dict_t *d, mpp_exchange_t *x)
{
    int rank = x->position;
    char *buf = NULL;
    size_t len = 0;
    if (rank == 0 && mpp_dict_serialize(d, &buf, &len) != 0)
        len = 0;
    long long n = (long long)len;
    x->bcast(x, &n, sizeof n);
    if (rank != 0)
        buf = malloc(n ? (size_t)n : 1);
    x->bcast(x, buf, (size_t)n);
    if (rank != 0) {
        mpp_dict_free(d);
        mpp_dict_init(d);
        if (mpp_dict_load_serialized(d, buf, (size_t)n) != 0)
            mpp_warn("the canonical dictionary from rank 0 could not be loaded (corrupt or out of memory)");
    }
    free(buf);
}

/* The node of the lowest rank of a host: described now (describe_node,
 * hwloc), or before the reduction (partial protocols, mpiprof-merge). */
static int describe_node(const mpp_local_context_t *ctx, char **type, char **allowed, char **error)
{
    if (!ctx->node_type && !ctx->node_error)
        return ctx->describe_node(type, allowed, error);
    if (ctx->node_error) {
        *error = strdup(ctx->node_error);
        return -1;
    }
    *type = strdup(ctx->node_type);
    *allowed = strdup(ctx->node_allowed ? ctx->node_allowed : "");
    return *type && *allowed ? 0 : -1;
}

/* Second union, to rank 0 only: the machine context.  The lowest rank of
 * each host (known from the host records of the first union) describes its
 * node; node types are deduplicated by the union itself, so what travels
 * grows with the distinct node types, and placement runs coalesce on the
 * way up. */
static void context_union(mpp_dict_t *m, const mpp_local_profile_t *lp, const mpp_dict_t *d, const char *hostname,
                          mpp_exchange_t *x, int selected)
{
    const mpp_local_context_t *ctx = &lp->context;
    int rank = mpp_exchange_rank(x, x->position);
    mpp_dict_init(m);
    for (int f = 0; f < ctx->nfacts; f++)
        mpp_dict_add(m, MPP_REC_FACT, ctx->facts[f], rank, 1);
    if (selected)
        mpp_reduce_threads_rank_fact(m, ctx, rank);
    if (!ctx->machine_na) {
        mpp_run_t run;
        if (mpp_run_single(&run, hostname, rank, ctx->binding) == 0) {
            char *key = mpp_run_key(&run);
            if (key)
                mpp_dict_add(m, MPP_REC_PLACEMENT, key, rank, 1);
            free(key);
        }
        mpp_run_free(&run);
        long host = mpp_dict_find(d, MPP_REC_HOST, hostname);
        if (host >= 0 && d->records[host].min == rank && (ctx->describe_node || ctx->node_type || ctx->node_error)) {
            char *type = NULL, *allowed = NULL, *error = NULL, *info = NULL;
            if (describe_node(ctx, &type, &allowed, &error) == 0) {
                char hash[17];
                mpp_node_type_hash(type, hash);
                mpp_dict_add(m, MPP_REC_NODETYPE, type, rank, 1);
                if (asprintf(&info, "%s%c%s%c%s", hostname, MPP_US, hash, MPP_US, allowed) >= 0)
                    mpp_dict_add(m, MPP_REC_HOSTINFO, info, rank, 1);
            } else if (asprintf(&info, "%s%c%s: %s", MPP_FACT_TOPOLOGY, MPP_US, hostname,
                                error ? error : "unknown error") >= 0) {
                mpp_dict_add(m, MPP_REC_FACT, info, rank, 1);
            }
            free(type), free(allowed), free(error), free(info);
        }
    }
    tree_union(m, x, TAG_CONTEXT, mpp_dict_coalesce_runs);
    if (x->position == 0)
        mpp_dict_canonical_order(m);
}

/* The positions whose processes get per-process values: those whose rank
 * the MPIPROF_RANKS value selects among the run's ranks (calloc'd). */
static unsigned char *select_positions(const mpp_config_t *cfg, const mpp_exchange_t *x)
{
    unsigned char *chosen = calloc((size_t)x->nprocs + 1, 1), *selected = calloc((size_t)x->size + 1, 1);
    if (chosen && selected) {
        mpp_config_select_ranks(cfg, x->nprocs, chosen);
        for (int p = 0; p < x->size; p++)
            selected[p] = chosen[mpp_exchange_rank(x, p)];
    }
    free(chosen);
    return selected;
}

/* This process's warnings: given with the profile (mpiprof-merge), or
 * those raised in this process (warnings.h). */
static size_t warnings_count(const mpp_local_context_t *ctx)
{
    return ctx->warnings ? (size_t)ctx->nwarnings : mpp_warnings_count();
}

static const char *warning_text(const mpp_local_context_t *ctx, size_t w)
{
    return ctx->warnings ? ctx->warnings[w] : mpp_warning_text(w);
}

/* The SRC points and cells of this process, each cell's key and record.
 * The cells of an SRC point share its string (profile.h): by_string finds
 * its record by the string's address, without hashing the key; src_hex
 * holds the hashes by record position, below `most`. */
static void own_cell_keys(mpp_reduce_steps_t *r, char (*interval_hex)[17], char (*src_hex)[17], size_t most)
{
    const mpp_local_profile_t *lp = r->lp;
    mpp_dict_t *d = &r->d;
    char(*cell_keys)[MPP_CELL_KEY_LEN] = r->cell_keys;
    long *cell_at = r->cell_at;
    mpp_handlemap_t by_string;
    mpp_handlemap_init(&by_string, sizeof(long));
    for (int c = 0; interval_hex && src_hex && cell_keys && c < lp->ncells; c++) {
        int inserted = 1;
        long *known = mpp_handlemap_put(&by_string, (uint64_t)(uintptr_t)lp->cells[c].src, &inserted);
        long pos = known && !inserted ? *known : -1;
        if (inserted) {
            size_t before = d->count;
            pos = mpp_dict_put(d, MPP_REC_SRC, lp->cells[c].src, 0, 0);
            if (pos >= 0 && (size_t)pos < most && d->count > before) /* a new SRC point */
                mpp_key_hash_hex(lp->cells[c].src, src_hex[pos]);
            if (known)
                *known = pos;
        }
        cell_keys[c][0] = '\0';
        if (cell_at)
            cell_at[c] = -1;
        if (pos < 0 || (size_t)pos >= most)
            continue; /* out of memory */
        mpp_cell_key_of(interval_hex[lp->cells[c].interval], src_hex[pos], cell_keys[c]);
        long at = mpp_dict_put(d, MPP_REC_CELL, cell_keys[c], 0, 1);
        if (cell_at)
            cell_at[c] = at;
    }
    mpp_handlemap_free(&by_string);
}

/* 1. Keys of this process: its intervals, SRC points and cells, host,
 * warnings and counter events.  A cell key is made of the hashes of its
 * interval's and SRC point's keys: each hashed once (an SRC point has a
 * cell in every interval). */
static void own_keys(mpp_reduce_steps_t *r, const char *hostname)
{
    const mpp_local_profile_t *lp = r->lp;
    int rank = mpp_exchange_rank(r->x, r->x->position);
    mpp_dict_t *d = &r->d;
    mpp_dict_init(d);
    char(*interval_hex)[17] = malloc(((size_t)lp->nintervals + 1) * sizeof *interval_hex);
    size_t most = (size_t)lp->nintervals + 2 * (size_t)lp->ncells + 1;
    char(*src_hex)[17] = malloc(most * sizeof *src_hex); /* by record position */
    r->cell_keys = malloc(((size_t)lp->ncells + 1) * sizeof *r->cell_keys);
    r->cell_at = malloc(((size_t)lp->ncells + 1) * sizeof *r->cell_at);
    for (int i = 0; i < lp->nintervals; i++) {
        mpp_dict_add(d, MPP_REC_INTERVAL, lp->intervals[i].key, (int64_t)(lp->intervals[i].first_entry * 1e9), 1);
        if (interval_hex)
            mpp_key_hash_hex(lp->intervals[i].key, interval_hex[i]);
    }
    own_cell_keys(r, interval_hex, src_hex, most);
    free(interval_hex);
    free(src_hex);
    mpp_dict_add(d, MPP_REC_HOST, hostname, rank, 1);
    for (size_t w = 0; w < warnings_count(&lp->context); w++)
        mpp_dict_add(d, MPP_REC_WARNING, warning_text(&lp->context, w), rank, 1);
    for (int e = 0; e < lp->context.nevents; e++) /* min: position in the list asked */
        mpp_dict_add(d, MPP_REC_EVENT, lp->context.events[e], e, 1);
    if (lp->thread_times)
        mpp_dict_add(d, MPP_REC_FACT, MPP_FACT_THREAD_TIMES, rank, 1);
}

/* 2. Union on rank 0, canonical order, broadcast; where the intervals and
 * cells are in it. */
static void unite_keys(mpp_reduce_steps_t *r)
{
    mpp_dict_t *d = &r->d;
    tree_union(d, r->x, TAG_DICT, NULL);
    if (r->x->position == 0)
        mpp_dict_canonical_order(d);
    broadcast_dict(d, r->x);
    r->ni = mpp_count_of_kind(d, MPP_REC_INTERVAL), r->nc = mpp_count_of_kind(d, MPP_REC_CELL);
    r->i0 = mpp_first_of_kind(d, MPP_REC_INTERVAL), r->c0 = mpp_first_of_kind(d, MPP_REC_CELL);
    r->thread_times = mpp_dict_find(d, MPP_REC_FACT, MPP_FACT_THREAD_TIMES) >= 0;
}

/* Counter events on the global index, and the derived rates they allow
 * (none when memory ran out). */
static void index_counter_events(mpp_reduce_steps_t *r)
{
    const mpp_local_profile_t *lp = r->lp;
    const mpp_dict_t *d = &r->d;
    int ne = mpp_count_of_kind(d, MPP_REC_EVENT), e0 = mpp_first_of_kind(d, MPP_REC_EVENT);
    char **event_names = calloc((size_t)ne + 1, sizeof *event_names);
    int *event_map = malloc(((size_t)lp->context.nevents + 1) * sizeof *event_map);
    mpp_rate_use_t *uses = malloc(((size_t)mpp_ncounter_rates + 1) * sizeof *uses);
    int nrates = 0;
    if (event_names && event_map && uses) {
        for (int e = 0; e < ne; e++)
            event_names[e] = mpp_first_field(d->records[e0 + e].key);
        for (int l = 0; l < lp->context.nevents; l++) {
            long pos = mpp_dict_find(d, MPP_REC_EVENT, lp->context.events[l]);
            event_map[l] = pos >= 0 ? (int)pos - e0 : -1;
        }
        nrates = mpp_counter_rates_select(event_names, ne, uses);
    } else {
        ne = 0;
    }
    r->ne = ne, r->nrates = nrates, r->event_names = event_names, r->event_map = event_map, r->uses = uses;
    r->hw_width = ne * MPP_HW_NV + nrates;
    r->row = malloc(((size_t)r->hw_width + 1) * sizeof *r->row);
}

/* 3. Selected processes (rank 0's choice). */
static void select_processes(mpp_reduce_steps_t *r, const char *ranks_spec)
{
    mpp_exchange_t *x = r->x;
    char spec[MPP_CONFIG_STRING_MAX] = {0};
    if (x->position == 0)
        strncpy(spec, ranks_spec, sizeof spec - 1);
    x->bcast(x, spec, sizeof spec);
    mpp_config_t selection_cfg;
    memset(&selection_cfg, 0, sizeof selection_cfg);
    strcpy(selection_cfg.text[MPP_CFG_RANKS], spec);
    r->selected = select_positions(&selection_cfg, x);
    r->nselected = 0;
    for (int p = 0; r->selected && p < x->size; p++)
        r->nselected += r->selected[p];
}

/* Where each value sits, for the union's intervals and cells. */
static mpp_reduce_layout_t value_layout(const mpp_reduce_steps_t *r)
{
    int ni = r->ni, nc = r->nc, predict = r->predict;
    mpp_reduce_layout_t at;
    at.nq = (size_t)ni * MPP_NQ, at.ncv = (size_t)nc * MPP_NCELLV, at.nhw = (size_t)ni * r->hw_width;
    size_t npq = predict ? at.nq : 0, ncp = predict ? (size_t)nc * MPP_NCELLP : 0;
    at.pq0 = at.nq + at.ncv + at.nhw, at.cp0 = at.pq0 + npq;
    at.nsum = at.nq + at.ncv + at.nhw + npq + ncp;
    at.pmm0 = at.nq + (size_t)nc + at.nhw, at.pcmm0 = at.pmm0 + npq;
    at.wmm0 = at.pcmm0 + (predict ? (size_t)nc : 0);
    at.nminmax = at.wmm0 + (r->lp->waitstates ? (size_t)nc * MPP_CELL_NWAIT : 0);
    mpp_reduce_threads_layout(r, &at);
    return at;
}

/* The sums over the processes of each interval's work (computation time x
 * core speed), on every process: one more reduction (log P). */
static void work_sums(const mpp_reduce_steps_t *r, double *work, double *work_all)
{
    const mpp_local_profile_t *lp = r->lp;
    for (int i = 0; work && i < lp->nintervals; i++) {
        long pos = mpp_dict_find(&r->d, MPP_REC_INTERVAL, lp->intervals[i].key);
        if (pos < 0)
            continue;
        int g = (int)pos - r->i0;
        double q[MPP_NQ];
        mpp_process_quantities(&lp->intervals[i], (int)r->d.records[pos].sum, q);
        mpp_process_work(q, lp->speed, &work[2 * g], &work[2 * g + 1]);
    }
    if (r->predict)
        r->x->reduce(r->x, work, work_all, 2 * (size_t)r->ni, MPP_XOP_SUM, 1);
}

/* This process's interval quantities, predicted quantities (from the
 * work sums) and counters. */
static void own_interval_values(mpp_reduce_steps_t *r, const double *work_all)
{
    const mpp_local_profile_t *lp = r->lp;
    const mpp_dict_t *d = &r->d;
    double *sum = r->sum, *own = r->own, *execs = r->execs, *row = r->row;
    double_int_t *lo = r->lo, *hi = r->hi;
    int predict = r->predict, hw_width = r->hw_width, i0 = r->i0, nc = r->nc;
    size_t nq = r->at.nq, ncv = r->at.ncv, nsum = r->at.nsum, pq0 = r->at.pq0, pmm0 = r->at.pmm0;
    for (int i = 0; i < lp->nintervals; i++) {
        long pos = mpp_dict_find(d, MPP_REC_INTERVAL, lp->intervals[i].key);
        if (pos < 0)
            continue;
        int g = (int)pos - i0;
        double q[MPP_NQ];
        int processes = (int)d->records[pos].sum;
        mpp_process_quantities(&lp->intervals[i], processes, q);
        for (int k = 0; k < MPP_NQ; k++) {
            size_t at = (size_t)g * MPP_NQ + k;
            sum[at] = own[at] = q[k];
            lo[at].value = hi[at].value = q[k];
        }
        if (predict && work_all && processes > 0) {
            double pq[MPP_NQ];
            mpp_predicted_quantities(q, lp->intervals[i].pcat, lp->speed, work_all[2 * g] / processes,
                                     work_all[2 * g + 1] / processes, pq);
            for (int k = 0; k < MPP_NQ; k++) {
                size_t at = pq0 + (size_t)g * MPP_NQ + k, mm = pmm0 + (size_t)g * MPP_NQ + k;
                sum[at] = own[at] = pq[k];
                lo[mm].value = hi[mm].value = pq[k];
            }
        }
        execs[g] = (double)lp->intervals[i].info->executions;
        if (lp->intervals[i].hw && row && hw_width) {
            mpp_counter_row(lp->intervals[i].hw, r->event_map, lp->context.nevents, r->ne, r->uses, r->nrates,
                            lp->intervals[i].exec, row);
            for (int k = 0; k < hw_width; k++) {
                if (isnan(row[k]))
                    continue;
                size_t at = nq + ncv + (size_t)g * hw_width + k, mm = nq + nc + (size_t)g * hw_width + k;
                sum[at] = own[at] = row[k];
                sum[nsum + (size_t)g * hw_width + k] = 1;
                lo[mm].value = hi[mm].value = row[k];
            }
        }
    }
}

/* This process's cells: their values, and when the model ran, their
 * predicted time and Overlap. */
static void own_cell_values(mpp_reduce_steps_t *r)
{
    const mpp_local_profile_t *lp = r->lp;
    const mpp_dict_t *d = &r->d;
    double *sum = r->sum, *own = r->own;
    double_int_t *lo = r->lo, *hi = r->hi;
    char(*cell_keys)[MPP_CELL_KEY_LEN] = r->cell_keys;
    const long *cell_at = r->cell_at;
    int c0 = r->c0;
    size_t nq = r->at.nq, cp0 = r->at.cp0, pcmm0 = r->at.pcmm0, wmm0 = r->at.wmm0;
    for (int c = 0; c < lp->ncells; c++) {
        /* where this process's own records went, when it put the
         * dictionary in order (no search: 10^4 cache misses) */
        long pos = d->moved && cell_at && cell_at[c] >= 0 && (size_t)cell_at[c] < d->nmoved ? d->moved[cell_at[c]]
                   : cell_keys ? mpp_dict_find(d, MPP_REC_CELL, cell_keys[c])
                               : -1;
        if (pos < 0)
            continue;
        int g = (int)pos - c0;
        double *v = own + nq + (size_t)g * MPP_NCELLV;
        v[MPP_CELL_TIME] = lp->cells[c].time;
        v[MPP_CELL_CALLS] = (double)lp->cells[c].calls;
        v[MPP_CELL_SENT] = (double)lp->cells[c].bytes_sent;
        v[MPP_CELL_RECV] = (double)lp->cells[c].bytes_recv;
        for (int w = 0; w < MPP_CELL_NWAIT; w++)
            v[MPP_CELL_REALSYNC + w] = lp->cells[c].wait[w];
        memcpy(sum + nq + (size_t)g * MPP_NCELLV, v, MPP_NCELLV * sizeof *v);
        lo[nq + g].value = hi[nq + g].value = lp->cells[c].time;
        for (int w = 0; lp->waitstates && w < MPP_CELL_NWAIT; w++) {
            size_t mm = wmm0 + (size_t)g * MPP_CELL_NWAIT + w;
            lo[mm].value = hi[mm].value = lp->cells[c].wait[w];
        }
        if (r->predict) {
            double *m = own + cp0 + (size_t)g * MPP_NCELLP;
            m[MPP_CELL_PREDICTED] = lp->cells[c].predicted;
            m[MPP_CELL_OVERLAP] = lp->cells[c].overlap;
            memcpy(sum + cp0 + (size_t)g * MPP_NCELLP, m, MPP_NCELLP * sizeof *m);
            lo[pcmm0 + g].value = hi[pcmm0 + g].value = lp->cells[c].predicted;
        }
        mpp_reduce_threads_own_cell(r, c, g);
    }
}

/* 4. This process's values on the global index (mpp_reduce_layout_t), NaN
 * where it has none, and its rank with each minimum and maximum.  The
 * predicted computation time is the mean over processes of work =
 * computation time x core speed, divided by the process's speed. */
static void own_values(mpp_reduce_steps_t *r)
{
    int rank = mpp_exchange_rank(r->x, r->x->position);
    r->predict = r->lp->predict;
    r->at = value_layout(r);
    size_t nsum = r->at.nsum, nminmax = r->at.nminmax;
    r->sum = calloc(nsum + r->at.nhw + 1, sizeof *r->sum);
    r->own = malloc((nsum + 1) * sizeof *r->own);
    r->execs = calloc((size_t)r->ni + 1, sizeof *r->execs);
    r->lo = malloc((nminmax + 1) * sizeof *r->lo);
    r->hi = malloc((nminmax + 1) * sizeof *r->hi);
    for (size_t k = 0; k < nsum; k++)
        r->own[k] = NAN;
    for (size_t k = 0; k < nminmax; k++) {
        r->lo[k] = (double_int_t){INFINITY, rank};
        r->hi[k] = (double_int_t){-INFINITY, rank};
    }
    double *work = r->predict ? calloc(2 * (size_t)r->ni + 1, sizeof *work) : NULL;
    double *work_all = r->predict ? calloc(2 * (size_t)r->ni + 1, sizeof *work_all) : NULL;
    work_sums(r, work, work_all);
    own_interval_values(r, work_all);
    free(work);
    free(work_all);
    own_cell_values(r);
}

/* 5. Reductions to rank 0 (log P each). */
static void reduce_values(mpp_reduce_steps_t *r)
{
    mpp_exchange_t *x = r->x;
    int position = x->position;
    size_t nsum = r->at.nsum, nhw = r->at.nhw, nminmax = r->at.nminmax;
    r->sum_all = position == 0 ? calloc(nsum + nhw + 1, sizeof *r->sum_all) : NULL;
    r->execs_all = position == 0 ? calloc((size_t)r->ni + 1, sizeof *r->execs_all) : NULL;
    r->lo_all = position == 0 ? malloc((nminmax + 1) * sizeof *r->lo_all) : NULL;
    r->hi_all = position == 0 ? malloc((nminmax + 1) * sizeof *r->hi_all) : NULL;
    x->reduce(x, r->sum, r->sum_all, nsum + nhw, MPP_XOP_SUM, 0);
    x->reduce(x, r->execs, r->execs_all, (size_t)r->ni, MPP_XOP_MAX, 0);
    x->reduce(x, r->lo, r->lo_all, nminmax, MPP_XOP_MINLOC, 0);
    x->reduce(x, r->hi, r->hi_all, nminmax, MPP_XOP_MAXLOC, 0);
}

/* 6. Per-process values of the selected processes only. */
static void gather_selected(mpp_reduce_steps_t *r)
{
    mpp_exchange_t *x = r->x;
    int position = x->position, size = x->size;
    const unsigned char *selected = r->selected;
    const double *own = r->own;
    size_t nsum = r->at.nsum;
    if (position == 0) {
        double *by_process = malloc(((size_t)r->nselected * nsum + 1) * sizeof *by_process);
        r->by_process = by_process;
        for (int p = 0, s = 0; by_process && p < size; p++) {
            if (!selected[p])
                continue;
            if (p == 0) {
                memcpy(by_process + (size_t)s * nsum, own, nsum * sizeof *own);
            } else {
                size_t len = 0;
                double *theirs = x->recv(x, p, TAG_SELECTED, &len);
                for (size_t k = 0; k < nsum; k++) /* what did not arrive is n/a */
                    by_process[(size_t)s * nsum + k] = theirs && len == nsum * sizeof *own ? theirs[k] : NAN;
                free(theirs);
            }
            s++;
        }
    } else if (selected && selected[position]) {
        x->send(x, own, nsum * sizeof *own, 0, TAG_SELECTED);
    }
}

/* 8. The findings, merged up the same tree to rank 0: what travels is
 * bounded by MPIPROF_MAX_FINDINGS distinct findings (their counts and
 * ranks merge), whatever the number of processes. */
static void findings_union(mpp_reduce_steps_t *r, size_t max)
{
    mpp_exchange_t *x = r->x;
    mpp_finding_list_t *all = &r->findings;
    *all = (mpp_finding_list_t){.level = r->lp->findings.level};
    if (mpp_finding_list_merge(all, &r->lp->findings, max) != 0)
        mpp_warn("the correctness findings could not be merged (out of memory)");
    int rank = x->position, size = x->size;
    for (int step = 1; step < size; step <<= 1) {
        if (rank & step) {
            char *buf = NULL;
            size_t len = 0;
            if (mpp_finding_list_serialize(all, &buf, &len) != 0)
                buf = NULL, len = 0;
            x->send(x, buf, len, rank - step, TAG_FINDINGS);
            free(buf);
            return;
        }
        if (rank + step < size) {
            size_t len = 0;
            char *buf = x->recv(x, rank + step, TAG_FINDINGS, &len);
            mpp_finding_list_t theirs = {.level = -1};
            if (!buf || mpp_finding_list_load(&theirs, buf, len) != 0 || mpp_finding_list_merge(all, &theirs, max))
                mpp_warn("the correctness findings of rank %d could not be merged (corrupt or out of memory)",
                         mpp_exchange_rank(x, rank + step));
            mpp_finding_list_free(&theirs);
            free(buf);
        }
    }
    mpp_finding_list_sort(all);
}

static void steps_free(mpp_reduce_steps_t *r)
{
    free(r->sum), free(r->own), free(r->execs), free(r->lo), free(r->hi), free(r->row), free(r->event_map),
        free(r->uses);
    for (int e = 0; r->event_names && e < r->ne; e++)
        free(r->event_names[e]);
    free(r->event_names);
    free(r->sum_all), free(r->execs_all), free(r->lo_all), free(r->hi_all), free(r->by_process), free(r->selected);
    free(r->cell_keys), free(r->cell_at);
    mpp_dict_free(&r->d);
    mpp_dict_free(&r->m);
    mpp_finding_list_free(&r->findings);
}

/* Positions are where a process sits in the exchange (0..size-1, what the
 * messages and the order of the gathered values follow); ranks are what
 * the protocol names (the same under MPI; the processes present in
 * partial protocols otherwise).  The steps, numbered as in their comments:
 * 1-2 the union of the keys, 3 the selected processes, 4-6 the values
 * reduced and gathered, 7 the machine context (context_union). */
mpp_reduced_t *mpp_reduce_exchange(const mpp_local_profile_t *lp, mpp_exchange_t *x, const char *ranks_spec,
                                   const char *hostname)
{
    mpp_reduce_steps_t r = {.lp = lp, .x = x};
    own_keys(&r, hostname);
    unite_keys(&r);
    index_counter_events(&r);
    select_processes(&r, ranks_spec);
    own_values(&r);
    reduce_values(&r);
    gather_selected(&r);
    context_union(&r.m, lp, &r.d, hostname, x, r.selected && r.selected[x->position]);
    findings_union(&r, lp->findings_max ? lp->findings_max : 1024);
    mpp_reduced_t *out = x->position == 0 ? mpp_reduce_result(&r) : NULL;
    steps_free(&r);
    return out;
}
