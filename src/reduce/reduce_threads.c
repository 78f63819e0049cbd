/* The threads of the processes in the reduction: each process's counts
 * travel as a fact keyed by its host (MPP_FACT_THREADS), so that processes
 * with the same counts on one host make one record (what travels grows
 * with hosts and distinct counts, not with processes); a selected process
 * adds one keyed by its rank, for its own values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context/threads.h"
#include "reduce/reduce_steps.h"

void mpp_reduce_threads_rank_fact(mpp_dict_t *m, const mpp_local_context_t *ctx, int rank)
{
    size_t label = strlen(MPP_FACT_THREADS);
    for (int f = 0; f < ctx->nfacts; f++) {
        const char *fact = ctx->facts[f];
        char host[256];
        mpp_thread_counts_t c;
        if (strncmp(fact, MPP_FACT_THREADS, label) || fact[label] != MPP_US ||
            mpp_threads_fact_parse(fact + label + 1, host, sizeof host, &c) != 0)
            continue;
        char number[16], *value;
        snprintf(number, sizeof number, "%d", rank);
        if ((value = mpp_threads_fact(number, &c)) != NULL) {
            /* "threads" -> "threads-rank": the same fields after the label */
            char *keyed = NULL;
            if (asprintf(&keyed, "%s%s", MPP_FACT_THREADS_RANK, value + label) >= 0)
                mpp_dict_add(m, MPP_REC_FACT, keyed, rank, 1);
            free(keyed);
        }
        free(value);
    }
}

/* A value of `count` processes (the lowest rank among them: `rank`) into
 * a statistic over processes. */
static void add_value(mpp_stat_t *s, double value, int count, int rank)
{
    if (!s->count || value < s->min || (value == s->min && rank < s->min_rank))
        s->min = value, s->min_rank = rank;
    if (!s->count || value > s->max || (value == s->max && rank < s->max_rank))
        s->max = value, s->max_rank = rank;
    s->sum += value * count;
    s->count += count;
}

static void add_host_threads(mpp_machine_data_t *md, const char *host, int threads)
{
    for (int h = 0; md && h < md->nhosts; h++)
        if (!strcmp(md->hosts[h].name, host))
            md->hosts[h].threads += threads;
}

void mpp_reduce_threads_result(const mpp_dict_t *m, mpp_reduced_t *out)
{
    mpp_reduced_threads_t *t = &out->threads;
    memset(t, 0, sizeof *t);
    t->by_process = malloc(((size_t)out->nselected * MPP_NTHREADV + 1) * sizeof *t->by_process);
    for (int k = 0; t->by_process && k < out->nselected * MPP_NTHREADV; k++)
        t->by_process[k] = NAN;
    size_t host_label = strlen(MPP_FACT_THREADS), rank_label = strlen(MPP_FACT_THREADS_RANK);
    for (size_t i = 0; i < m->count; i++) {
        const mpp_record_t *r = &m->records[i];
        char first[256];
        mpp_thread_counts_t c;
        if (r->kind != MPP_REC_FACT)
            continue;
        int by_rank = !strncmp(r->key, MPP_FACT_THREADS_RANK, rank_label) && r->key[rank_label] == MPP_US;
        int by_host = !by_rank && !strncmp(r->key, MPP_FACT_THREADS, host_label) && r->key[host_label] == MPP_US;
        if ((!by_rank && !by_host) ||
            mpp_threads_fact_parse(r->key + (by_rank ? rank_label : host_label) + 1, first, sizeof first, &c) != 0)
            continue;
        if (by_rank) {
            int rank = atoi(first);
            for (int s = 0; t->by_process && s < out->nselected; s++)
                if (out->selected[s] == rank) {
                    double *v = t->by_process + (size_t)s * MPP_NTHREADV;
                    v[MPP_THREADS_ALIVE] = c.alive >= 0 ? c.alive : NAN;
                    v[MPP_THREADS_MPI] = c.mpi;
                    v[MPP_THREADS_OMP] = c.omp > 0 ? c.omp : NAN;
                }
            continue;
        }
        int count = (int)r->sum, lowest = (int)r->min;
        t->processes += count;
        if (c.alive >= 0)
            add_value(&t->v[MPP_THREADS_ALIVE], c.alive, count, lowest);
        add_value(&t->v[MPP_THREADS_MPI], c.mpi, count, lowest);
        if (c.source == MPP_OMP_UNKNOWN)
            t->omp_unknown += count;
        else if (c.omp > 0) {
            add_value(&t->v[MPP_THREADS_OMP], c.omp, count, lowest);
            if (c.source == MPP_OMP_RUNTIME)
                t->omp_runtime += count;
            else
                t->omp_env += count;
        }
        add_host_threads(out->machine, first, (c.alive >= 0 ? c.alive : c.mpi) * count);
    }
}

