/* The text protocol, laid out as protocol.md shows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/counter_stats.h"
#include "autoconf.h"
#include "util/srckey.h"
#include "write/io_figures.h"
#include "write/matrix_out.h"
#include "write/numfmt.h"
#include "write/process_data.h"
#include "write/text_wrap.h"
#include "write/threads_write.h"
#include "write/writer.h"

#define COLUMNS_PER_BLOCK 8

static void value(FILE *out, double v, const char *fmt)
{
    if (isnan(v))
        fprintf(out, "%14s", "n/a");
    else
        fprintf(out, fmt, v);
}

static const char *or_na(double v, char *buf, size_t n)
{
    if (isnan(v))
        return "n/a";
    snprintf(buf, n, "%.6f", v);
    return buf;
}

const char *mpp_report_machine_na(const mpp_report_t *r)
{
    if (!r->machine)
        return "topology and placement were not collected";
    if (r->machine->na_reason)
        return r->machine->na_reason;
    return NULL;
}

char **mpp_report_event_names(const mpp_reduced_counters_t *c)
{
    char **names = malloc(((size_t)c->nevents + 1) * sizeof *names);
    for (int e = 0; names && e < c->nevents; e++)
        names[e] = c->events[e].name;
    return names;
}

char *mpp_report_counters_line(const mpp_report_t *r, int *counted)
{
    const mpp_reduced_counters_t *c = r->reduced->counters;
    char *line = NULL;
    int rc;
    *counted = 0;
    if (!c)
        rc = asprintf(&line, "n/a (hardware counters were not collected)");
    else if (c->na_reason)
        rc = asprintf(&line, "n/a (%s)", c->na_reason);
    else if (c->nevents == 0)
        rc = asprintf(&line, "none counted (%s: %s)", c->library ? c->library : "PAPI",
                      c->none_reason ? c->none_reason : "no event could be counted");
    else {
        char mpx[512] = "";
        for (int m = 0; m < c->nmultiplexed; m++)
            snprintf(mpx + strlen(mpx), sizeof mpx - strlen(mpx), "%s%s", m ? "; " : "", c->multiplexed[m]);
        *counted = 1;
        rc = asprintf(&line, "%s, %d event%s, inside/outside-MPI split %s, %s%s", c->library ? c->library : "PAPI",
                      c->nevents, c->nevents == 1 ? "" : "s", c->split ? "on" : "off",
                      c->nmultiplexed ? "multiplexed: " : "not multiplexed", mpx);
    }
    return rc < 0 ? NULL : line;
}

static void write_context(FILE *out, const mpp_report_t *r)
{
    const mpp_reduced_t *rd = r->reduced;
    const mpp_machine_summary_t *ms = r->machine;
    const char *na = mpp_report_machine_na(r);
    if (na) {
        fprintf(out, "%-22s: n/a (%s)\n", "Machine", na);
        fprintf(out, "%-22s: n/a (%s)\n", "Placement", na);
    } else {
        if (ms->ntypes == 0)
            fprintf(out, "%-22s: n/a (no host could read its topology, see Warnings)\n", "Machine");
        else
            fprintf(out, "%-22s: %d node type%s\n", "Machine", ms->ntypes, ms->ntypes == 1 ? "" : "s");
        for (int t = 0; t < ms->ntypes; t++)
            fprintf(out, "   %s; host%s %s\n", ms->types[t].text, ms->types[t].nhosts == 1 ? "" : "s",
                    ms->types[t].hosts_text);
        fprintf(out, "%-22s: %d host%s\n", "Placement", ms->nhosts, ms->nhosts == 1 ? "" : "s");
        for (int h = 0; h < ms->nhosts; h++)
            fprintf(out, "   %s\n", ms->hosts[h].text);
        for (int w = 0; w < ms->nwarnings; w++)
            fprintf(out, "   warning: %s\n", ms->warnings[w]);
    }
    int counted;
    char *line = mpp_report_counters_line(r, &counted);
    fprintf(out, "%-22s: %s\n", "Hardware counters", line ? line : "?");
    free(line);
    for (int e = 0; counted && e < rd->counters->nevents; e++) {
        const mpp_reduced_event_t *ev = &rd->counters->events[e];
        fprintf(out, "   %s (component %s, counted on %d of %d processes)\n", ev->name, ev->component, ev->processes,
                rd->nprocs);
    }
    char **names = counted ? mpp_report_event_names(rd->counters) : NULL;
    for (int k = 0; names && k < rd->counters->nrates; k++) {
        char *formula = mpp_counter_rate_formula(&rd->counters->rates[k], names);
        fprintf(out, "   derived: %s = %s\n", mpp_counter_rates[rd->counters->rates[k].rate].label,
                formula ? formula : "?");
        free(formula);
    }
    free(names);
}

static void write_parameters(FILE *out, const mpp_report_t *r)
{
    const mpp_run_info_t *run = r->run;
    const mpp_reduced_t *rd = r->reduced;
    fprintf(out, "Parameters\n");
#define P(label, ...)                   \
    do {                                \
        fprintf(out, "%-22s: ", label); \
        fprintf(out, __VA_ARGS__);      \
        fputc('\n', out);               \
    } while (0)
    P("Program", "%s", run->program);
    P("Working directory", "%s", run->cwd);
    P("Started", "%s", run->started);
    P("Finished", "%s", run->finished);
    P("Protocol written", "%s", run->written);
    P("Processes", "%d", rd->nprocs);
    P("Nodes", "%d", rd->nnodes);
    P("Threads level", "%s", run->threads_level);
    mpp_write_threads_text(out, r);
    P("MPI library", "%s", run->mpi_library);
    P("MPI standard", "%s", run->mpi_standard);
    P("Profiler", "mpiprof %s", PACKAGE_VERSION);
    P("Collection mode", "%s%s", run->mode[0] ? run->mode : "dynamic", run->partial ? ", partial" : "");
    if (r->partial)
        mpp_write_partial_text(out, r);
    /* one variable a line: the protocol's lines stay within 160 characters */
    fprintf(out, "%-22s: %d variables, one a line\n", "Configuration", MPP_NVARS);
    for (int i = 0; i < MPP_NVARS; i++)
        fprintf(out, "   MPIPROF_%s=%s%s\n", mpp_vars[i].name, r->config->text[i],
                r->config->is_default[i] ? " (default)" : "");
    write_context(out, r);
    P("Clock", "%s", run->clock);
    P("Wait states", "%s", run->waitstates);
    P("Trace", "%s", run->trace[0] ? run->trace : "off");
    char model[MPP_MODEL_MAX_LINES][MPP_MODEL_LINE];
    int nmodel = mpp_report_model_lines(r, model);
    P("Prediction model", "%s", model[0]);
    for (int i = 1; i < nmodel; i++)
        fprintf(out, "   %s\n", model[i]);
    fprintf(out, "%-22s: %d\n", "Warnings", r->nwarnings);
    for (int w = 0; w < r->nwarnings; w++)
        fprintf(out, "   %s\n", r->warnings[w]);
