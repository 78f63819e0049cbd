/* The reduction of every process's profile to one reduced data set on one
 * process (reduced.h): union of the keys, sums, minima and maxima over the
 * processes, per-process values of the selected ones.  The messages go
 * through an exchange (exchange.h): MPI at MPI_Finalize (exchange_mpi.c),
 * memory for partial protocols and mpiprof-merge (exchange_memory.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/characteristics.h"
#include "context/config.h"
#include "analyze/counter_stats.h"
#include "reduce/dictionary.h"
#include "reduce/exchange.h"
#include "records/machine.h"
#include "util/srckey.h"
#include "util/warnings.h"

enum { TAG_DICT = 7701, TAG_SELECTED = 7702, TAG_CONTEXT = 7703 };

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

/* Ids of the records of one kind, in dictionary order. */
static int ordinal(const mpp_dict_t *d, int kind, long position)
{
    int id = 0;
    for (long i = 0; i < position; i++)
        id += d->records[i].kind == kind;
    return id;
}

static int first_of_kind(const mpp_dict_t *d, int kind)
{
    for (size_t i = 0; i < d->count; i++)
        if (d->records[i].kind == kind)
            return (int)i;
    return (int)d->count;
}

static int count_of_kind(const mpp_dict_t *d, int kind)
{
    int n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += d->records[i].kind == kind;
    return n;
}

static void fill_interval_names(mpp_reduced_interval_t *out, const char *key, const mpp_dict_t *d)
{
    char *parent = mpp_interval_parent_key(key);
    out->parent = parent ? ordinal(d, MPP_REC_INTERVAL, mpp_dict_find(d, MPP_REC_INTERVAL, parent)) : -1;
    out->level = 0;
    for (const char *p = key; *p; p++)
        out->level += *p == MPP_RS;
    free(parent);
    if (out->parent < 0) {
        out->name = strdup("whole program");
        out->file = NULL;
        return;
    }
    const char *last = strrchr(key, MPP_RS) + 1;
    const char *us1 = strchr(last, MPP_US);
    const char *us2 = us1 ? strchr(us1 + 1, MPP_US) : NULL;
    out->name = us1 ? strndup(last, (size_t)(us1 - last)) : strdup(last);
    /* shown by base name, like SRC frames; the key keeps the whole path */
    const char *file = us1 ? us1 + 1 : "";
    for (const char *c = file; us2 && c < us2; c++)
        if (*c == '/')
            file = c + 1;
    out->file = us2 ? strndup(file, (size_t)(us2 - file)) : strdup("");
    out->line = us2 ? atoi(us2 + 1) : 0;
}

/* The part of a record key before its first US (allocated). */
static char *first_field(const char *key)
{
    const char *us = strchr(key, MPP_US);
    return us ? strndup(key, (size_t)(us - key)) : strdup(key);
}

static const char *after_field(const char *key)
{
    const char *us = strchr(key, MPP_US);
    return us ? us + 1 : "";
}

static int append(char ***list, int *n, char *item)
{
    if (!item)
        return -1;
    char **g = realloc(*list, ((size_t)*n + 1) * sizeof *g);
    if (!g) {
        free(item);
        return -1;
    }
    *list = g;
    g[(*n)++] = item;
    return 0;
}

/* The counters part of the result on rank 0: events from the union,
 * PAPI facts from the context union. */
