/* The digest and the summed SRC tables (digest.h).  An interval's cells
 * hold only the calls made directly in it; its characteristics include its
 * sub-intervals (characteristics.md), so its inclusive table sums the
 * cells of every interval below it, and the whole run's sums every cell. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/digest.h"

int mpp_digest_is_lost(const char *function)
{
    static const char *const not_lost[] = {"MPI_File_", "MPI_Wtime", "MPI_Wtick", "MPI_Pcontrol", "MPI_T_"};
    for (size_t i = 0; i < sizeof not_lost / sizeof *not_lost; i++)
        if (!strncmp(function, not_lost[i], strlen(not_lost[i])))
            return 0;
    return 1;
}

/* Whether interval i is `top` or below it (the parent chain is walked at
 * most nintervals steps: a malformed chain ends there). */
static int below(const mpp_reduced_t *rd, int i, int top)
{
    for (int steps = 0; i >= 0 && i < rd->nintervals && steps <= rd->nintervals; steps++) {
        if (i == top)
            return 1;
        i = rd->intervals[i].parent;
    }
    return 0;
}

static double add_nan(double a, double b) { return isnan(a) ? b : isnan(b) ? a : a + b; }

static void add_cell(const mpp_reduced_t *rd, const mpp_reduced_cell_t *c, mpp_src_total_t *t)
{
    t->calls += c->calls, t->bytes_sent += c->bytes_sent, t->bytes_recv += c->bytes_recv;
    t->time.sum += c->time.sum;
    if (t->ncells++ == 0) /* one cell: its minimum and maximum are the sum's */
        t->time.min = c->time.min, t->time.max = c->time.max, t->time.min_rank = c->time.min_rank,
        t->time.max_rank = c->time.max_rank, t->time.count = c->time.count;
    if (rd->predicted)
        t->predicted += c->predicted.sum, t->overlap += c->overlap;
    for (int w = 0; rd->waitstates && w < MPP_CELL_NWAIT; w++)
        t->wait[w] += c->wait[w].sum;
    size_t width = (size_t)MPP_NCELLV * (size_t)rd->nselected;
    for (size_t k = 0; c->by_process && k < width; k++)
        t->by_process[k] = add_nan(t->by_process[k], c->by_process[k]);
}

/* Minimum, maximum and processes with calls of a sum over several cells:
 * from the per-process values when every process's is there. */
static void spread(const mpp_reduced_t *rd, mpp_src_total_t *t)
{
    if (t->ncells == 1)
        return;
    t->time.min = t->time.max = NAN;
    t->time.min_rank = t->time.max_rank = -1;
    t->time.count = 0;
    if (rd->nselected != rd->nprocs)
        return;
    for (int s = 0; s < rd->nselected; s++) {
        double v = t->by_process[(size_t)s * MPP_NCELLV + MPP_CELL_TIME];
        if (isnan(v))
            continue;
        if (!t->time.count || v < t->time.min)
            t->time.min = v, t->time.min_rank = rd->selected[s];
        if (!t->time.count || v > t->time.max)
            t->time.max = v, t->time.max_rank = rd->selected[s];
        t->time.count++;
    }
}

static int by_time(const void *a, const void *b)
{
    const mpp_src_total_t *x = a, *y = b;
    if (x->time.sum != y->time.sum)
        return x->time.sum > y->time.sum ? -1 : 1;
    return x->src - y->src;
}

/* Cell c is in the table: every cell in the whole run's. */
static int counted(const mpp_reduced_t *rd, const char *in, int interval, int c)
{
    int i = rd->cells[c].interval;
    return interval < 0 || (i >= 0 && i < rd->nintervals && in[i]);
}