#undef P
}

int mpp_report_model_lines(const mpp_report_t *r, char lines[][MPP_MODEL_LINE])
{
    if (!r->model) {
        snprintf(lines[0], MPP_MODEL_LINE, "n/a (the communication model did not run)");
        return 1;
    }
    int n = mpp_model_describe(r->model, lines, MPP_MODEL_MAX_LINES);
    return n ? n : (snprintf(lines[0], MPP_MODEL_LINE, "?"), 1);
}

static void write_main(FILE *out, const mpp_interval_result_t *res, const char *kind)
{
    const double *m = res->main;
    char a[32], b[32], c[32], d[32];
    fprintf(out, "--- Main characteristics (%s) ---\n", kind);
    fprintf(out, "%-30s", mpp_main_names[MPP_M_KEFF].label), value(out, m[MPP_M_KEFF], "%14.4f"), fputc('\n', out);
    fprintf(out, "%-30s", mpp_main_names[MPP_M_EXEC].label), value(out, m[MPP_M_EXEC], "%14.6f"), fputc('\n', out);
    fprintf(out, "%-30s%14.0f\n", mpp_main_names[MPP_M_PROCESSORS].label, m[MPP_M_PROCESSORS]);
    fprintf(out, "%-30s", mpp_main_names[MPP_M_TOTAL].label), value(out, m[MPP_M_TOTAL], "%14.6f"), fputc('\n', out);
    fprintf(out, "%-30s", mpp_main_names[MPP_M_PRODUCTIVE].label), value(out, m[MPP_M_PRODUCTIVE], "%14.6f");
    fprintf(out, "  (CPU=%s Sys=%s I/O=%s)\n", or_na(m[MPP_M_CPU], a, 32), or_na(m[MPP_M_SYS], b, 32),
            or_na(m[MPP_M_IO], c, 32));
    fprintf(out, "%-30s", mpp_main_names[MPP_M_LOST].label), value(out, m[MPP_M_LOST], "%14.6f"), fputc('\n', out);
    fprintf(out, "   %-27s", mpp_main_names[MPP_M_INSUFFICIENT].label), value(out, m[MPP_M_INSUFFICIENT], "%14.6f"),
        fputc('\n', out);
    fprintf(out, "   %-27s", mpp_main_names[MPP_M_COMM].label), value(out, m[MPP_M_COMM], "%14.6f");
    fprintf(out, "  (SendRecv=%s Real_sync=%s Collective=%s System=%s)\n", or_na(m[MPP_M_SENDRECV], a, 32),
            or_na(m[MPP_M_REALSYNC], b, 32), or_na(m[MPP_M_COLLECTIVE], c, 32), or_na(m[MPP_M_SYSTEM], d, 32));
    fprintf(out, "   %-27s", mpp_main_names[MPP_M_IDLE].label), value(out, m[MPP_M_IDLE], "%14.6f"), fputc('\n', out);
    static const mpp_main_t tail[] = {MPP_M_IMBALANCE, MPP_M_POTSYNC, MPP_M_VARIATION, MPP_M_OVERLAP};
    for (size_t i = 0; i < sizeof tail / sizeof *tail; i++) {
        fprintf(out, "%-30s", mpp_main_names[tail[i]].label);
        value(out, m[tail[i]], "%14.6f");
        fputc('\n', out);
    }
}

