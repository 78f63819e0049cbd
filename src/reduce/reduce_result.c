/* The reduced data set (reduced.h) that position 0 makes of what the
 * reduction's steps leave (reduce.c, reduce_steps.h): the union's records
 * with the sums, minima, maxima and per-process values of their values,
 * the warnings, the machine and the counters; and its free. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records/machine.h"
#include "records/matrix.h"
#include "reduce/dictionary.h"
#include "reduce/reduce_steps.h"
#include "util/srckey.h"

/* Ids of the records of one kind, in dictionary order. */
static int ordinal(const mpp_dict_t *d, int kind, long position)
{
    int id = 0;
    for (long i = 0; i < position; i++)
        id += d->records[i].kind == kind;
    return id;
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

/* The part of a record key after its first US. */
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
    int e0 = mpp_first_of_kind(d, MPP_REC_EVENT), ne = mpp_count_of_kind(d, MPP_REC_EVENT);
    c->events = calloc((size_t)ne + 1, sizeof *c->events);
    c->rates = malloc(((size_t)nrates + 1) * sizeof *c->rates);
    if (!c->events || !c->rates)
        return c;
    for (int e = 0; e < ne; e++) {
        const mpp_record_t *r = &d->records[e0 + e];
        c->events[e].name = mpp_first_field(r->key);
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
        char *label = mpp_first_field(r->key);
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
    int nt = mpp_count_of_kind(m, MPP_REC_NODETYPE), t0 = mpp_first_of_kind(m, MPP_REC_NODETYPE);
    md->types = calloc((size_t)nt + 1, sizeof *md->types);
    char(*hashes)[17] = calloc((size_t)nt + 1, sizeof *hashes);
    for (int t = 0; md->types && hashes && t < nt; t++) {
        md->types[md->ntypes++] = strdup(m->records[t0 + t].key);
        mpp_node_type_hash(m->records[t0 + t].key, hashes[t]);
    }
    int nh = mpp_count_of_kind(d, MPP_REC_HOST), h0 = mpp_first_of_kind(d, MPP_REC_HOST);
    md->hosts = calloc((size_t)nh + 1, sizeof *md->hosts);
    for (int h = 0; md->hosts && h < nh; h++) {
        const mpp_record_t *r = &d->records[h0 + h];
        /* by lowest rank: insertion sort (hosts are few next to ranks) */
        int at = md->nhosts;
        while (at > 0 && md->hosts[at - 1].lowest_rank > r->min) {
            md->hosts[at] = md->hosts[at - 1];
            at--;
        }
        md->hosts[at] = (mpp_machine_host_t){strdup(r->key), (int)r->min, (int)r->sum, -1, NULL, 0};
        md->nhosts++;
    }
    for (size_t i = 0; i < m->count; i++) {
        const mpp_record_t *r = &m->records[i];
        if (r->kind == MPP_REC_PLACEMENT) {
            append(&md->runs, &md->nruns, strdup(r->key));
        } else if (r->kind == MPP_REC_HOSTINFO) {
            /* host US hash US allowed */
            char *host = mpp_first_field(r->key);
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
    free(c->events), free(c->rates), free(c->multiplexed), free(c->na_reason), free(c->library), free(c->none_reason);
    free(c);
}

/* Interval g: its names, sums, minima and maxima (of the quantities, the
 * predicted ones, the counters) and the selected processes' values. */
static void result_interval(const mpp_reduce_steps_t *r, int g, mpp_reduced_interval_t *ri)
{
    const mpp_record_t *rec = &r->d.records[r->i0 + g];
    const double *sum_all = r->sum_all, *by_process = r->by_process;
    const mpp_double_int_t *lo_all = r->lo_all, *hi_all = r->hi_all;
    int nselected = r->nselected, predict = r->predict, hw_width = r->hw_width, nc = r->nc;
    size_t nq = r->at.nq, ncv = r->at.ncv, nsum = r->at.nsum, pq0 = r->at.pq0, pmm0 = r->at.pmm0;
    ri->id = g;
    fill_interval_names(ri, rec->key, &r->d);
    ri->processes = (int)rec->sum;
    ri->executions = (uint64_t)r->execs_all[g];
    for (int k = 0; k < MPP_NQ; k++) {
        size_t at = (size_t)g * MPP_NQ + k;
        ri->q[k] = (mpp_stat_t){sum_all[at],     lo_all[at].value, hi_all[at].value,
                                lo_all[at].rank, hi_all[at].rank,  ri->processes};
    }
    ri->by_process = malloc(((size_t)nselected * MPP_NQ + 1) * sizeof(double));
    for (int s = 0; s < nselected; s++)
        memcpy(ri->by_process + (size_t)s * MPP_NQ, by_process + (size_t)s * nsum + (size_t)g * MPP_NQ,
               MPP_NQ * sizeof(double));
    ri->overlap_known = ri->predicted = predict;
    ri->waitstates_known = r->lp->waitstates;
    if (predict) {
        for (int k = 0; k < MPP_NQ; k++) {
            size_t at = pq0 + (size_t)g * MPP_NQ + k, mm = pmm0 + (size_t)g * MPP_NQ + k;
            ri->pq[k] = (mpp_stat_t){sum_all[at],     lo_all[mm].value, hi_all[mm].value,
                                     lo_all[mm].rank, hi_all[mm].rank,  ri->processes};
        }
        ri->pred_by_process = malloc(((size_t)nselected * MPP_NQ + 1) * sizeof(double));
        for (int s = 0; ri->pred_by_process && s < nselected; s++)
            memcpy(ri->pred_by_process + (size_t)s * MPP_NQ, by_process + (size_t)s * nsum + pq0 + (size_t)g * MPP_NQ,
                   MPP_NQ * sizeof(double));
    }
    if (hw_width) {
        ri->hw = malloc((size_t)hw_width * sizeof *ri->hw);
        ri->hw_by_process = malloc(((size_t)nselected * hw_width + 1) * sizeof(double));
        for (int k = 0; ri->hw && k < hw_width; k++) {
            size_t at = nq + ncv + (size_t)g * hw_width + k, mm = nq + nc + (size_t)g * hw_width + k;
            ri->hw[k] =
                (mpp_stat_t){sum_all[at],     lo_all[mm].value, hi_all[mm].value,
                             lo_all[mm].rank, hi_all[mm].rank,  (int)sum_all[nsum + (size_t)g * hw_width + k]};
        }
        for (int s = 0; ri->hw_by_process && s < nselected; s++)
            memcpy(ri->hw_by_process + (size_t)s * hw_width,
                   by_process + (size_t)s * nsum + nq + ncv + (size_t)g * hw_width,
                   (size_t)hw_width * sizeof(double));
    }
}

static void result_srcs(const mpp_reduce_steps_t *r, mpp_reduced_t *out)
{
    int ns = mpp_count_of_kind(&r->d, MPP_REC_SRC), s0 = mpp_first_of_kind(&r->d, MPP_REC_SRC);
    out->nsrcs = ns;
    out->srcs = calloc((size_t)ns + 1, sizeof *out->srcs);
    for (int s = 0; s < ns; s++) {
        out->srcs[s].id = s + 1;
        out->srcs[s].nframes =
            mpp_srckey_parse(r->d.records[s0 + s].key, &out->srcs[s].function, &out->srcs[s].frames);
    }
}

/* Cell g's sums, minima and maxima (of the time, the wait states, the
 * predicted time) and the selected processes' values, which go to the
 * blocks of all cells' values (when they could be allocated). */
static void result_cell_values(const mpp_reduce_steps_t *r, int g, const mpp_reduced_t *out, mpp_reduced_cell_t *rc)
{
    const double *sum_all = r->sum_all, *by_process = r->by_process;
    const mpp_double_int_t *lo_all = r->lo_all, *hi_all = r->hi_all;
    int nselected = r->nselected;
    size_t nq = r->at.nq, nsum = r->at.nsum, cp0 = r->at.cp0, pcmm0 = r->at.pcmm0, wmm0 = r->at.wmm0;
    size_t cell_width = (size_t)nselected * MPP_NCELLV, model_width = (size_t)nselected * MPP_NCELLP;
    const double *v = sum_all + nq + (size_t)g * MPP_NCELLV;
    rc->calls = (uint64_t)v[MPP_CELL_CALLS];
    rc->bytes_sent = (uint64_t)v[MPP_CELL_SENT];
    rc->bytes_recv = (uint64_t)v[MPP_CELL_RECV];
    rc->time = (mpp_stat_t){v[MPP_CELL_TIME],    lo_all[nq + g].value, hi_all[nq + g].value,
                            lo_all[nq + g].rank, hi_all[nq + g].rank,  (int)r->d.records[r->c0 + g].sum};
    for (int w = 0; r->lp->waitstates && w < MPP_CELL_NWAIT; w++) {
        size_t mm = wmm0 + (size_t)g * MPP_CELL_NWAIT + w;
        rc->wait[w] = (mpp_stat_t){v[MPP_CELL_REALSYNC + w], lo_all[mm].value, hi_all[mm].value,
                                   lo_all[mm].rank,          hi_all[mm].rank,  rc->time.count};
    }
    rc->by_process = out->cell_values ? out->cell_values + (size_t)g * cell_width : NULL;
    for (int s = 0; rc->by_process && s < nselected; s++)
        memcpy(rc->by_process + (size_t)s * MPP_NCELLV, by_process + (size_t)s * nsum + nq + (size_t)g * MPP_NCELLV,
               MPP_NCELLV * sizeof(double));
    if (r->predict) {
        const double *m = sum_all + cp0 + (size_t)g * MPP_NCELLP;
        rc->predicted = (mpp_stat_t){m[MPP_CELL_PREDICTED],  lo_all[pcmm0 + g].value, hi_all[pcmm0 + g].value,
                                     lo_all[pcmm0 + g].rank, hi_all[pcmm0 + g].rank,  rc->time.count};
        rc->overlap = m[MPP_CELL_OVERLAP];
        rc->model_by_process = out->cell_model_values ? out->cell_model_values + (size_t)g * model_width : NULL;
        for (int s = 0; rc->model_by_process && s < nselected; s++)
            memcpy(rc->model_by_process + (size_t)s * MPP_NCELLP,
                   by_process + (size_t)s * nsum + cp0 + (size_t)g * MPP_NCELLP, MPP_NCELLP * sizeof(double));
    }
}

static void result_cells(const mpp_reduce_steps_t *r, mpp_reduced_t *out)
{
    const mpp_dict_t *d = &r->d;
    int nc = r->nc, nselected = r->nselected, i0 = r->i0, s0 = mpp_first_of_kind(d, MPP_REC_SRC);
    out->ncells = nc;
    out->cells = calloc((size_t)nc + 1, sizeof *out->cells);
    /* the cells' per-process values: one block for all cells */
    size_t cell_width = (size_t)nselected * MPP_NCELLV, model_width = (size_t)nselected * MPP_NCELLP;
    out->cell_values = malloc(((size_t)nc * cell_width + 1) * sizeof *out->cell_values);
    if (r->predict)
        out->cell_model_values = malloc(((size_t)nc * model_width + 1) * sizeof *out->cell_model_values);
    /* the cells' interval and SRC ids: from the canonical order (this
     * process made it), else from the cell keys */
    mpp_handlemap_t interval_hashes, src_hashes;
    if (!d->cell_ids) {
        mpp_dict_index_hashes(d, MPP_REC_INTERVAL, &interval_hashes);
        mpp_dict_index_hashes(d, MPP_REC_SRC, &src_hashes);
    }
    for (int g = 0; g < nc; g++) {
        mpp_reduced_cell_t *rc = &out->cells[g];
        if (d->cell_ids) {
            rc->interval = (int)d->cell_ids[2 * g];
            rc->src = (int)d->cell_ids[2 * g + 1];
        } else {
            long ip, sp;
            mpp_dict_cell_parts(&interval_hashes, &src_hashes, d->records[r->c0 + g].key, &ip, &sp);
            rc->interval = (int)ip - i0;
            rc->src = (int)sp - s0;
        }
        result_cell_values(r, g, out, rc);
    }
    if (!d->cell_ids) {
        mpp_handlemap_free(&interval_hashes);
        mpp_handlemap_free(&src_hashes);
    }
}

/* The warnings, with the ranks that raised them unless all did, and the
 * topology that could not be read on some host. */
static void result_warnings(const mpp_reduce_steps_t *r, mpp_reduced_t *out)
{
    const mpp_dict_t *d = &r->d, *m = &r->m;
    int size = r->x->size;
    int nw = mpp_count_of_kind(d, MPP_REC_WARNING), w0 = mpp_first_of_kind(d, MPP_REC_WARNING);
    out->warnings = calloc((size_t)nw + 1, sizeof(char *));
    for (int w = 0; w < nw; w++) {
        const mpp_record_t *rec = &d->records[w0 + w];
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
    for (size_t i = 0; i < m->count; i++) {
        char *label = m->records[i].kind == MPP_REC_FACT ? mpp_first_field(m->records[i].key) : NULL;
        char *text = NULL;
        if (label && !strcmp(label, MPP_FACT_TOPOLOGY) &&
            asprintf(&text, "Machine: the topology of %s; that host's node type is unknown",
                     after_field(m->records[i].key)) >= 0)
            append(&out->warnings, &out->nwarnings, text);
        free(label);
    }
}

mpp_reduced_t *mpp_reduce_result(mpp_reduce_steps_t *r)
{
    mpp_reduced_t *out = calloc(1, sizeof *out);
    if (!out)
        return NULL;
    const mpp_local_profile_t *lp = r->lp;
    out->nprocs = r->x->nprocs;
    out->predicted = r->predict;
    out->waitstates = lp->waitstates;
    out->nnodes = mpp_count_of_kind(&r->d, MPP_REC_HOST);
    out->nselected = r->nselected;
    out->selected = malloc(((size_t)r->nselected + 1) * sizeof(int));
    for (int p = 0, s = 0; p < r->x->size; p++)
        if (r->selected[p])
            out->selected[s++] = mpp_exchange_rank(r->x, p);
    out->nintervals = r->ni;
    out->intervals = calloc((size_t)r->ni + 1, sizeof *out->intervals);
    for (int g = 0; g < r->ni; g++)
        result_interval(r, g, &out->intervals[g]);
    result_srcs(r, out);
    result_cells(r, out);
    mpp_reduce_threads_cells(r, out);
    result_warnings(r, out);
    out->machine = machine_result(&r->d, &r->m, lp->context.machine_na);
    out->counters = counters_result(&r->d, &r->m, r->uses, r->nrates, lp->context.counters_na);
    mpp_reduce_threads_result(&r->m, out);
    out->findings = r->findings; /* taken */
    r->findings = (mpp_finding_list_t){0};
    return out;
}

void mpp_reduced_free(mpp_reduced_t *r)
{
    if (!r)
        return;
    mpp_matrix_free(r->matrix);
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
    free(r->cell_values), free(r->cell_model_values), free(r->threads.by_process);
    free(r->cell_threads), free(r->cell_thread_values);
    for (int w = 0; w < r->nwarnings; w++)
        free(r->warnings[w]);
    free(r->intervals), free(r->srcs), free(r->cells), free(r->warnings), free(r->selected);
    machine_data_free(r->machine);
    counters_free(r->counters);
    mpp_finding_list_free(&r->findings);
    free(r);
}
