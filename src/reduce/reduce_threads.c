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
                    v[MPP_THREADS_ALIVE] = c.alive;
                    v[MPP_THREADS_MPI] = c.mpi;
                    v[MPP_THREADS_OMP] = c.omp > 0 ? c.omp : NAN;
                }
            continue;
        }
        int count = (int)r->sum, lowest = (int)r->min;
        t->processes += count;
        add_value(&t->v[MPP_THREADS_ALIVE], c.alive, count, lowest);
        add_value(&t->v[MPP_THREADS_MPI], c.mpi, count, lowest);
        if (c.omp > 0) {
            add_value(&t->v[MPP_THREADS_OMP], c.omp, count, lowest);
            if (c.source == MPP_OMP_RUNTIME)
                t->omp_runtime += count;
            else
                t->omp_env += count;
        }
        add_host_threads(out->machine, first, c.alive * count);
    }
}
