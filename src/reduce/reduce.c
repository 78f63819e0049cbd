#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "characteristics.h"
#include "config.h"
#include "dictionary.h"
#include "reduce.h"
#include "srckey.h"
#include "warnings.h"

enum { TAG_DICT = 7701, TAG_SELECTED = 7702 };

typedef struct {
    double value;
    int rank;
} double_int_t; /* layout of MPI_DOUBLE_INT */

/* Union of every process's dictionary on rank 0: in round k, ranks with bit
 * k set send theirs to rank - 2^k and leave. */
static void tree_union(mpp_dict_t *d, MPI_Comm comm, int rank, int size)
{
    for (int step = 1; step < size; step <<= 1) {
        if (rank & step) {
            char *buf;
            size_t len;
            if (mpp_dict_serialize(d, &buf, &len) != 0)
                len = 0, buf = NULL;
            PMPI_Send(buf, (int)len, MPI_BYTE, rank - step, TAG_DICT, comm);
            free(buf);
            return;
        }
        if (rank + step < size) {
            MPI_Status st;
            int len;
            PMPI_Probe(rank + step, TAG_DICT, comm, &st);
            PMPI_Get_count(&st, MPI_BYTE, &len);
            char *buf = malloc(len ? (size_t)len : 1);
            PMPI_Recv(buf, len, MPI_BYTE, rank + step, TAG_DICT, comm, MPI_STATUS_IGNORE);
            if (buf && mpp_dict_merge_serialized(d, buf, (size_t)len) != 0)
                mpp_warn("the profile of rank %d could not be merged (corrupt or out of memory)", rank + step);
            free(buf);
        }
    }
}

