/* What a partial protocol says in its Parameters: which processes it holds,
 * which are missing, and how each present one ended (partial.h).  Text
 * and JSON from the same pieces, so that both say the same. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

#include "records/machine.h"
#include "write/partial.h"
#include "write/process_data.h"
#include "write/writer.h"

const char *const mpp_end_names[MPP_NEND] = {"signal", "MPI_Abort", "exit", "return"};

char *mpp_rank_ranges(const mpp_process_end_t *ends, int nends, int nprocs, int missing)
{
    int *ids = malloc(((size_t)(missing ? nprocs : nends) + 1) * sizeof *ids);
    if (!ids)
        return NULL;
    int n = 0;
    if (!missing) {
        for (int e = 0; e < nends; e++)
            ids[n++] = ends[e].rank;
    } else {
        for (int r = 0, e = 0; r < nprocs; r++) {
            while (e < nends && ends[e].rank < r)
                e++;
            if (e == nends || ends[e].rank != r)
                ids[n++] = r;
        }
    }
    char *text = mpp_idlist_format(ids, n);
    free(ids);
    return text;
}

void mpp_end_describe(const mpp_process_end_t *e, char *out, size_t size)
{
    int n;
    switch (e->kind) {
    case MPP_END_SIGNAL:
        n = snprintf(out, size, "signal %s", e->detail);
        break;
    case MPP_END_ABORT:
        n = snprintf(out, size, "MPI_Abort(%s, %d)", e->detail, e->code);
        break;
    case MPP_END_EXIT:
        n = snprintf(out, size, "exit(%d) without MPI_Finalize", e->code);
        break;
    default:
        n = snprintf(out, size, "return from main without MPI_Finalize (exit status %d)", e->code);
        break;
    }
    size_t at = n < 0 ? 0 : (size_t)n < size ? (size_t)n : size;
    if (e->kind == MPP_END_ABORT || e->kind == MPP_END_RETURN) {
        /* the MPI call, or none, goes without saying */
    } else if (e->mpi_call[0] && at < size) {
        n = snprintf(out + at, size - at, " in %s", e->mpi_call);
        at += n < 0 ? 0 : (size_t)n;
        if (!isnan(e->call_seconds) && at < size) {
            n = snprintf(out + at, size - at, " (for %.6f s)", e->call_seconds);
            at += n < 0 ? 0 : (size_t)n;
        }
    } else if (at < size && e->kind == MPP_END_SIGNAL) {
        n = snprintf(out + at, size - at, " outside MPI");
        at += n < 0 ? 0 : (size_t)n;
    }
    if (at < size && e->src) {
        n = snprintf(out + at, size - at, " at SRC %d", e->src);
        at += n < 0 ? 0 : (size_t)n;
    }
    if (at < size && e->site[0])
        snprintf(out + at, size - at, "%s %s",
                 e->src                                       ? ":"
                 : e->kind == MPP_END_EXIT && !e->mpi_call[0] ? ", called at"
                                                              : " at",
                 e->site);
}

void mpp_write_partial_text(FILE *out, const mpp_report_t *r)
{
    const mpp_partial_t *p = r->partial;
    char *present = mpp_rank_ranges(p->ends, p->nends, r->reduced->nprocs, 0);
    char *missing = mpp_rank_ranges(p->ends, p->nends, r->reduced->nprocs, 1);
    fprintf(out, "%-22s: yes: the data of rank%s %s (%d of %d processes); ranks missing: %s\n", "Partial",
            p->nends == 1 ? "" : "s", present ? present : "?", p->nends, r->reduced->nprocs,
            !missing   ? "?"
            : *missing ? missing
                       : "none");
    for (int e = 0; e < p->nends; e++) {
        char line[MPP_END_TEXT + MPP_END_SITE + 256];
        mpp_end_describe(&p->ends[e], line, sizeof line);
        fprintf(out, "   rank %d: %s\n", p->ends[e].rank, line);
    }
    free(present);
    free(missing);
}

json_t *mpp_process_end_json(const mpp_process_end_t *e)
{
    char line[MPP_END_TEXT + MPP_END_SITE + 256];
    mpp_end_describe(e, line, sizeof line);
    int signal = e->kind == MPP_END_SIGNAL;
    return json_pack("{s:i, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "rank", e->rank, "end",
                     mpp_end_names[e->kind], "signal", signal ? json_integer(e->signal) : json_null(), "code",
                     signal ? json_null() : json_integer(e->code), "detail",
                     e->detail[0] ? mpp_json_text(e->detail) : json_null(), "mpi_call",
                     e->mpi_call[0] ? json_string(e->mpi_call) : json_null(), "call_seconds",
                     isnan(e->call_seconds) ? json_null() : json_real(e->call_seconds), "src",
                     e->src ? json_integer(e->src) : json_null(), "site",
                     e->site[0] ? mpp_json_text(e->site) : json_null(), "text", mpp_json_text(line));
}

int mpp_process_end_parse(const json_t *o, mpp_process_end_t *e)
{
    memset(e, 0, sizeof *e);
    const char *end = json_string_value(json_object_get(o, "end"));
    e->kind = -1;
    for (int k = 0; end && k < MPP_NEND; k++)
        if (!strcmp(end, mpp_end_names[k]))
            e->kind = k;
    if (e->kind < 0 || !json_is_integer(json_object_get(o, "rank")))
        return -1;
    e->rank = (int)json_integer_value(json_object_get(o, "rank"));
    e->signal = (int)json_integer_value(json_object_get(o, "signal"));
    e->code = (int)json_integer_value(json_object_get(o, "code"));
    const json_t *seconds = json_object_get(o, "call_seconds");
    e->call_seconds = json_is_number(seconds) ? json_number_value(seconds) : NAN;
    e->src = (int)json_integer_value(json_object_get(o, "src"));
    const char *s;
    if ((s = json_string_value(json_object_get(o, "detail"))))
        snprintf(e->detail, sizeof e->detail, "%s", s);
    if ((s = json_string_value(json_object_get(o, "mpi_call"))))
        snprintf(e->mpi_call, sizeof e->mpi_call, "%s", s);
    if ((s = json_string_value(json_object_get(o, "site"))))
        snprintf(e->site, sizeof e->site, "%s", s);
    return 0;
}

json_t *mpp_partial_json(const mpp_report_t *r)
{
    const mpp_partial_t *p = r->partial;
    if (!p)
        return json_false();
    char *present = mpp_rank_ranges(p->ends, p->nends, r->reduced->nprocs, 0);
    char *missing = mpp_rank_ranges(p->ends, p->nends, r->reduced->nprocs, 1);
    json_t *ends = json_array();
    for (int i = 0; i < p->nends; i++)
        json_array_append_new(ends, mpp_process_end_json(&p->ends[i]));
    json_t *o = json_pack("{s:i, s:s, s:s, s:o}", "count", p->nends, "ranks", present ? present : "", "missing",
                          missing ? missing : "", "processes", ends);
    free(present);
    free(missing);
    return o;
}
