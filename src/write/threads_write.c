#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util/textbuf.h"
#include "write/threads_write.h"

static const char *const value_names[MPP_NTHREADV] = {"alive", "mpi", "openmp"};

/* "2" when every process has the same, else "min 1 (rank 3) max 4 (rank 0)". */
static void stat_text(mpp_textbuf_t *b, const mpp_stat_t *s)
{
    if (s->min == s->max)
        mpp_textbuf_printf(b, "%.0f", s->min);
    else
        mpp_textbuf_printf(b, "min %.0f (rank %d) max %.0f (rank %d)", s->min, s->min_rank, s->max, s->max_rank);
}

/* Where the OpenMP team size came from, as the text and the JSON say it. */
static const char *omp_source(const mpp_reduced_threads_t *t)
{
    if (t->omp_runtime && t->omp_env)
        return "omp_get_max_threads, OMP_NUM_THREADS where no OpenMP runtime was loaded";
    return t->omp_runtime ? "omp_get_max_threads" : "OMP_NUM_THREADS, no OpenMP runtime was loaded";
}

/* The Threads line (allocated; NULL when memory ran out). */
static char *threads_line(const mpp_reduced_t *rd)
{
    const mpp_reduced_threads_t *t = &rd->threads;
    mpp_textbuf_t b = {0};
    if (!t->processes) {
        mpp_textbuf_printf(&b, "n/a (no process reported its threads)");
        return mpp_textbuf_done(&b);
    }
    if (t->v[MPP_THREADS_ALIVE].count)
        stat_text(&b, &t->v[MPP_THREADS_ALIVE]);
    else
        mpp_textbuf_printf(&b, "n/a");
    mpp_textbuf_printf(&b, " per process (alive at once, at most), ");
    stat_text(&b, &t->v[MPP_THREADS_MPI]);
    mpp_textbuf_printf(&b, " called MPI; OpenMP team ");
    if (t->omp_unknown == t->processes) {
        mpp_textbuf_printf(&b, "n/a");
    } else if (t->v[MPP_THREADS_OMP].count) {
        stat_text(&b, &t->v[MPP_THREADS_OMP]);
        mpp_textbuf_printf(&b, " (%s)", omp_source(t));
        if (t->v[MPP_THREADS_OMP].count < t->processes)
            mpp_textbuf_printf(&b, " on %d of %d processes", t->v[MPP_THREADS_OMP].count, t->processes);
    } else {
        mpp_textbuf_printf(&b, "none (no OpenMP runtime, OMP_NUM_THREADS unset)");
    }
    if (t->processes < rd->nprocs)
        mpp_textbuf_printf(&b, "; %d of %d processes reported", t->processes, rd->nprocs);
    return mpp_textbuf_done(&b);
}

void mpp_write_threads_text(FILE *out, const mpp_report_t *r)
{
    const mpp_reduced_t *rd = r->reduced;
    const mpp_reduced_threads_t *t = &rd->threads;
    char *line = threads_line(rd);
    fprintf(out, "%-22s: %s\n", "Threads", line ? line : "?");
    free(line);
    if (!t->processes || !t->by_process || !rd->nselected)
        return;
    fprintf(out, "   by process (alive, called MPI, OpenMP team):");
    for (int s = 0; s < rd->nselected; s++) {
        const double *v = t->by_process + (size_t)s * MPP_NTHREADV;
        fprintf(out, "  %d:", rd->selected[s]);
        for (int k = 0; k < MPP_NTHREADV; k++)
            isnan(v[k]) ? fprintf(out, " -") : fprintf(out, " %.0f", v[k]);
    }
    fputc('\n', out);
}

static json_t *count_stat(const mpp_stat_t *s)
{
    return json_pack("{s:I, s:i, s:I, s:i, s:f}", "min", (json_int_t)llround(s->min), "min_rank", s->min_rank, "max",
                     (json_int_t)llround(s->max), "max_rank", s->max_rank, "mean",
                     s->count ? s->sum / s->count : 0.0);
}

json_t *mpp_threads_json(const mpp_report_t *r)
{
    const mpp_reduced_t *rd = r->reduced;
    const mpp_reduced_threads_t *t = &rd->threads;
    char *line = threads_line(rd);
    json_t *o = json_object();
    json_object_set_new(o, "text", json_string(line ? line : "?"));
    free(line);
    json_object_set_new(o, "processes", json_integer(t->processes));
    if (!t->processes) {
        json_object_set_new(o, "alive", json_null());
        json_object_set_new(o, "mpi", json_null());
        json_object_set_new(o, "openmp", json_null());
        json_object_set_new(o, "by_process", json_array());
        return o;
    }
    json_object_set_new(o, "alive",
                        t->v[MPP_THREADS_ALIVE].count ? count_stat(&t->v[MPP_THREADS_ALIVE]) : json_null());
    json_object_set_new(o, "mpi", count_stat(&t->v[MPP_THREADS_MPI]));
    json_t *omp = json_null();
    if (t->v[MPP_THREADS_OMP].count) {
        omp = count_stat(&t->v[MPP_THREADS_OMP]);
        json_object_set_new(omp, "processes", json_integer(t->v[MPP_THREADS_OMP].count));
        json_object_set_new(omp, "source",
                            json_string(t->omp_runtime && t->omp_env ? "omp_get_max_threads and OMP_NUM_THREADS"
                                        : t->omp_runtime             ? "omp_get_max_threads"
                                                                     : "OMP_NUM_THREADS"));
    }
    json_object_set_new(o, "openmp", omp);
    json_t *by = json_array();
    for (int s = 0; t->by_process && s < rd->nselected; s++) {
        const double *v = t->by_process + (size_t)s * MPP_NTHREADV;
        json_t *p = json_pack("{s:i}", "rank", rd->selected[s]);
        for (int k = 0; k < MPP_NTHREADV; k++)
            json_object_set_new(p, value_names[k], isnan(v[k]) ? json_null() : json_integer((json_int_t)v[k]));
        json_array_append_new(by, p);
    }
    json_object_set_new(o, "by_process", by);
    return o;
}