static void broadcast_dict(mpp_dict_t *d, MPI_Comm comm, int rank)
{
    char *buf = NULL;
    size_t len = 0;
    if (rank == 0 && mpp_dict_serialize(d, &buf, &len) != 0)
        len = 0;
    long long n = (long long)len;
    PMPI_Bcast(&n, 1, MPI_LONG_LONG, 0, comm);
    if (rank != 0)
        buf = malloc(n ? (size_t)n : 1);
    PMPI_Bcast(buf, (int)n, MPI_BYTE, 0, comm);
    if (rank != 0) {
        mpp_dict_free(d);
        mpp_dict_init(d);
        mpp_dict_merge_serialized(d, buf, (size_t)n);
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

static char *cell_key(const char *interval_key, const char *src_key)
{
    size_t a = strlen(interval_key), b = strlen(src_key);
    char *k = malloc(a + b + 2);
    if (!k)
        return NULL;
    memcpy(k, interval_key, a);
    k[a] = MPP_GS;
    memcpy(k + a + 1, src_key, b + 1);
    return k;
}

static void fill_interval_names(mpp_reduced_interval_t *out, const char *key, const mpp_dict_t *d,
                                int interval_base)
{
    char *parent = mpp_interval_parent_key(key);
    out->parent = parent ? ordinal(d, MPP_REC_INTERVAL, mpp_dict_find(d, MPP_REC_INTERVAL, parent)) : -1;
    out->level = 0;
    for (const char *p = key; *p; p++)
        out->level += *p == MPP_RS;
    free(parent);
    (void)interval_base;
    if (out->parent < 0) {
        out->name = strdup("whole program");
        out->file = NULL;
        return;
    }
    const char *last = strrchr(key, MPP_RS) + 1;
    const char *us1 = strchr(last, MPP_US);
    const char *us2 = us1 ? strchr(us1 + 1, MPP_US) : NULL;
    out->name = us1 ? strndup(last, (size_t)(us1 - last)) : strdup(last);
    out->file = us2 ? strndup(us1 + 1, (size_t)(us2 - us1 - 1)) : strdup("");
    out->line = us2 ? atoi(us2 + 1) : 0;
}

mpp_reduced_t *mpp_reduce(const mpp_local_profile_t *lp, MPI_Comm comm, const char *ranks_spec,
                          const char *hostname)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);

    /* 1. Keys of this process. */
    mpp_dict_t d;
    mpp_dict_init(&d);
    for (int i = 0; i < lp->nintervals; i++)
        mpp_dict_add(&d, MPP_REC_INTERVAL, lp->intervals[i].key,
                     (int64_t)(lp->intervals[i].first_entry * 1e9), 1);
    for (int c = 0; c < lp->ncells; c++) {
        char *ck = cell_key(lp->intervals[lp->cells[c].interval].key, lp->cells[c].src);
        mpp_dict_add(&d, MPP_REC_SRC, lp->cells[c].src, 0, 0);
        if (ck)
            mpp_dict_add(&d, MPP_REC_CELL, ck, 0, 1);
        free(ck);
    }
    mpp_dict_add(&d, MPP_REC_HOST, hostname, rank, 1);
    for (size_t w = 0; w < mpp_warnings_count(); w++)
        mpp_dict_add(&d, MPP_REC_WARNING, mpp_warning_text(w), rank, 1);

    /* 2. Union on rank 0, canonical order, broadcast. */
    tree_union(&d, comm, rank, size);
    if (rank == 0)
        mpp_dict_canonical_order(&d);
    broadcast_dict(&d, comm, rank);

    int ni = count_of_kind(&d, MPP_REC_INTERVAL), nc = count_of_kind(&d, MPP_REC_CELL);
    int i0 = first_of_kind(&d, MPP_REC_INTERVAL), c0 = first_of_kind(&d, MPP_REC_CELL);

    /* 3. Selected processes (rank 0's choice). */
    char spec[MPP_CONFIG_STRING_MAX] = {0};
    if (rank == 0)
        strncpy(spec, ranks_spec, sizeof spec - 1);
    PMPI_Bcast(spec, sizeof spec, MPI_CHAR, 0, comm);
    mpp_config_t selection_cfg;
    memset(&selection_cfg, 0, sizeof selection_cfg);
    strcpy(selection_cfg.text[MPP_CFG_RANKS], spec);
    unsigned char *selected = calloc((size_t)size, 1);
    int nselected = mpp_config_select_ranks(&selection_cfg, size, selected);

    /* 4. This process's values on the global index. */
    size_t nq = (size_t)ni * MPP_NQ, ncv = (size_t)nc * MPP_NCELLV;
    size_t nsum = nq + ncv;
    double *sum = calloc(nsum + 1, sizeof *sum);
    double *own = malloc((nsum + 1) * sizeof *own);       /* NaN where absent */
    double *execs = calloc((size_t)ni + 1, sizeof *execs);
    double_int_t *lo = malloc(((size_t)nq + nc + 1) * sizeof *lo);
    double_int_t *hi = malloc(((size_t)nq + nc + 1) * sizeof *hi);
    for (size_t k = 0; k < nsum; k++)
        own[k] = NAN;
    for (size_t k = 0; k < nq + (size_t)nc; k++) {
        lo[k] = (double_int_t){INFINITY, rank};
        hi[k] = (double_int_t){-INFINITY, rank};
    }
    for (int i = 0; i < lp->nintervals; i++) {
        long pos = mpp_dict_find(&d, MPP_REC_INTERVAL, lp->intervals[i].key);
        if (pos < 0)
            continue;
        int g = (int)pos - i0;
        double q[MPP_NQ];
        mpp_process_quantities(&lp->intervals[i], (int)d.records[pos].sum, q);
        for (int k = 0; k < MPP_NQ; k++) {
            size_t at = (size_t)g * MPP_NQ + k;
            sum[at] = own[at] = q[k];
            lo[at].value = hi[at].value = q[k];
        }
        execs[g] = (double)lp->intervals[i].info->executions;
    }
    for (int c = 0; c < lp->ncells; c++) {
        char *ck = cell_key(lp->intervals[lp->cells[c].interval].key, lp->cells[c].src);
        long pos = ck ? mpp_dict_find(&d, MPP_REC_CELL, ck) : -1;
        free(ck);
        if (pos < 0)
            continue;
        int g = (int)pos - c0;
        double *v = own + nq + (size_t)g * MPP_NCELLV;
        v[MPP_CELL_TIME] = lp->cells[c].time;
        v[MPP_CELL_CALLS] = (double)lp->cells[c].calls;
        v[MPP_CELL_SENT] = (double)lp->cells[c].bytes_sent;
        v[MPP_CELL_RECV] = (double)lp->cells[c].bytes_recv;
        memcpy(sum + nq + (size_t)g * MPP_NCELLV, v, MPP_NCELLV * sizeof *v);
        lo[nq + g].value = hi[nq + g].value = lp->cells[c].time;
    }

    /* 5. Reductions to rank 0 (log P each). */
    double *sum_all = rank == 0 ? calloc(nsum + 1, sizeof *sum_all) : NULL;
    double *execs_all = rank == 0 ? calloc((size_t)ni + 1, sizeof *execs_all) : NULL;
    double_int_t *lo_all = rank == 0 ? malloc((nq + nc + 1) * sizeof *lo_all) : NULL;
    double_int_t *hi_all = rank == 0 ? malloc((nq + nc + 1) * sizeof *hi_all) : NULL;
    PMPI_Reduce(sum, sum_all, (int)nsum, MPI_DOUBLE, MPI_SUM, 0, comm);
    PMPI_Reduce(execs, execs_all, ni, MPI_DOUBLE, MPI_MAX, 0, comm);
    PMPI_Reduce(lo, lo_all, (int)(nq + nc), MPI_DOUBLE_INT, MPI_MINLOC, 0, comm);
    PMPI_Reduce(hi, hi_all, (int)(nq + nc), MPI_DOUBLE_INT, MPI_MAXLOC, 0, comm);

    /* 6. Per-process values of the selected processes only. */
    double *by_process = NULL;
    if (rank == 0) {
        by_process = malloc(((size_t)nselected * nsum + 1) * sizeof *by_process);
        for (int r = 0, s = 0; r < size; r++) {
            if (!selected[r])
                continue;
            if (r == 0)
                memcpy(by_process + (size_t)s * nsum, own, nsum * sizeof *own);
            else
                PMPI_Recv(by_process + (size_t)s * nsum, (int)nsum, MPI_DOUBLE, r, TAG_SELECTED, comm,
                          MPI_STATUS_IGNORE);
            s++;
        }
    } else if (selected[rank]) {
        PMPI_Send(own, (int)nsum, MPI_DOUBLE, 0, TAG_SELECTED, comm);
    }

    mpp_reduced_t *out = NULL;
    if (rank == 0)
        out = calloc(1, sizeof *out);
    if (out) {
        out->nprocs = size;
        out->nnodes = count_of_kind(&d, MPP_REC_HOST);
        out->nselected = nselected;
        out->selected = malloc(((size_t)nselected + 1) * sizeof(int));
        for (int r = 0, s = 0; r < size; r++)
            if (selected[r])
                out->selected[s++] = r;
        out->nintervals = ni;
        out->intervals = calloc((size_t)ni + 1, sizeof *out->intervals);
        for (int g = 0; g < ni; g++) {
            mpp_reduced_interval_t *ri = &out->intervals[g];
            const mpp_record_t *rec = &d.records[i0 + g];
            ri->id = g;
            fill_interval_names(ri, rec->key, &d, i0);
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
        for (int g = 0; g < nc; g++) {
            mpp_reduced_cell_t *rc = &out->cells[g];
            const char *key = d.records[c0 + g].key;
            const char *gs = strchr(key, MPP_GS);
            char *ikey = strndup(key, (size_t)(gs - key));
            rc->interval = (int)mpp_dict_find(&d, MPP_REC_INTERVAL, ikey) - i0;
            rc->src = (int)mpp_dict_find(&d, MPP_REC_SRC, gs + 1) - s0;
            free(ikey);
            const double *v = sum_all + nq + (size_t)g * MPP_NCELLV;
            rc->calls = (uint64_t)v[MPP_CELL_CALLS];
            rc->bytes_sent = (uint64_t)v[MPP_CELL_SENT];
            rc->bytes_recv = (uint64_t)v[MPP_CELL_RECV];
            rc->time = (mpp_stat_t){v[MPP_CELL_TIME], lo_all[nq + g].value, hi_all[nq + g].value,
                                    lo_all[nq + g].rank, hi_all[nq + g].rank, (int)d.records[c0 + g].sum};
            rc->by_process = malloc(((size_t)nselected * MPP_NCELLV + 1) * sizeof(double));
            for (int s = 0; s < nselected; s++)
                memcpy(rc->by_process + (size_t)s * MPP_NCELLV,
                       by_process + (size_t)s * nsum + nq + (size_t)g * MPP_NCELLV, MPP_NCELLV * sizeof(double));
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
    }

    free(sum), free(own), free(execs), free(lo), free(hi);
    free(sum_all), free(execs_all), free(lo_all), free(hi_all), free(by_process), free(selected);
    mpp_dict_free(&d);
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
    }
    for (int s = 0; s < r->nsrcs; s++) {
        free(r->srcs[s].function);
        mpp_srckey_free_frames(r->srcs[s].frames, r->srcs[s].nframes);
    }
    for (int c = 0; c < r->ncells; c++)
        free(r->cells[c].by_process);
    for (int w = 0; w < r->nwarnings; w++)
        free(r->warnings[w]);
    free(r->intervals), free(r->srcs), free(r->cells), free(r->warnings), free(r->selected);
    free(r);
}
