/* I/O in its own words (io_figures.h). */
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "gen/function_table.h"
#include "write/io_figures.h"

int mpp_function_is_io(const char *function)
{
    if (!function)
        return 0;
    int lo = 0, hi = MPP_NFUNCTIONS - 1; /* mpp_functions_by_name is sorted by strcmp */
    while (lo <= hi) {
        int mid = (lo + hi) / 2, f = mpp_functions_by_name[mid];
        int c = strcmp(mpp_functions[f].name, function);
        if (!c)
            return mpp_functions[f].category == MPP_CAT_IO;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return 0;
}

void mpp_mark_io_srcs(mpp_reduced_t *rd)
{
    for (int s = 0; s < rd->nsrcs; s++)
        rd->srcs[s].io = mpp_function_is_io(rd->srcs[s].function);
}

double mpp_io_bandwidth(double bytes, double seconds) { return seconds > 0 ? bytes / seconds : NAN; }

static int inside(const mpp_reduced_t *rd, int interval, int ancestor)
{
    for (int i = interval; i >= 0; i = rd->intervals[i].parent)
        if (i == ancestor)
            return 1;
    return 0;
}

mpp_io_figures_t mpp_interval_io(const mpp_reduced_t *rd, int i)
{
    mpp_io_figures_t f = {0};
    if (i < 0 || i >= rd->nintervals) {
        f.share = f.bandwidth = NAN;
        return f;
    }
    const mpp_reduced_interval_t *in = &rd->intervals[i];
    for (int c = 0; c < rd->ncells; c++) {
        const mpp_reduced_cell_t *cell = &rd->cells[c];
        if (!rd->srcs[cell->src].io || !inside(rd, cell->interval, i))
            continue;
        f.calls += cell->calls;
        f.bytes_read += cell->bytes_recv;
        f.bytes_written += cell->bytes_sent;
    }
    f.time = in->q[MPP_Q_IO].sum;
    f.exec = in->q[MPP_Q_EXEC].sum;
    f.share = f.exec > 0 ? f.time / f.exec : NAN;
    f.bandwidth = mpp_io_bandwidth((double)f.bytes_read + (double)f.bytes_written, f.time);
    return f;
}

void mpp_write_io_text(FILE *out, const mpp_report_t *r, int interval)
{
    mpp_io_figures_t f = mpp_interval_io(r->reduced, interval);
    fprintf(out, "--- I/O ---\n");
    if (!f.calls && !(f.time > 0)) {
        fprintf(out, "no MPI-IO calls in this interval\n");
        return;
    }
    fprintf(out, "calls=%llu  bytes_read=%llu  bytes_written=%llu\n", (unsigned long long)f.calls,
            (unsigned long long)f.bytes_read, (unsigned long long)f.bytes_written);
    fprintf(out, "time            %.6f s (summed over processes)  share ", f.time);
    if (isnan(f.share))
        fprintf(out, "n/a (no execution time)\n");
    else
        fprintf(out, "%.4f of execution time\n", f.share);
    if (isnan(f.bandwidth))
        fprintf(out, "bandwidth       n/a (no I/O time)\n");
    else
        fprintf(out, "bandwidth       %.0f B/s (bytes read and written / I/O time)\n", f.bandwidth);
}

static json_t *number(double v) { return isnan(v) ? json_null() : json_real(v); }

json_t *mpp_interval_io_json(const mpp_report_t *r, int interval)
{
    mpp_io_figures_t f = mpp_interval_io(r->reduced, interval);
    return json_pack("{s:I, s:I, s:I, s:f, s:o, s:o}", "calls", (json_int_t)f.calls, "bytes_read",
                     (json_int_t)f.bytes_read, "bytes_written", (json_int_t)f.bytes_written, "time", f.time, "share",
                     number(f.share), "bandwidth", number(f.bandwidth));
}

void mpp_io_split_cell(json_t *point, int io, const mpp_reduced_cell_t *c)
{
    mpp_io_split_counts(point, io, c->bytes_sent, c->bytes_recv, c->time.sum);
}

void mpp_io_split_counts(json_t *point, int io, uint64_t sent, uint64_t recv, double time)
{
    json_object_set_new(point, "bytes_read", json_integer(io ? (json_int_t)recv : 0));
    json_object_set_new(point, "bytes_written", json_integer(io ? (json_int_t)sent : 0));
    json_object_set_new(point, "bandwidth",
                        io ? number(mpp_io_bandwidth((double)sent + (double)recv, time)) : json_null());
    if (io) {
        json_object_set_new(point, "bytes_sent", json_integer(0));
        json_object_set_new(point, "bytes_recv", json_integer(0));
    }
}

/* A column like `of` (null where it is null), of zeros. */
static json_t *zeros_like(json_t *of)
{
    json_t *col = json_array(), *v;
    size_t i;
    json_array_foreach(of, i, v) json_array_append_new(col, json_is_null(v) ? json_null() : json_integer(0));
    return col;
}

void mpp_io_split_by_process(json_t *by, int io)
{
    json_t *sent = json_object_get(by, "bytes_sent"), *recv = json_object_get(by, "bytes_recv");
    if (!sent || !recv)
        return;
    if (!io) {
        json_object_set_new(by, "bytes_read", zeros_like(recv));
        json_object_set_new(by, "bytes_written", zeros_like(sent));
        return;
    }
    json_object_set(by, "bytes_read", recv);
    json_object_set(by, "bytes_written", sent);
    json_object_set_new(by, "bytes_sent", zeros_like(sent));
    json_object_set_new(by, "bytes_recv", zeros_like(recv));
}