/* Per-thread times of an SRC point are shown where a process had more
 * than one thread call it. */
static int shows_threads(const mpp_reduced_cell_t *c)
{
    return c->threads && (c->threads->threads_max > 1 || c->threads->values[MPP_CELLT_RESTN] > 0);
}

/* "1: 0.400000  2: 0.000010" of v (a cell's MPP_NCELLT values), and the
 * threads beyond the slots. */
static void slots_text(mpp_textbuf_t *b, const double *v, unsigned slots)
{
    int any = 0;
    for (int i = 0; i < MPP_THREAD_SLOTS; i++)
        if ((slots & 1u << i) && !isnan(v[MPP_CELLT_SLOT0 + i]))
            mpp_textbuf_printf(b, "%s%d: %.6f", any++ ? "  " : "", i, v[MPP_CELLT_SLOT0 + i]);
    if (v[MPP_CELLT_RESTN] > 0)
        mpp_textbuf_printf(b, "%sthreads %d and beyond: %.6f (%.0f threads, summed)", any ? "  " : "",
                           MPP_THREAD_SLOTS, v[MPP_CELLT_REST], v[MPP_CELLT_RESTN]);
}

char *mpp_threads_src_text(const mpp_reduced_t *rd, const mpp_reduced_cell_t *c)
{
    if (!shows_threads(c))
        return NULL;
    const mpp_reduced_cell_threads_t *t = c->threads;
    mpp_textbuf_t b = {0};
    mpp_textbuf_printf(&b, "   by thread       %d threads at most (rank %d)", t->threads_max, t->threads_max_rank);
    if (t->per_thread.count)
        mpp_textbuf_printf(&b, "  min=%.6f (rank %d)  max=%.6f (rank %d)  by index ", t->per_thread.min,
                           t->per_thread.min_rank, t->per_thread.max, t->per_thread.max_rank);
    else
        mpp_textbuf_printf(&b, "  by index ");
    slots_text(&b, t->values, t->slots);
    mpp_textbuf_printf(&b, "\n");
    for (int s = 0; t->by_process && s < rd->nselected; s++) {
        const double *v = t->by_process + (size_t)s * MPP_NCELLT;
        if (isnan(v[MPP_CELLT_THREADS]))
            continue;
        mpp_textbuf_printf(&b, "   by thread of rank %d  ", rd->selected[s]);
        slots_text(&b, v, ~0u);
        mpp_textbuf_printf(&b, "\n");
    }
    return mpp_textbuf_done(&b);
}

/* Thread index -> time of the values v (slots that called it). */
static json_t *slots_json(const double *v, unsigned slots)
{
    json_t *o = json_object();
    for (int i = 0; i < MPP_THREAD_SLOTS; i++)
        if ((slots & 1u << i) && !isnan(v[MPP_CELLT_SLOT0 + i])) {
            char key[16];
            snprintf(key, sizeof key, "%d", i);
            json_object_set_new(o, key, json_real(v[MPP_CELLT_SLOT0 + i]));
        }
    return o;
}

static json_t *beyond_json(const double *v)
{
    return v[MPP_CELLT_RESTN] > 0 ? json_pack("{s:i, s:f, s:I}", "first_index", MPP_THREAD_SLOTS, "time",
                                              v[MPP_CELLT_REST], "threads", (json_int_t)v[MPP_CELLT_RESTN])
                                  : json_null();
}

json_t *mpp_threads_src_json(const mpp_reduced_t *rd, const mpp_reduced_cell_t *c)
{
    if (!c->threads)
        return json_null();
    const mpp_reduced_cell_threads_t *t = c->threads;
    json_t *o = json_pack("{s:i, s:i}", "threads_max", t->threads_max, "threads_max_rank", t->threads_max_rank);
    json_object_set_new(o, "per_thread",
                        t->per_thread.count ? json_pack("{s:f, s:i, s:f, s:i}", "min", t->per_thread.min, "min_rank",
                                                        t->per_thread.min_rank, "max", t->per_thread.max, "max_rank",
                                                        t->per_thread.max_rank)
                                            : json_null());
    json_object_set_new(o, "by_index", slots_json(t->values, t->slots));
    json_object_set_new(o, "beyond", beyond_json(t->values));
    json_t *by = json_array();
    for (int s = 0; t->by_process && s < rd->nselected; s++) {
        const double *v = t->by_process + (size_t)s * MPP_NCELLT;
        if (isnan(v[MPP_CELLT_THREADS]))
            continue;
        json_t *p = json_pack("{s:i, s:I}", "rank", rd->selected[s], "threads", (json_int_t)v[MPP_CELLT_THREADS]);
        json_object_set_new(p, "by_index", slots_json(v, ~0u));
        json_object_set_new(p, "beyond", beyond_json(v));
        json_array_append_new(by, p);
    }
    json_object_set_new(o, "by_process", by);
    json_object_set_new(o, "shown_in_text", json_boolean(shows_threads(c)));
    return o;
}
