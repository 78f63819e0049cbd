/* The digest (analyze/digest.h) as the text protocol, the JSON and the
 * end-of-run summary write it, and the SRC tables summed over intervals:
 * every writer prints the one digest, so that they say the same. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "write/io_figures.h"
#include "write/process_data.h"
#include "write/writer.h"

/* No line of the text protocol is longer (protocol.md). */
#define LINE_MAX_CHARS 160

const mpp_digest_t *mpp_report_digest(const mpp_report_t *r, mpp_digest_t **made)
{
    *made = NULL;
    if (r->digest)
        return r->digest;
    mpp_digest_t *d = malloc(sizeof *d);
    if (!d || mpp_digest(r->reduced, &r->results[0], r->nwarnings, d) != 0) {
        free(d);
        return NULL;
    }
    return *made = d;
}

static void done(mpp_digest_t *made)
{
    if (made)
        mpp_digest_free(made);
    free(made);
}

/* s cut to at most n characters, "..." marking the cut. */
static const char *cut(const char *s, size_t n, char *buf, size_t size)
{
    if (strlen(s) <= n)
        return s;
    snprintf(buf, size, "%.*s...", (int)(n > 3 ? n - 3 : 0), s);
    return buf;
}

static const char *seconds(double v, char *buf, size_t size)
{
    if (isnan(v))
        return "n/a";
    snprintf(buf, size, "%.6f s", v);
    return buf;
}

static const char *percent(double share, char *buf, size_t size)
{
    if (isnan(share))
        return "n/a";
    snprintf(buf, size, "%.1f%%", 100 * share);
    return buf;
}

static const char *part_label(mpp_main_t part)
{
    return part == MPP_M_REALSYNC ? "Real sync" : mpp_main_names[part].label;
}

/* "#1 SRC 7 MPI_Allreduce at x.c:3 (f) <- y.c:9 (main): 0.100000 s in 22 calls, 81.0% of Lost time";
 * no share when there is no Lost time. */
static void top_line(const mpp_report_t *r, const mpp_digest_t *d, int k, const char *indent, char *out, size_t size)
{
    const mpp_src_total_t *t = &d->whole.items[d->top[k].src];
    const mpp_reduced_src_t *s = &r->reduced->srcs[t->src];
    char site[1024], head[160], tail[160], pc[32];
    mpp_report_site(r->reduced, s, site, sizeof site);
    snprintf(head, sizeof head, "%s#%d SRC %d %s at ", indent, k + 1, s->id, s->function);
    int n = snprintf(tail, sizeof tail, ": %.6f s in %llu call%s", t->time.sum, (unsigned long long)t->calls,
                     t->calls == 1 ? "" : "s");
    if (!mpp_digest_is_lost(s->function))
        snprintf(tail + n, sizeof tail - (size_t)n, ", not Lost time (%s)",
                 strncmp(s->function, "MPI_File_", 9) ? "not communication" : "MPI-IO, productive");
    else if (!isnan(d->top[k].share_of_lost))
        snprintf(tail + n, sizeof tail - (size_t)n, ", %s of Lost time",
                 percent(d->top[k].share_of_lost, pc, sizeof pc));
    /* whole: the callers are what tell call sites of one function apart
     * (the text protocol breaks a long line, mpiprof-protocol(5)) */
    snprintf(out, size, "%s%s%s", head, site, tail);
}