static void write_comparative(FILE *out, const mpp_interval_result_t *res, const char *kind)
{
    fprintf(out, "--- Comparative characteristics (%s) ---\n", kind);
    fprintf(out, "%-26s%14s%7s%14s%7s%14s\n", "", "Tmin", "Rank", "Tmax", "Rank", "Tmean");
    for (int k = 0; k < MPP_NPP; k++) {
        const mpp_comparison_t *c = &res->cmp[k];
        if (isnan(c->mean)) {
            fprintf(out, "%-26s%14s%7s%14s%7s%14s\n", mpp_per_process_names[k].label, "n/a", "-", "n/a", "-", "n/a");
            continue;
        }
        fprintf(out, "%-26s%14.6f%7d%14.6f%7d%14.6f\n", mpp_per_process_names[k].label, c->min, c->min_rank, c->max,
                c->max_rank, c->mean);
    }
}

static void write_by_process(FILE *out, const mpp_report_t *r, const mpp_reduced_interval_t *in,
                             const mpp_interval_result_t *res, const char *kind)
{
    const mpp_reduced_t *rd = r->reduced;
    fprintf(out, "--- Characteristics by process (%s) ---\n", kind);
    if (rd->nselected == 0) {
        fprintf(out, "no process selected (MPIPROF_RANKS=%s)\n", r->config->text[MPP_CFG_RANKS]);
        return;
    }
    for (int first = 0; first < rd->nselected; first += COLUMNS_PER_BLOCK) {
        int last = first + COLUMNS_PER_BLOCK < rd->nselected ? first + COLUMNS_PER_BLOCK : rd->nselected;
        fprintf(out, "%-26s", "");
        for (int s = first; s < last; s++)
            fprintf(out, "%14d", rd->selected[s]);
        fputc('\n', out);
        for (int k = 0; k < MPP_NPP; k++) {
            fprintf(out, "%-26s", mpp_per_process_names[k].label);
            for (int s = first; s < last; s++) {
                double v = res->by_process[(size_t)s * MPP_NPP + k];
                int entered = !isnan(in->by_process[(size_t)s * MPP_NQ + MPP_Q_EXEC]);
                if (!entered)
                    fprintf(out, "%14s", "not entered");
                else
                    value(out, v, "%14.6f");
            }
            fputc('\n', out);
        }
    }
}