static mpp_reduced_counters_t *counters_result(const mpp_dict_t *d, const mpp_dict_t *m, const mpp_rate_use_t *uses,
                                               int nrates, const char *na)
{
    mpp_reduced_counters_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    int e0 = first_of_kind(d, MPP_REC_EVENT), ne = count_of_kind(d, MPP_REC_EVENT);
    c->events = calloc((size_t)ne + 1, sizeof *c->events);
    c->rates = malloc(((size_t)nrates + 1) * sizeof *c->rates);
    if (!c->events || !c->rates)
        return c;
    for (int e = 0; e < ne; e++) {
        const mpp_record_t *r = &d->records[e0 + e];
        c->events[e].name = first_field(r->key);
        c->events[e].component = strdup(after_field(r->key));
        c->events[e].processes = (int)r->sum;
    }
    c->nevents = ne;
    memcpy(c->rates, uses, (size_t)nrates * sizeof *uses);
    c->nrates = nrates;
    if (ne == 0 && na)
        c->na_reason = strdup(na);
    long best_none = 0;
    for (size_t i = 0; i < m->count; i++) {
        const mpp_record_t *r = &m->records[i];
        if (r->kind != MPP_REC_FACT)
            continue;
        char *label = first_field(r->key);
        const char *value = after_field(r->key);
        if (!label)
            continue;
        if (!strcmp(label, MPP_FACT_PAPI) && !c->library)
            c->library = strdup(value);
        else if (!strcmp(label, MPP_FACT_SPLIT))
            c->split = 1;
        else if (!strcmp(label, MPP_FACT_MULTIPLEXED))
            append(&c->multiplexed, &c->nmultiplexed, strdup(value));
        else if (!strcmp(label, MPP_FACT_NONE) && r->sum > best_none) {
            free(c->none_reason);
            c->none_reason = strdup(value);
            best_none = r->sum;
        }
        free(label);
    }
    return c;
}

/* The machine part of the result on rank 0. */
static mpp_machine_data_t *machine_result(const mpp_dict_t *d, const mpp_dict_t *m, const char *na)
{
    mpp_machine_data_t *md = calloc(1, sizeof *md);
    if (!md)
        return NULL;
    if (na) {
        md->na_reason = strdup(na);
        return md;
    }
    int nt = count_of_kind(m, MPP_REC_NODETYPE), t0 = first_of_kind(m, MPP_REC_NODETYPE);
    md->types = calloc((size_t)nt + 1, sizeof *md->types);
    char (*hashes)[17] = calloc((size_t)nt + 1, sizeof *hashes);
    for (int t = 0; md->types && hashes && t < nt; t++) {
        md->types[md->ntypes++] = strdup(m->records[t0 + t].key);
        mpp_node_type_hash(m->records[t0 + t].key, hashes[t]);
    }
    int nh = count_of_kind(d, MPP_REC_HOST), h0 = first_of_kind(d, MPP_REC_HOST);
    md->hosts = calloc((size_t)nh + 1, sizeof *md->hosts);
    for (int h = 0; md->hosts && h < nh; h++) {
        const mpp_record_t *r = &d->records[h0 + h];
        /* by lowest rank: insertion sort (hosts are few next to ranks) */
        int at = md->nhosts;
        while (at > 0 && md->hosts[at - 1].lowest_rank > r->min) {
            md->hosts[at] = md->hosts[at - 1];
            at--;
        }
        md->hosts[at] = (mpp_machine_host_t){strdup(r->key), (int)r->min, (int)r->sum, -1, NULL};
        md->nhosts++;
    }
    for (size_t i = 0; i < m->count; i++) {
        const mpp_record_t *r = &m->records[i];
        if (r->kind == MPP_REC_PLACEMENT) {
            append(&md->runs, &md->nruns, strdup(r->key));
        } else if (r->kind == MPP_REC_HOSTINFO) {
            /* host US hash US allowed */
            char *host = first_field(r->key);
            const char *rest = after_field(r->key);
            for (int h = 0; host && h < md->nhosts; h++) {
                if (strcmp(md->hosts[h].name, host) != 0)
                    continue;
                for (int t = 0; hashes && t < md->ntypes; t++)
                    if (!strncmp(rest, hashes[t], 16))
                        md->hosts[h].type = t;
                free(md->hosts[h].allowed);
                md->hosts[h].allowed = strdup(after_field(rest));
            }
            free(host);
        }
    }
    free(hashes);
    return md;
}