void mpp_write_digest_text(FILE *out, const mpp_report_t *r)
{
    mpp_digest_t *made;
    const mpp_digest_t *d = mpp_report_digest(r, &made);
    char a[64], b[64], c[64], prog[LINE_MAX_CHARS + 8], line[1536];
    fprintf(out, "Digest\n");
    if (!d) {
        fprintf(out, "   n/a (out of memory while making it)\n");
        return;
    }
    snprintf(line, sizeof line, ": %d process%s on %d node%s, execution time %s", d->processes,
             d->processes == 1 ? "" : "es", d->nodes, d->nodes == 1 ? "" : "s", seconds(d->exec, a, sizeof a));
    fprintf(out, "   %-22s %s%s\n", "Run",
            cut(r->run->program, LINE_MAX_CHARS - 26 - strlen(line), prog, sizeof prog), line);
    if (isnan(d->keff))
        fprintf(out, "   %-22s n/a (parallelization efficiency)\n", "K_eff");
    else
        fprintf(out, "   %-22s %.4f (parallelization efficiency)\n", "K_eff", d->keff);
    fprintf(out, "   %-22s %s, %s of Total time %s\n", "Lost time", seconds(d->lost, a, sizeof a),
            percent(d->lost_share, b, sizeof b), seconds(d->total, c, sizeof c));
    for (int i = 0; i < MPP_DIGEST_NLOST; i++)
        fprintf(out, "      %-24s %16s  %6s of Lost time\n", part_label(d->lost_parts[i].part),
                seconds(d->lost_parts[i].seconds, a, sizeof a), percent(d->lost_parts[i].share, b, sizeof b));
    fprintf(out, "   %-22s %s: CPU %s, Sys %s, ", "Productive time", seconds(d->productive, line, sizeof line),
            seconds(d->cpu, a, sizeof a), seconds(d->sys, b, sizeof b));
    fprintf(out, "I/O %s\n", seconds(d->io, c, sizeof c));
    if (d->io_large) {
        fprintf(out, "   %-22s %s, %s of Total time: MPI-IO, productive by the method\n", "I/O",
                seconds(d->io, a, sizeof a), percent(d->io_share, b, sizeof b));
        mpp_io_figures_t io = mpp_interval_io(r->reduced, 0); /* the whole run's bytes (io_figures.h) */
        fprintf(out, "      %llu B read, %llu B written; bandwidth ", (unsigned long long)io.bytes_read,
                (unsigned long long)io.bytes_written);
        if (isnan(io.bandwidth))
            fprintf(out, "n/a (no I/O time)\n");
        else
            fprintf(out, "%.0f B/s (bytes over the I/O time)\n", io.bandwidth);
    }
    if (d->checked)
        fprintf(out, "   %-22s %llu error%s, %llu warning%s%s (see Correctness)\n", "Correctness",
                (unsigned long long)d->errors, d->errors == 1 ? "" : "s", (unsigned long long)d->warnings,
                d->warnings == 1 ? "" : "s", d->dropped ? ", more not kept" : "");
    fprintf(out, "   %-22s of the whole run: inclusive of sub-intervals, summed over intervals\n", "Top SRC points");
    for (int k = 0; k < d->ntop; k++) {
        top_line(r, d, k, "      ", line, sizeof line);
        fprintf(out, "%s\n", line);
    }
    if (!d->ntop)
        fprintf(out, "      none (no MPI call was recorded)\n");
    fprintf(out, "   %-22s %d (see Parameters)\n", "Warnings", d->nwarnings);
    fprintf(out, "   %-22s each interval's lists the calls made in it, not in its sub-intervals; interval 0's\n",
            "SRC tables");
    fprintf(out, "   %-22s second table is the whole run's (every interval's calls, summed)\n", "");
    done(made);
}

void mpp_write_whole_run_text(FILE *out, const mpp_report_t *r)
{
    mpp_digest_t *made;
    const mpp_digest_t *d = mpp_report_digest(r, &made);
    fprintf(out, "--- SRC points of the whole run (inclusive of every interval, summed) ---\n");
    if (!d) {
        fprintf(out, "n/a (out of memory while making it)\n");
        return;
    }
    if (!d->whole.n)
        fprintf(out, "no MPI calls in this run\n");
    for (int i = 0; i < d->whole.n; i++) {
        const mpp_src_total_t *t = &d->whole.items[i];
        const mpp_reduced_src_t *s = &r->reduced->srcs[t->src];
        char share[48], pc[32], site[1024], line[LINE_MAX_CHARS + 64];
        double part = mpp_digest_is_lost(s->function) && d->lost > 0 ? t->time.sum / d->lost : NAN;
        snprintf(line, sizeof line, "   SRC %d  %s  calls=%llu  %s=%llu  %s=%llu  time=%.6f  ", s->id, s->function,
                 (unsigned long long)t->calls, s->io ? "bytes_read" : "bytes_sent",
                 (unsigned long long)(s->io ? t->bytes_recv : t->bytes_sent), s->io ? "bytes_written" : "bytes_recv",
                 (unsigned long long)(s->io ? t->bytes_sent : t->bytes_recv), t->time.sum);
        mpp_report_site(r->reduced, s, site, sizeof site);
        if (!mpp_digest_is_lost(s->function))
            snprintf(share, sizeof share, "not Lost time");
        else
            snprintf(share, sizeof share, "lost_share=%s", percent(part, pc, sizeof pc));
        fprintf(out, "%s%s  intervals=%d\n", line, share, t->ncells);
        fprintf(out, "      at %s\n", site); /* whole: the text protocol breaks a long line */
    }
    done(made);
}

static json_t *number(double v) { return isnan(v) ? json_null() : json_real(v); }

static json_t *sum_or_null(double v) { return isnan(v) ? json_null() : json_pack("{s:f}", "sum", v); }