static const mpp_report_t *sort_report;

static int by_time_desc(const void *a, const void *b)
{
    const mpp_reduced_cell_t *x = &sort_report->reduced->cells[*(const int *)a];
    const mpp_reduced_cell_t *y = &sort_report->reduced->cells[*(const int *)b];
    if (x->time.sum != y->time.sum)
        return x->time.sum > y->time.sum ? -1 : 1;
    return x->src - y->src;
}

/* Cells of an interval, by descending summed time. Caller frees. */
int *mpp_interval_cells_by_time(const mpp_report_t *r, int interval, int *n)
{
    const mpp_reduced_t *rd = r->reduced;
    int *ids = malloc(((size_t)rd->ncells + 1) * sizeof *ids);
    *n = 0;
    for (int c = 0; c < rd->ncells; c++)
        if (rd->cells[c].interval == interval)
            ids[(*n)++] = c;
    sort_report = r;
    qsort(ids, (size_t)*n, sizeof *ids, by_time_desc);
    return ids;
}

/* SRC entries are most of a large protocol (10^4 and more): they are built
 * in a buffer of our own, numbers by numfmt.c, and handed to stdio in large
 * pieces; printf's float formatting and stdio's per-call work were most of
 * MPI_Finalize's time writing them.  Same output as fprintf would give. */
#define SRC_BUFFER 16384

typedef struct {
    FILE *out;
    char *p, *buf, *end;
} srcbuf_t;

static void src_flush(srcbuf_t *b)
{
    fwrite(b->buf, 1, (size_t)(b->p - b->buf), b->out);
    b->p = b->buf;
}

/* Room for n more characters (n at most the buffer's size). */
static inline void src_room(srcbuf_t *b, size_t n)
{
    if ((size_t)(b->end - b->p) < n)
        src_flush(b);
}

/* A long text goes to stdio as it is. */
static void put_long(srcbuf_t *b, const char *s, size_t n)
{
    src_flush(b);
    fwrite(s, 1, n, b->out);
}

static inline void put_mem(srcbuf_t *b, const char *s, size_t n)
{
    if (n > (size_t)(b->end - b->buf) / 2) {
        put_long(b, s, n);
        return;
    }
    src_room(b, n);
    memcpy(b->p, s, n);
    b->p += n;
}

static inline void put_str(srcbuf_t *b, const char *s) { put_mem(b, s, strlen(s)); }

/* A string literal: its length known when compiled. */
#define PUT_LIT(b, lit) put_mem((b), "" lit, sizeof(lit) - 1)

static inline void put_u64(srcbuf_t *b, unsigned long long v)
{
    src_room(b, MPP_FMT_U64_MAX);
    b->p += mpp_fmt_u64(b->p, v);
}

static inline void put_int(srcbuf_t *b, int v)
{
    src_room(b, MPP_FMT_INT_MAX);
    b->p += mpp_fmt_int(b->p, v);
}

static inline void put_fixed6(srcbuf_t *b, double v)
{
    src_room(b, MPP_FMT_FIXED6_MAX);
    b->p += mpp_fmt_fixed6(b->p, v);
}

/* "label 0: 0.000123  1: -" : one value per selected process, taken at
 * `offset` of each process's `stride` values; - where it has none. */
static void write_process_row(srcbuf_t *b, const char *label, const mpp_reduced_t *rd, const double *values,
                              int stride, int offset)
{
    put_str(b, label);
    for (int sel = 0; sel < rd->nselected; sel++) {
        double t = values[(size_t)sel * stride + offset];
        if (sel)
            PUT_LIT(b, "  ");
        put_int(b, rd->selected[sel]);
        PUT_LIT(b, ": ");
        if (isnan(t))
            PUT_LIT(b, "-");
        else
            put_fixed6(b, t);
    }
    PUT_LIT(b, "\n");
}