int mpp_src_table(const mpp_reduced_t *rd, int interval, mpp_src_table_t *out)
{
    memset(out, 0, sizeof *out);
    char *in = calloc((size_t)rd->nintervals + 1, 1);
    int *slot = malloc(((size_t)rd->nsrcs + 1) * sizeof *slot);
    if (!in || !slot) {
        free(in), free(slot);
        return -1;
    }
    for (int i = 0; i < rd->nintervals; i++)
        in[i] = (char)(interval < 0 || below(rd, i, interval));
    for (int s = 0; s < rd->nsrcs; s++)
        slot[s] = -1;
    int n = 0;
    for (int c = 0; c < rd->ncells; c++)
        if (counted(rd, in, interval, c) && slot[rd->cells[c].src] < 0)
            slot[rd->cells[c].src] = n++;
    size_t width = (size_t)MPP_NCELLV * (size_t)rd->nselected;
    out->items = calloc((size_t)n + 1, sizeof *out->items);
    out->values = malloc(((size_t)n * width + 1) * sizeof *out->values);
    if (!out->items || !out->values) {
        free(in), free(slot), mpp_src_table_free(out);
        return -1;
    }
    for (size_t k = 0; k < (size_t)n * width; k++)
        out->values[k] = NAN;
    for (int s = 0; s < rd->nsrcs; s++)
        if (slot[s] >= 0) {
            mpp_src_total_t *t = &out->items[slot[s]];
            t->src = s, t->by_process = out->values + (size_t)slot[s] * width;
            if (!rd->predicted)
                t->predicted = t->overlap = NAN;
            for (int w = 0; !rd->waitstates && w < MPP_CELL_NWAIT; w++)
                t->wait[w] = NAN;
        }
    for (int c = 0; c < rd->ncells; c++)
        if (counted(rd, in, interval, c))
            add_cell(rd, &rd->cells[c], &out->items[slot[rd->cells[c].src]]);
    for (int i = 0; i < n; i++)
        spread(rd, &out->items[i]);
    out->n = n;
    /* sorting moves the items, not their values: by_process stays theirs */
    qsort(out->items, (size_t)n, sizeof *out->items, by_time);
    free(in), free(slot);
    return 0;
}

void mpp_src_table_free(mpp_src_table_t *t)
{
    free(t->items), free(t->values);
    memset(t, 0, sizeof *t);
}

static double share(double part, double whole) { return whole > 0 && !isnan(part) ? part / whole : NAN; }

static void lost_parts(const double *m, mpp_digest_t *d)
{
    static const mpp_main_t parts[MPP_DIGEST_NLOST] = {MPP_M_INSUFFICIENT, MPP_M_SENDRECV, MPP_M_COLLECTIVE,
                                                       MPP_M_SYSTEM, MPP_M_IDLE};
    for (int i = 0; i < MPP_DIGEST_NLOST; i++)
        d->lost_parts[i] = (mpp_digest_part_t){parts[i], m[parts[i]], share(m[parts[i]], m[MPP_M_LOST])};
    /* by descending seconds, n/a last; ties keep the protocol's order */
    for (int i = 1; i < MPP_DIGEST_NLOST; i++)
        for (int k = i; k > 0; k--) {
            mpp_digest_part_t *a = &d->lost_parts[k - 1], *b = &d->lost_parts[k];
            if (!(isnan(a->seconds) && !isnan(b->seconds)) && !(b->seconds > a->seconds))
                break;
            mpp_digest_part_t t = *a;
            *a = *b, *b = t;
        }
}

int mpp_digest(const mpp_reduced_t *rd, const mpp_interval_result_t *whole, int nwarnings, mpp_digest_t *d)
{
    memset(d, 0, sizeof *d);
    const double *m = whole->main;
    d->processes = rd->nprocs, d->nodes = rd->nnodes;
    d->keff = m[MPP_M_KEFF], d->exec = m[MPP_M_EXEC], d->total = m[MPP_M_TOTAL];
    d->productive = m[MPP_M_PRODUCTIVE], d->lost = m[MPP_M_LOST];
    d->cpu = m[MPP_M_CPU], d->sys = m[MPP_M_SYS], d->io = m[MPP_M_IO];
    d->lost_share = share(d->lost, d->total);
    d->io_share = share(d->io, d->total);
    d->io_large = d->io_share >= MPP_DIGEST_IO_SHARE;
    lost_parts(m, d);
    const mpp_finding_list_t *l = &rd->findings;
    d->checked = l->level > 0;
    for (int i = 0; d->checked && i < l->n; i++)
        *(l->items[i].severity == MPP_FINDING_ERROR ? &d->errors : &d->warnings) += l->items[i].count;
    d->dropped = d->checked ? l->dropped : 0;
    d->nwarnings = nwarnings;
    if (mpp_src_table(rd, -1, &d->whole) != 0)
        return -1;
    for (int i = 0; i < d->whole.n && d->ntop < MPP_DIGEST_TOP; i++) {
        const mpp_src_total_t *t = &d->whole.items[i];
        if (t->calls == 0)
            continue;
        int lost = mpp_digest_is_lost(rd->srcs[t->src].function);
        d->top[d->ntop++] = (mpp_digest_top_t){i, lost ? share(t->time.sum, d->lost) : NAN};
    }
    return 0;
}

void mpp_digest_free(mpp_digest_t *d) { mpp_src_table_free(&d->whole); }