static json_t *by_process(const mpp_reduced_t *rd, const mpp_reduced_src_t *s, const mpp_src_total_t *t)
{
    static const char *keys[MPP_NCELLV] = {"time",      "calls",          "bytes_sent",    "bytes_recv",
                                           "real_sync", "potential_sync", "time_variation"};
    json_t *by = json_object(), *ranks = json_array();
    for (int sel = 0; sel < rd->nselected; sel++)
        json_array_append_new(ranks, json_integer(rd->selected[sel]));
    json_object_set_new(by, "ranks", ranks);
    for (int k = 0; k < MPP_NCELLV; k++) {
        int applies = s->waits & (k == MPP_CELL_REALSYNC ? MPP_SRC_REALSYNC : MPP_SRC_COLLECTIVE_WAITS);
        json_t *col = json_array();
        for (int sel = 0; sel < rd->nselected; sel++) {
            double v = t->by_process[(size_t)sel * MPP_NCELLV + k];
            if (k >= MPP_CELL_REALSYNC && (!rd->waitstates || !applies))
                json_array_append_new(col, json_null());
            else if (k == MPP_CELL_TIME || k >= MPP_CELL_REALSYNC)
                json_array_append_new(col, number(v));
            else
                json_array_append_new(col, isnan(v) ? json_null() : json_integer((json_int_t)v));
        }
        json_object_set_new(by, keys[k], col);
    }
    return by;
}

json_t *mpp_src_totals_json(const mpp_report_t *r, const mpp_src_table_t *table, double lost)
{
    const mpp_reduced_t *rd = r->reduced;
    json_t *list = json_array();
    for (int i = 0; table && i < table->n; i++) {
        const mpp_src_total_t *t = &table->items[i];
        const mpp_reduced_src_t *s = &rd->srcs[t->src];
        int known = !isnan(t->time.min);
        json_t *time =
            json_pack("{s:f, s:o, s:o, s:o, s:o, s:o}", "sum", t->time.sum, "min", number(t->time.min), "min_rank",
                      known ? json_integer(t->time.min_rank) : json_null(), "max", number(t->time.max), "max_rank",
                      known ? json_integer(t->time.max_rank) : json_null(), "mean",
                      known && t->time.count ? json_real(t->time.sum / t->time.count) : json_null());
        json_t *waits[MPP_CELL_NWAIT];
        for (int w = 0; w < MPP_CELL_NWAIT; w++)
            waits[w] =
                s->waits & (w ? MPP_SRC_COLLECTIVE_WAITS : MPP_SRC_REALSYNC) ? sum_or_null(t->wait[w]) : json_null();
        double share = mpp_digest_is_lost(s->function) && lost > 0 ? t->time.sum / lost : NAN;
        json_t *by = by_process(rd, s, t);
        mpp_io_split_by_process(by, s->io); /* MPI-IO: bytes read and written (io_figures.h) */
        json_t *point = json_pack("{s:i, s:s, s:I, s:I, s:I, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id",
                                  s->id, "function", s->function, "calls", (json_int_t)t->calls, "bytes_sent",
                                  (json_int_t)t->bytes_sent, "bytes_recv", (json_int_t)t->bytes_recv, "intervals",
                                  t->ncells, "time", time, "predicted_time", sum_or_null(t->predicted), "overlap",
                                  number(t->overlap), "real_sync", waits[0], "potential_sync", waits[1],
                                  "time_variation", waits[2], "share_of_lost", number(share), "by_process", by);
        mpp_io_split_counts(point, s->io, t->bytes_sent, t->bytes_recv, t->time.sum);
        json_array_append_new(list, point);
    }
    return list;
}