/* "\n   label  sum=..  min=.. (rank r)  max=.. (rank r)  mean=.." */
static void put_stat(srcbuf_t *b, const char *label, const mpp_stat_t *s)
{
    PUT_LIT(b, "\n   "), put_str(b, label), PUT_LIT(b, "sum="), put_fixed6(b, s->sum);
    PUT_LIT(b, "  min="), put_fixed6(b, s->min);
    PUT_LIT(b, " (rank "), put_int(b, s->min_rank);
    PUT_LIT(b, ")  max="), put_fixed6(b, s->max);
    PUT_LIT(b, " (rank "), put_int(b, s->max_rank);
    PUT_LIT(b, ")  mean="), put_fixed6(b, s->count ? s->sum / s->count : 0.0);
}

/* "\n   bandwidth       N B/s" of an MPI-IO SRC point (n/a without time). */
static void put_io_bandwidth(srcbuf_t *b, const mpp_reduced_cell_t *c)
{
    double bw = mpp_io_bandwidth((double)c->bytes_sent + (double)c->bytes_recv, c->time.sum);
    PUT_LIT(b, "\n   bandwidth       ");
    if (isnan(bw)) {
        PUT_LIT(b, "n/a (no time)");
        return;
    }
    put_u64(b, (unsigned long long)llround(bw));
    PUT_LIT(b, " B/s");
}

static void write_src_point(srcbuf_t *b, const mpp_reduced_t *rd, const mpp_reduced_cell_t *c)
{
    const mpp_reduced_src_t *s = &rd->srcs[c->src];
    PUT_LIT(b, "SRC "), put_int(b, s->id), PUT_LIT(b, "  "), put_str(b, s->function);
    PUT_LIT(b, "  calls="), put_u64(b, (unsigned long long)c->calls);
    if (s->io) { /* MPI-IO: read and written (io_figures.h) */
        PUT_LIT(b, "  bytes_read="), put_u64(b, (unsigned long long)c->bytes_recv);
        PUT_LIT(b, "  bytes_written="), put_u64(b, (unsigned long long)c->bytes_sent);
    } else {
        PUT_LIT(b, "  bytes_sent="), put_u64(b, (unsigned long long)c->bytes_sent);
        PUT_LIT(b, "  bytes_recv="), put_u64(b, (unsigned long long)c->bytes_recv);
    }
    put_stat(b, "time            ", &c->time);
    if (s->io)
        put_io_bandwidth(b, c);
    if (rd->predicted) {
        put_stat(b, "predicted time  ", &c->predicted);
        PUT_LIT(b, "\n   overlap         sum="), put_fixed6(b, c->overlap);
    } else {
        PUT_LIT(b, "\n   predicted time  n/a\n   overlap         n/a");
    }
    static const char *const wait_labels[MPP_CELL_NWAIT] = {"real sync       ", "potential sync  ",
                                                            "time variation  "};
    for (int w = 0; w < MPP_CELL_NWAIT; w++) {
        if (!(s->waits & (w ? MPP_SRC_COLLECTIVE_WAITS : MPP_SRC_REALSYNC)))
            continue; /* does not apply to this function */
        if (rd->waitstates)
            put_stat(b, wait_labels[w], &c->wait[w]);
        else
            PUT_LIT(b, "\n   "), put_str(b, wait_labels[w]), PUT_LIT(b, "n/a");
    }
    PUT_LIT(b, "\n");
    if (rd->nselected) {
        write_process_row(b, "   by process      ", rd, c->by_process, MPP_NCELLV, MPP_CELL_TIME);
        static const char *const model_labels[MPP_NCELLP] = {"   by process (predicted)  ",
                                                             "   by process (overlap)    "};
        for (int k = 0; c->model_by_process && k < MPP_NCELLP; k++)
            write_process_row(b, model_labels[k], rd, c->model_by_process, MPP_NCELLP, k);
        static const char *const wait_rows[MPP_CELL_NWAIT] = {
            "   by process (real sync)  ", "   by process (pot. sync)  ", "   by process (variation)  "};
        for (int w = 0; rd->waitstates && w < MPP_CELL_NWAIT; w++)
            if (s->waits & (w ? MPP_SRC_COLLECTIVE_WAITS : MPP_SRC_REALSYNC))
                write_process_row(b, wait_rows[w], rd, c->by_process, MPP_NCELLV, MPP_CELL_REALSYNC + w);
    }
    char *threads = mpp_threads_src_text(rd, c);
    if (threads)
        put_str(b, threads);
    free(threads);
    PUT_LIT(b, "   stack           ");
    for (int f = 0; f < s->nframes; f++) {
        if (f)
            PUT_LIT(b, " <- ");
        put_str(b, s->frames[f].text);
        /* a frame not at a line of its own code says where it comes from */
        const char *origin = s->frames[f].origin;
        if (*origin && strcmp(origin, MPP_ORIGIN_LINE) != 0) {
            PUT_LIT(b, " [");
            put_str(b, origin);
            PUT_LIT(b, "]");
        }
    }
    PUT_LIT(b, "\n");
}

