/* What the reduction's steps (reduce.c) hand each other and leave for the
 * reduced data that position 0 makes (reduce_result.c), and the lookups in
 * the union's records that both files make.  No MPI. */
#ifndef MPP_REDUCE_STEPS_H
#define MPP_REDUCE_STEPS_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/profile.h"
#include "check/finding_list.h"
#include "records/reduced.h"
#include "reduce/dictionary.h"
#include "reduce/exchange.h"
#include "util/srckey.h"

/* Where each value sits in the vectors reduced in step 5.  `sum` (and
 * `own`, and each selected process's block) holds the interval quantities,
 * cells, counters (then, in `sum` only, how many processes have each
 * counter value), and, when the model ran, the predicted interval
 * quantities and the cells' predicted time and Overlap; the minima and
 * maxima hold the interval quantities, the cells' time, the counters, the
 * model's values and the cells' wait states. */
typedef struct {
    size_t nq, ncv, nhw; /* interval quantities, cell values, counter values */
    size_t pq0, cp0;     /* offsets of the model's values */
    size_t nsum;
    size_t pmm0, pcmm0; /* ... and of their minima/maxima */
    size_t wmm0;        /* the cells' wait states' minima/maxima */
    size_t nminmax;
    size_t ct0, ctmm0; /* the cells' per-thread values, and their minima/maxima (reduce_threads.c) */
} mpp_reduce_layout_t;

/* What the steps of mpp_reduce_exchange hand each other, by the step that
 * sets it. */
typedef struct {
    const mpp_local_profile_t *lp;
    mpp_exchange_t *x;
    /* 1: this process's keys; 2: their union, in canonical order */
    mpp_dict_t d;
    char (*cell_keys)[MPP_CELL_KEY_LEN]; /* each cell's key, here */
    long *cell_at;                       /* each cell's record, here */
    /* 2: the union's intervals and cells (how many, the first's position),
     * the counter events on the global index and the rates they allow */
    int ni, nc, i0, c0;
    int ne, nrates, hw_width;
    char **event_names;
    int *event_map; /* this process's events' global indexes (-1: none) */
    mpp_rate_use_t *uses;
    double *row; /* one interval's counter values */
    /* 3: the positions whose processes get per-process values */
    unsigned char *selected;
    int nselected;
    /* 4: this process's values on the global index */
    int predict;
    int thread_times; /* per-thread times: some process gives them (2, from the union) */
    mpp_reduce_layout_t at;
    double *sum, *own, *execs; /* own: NaN where absent */
    mpp_double_int_t *lo, *hi;
    /* 5, 6: the reductions and the selected processes' values (position 0) */
    double *sum_all, *execs_all;
    mpp_double_int_t *lo_all, *hi_all;
    double *by_process;
    /* 7: the machine context and the PAPI facts (position 0) */
    mpp_dict_t m;
    /* 8: the findings of every process (position 0) */
    mpp_finding_list_t findings;
} mpp_reduce_steps_t;

/* The threads of the processes from the facts of the context union
 * (reduce_threads.c): out->threads and the machine's hosts' threads. */
void mpp_reduce_threads_result(const mpp_dict_t *m, mpp_reduced_t *out);
/* Per-thread times of the cells: their place at the end of the layout
 * (none unless r->thread_times), this process's values of its cell c at
 * global cell g, and the result's (after its cells are made). */
void mpp_reduce_threads_layout(const mpp_reduce_steps_t *r, mpp_reduce_layout_t *at);
void mpp_reduce_threads_own_cell(mpp_reduce_steps_t *r, int c, int g);
void mpp_reduce_threads_cells(const mpp_reduce_steps_t *r, mpp_reduced_t *out);
/* A selected process's counts once more, keyed by its rank instead of its
 * host (MPP_FACT_THREADS_RANK), into the context union m. */
void mpp_reduce_threads_rank_fact(mpp_dict_t *m, const mpp_local_context_t *ctx, int rank);

/* The reduced data, on position 0, from the steps' result (NULL when
 * memory ran out). */
mpp_reduced_t *mpp_reduce_result(mpp_reduce_steps_t *r);

/* The records of a kind are consecutive in canonical order: the first's
 * position (count when none), and how many. */
static inline int mpp_first_of_kind(const mpp_dict_t *d, int kind)
{
    for (size_t i = 0; i < d->count; i++)
        if (d->records[i].kind == kind)
            return (int)i;
    return (int)d->count;
}

static inline int mpp_count_of_kind(const mpp_dict_t *d, int kind)
{
    int n = 0;
    for (size_t i = 0; i < d->count; i++)
        n += d->records[i].kind == kind;
    return n;
}

/* The part of a record key before its first US (allocated). */
static inline char *mpp_first_field(const char *key)
{
    const char *us = strchr(key, MPP_US);
    return us ? strndup(key, (size_t)(us - key)) : strdup(key);
}

#endif