static json_t *digest_object(const mpp_report_t *r, const mpp_digest_t *d)
{
    json_t *parts = json_array(), *top = json_array();
    for (int i = 0; i < MPP_DIGEST_NLOST; i++)
        json_array_append_new(parts,
                              json_pack("{s:s, s:s, s:o, s:o}", "key", mpp_main_names[d->lost_parts[i].part].json_key,
                                        "label", part_label(d->lost_parts[i].part), "seconds",
                                        number(d->lost_parts[i].seconds), "share", number(d->lost_parts[i].share)));
    for (int k = 0; k < d->ntop; k++) {
        const mpp_src_total_t *t = &d->whole.items[d->top[k].src];
        const mpp_reduced_src_t *s = &r->reduced->srcs[t->src];
        char site[1024];
        mpp_report_site(r->reduced, s, site, sizeof site);
        json_array_append_new(top, json_pack("{s:i, s:s, s:o, s:I, s:f, s:o, s:b}", "id", s->id, "function",
                                             s->function, "site", mpp_json_text(site), "calls", (json_int_t)t->calls,
                                             "time", t->time.sum, "share_of_lost", number(d->top[k].share_of_lost),
                                             "lost", mpp_digest_is_lost(s->function)));
    }
    json_t *run = json_pack("{s:o, s:i, s:i, s:o}", "program", mpp_json_text(r->run->program), "processes",
                            d->processes, "nodes", d->nodes, "execution_time", number(d->exec));
    json_t *productive =
        json_pack("{s:o, s:o, s:o, s:o, s:o, s:b, s:f}", "seconds", number(d->productive), "cpu", number(d->cpu),
                  "sys", number(d->sys), "io", number(d->io), "io_share", number(d->io_share), "io_large",
                  d->io_large, "io_large_from", MPP_DIGEST_IO_SHARE);
    mpp_io_figures_t io = mpp_interval_io(r->reduced, 0); /* I/O's bytes and bandwidth (io_figures.h) */
    json_object_set_new(productive, "io_bytes_read", json_integer((json_int_t)io.bytes_read));
    json_object_set_new(productive, "io_bytes_written", json_integer((json_int_t)io.bytes_written));
    json_object_set_new(productive, "io_bandwidth", number(io.bandwidth));
    json_t *findings = d->checked ? json_pack("{s:I, s:I, s:I}", "errors", (json_int_t)d->errors, "warnings",
                                              (json_int_t)d->warnings, "dropped", (json_int_t)d->dropped)
                                  : json_null();
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i}", "run", run, "parallelization_efficiency",
                     number(d->keff), "total_time", number(d->total), "lost_time", number(d->lost), "lost_share",
                     number(d->lost_share), "lost_parts", parts, "productive", productive, "correctness", findings,
                     "top_src", top, "warnings", d->nwarnings);
}

json_t *mpp_digest_json(const mpp_report_t *r)
{
    mpp_digest_t *made;
    const mpp_digest_t *d = mpp_report_digest(r, &made);
    if (!d)
        return json_null();
    json_t *o = digest_object(r, d);
    done(made);
    return o;
}

/* The end-of-run summary on stderr: the digest in a few lines. */
void mpp_write_headline(FILE *out, const mpp_report_t *r)
{
    mpp_digest_t *made;
    const mpp_digest_t *d = mpp_report_digest(r, &made);
    if (!d)
        return;
    const double *m = r->results[0].main;
    fprintf(out, "  Parallelization efficiency %.4f, execution time %.6f s on %d processes (%d node%s)\n", d->keff,
            d->exec, d->processes, d->nodes, d->nodes == 1 ? "" : "s");
    fprintf(out, "  Lost time %.6f s (%.1f%% of total), largest cause: %s %.6f s", d->lost,
            isnan(d->lost_share) ? 0.0 : 100 * d->lost_share, part_label(d->lost_parts[0].part),
            d->lost_parts[0].seconds);
    for (int i = 1; i < MPP_DIGEST_NLOST; i++)
        if (d->lost_parts[i].seconds > 0)
            fprintf(out, "%s%s %.6f s", i == 1 ? "; then " : ", ", part_label(d->lost_parts[i].part),
                    d->lost_parts[i].seconds);
    fputc('\n', out);
    if (!isnan(m[MPP_M_IMBALANCE]))
        fprintf(out, "  Load imbalance (potential loss) %.6f s\n", m[MPP_M_IMBALANCE]);
    if (d->io_large) {
        mpp_io_figures_t io = mpp_interval_io(r->reduced, 0);
        fprintf(out, "  I/O %.6f s, %.1f%% of total: MPI-IO, productive by the method; %llu B read, %llu B written",
                d->io, 100 * d->io_share, (unsigned long long)io.bytes_read, (unsigned long long)io.bytes_written);
        if (!isnan(io.bandwidth))
            fprintf(out, ", %.0f B/s", io.bandwidth);
        fputc('\n', out);
    }
    if (d->checked)
        fprintf(out, "  Correctness: %llu error%s, %llu warning%s\n", (unsigned long long)d->errors,
                d->errors == 1 ? "" : "s", (unsigned long long)d->warnings, d->warnings == 1 ? "" : "s");
    char line[1536];
    for (int k = 0; k < d->ntop; k++) {
        top_line(r, d, k, "  ", line, sizeof line);
        fprintf(out, "%s\n", line);
    }
    fprintf(out, "  Warnings: %d (in the protocol's Parameters)\n", d->nwarnings);
    done(made);
}