/* Per-thread times of the cells: MPP_NCELLT values a cell in the sums
 * (and the selected processes' values), two minima/maxima (the time of one
 * thread, the threads that called). */
void mpp_reduce_threads_layout(const mpp_reduce_steps_t *r, mpp_reduce_layout_t *at)
{
    at->ct0 = at->nsum;
    at->ctmm0 = at->nminmax;
    if (!r->thread_times)
        return;
    at->nsum += (size_t)r->nc * MPP_NCELLT;
    at->nminmax += (size_t)r->nc * 2;
}

void mpp_reduce_threads_own_cell(mpp_reduce_steps_t *r, int c, int g)
{
    if (!r->thread_times)
        return;
    const mpp_local_cell_t *lc = &r->lp->cells[c];
    double *own = r->own + r->at.ct0 + (size_t)g * MPP_NCELLT, *sum = r->sum + r->at.ct0 + (size_t)g * MPP_NCELLT;
    own[MPP_CELLT_THREADS] = sum[MPP_CELLT_THREADS] = lc->nthreads;
    for (int i = 0; i < MPP_THREAD_SLOTS; i++) {
        sum[MPP_CELLT_SLOT0 + i] = lc->thread_time[i];
        own[MPP_CELLT_SLOT0 + i] = lc->thread_mask & 1u << i ? lc->thread_time[i] : NAN;
        if (!(lc->thread_mask & 1u << i))
            continue;
        mpp_double_int_t *lo = &r->lo[r->at.ctmm0 + 2 * (size_t)g], *hi = &r->hi[r->at.ctmm0 + 2 * (size_t)g];
        if (lc->thread_time[i] < lo->value)
            lo->value = lc->thread_time[i];
        if (lc->thread_time[i] > hi->value)
            hi->value = lc->thread_time[i];
    }
    own[MPP_CELLT_REST] = sum[MPP_CELLT_REST] = lc->rest_time;
    own[MPP_CELLT_RESTN] = sum[MPP_CELLT_RESTN] = lc->rest_threads;
    r->lo[r->at.ctmm0 + 2 * (size_t)g + 1].value = r->hi[r->at.ctmm0 + 2 * (size_t)g + 1].value = lc->nthreads;
}

void mpp_reduce_threads_cells(const mpp_reduce_steps_t *r, mpp_reduced_t *out)
{
    out->thread_times = r->thread_times;
    if (!r->thread_times || !r->sum_all)
        return;
    size_t width = (size_t)r->nselected * MPP_NCELLT;
    out->cell_threads = calloc((size_t)r->nc + 1, sizeof *out->cell_threads);
    out->cell_thread_values = malloc(((size_t)r->nc * width + 1) * sizeof *out->cell_thread_values);
    for (int g = 0; out->cell_threads && g < out->ncells; g++) {
        mpp_reduced_cell_threads_t *ct = &out->cell_threads[g];
        out->cells[g].threads = ct;
        memcpy(ct->values, r->sum_all + r->at.ct0 + (size_t)g * MPP_NCELLT, sizeof ct->values);
        for (int i = 0; i < MPP_THREAD_SLOTS; i++) /* a thread at a call site takes time there */
            if (ct->values[MPP_CELLT_SLOT0 + i] > 0)
                ct->slots |= 1u << i;
        const mpp_double_int_t *lo = &r->lo_all[r->at.ctmm0 + 2 * (size_t)g];
        const mpp_double_int_t *hi = &r->hi_all[r->at.ctmm0 + 2 * (size_t)g];
        ct->threads_max = isfinite(hi[1].value) ? (int)hi[1].value : 0;
        ct->threads_max_rank = hi[1].rank;
        if (isfinite(lo[0].value) && isfinite(hi[0].value))
            ct->per_thread = (mpp_stat_t){0, lo[0].value, hi[0].value, lo[0].rank, hi[0].rank, 1};
        ct->by_process = out->cell_thread_values ? out->cell_thread_values + (size_t)g * width : NULL;
        for (int s = 0; r->by_process && ct->by_process && s < r->nselected; s++) {
            const double *v = r->by_process + (size_t)s * r->at.nsum + r->at.ct0 + (size_t)g * MPP_NCELLT;
            memcpy(ct->by_process + (size_t)s * MPP_NCELLT, v, MPP_NCELLT * sizeof *v);
            for (int i = 0; i < MPP_THREAD_SLOTS; i++)
                if (!isnan(v[MPP_CELLT_SLOT0 + i]))
                    ct->slots |= 1u << i;
        }
    }
}