static void write_src_points(FILE *out, const mpp_report_t *r, int interval)
{
    const mpp_reduced_t *rd = r->reduced;
    int n;
    int *ids = mpp_interval_cells_by_time(r, interval, &n);
    fprintf(out, "--- SRC points ---\n");
    if (n == 0)
        fprintf(out, "no MPI calls in this interval\n");
    /* without memory for the buffer, the same text through a small one */
    char small[2 * MPP_FMT_FIXED6_MAX];
    char *big = n ? malloc(SRC_BUFFER) : NULL;
    srcbuf_t b = {out, big ? big : small, big ? big : small, big ? big + SRC_BUFFER : small + sizeof small};
    for (int i = 0; i < n; i++)
        write_src_point(&b, rd, &rd->cells[ids[i]]);
    src_flush(&b);
    free(big);
    free(ids);
}

static void count_stat(FILE *out, const char *label, const mpp_stat_t *s)
{
    if (!s->count) {
        fprintf(out, "   %-16sn/a\n", label);
        return;
    }
    fprintf(out, "   %-16ssum=%.0f  min=%.0f (rank %d)  max=%.0f (rank %d)  mean=%.1f\n", label, s->sum, s->min,
            s->min_rank, s->max, s->max_rank, s->sum / s->count);
}

static void write_counters(FILE *out, const mpp_report_t *r, const mpp_reduced_interval_t *in)
{
    const mpp_reduced_t *rd = r->reduced;
    const mpp_reduced_counters_t *c = rd->counters;
    fprintf(out, "--- Hardware counters ---\n");
    if (!c || c->na_reason) {
        fprintf(out, "n/a (see Hardware counters in the Parameters)\n");
        return;
    }
    if (c->nevents == 0) {
        fprintf(out, "none counted (see Hardware counters in the Parameters)\n");
        return;
    }
    if (!in->hw) {
        fprintf(out, "n/a (no counts for this interval)\n");
        return;
    }
    int width = mpp_hw_width(c);
    for (int e = 0; e < c->nevents; e++) {
        const mpp_stat_t *hw = &in->hw[e * MPP_HW_NV];
        fprintf(out, "%s  (component %s)\n", c->events[e].name, c->events[e].component);
        count_stat(out, "total", &hw[MPP_HW_TOTAL]);
        if (c->split) {
            count_stat(out, "inside MPI", &hw[MPP_HW_INSIDE]);
            count_stat(out, "outside MPI", &hw[MPP_HW_OUTSIDE]);
        }
        if (!rd->nselected || !in->hw_by_process)
            continue;
        fprintf(out, "   %-16s", "by process");
        for (int s = 0; s < rd->nselected; s++) {
            const double *v = in->hw_by_process + (size_t)s * width + e * MPP_HW_NV;
            fprintf(out, "%s%d: ", s ? "  " : "", rd->selected[s]);
            if (isnan(v[MPP_HW_TOTAL]))
                fprintf(out, "-");
            else
                fprintf(out, "%.0f", v[MPP_HW_TOTAL]);
            if (c->split && !isnan(v[MPP_HW_INSIDE]))
                fprintf(out, " (in %.0f, out %.0f)", v[MPP_HW_INSIDE], v[MPP_HW_OUTSIDE]);
        }
        fputc('\n', out);
    }
    char **names = mpp_report_event_names(c);
    for (int k = 0; names && k < c->nrates; k++) {
        const mpp_stat_t *s = &in->hw[c->nevents * MPP_HW_NV + k];
        char *formula = mpp_counter_rate_formula(&c->rates[k], names);
        double overall = mpp_counter_rate_overall(&c->rates[k], in->hw, in->q[MPP_Q_EXEC].max);
        fprintf(out, "%s = %s\n", mpp_counter_rates[c->rates[k].rate].label, formula ? formula : "?");
        free(formula);
        if (isnan(overall) || !s->count) {
            fprintf(out, "   %-16sn/a\n", "value");
            continue;
        }
        fprintf(out, "   %-16s%.6g  min=%.6g (rank %d)  max=%.6g (rank %d)  mean=%.6g\n", "value", overall, s->min,
                s->min_rank, s->max, s->max_rank, s->sum / s->count);
        if (!rd->nselected || !in->hw_by_process)
            continue;
        fprintf(out, "   %-16s", "by process");
        for (int sel = 0; sel < rd->nselected; sel++) {
            double v = in->hw_by_process[(size_t)sel * width + c->nevents * MPP_HW_NV + k];
            if (isnan(v))
                fprintf(out, "%s%d: -", sel ? "  " : "", rd->selected[sel]);
            else
                fprintf(out, "%s%d: %.6g", sel ? "  " : "", rd->selected[sel], v);
        }
        fputc('\n', out);
    }
    free(names);
}