static void machine_data_free(mpp_machine_data_t *md)
{
    if (!md)
        return;
    for (int t = 0; t < md->ntypes; t++)
        free(md->types[t]);
    for (int h = 0; h < md->nhosts; h++)
        free(md->hosts[h].name), free(md->hosts[h].allowed);
    for (int r = 0; r < md->nruns; r++)
        free(md->runs[r]);
    free(md->types), free(md->hosts), free(md->runs), free(md->na_reason);
    free(md);
}

static void counters_free(mpp_reduced_counters_t *c)
{
    if (!c)
        return;
    for (int e = 0; e < c->nevents; e++)
        free(c->events[e].name), free(c->events[e].component);
    for (int m = 0; m < c->nmultiplexed; m++)
        free(c->multiplexed[m]);
    free(c->events), free(c->rates), free(c->multiplexed), free(c->na_reason), free(c->library),
        free(c->none_reason);
    free(c);
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
                          mpp_exchange_t *x)
{
    const mpp_local_context_t *ctx = &lp->context;
    int rank = mpp_exchange_rank(x, x->position);
    mpp_dict_init(m);
    for (int f = 0; f < ctx->nfacts; f++)
        mpp_dict_add(m, MPP_REC_FACT, ctx->facts[f], rank, 1);
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

/* Positions are where a process sits in the exchange (0..size-1, what the
 * messages and the order of the gathered values follow); ranks are what
 * the protocol names (the same under MPI; the processes present in
 * partial protocols otherwise). */
mpp_reduced_t *mpp_reduce_exchange(const mpp_local_profile_t *lp, mpp_exchange_t *x, const char *ranks_spec,
                                   const char *hostname)
{
    int position = x->position, size = x->size;
    int rank = mpp_exchange_rank(x, position);

    /* 1. Keys of this process. */
    mpp_dict_t d;
    mpp_dict_init(&d);
    /* A cell key is made of the hashes of its interval's and SRC point's
     * keys: each hashed once (an SRC point has a cell in every interval);
     * the cells of an SRC point share its string (profile.h): by_string
     * finds its record by the string's address, without hashing the key. */
    char (*interval_hex)[17] = malloc(((size_t)lp->nintervals + 1) * sizeof *interval_hex);
    size_t most = (size_t)lp->nintervals + 2 * (size_t)lp->ncells + 1;
    char (*src_hex)[17] = malloc(most * sizeof *src_hex); /* by record position */
    char (*cell_keys)[MPP_CELL_KEY_LEN] = malloc(((size_t)lp->ncells + 1) * sizeof *cell_keys);
    long *cell_at = malloc(((size_t)lp->ncells + 1) * sizeof *cell_at); /* each cell's record, here */
    for (int i = 0; i < lp->nintervals; i++) {
        mpp_dict_add(&d, MPP_REC_INTERVAL, lp->intervals[i].key, (int64_t)(lp->intervals[i].first_entry * 1e9), 1);
        if (interval_hex)
            mpp_key_hash_hex(lp->intervals[i].key, interval_hex[i]);
    }
    mpp_handlemap_t by_string;
    mpp_handlemap_init(&by_string, sizeof(long));
    for (int c = 0; interval_hex && src_hex && cell_keys && c < lp->ncells; c++) {
        int inserted = 1;
        long *known = mpp_handlemap_put(&by_string, (uint64_t)(uintptr_t)lp->cells[c].src, &inserted);
        long pos = known && !inserted ? *known : -1;
        if (inserted) {
            size_t before = d.count;
            pos = mpp_dict_put(&d, MPP_REC_SRC, lp->cells[c].src, 0, 0);
            if (pos >= 0 && (size_t)pos < most && d.count > before) /* a new SRC point */
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
        long at = mpp_dict_put(&d, MPP_REC_CELL, cell_keys[c], 0, 1);
        if (cell_at)
            cell_at[c] = at;
    }
    mpp_handlemap_free(&by_string);
    mpp_dict_add(&d, MPP_REC_HOST, hostname, rank, 1);
    for (size_t w = 0; w < warnings_count(&lp->context); w++)
        mpp_dict_add(&d, MPP_REC_WARNING, warning_text(&lp->context, w), rank, 1);
    for (int e = 0; e < lp->context.nevents; e++) /* min: position in the list asked */
        mpp_dict_add(&d, MPP_REC_EVENT, lp->context.events[e], e, 1);

    /* 2. Union on rank 0, canonical order, broadcast. */
    tree_union(&d, x, TAG_DICT, NULL);
    if (position == 0)
        mpp_dict_canonical_order(&d);
    broadcast_dict(&d, x);

    int ni = count_of_kind(&d, MPP_REC_INTERVAL), nc = count_of_kind(&d, MPP_REC_CELL);
    int i0 = first_of_kind(&d, MPP_REC_INTERVAL), c0 = first_of_kind(&d, MPP_REC_CELL);

    /* Counter events on the global index, and the derived rates they allow. */
    int ne = count_of_kind(&d, MPP_REC_EVENT), e0 = first_of_kind(&d, MPP_REC_EVENT);
    char **event_names = calloc((size_t)ne + 1, sizeof *event_names);
    int *event_map = malloc(((size_t)lp->context.nevents + 1) * sizeof *event_map);
    mpp_rate_use_t *uses = malloc(((size_t)mpp_ncounter_rates + 1) * sizeof *uses);
    int nrates = 0;
    if (event_names && event_map && uses) {
        for (int e = 0; e < ne; e++)
            event_names[e] = first_field(d.records[e0 + e].key);
        for (int l = 0; l < lp->context.nevents; l++) {
            long pos = mpp_dict_find(&d, MPP_REC_EVENT, lp->context.events[l]);
            event_map[l] = pos >= 0 ? (int)pos - e0 : -1;
        }
        nrates = mpp_counter_rates_select(event_names, ne, uses);
    } else {
        ne = 0;
    }
    int hw_width = ne * MPP_HW_NV + nrates;
    size_t nhw = (size_t)ni * hw_width;
    double *row = malloc(((size_t)hw_width + 1) * sizeof *row);

    /* 3. Selected processes (rank 0's choice). */
    char spec[MPP_CONFIG_STRING_MAX] = {0};
    if (position == 0)
        strncpy(spec, ranks_spec, sizeof spec - 1);
    x->bcast(x, spec, sizeof spec);
    mpp_config_t selection_cfg;
    memset(&selection_cfg, 0, sizeof selection_cfg);
    strcpy(selection_cfg.text[MPP_CFG_RANKS], spec);
    unsigned char *selected = select_positions(&selection_cfg, x);
    int nselected = 0;
    for (int p = 0; selected && p < size; p++)
        nselected += selected[p];

    /* 4. This process's values on the global index: interval quantities,
     * cells, counters (then, in `sum` only, how many processes have each
     * counter value), and, when the model ran, the predicted interval
     * quantities and the cells' predicted time and Overlap. */
    int predict = lp->predict;
    size_t nq = (size_t)ni * MPP_NQ, ncv = (size_t)nc * MPP_NCELLV;
    size_t npq = predict ? nq : 0, ncp = predict ? (size_t)nc * MPP_NCELLP : 0;
    size_t pq0 = nq + ncv + nhw, cp0 = pq0 + npq; /* offsets of the model's values */
    size_t nsum = nq + ncv + nhw + npq + ncp;
    size_t pmm0 = nq + (size_t)nc + nhw, pcmm0 = pmm0 + npq; /* ... and of their minima/maxima */
    size_t wmm0 = pcmm0 + (predict ? (size_t)nc : 0);      /* the cells' wait states' minima/maxima */
    size_t nminmax = wmm0 + (lp->waitstates ? (size_t)nc * MPP_CELL_NWAIT : 0);
    double *sum = calloc(nsum + nhw + 1, sizeof *sum);
    double *own = malloc((nsum + 1) * sizeof *own);       /* NaN where absent */
    double *execs = calloc((size_t)ni + 1, sizeof *execs);
    double_int_t *lo = malloc((nminmax + 1) * sizeof *lo);
    double_int_t *hi = malloc((nminmax + 1) * sizeof *hi);
    for (size_t k = 0; k < nsum; k++)
        own[k] = NAN;
    for (size_t k = 0; k < nminmax; k++) {
        lo[k] = (double_int_t){INFINITY, rank};
        hi[k] = (double_int_t){-INFINITY, rank};
    }
    /* The predicted computation time is the mean over processes of work =
     * computation time x core speed, divided by the process's speed: one
     * more reduction, of the work sums (log P). */
    double *work = predict ? calloc(2 * (size_t)ni + 1, sizeof *work) : NULL;
    double *work_all = predict ? calloc(2 * (size_t)ni + 1, sizeof *work_all) : NULL;
    for (int i = 0; work && i < lp->nintervals; i++) {
        long pos = mpp_dict_find(&d, MPP_REC_INTERVAL, lp->intervals[i].key);
        if (pos < 0)
            continue;
        int g = (int)pos - i0;
        double q[MPP_NQ];
        mpp_process_quantities(&lp->intervals[i], (int)d.records[pos].sum, q);
        mpp_process_work(q, lp->speed, &work[2 * g], &work[2 * g + 1]);
    }
    if (predict)
        x->reduce(x, work, work_all, 2 * (size_t)ni, MPP_XOP_SUM, 1);
    for (int i = 0; i < lp->nintervals; i++) {
        long pos = mpp_dict_find(&d, MPP_REC_INTERVAL, lp->intervals[i].key);
        if (pos < 0)
            continue;
        int g = (int)pos - i0;
        double q[MPP_NQ];
        int processes = (int)d.records[pos].sum;
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
            mpp_counter_row(lp->intervals[i].hw, event_map, lp->context.nevents, ne, uses, nrates,
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
    free(work);
    free(work_all);
    for (int c = 0; c < lp->ncells; c++) {
        /* where this process's own records went, when it put the
         * dictionary in order (no search: 10^4 cache misses) */
        long pos = d.moved && cell_at && cell_at[c] >= 0 && (size_t)cell_at[c] < d.nmoved ? d.moved[cell_at[c]]
                   : cell_keys ? mpp_dict_find(&d, MPP_REC_CELL, cell_keys[c])
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
        if (predict) {
            double *m = own + cp0 + (size_t)g * MPP_NCELLP;
            m[MPP_CELL_PREDICTED] = lp->cells[c].predicted;
            m[MPP_CELL_OVERLAP] = lp->cells[c].overlap;
            memcpy(sum + cp0 + (size_t)g * MPP_NCELLP, m, MPP_NCELLP * sizeof *m);
            lo[pcmm0 + g].value = hi[pcmm0 + g].value = lp->cells[c].predicted;
        }
    }

    /* 5. Reductions to rank 0 (log P each). */
    double *sum_all = position == 0 ? calloc(nsum + nhw + 1, sizeof *sum_all) : NULL;
    double *execs_all = position == 0 ? calloc((size_t)ni + 1, sizeof *execs_all) : NULL;
    double_int_t *lo_all = position == 0 ? malloc((nminmax + 1) * sizeof *lo_all) : NULL;
    double_int_t *hi_all = position == 0 ? malloc((nminmax + 1) * sizeof *hi_all) : NULL;
    x->reduce(x, sum, sum_all, nsum + nhw, MPP_XOP_SUM, 0);
    x->reduce(x, execs, execs_all, (size_t)ni, MPP_XOP_MAX, 0);
    x->reduce(x, lo, lo_all, nminmax, MPP_XOP_MINLOC, 0);
    x->reduce(x, hi, hi_all, nminmax, MPP_XOP_MAXLOC, 0);

    /* 6. Per-process values of the selected processes only. */
    double *by_process = NULL;
    if (position == 0) {
        by_process = malloc(((size_t)nselected * nsum + 1) * sizeof *by_process);
        for (int r = 0, s = 0; by_process && r < size; r++) {
            if (!selected[r])
                continue;
            if (r == 0) {
                memcpy(by_process + (size_t)s * nsum, own, nsum * sizeof *own);
            } else {
                size_t len = 0;
                double *theirs = x->recv(x, r, TAG_SELECTED, &len);
                for (size_t k = 0; k < nsum; k++) /* what did not arrive is n/a */
                    by_process[(size_t)s * nsum + k] = theirs && len == nsum * sizeof *own ? theirs[k] : NAN;
                free(theirs);
            }
            s++;
        }
    } else if (selected && selected[position]) {
        x->send(x, own, nsum * sizeof *own, 0, TAG_SELECTED);
    }

    /* 7. The machine context and the PAPI facts (to rank 0 only). */
    mpp_dict_t m;
    context_union(&m, lp, &d, hostname, x);

    mpp_reduced_t *out = NULL;
    if (position == 0)
        out = calloc(1, sizeof *out);
    if (out) {
        out->nprocs = x->nprocs;
        out->predicted = predict;
        out->waitstates = lp->waitstates;
        out->nnodes = count_of_kind(&d, MPP_REC_HOST);
        out->nselected = nselected;
        out->selected = malloc(((size_t)nselected + 1) * sizeof(int));
        for (int r = 0, s = 0; r < size; r++)
            if (selected[r])
                out->selected[s++] = mpp_exchange_rank(x, r);
        out->nintervals = ni;
        out->intervals = calloc((size_t)ni + 1, sizeof *out->intervals);
        for (int g = 0; g < ni; g++) {
            mpp_reduced_interval_t *ri = &out->intervals[g];
            const mpp_record_t *rec = &d.records[i0 + g];
            ri->id = g;
            fill_interval_names(ri, rec->key, &d);
            ri->processes = (int)rec->sum;
            ri->executions = (uint64_t)execs_all[g];
            for (int k = 0; k < MPP_NQ; k++) {
                size_t at = (size_t)g * MPP_NQ + k;
                ri->q[k] = (mpp_stat_t){sum_all[at], lo_all[at].value, hi_all[at].value,
                                        lo_all[at].rank, hi_all[at].rank, ri->processes};
            }
            ri->by_process = malloc(((size_t)nselected * MPP_NQ + 1) * sizeof(double));
            for (int s = 0; s < nselected; s++)
                memcpy(ri->by_process + (size_t)s * MPP_NQ, by_process + (size_t)s * nsum + (size_t)g * MPP_NQ,
                       MPP_NQ * sizeof(double));
            ri->overlap_known = ri->predicted = predict;
            ri->waitstates_known = lp->waitstates;
            if (predict) {
                for (int k = 0; k < MPP_NQ; k++) {
                    size_t at = pq0 + (size_t)g * MPP_NQ + k, mm = pmm0 + (size_t)g * MPP_NQ + k;
                    ri->pq[k] = (mpp_stat_t){sum_all[at], lo_all[mm].value, hi_all[mm].value, lo_all[mm].rank,
                                             hi_all[mm].rank, ri->processes};
                }
                ri->pred_by_process = malloc(((size_t)nselected * MPP_NQ + 1) * sizeof(double));
                for (int s = 0; ri->pred_by_process && s < nselected; s++)
                    memcpy(ri->pred_by_process + (size_t)s * MPP_NQ,
                           by_process + (size_t)s * nsum + pq0 + (size_t)g * MPP_NQ, MPP_NQ * sizeof(double));
            }
            if (hw_width) {
                ri->hw = malloc((size_t)hw_width * sizeof *ri->hw);
                ri->hw_by_process = malloc(((size_t)nselected * hw_width + 1) * sizeof(double));
                for (int k = 0; ri->hw && k < hw_width; k++) {
                    size_t at = nq + ncv + (size_t)g * hw_width + k, mm = nq + nc + (size_t)g * hw_width + k;
                    ri->hw[k] = (mpp_stat_t){sum_all[at], lo_all[mm].value, hi_all[mm].value, lo_all[mm].rank,
                                             hi_all[mm].rank, (int)sum_all[nsum + (size_t)g * hw_width + k]};
                }
                for (int s = 0; ri->hw_by_process && s < nselected; s++)
                    memcpy(ri->hw_by_process + (size_t)s * hw_width,
                           by_process + (size_t)s * nsum + nq + ncv + (size_t)g * hw_width,
                           (size_t)hw_width * sizeof(double));
            }
        }
        int ns = count_of_kind(&d, MPP_REC_SRC), s0 = first_of_kind(&d, MPP_REC_SRC);
        out->nsrcs = ns;
        out->srcs = calloc((size_t)ns + 1, sizeof *out->srcs);
        for (int s = 0; s < ns; s++) {
            out->srcs[s].id = s + 1;
            out->srcs[s].nframes =
                mpp_srckey_parse(d.records[s0 + s].key, &out->srcs[s].function, &out->srcs[s].frames);
        }
        out->ncells = nc;
        out->cells = calloc((size_t)nc + 1, sizeof *out->cells);
        /* the cells' per-process values: one block for all cells */
        size_t cell_width = (size_t)nselected * MPP_NCELLV, model_width = (size_t)nselected * MPP_NCELLP;
        out->cell_values = malloc(((size_t)nc * cell_width + 1) * sizeof *out->cell_values);
        if (predict)
            out->cell_model_values = malloc(((size_t)nc * model_width + 1) * sizeof *out->cell_model_values);
        /* the cells' interval and SRC ids: from the canonical order (this
         * process made it), else from the cell keys */
        mpp_handlemap_t interval_hashes, src_hashes;
        if (!d.cell_ids) {
            mpp_dict_index_hashes(&d, MPP_REC_INTERVAL, &interval_hashes);
            mpp_dict_index_hashes(&d, MPP_REC_SRC, &src_hashes);
        }
        for (int g = 0; g < nc; g++) {
            mpp_reduced_cell_t *rc = &out->cells[g];
            if (d.cell_ids) {
                rc->interval = (int)d.cell_ids[2 * g];
                rc->src = (int)d.cell_ids[2 * g + 1];
            } else {
                long ip, sp;
                mpp_dict_cell_parts(&interval_hashes, &src_hashes, d.records[c0 + g].key, &ip, &sp);
                rc->interval = (int)ip - i0;
                rc->src = (int)sp - s0;
            }
            const double *v = sum_all + nq + (size_t)g * MPP_NCELLV;
            rc->calls = (uint64_t)v[MPP_CELL_CALLS];
            rc->bytes_sent = (uint64_t)v[MPP_CELL_SENT];
            rc->bytes_recv = (uint64_t)v[MPP_CELL_RECV];
            rc->time = (mpp_stat_t){v[MPP_CELL_TIME], lo_all[nq + g].value, hi_all[nq + g].value,
                                    lo_all[nq + g].rank, hi_all[nq + g].rank, (int)d.records[c0 + g].sum};
            for (int w = 0; lp->waitstates && w < MPP_CELL_NWAIT; w++) {
                size_t mm = wmm0 + (size_t)g * MPP_CELL_NWAIT + w;
                rc->wait[w] = (mpp_stat_t){v[MPP_CELL_REALSYNC + w], lo_all[mm].value, hi_all[mm].value,
                                           lo_all[mm].rank, hi_all[mm].rank, rc->time.count};
            }
            rc->by_process = out->cell_values ? out->cell_values + (size_t)g * cell_width : NULL;
            for (int s = 0; rc->by_process && s < nselected; s++)
                memcpy(rc->by_process + (size_t)s * MPP_NCELLV,
                       by_process + (size_t)s * nsum + nq + (size_t)g * MPP_NCELLV, MPP_NCELLV * sizeof(double));
            if (predict) {
                const double *m = sum_all + cp0 + (size_t)g * MPP_NCELLP;
                rc->predicted = (mpp_stat_t){m[MPP_CELL_PREDICTED], lo_all[pcmm0 + g].value, hi_all[pcmm0 + g].value,
                                             lo_all[pcmm0 + g].rank, hi_all[pcmm0 + g].rank, rc->time.count};
                rc->overlap = m[MPP_CELL_OVERLAP];
                rc->model_by_process = out->cell_model_values ? out->cell_model_values + (size_t)g * model_width : NULL;
                for (int s = 0; rc->model_by_process && s < nselected; s++)
                    memcpy(rc->model_by_process + (size_t)s * MPP_NCELLP,
                           by_process + (size_t)s * nsum + cp0 + (size_t)g * MPP_NCELLP, MPP_NCELLP * sizeof(double));
            }
        }
        if (!d.cell_ids) {
            mpp_handlemap_free(&interval_hashes);
            mpp_handlemap_free(&src_hashes);
        }
        int nw = count_of_kind(&d, MPP_REC_WARNING), w0 = first_of_kind(&d, MPP_REC_WARNING);
        out->warnings = calloc((size_t)nw + 1, sizeof(char *));
        for (int w = 0; w < nw; w++) {
            const mpp_record_t *rec = &d.records[w0 + w];
            char *text = NULL;
            if (rec->sum == size)
                text = strdup(rec->key);
            else if (rec->sum == 1 && asprintf(&text, "rank %lld: %s", (long long)rec->min, rec->key) < 0)
                text = NULL;
            else if (rec->sum > 1 && asprintf(&text, "ranks %lld and %lld others: %s", (long long)rec->min,
                                              (long long)rec->sum - 1, rec->key) < 0)
                text = NULL;
            if (text)
                out->warnings[out->nwarnings++] = text;
        }
        /* topology that could not be read on some host */
        for (size_t i = 0; i < m.count; i++) {
            char *label = m.records[i].kind == MPP_REC_FACT ? first_field(m.records[i].key) : NULL;
            char *text = NULL;
            if (label && !strcmp(label, MPP_FACT_TOPOLOGY) &&
                asprintf(&text, "Machine: the topology of %s; that host's node type is unknown",
                         after_field(m.records[i].key)) >= 0)
                append(&out->warnings, &out->nwarnings, text);
            free(label);
        }
        out->machine = machine_result(&d, &m, lp->context.machine_na);
        out->counters = counters_result(&d, &m, uses, nrates, lp->context.counters_na);
    }

    free(sum), free(own), free(execs), free(lo), free(hi), free(row), free(event_map), free(uses);
    for (int e = 0; event_names && e < ne; e++)
        free(event_names[e]);
    free(event_names);
    free(sum_all), free(execs_all), free(lo_all), free(hi_all), free(by_process), free(selected);
    free(cell_keys), free(cell_at);
    free(interval_hex);
    free(src_hex);
    mpp_dict_free(&d);
    mpp_dict_free(&m);
    return out;
}

void mpp_reduced_free(mpp_reduced_t *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->nintervals; i++) {
        free(r->intervals[i].name);
        free(r->intervals[i].file);
        free(r->intervals[i].by_process);
        free(r->intervals[i].hw);
        free(r->intervals[i].hw_by_process);
        free(r->intervals[i].pred_by_process);
    }
    for (int s = 0; s < r->nsrcs; s++) {
        free(r->srcs[s].function);
        mpp_srckey_free_frames(r->srcs[s].frames, r->srcs[s].nframes);
    }
    free(r->cell_values), free(r->cell_model_values);
    for (int w = 0; w < r->nwarnings; w++)
        free(r->warnings[w]);
    free(r->intervals), free(r->srcs), free(r->cells), free(r->warnings), free(r->selected);
    machine_data_free(r->machine);
    counters_free(r->counters);
    free(r);
}