static void write_text(FILE *out, const mpp_report_t *r)
{
    const mpp_reduced_t *rd = r->reduced;
    fprintf(out, "mpiprof protocol\n\n");
    mpp_write_digest_text(out, r);
    fputc('\n', out);
    mpp_write_correctness_text(out, r);
    fputc('\n', out);
    write_parameters(out, r);
    for (int i = 0; i < rd->nintervals; i++) {
        const mpp_reduced_interval_t *in = &rd->intervals[i];
        const mpp_interval_result_t *res = &r->results[i];
        const char *file = in->file;
        int line = in->line;
        fprintf(out, "\n==== Interval %d  \"%s\"  file=%s line=%d  level=%d  parent=", in->id, in->name,
                file && *file ? file : "?", line, in->level);
        if (in->parent < 0)
            fprintf(out, "none");
        else
            fprintf(out, "%d", in->parent);
        fprintf(out, "  executions=%llu ====\n", (unsigned long long)in->executions);
        write_main(out, res, "real");
        write_comparative(out, res, "real");
        write_by_process(out, r, in, res, "real");
        if (r->predicted && rd->predicted) {
            write_main(out, &r->predicted[i], "predicted");
            write_comparative(out, &r->predicted[i], "predicted");
            write_by_process(out, r, in, &r->predicted[i], "predicted");
        } else {
            fprintf(out, "--- Main characteristics (predicted) ---\nn/a (see Warnings)\n");
            fprintf(out, "--- Comparative characteristics (predicted) ---\nn/a (see Warnings)\n");
            fprintf(out, "--- Characteristics by process (predicted) ---\nn/a (see Warnings)\n");
        }
        write_counters(out, r, in);
        mpp_write_io_text(out, r, i);
        write_src_points(out, r, i);
        if (i == 0)
            mpp_write_whole_run_text(out, r);
    }
    mpp_write_matrix_text(out, r);
    if (r->partial && r->partial->process)
        mpp_write_process_data_text(out, r->partial->process, r->model);
}

void mpp_write_text(FILE *out, const mpp_report_t *r)
{
    /* every line within MPP_TEXT_WIDTH; unwrapped when no stream can be made */
    FILE *wrapped = mpp_wrap_open(out, MPP_TEXT_WIDTH);
    if (wrapped)
        setvbuf(wrapped, NULL, _IOFBF, 1 << 16);
    write_text(wrapped ? wrapped : out, r);
    if (wrapped)
        fclose(wrapped);
}
