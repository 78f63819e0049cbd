/* The Correctness section (correctness.md): text and JSON of the findings,
 * placed where a user sees it first. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check/finding_list.h"
#include "util/srckey.h"
#include "write/process_data.h"
#include "write/writer.h"

/* What each level looks at: the checks that ran. */
static const char *checks_of(int level)
{
    switch (level < 0 ? -1 : level & MPP_CHECK_LEVEL) {
    case MPP_CHECK_OFF:
        return "none";
    case MPP_CHECK_BASIC:
        return "requests, handles, unpaired messages, collectives (operation, root, reduction, size), thread "
               "level, calls outside MPI, MPI errors, RMA epochs";
    case MPP_CHECK_FULL:
        return "requests, handles, unpaired messages, collectives (operation, root, reduction, size, type "
               "signature), thread level, calls outside MPI, MPI errors, RMA epochs, arguments, overlapping buffers "
               "(RMA origin buffers too), RMA accesses of one fence or exposure epoch between origins, message sizes "
               "and "
               "type signatures";
    default:
        return "unknown";
    }
}

const char *mpp_report_checks_text(int level) { return checks_of(level); }

/* The SRC point of the protocol a key names (the same function and
 * frames), or -1. */
int mpp_report_src_of_key(const mpp_reduced_t *rd, const char *key)
{
    char *function = NULL;
    mpp_frame_t *fr = NULL;
    int n = mpp_srckey_parse(key, &function, &fr), id = -1;
    for (int s = 0; function && s < rd->nsrcs && id < 0; s++) {
        const mpp_reduced_src_t *src = &rd->srcs[s];
        int same = src->nframes == n && !strcmp(src->function, function);
        for (int f = 0; same && f < n; f++)
            same = !strcmp(src->frames[f].text, fr[f].text) && !strcmp(src->frames[f].path, fr[f].path);
        if (same)
            id = src->id;
    }
    free(function);
    mpp_srckey_free_frames(fr, n);
    return id;
}

/* "MPI_Isend at ring.c:31 (main) <- ring.c:80 (run)" of a key. */
static char *call_text(const char *key)
{
    char *function = NULL, *out = NULL;
    mpp_frame_t *fr = NULL;
    int n = mpp_srckey_parse(key, &function, &fr);
    size_t len = 0;
    FILE *s = open_memstream(&out, &len);
    if (s) {
        fprintf(s, "%s", function ? function : "?");
        for (int f = 0; f < n; f++)
            fprintf(s, "%s%s", f ? " <- " : " at ", fr[f].text);
        fclose(s);
    }
    free(function);
    mpp_srckey_free_frames(fr, n);
    return out;
}

static void ranks_text(const mpp_finding_record_t *f, int nprocs, char *out, size_t size)
{
    if (f->first_rank == f->last_rank)
        snprintf(out, size, "rank %d", f->first_rank);
    else if (f->last_rank - f->first_rank + 1 == f->nprocs)
        snprintf(out, size, "ranks %d-%d (%d of %d processes)", f->first_rank, f->last_rank, f->nprocs, nprocs);
    else
        snprintf(out, size, "%d of %d processes, ranks %d to %d", f->nprocs, nprocs, f->first_rank, f->last_rank);
}

static const char *severity_name(int severity) { return severity == MPP_FINDING_ERROR ? "error" : "warning"; }

void mpp_write_correctness_text(FILE *out, const mpp_report_t *r)
{
    const mpp_finding_list_t *l = &r->reduced->findings;
    fprintf(out, "Correctness\n");
    fprintf(out, "%-22s: %s (MPIPROF_CHECK=%s)\n", "Checks", checks_of(l->level), mpp_check_level_text(l->level));
    if (l->level <= 0) {
        fprintf(out, "%-22s: n/a (no correctness check ran: MPIPROF_CHECK=basic or full runs them)\n", "Findings");
        return;
    }
    uint64_t errors, warnings;
    mpp_finding_list_counts(l, &errors, &warnings);
    fprintf(out, "%-22s: %llu error%s, %llu warning%s", "Findings", (unsigned long long)errors,
            errors == 1 ? "" : "s", (unsigned long long)warnings, warnings == 1 ? "" : "s");
    if (l->dropped)
        fprintf(out, "; %llu more not kept (MPIPROF_MAX_FINDINGS)", (unsigned long long)l->dropped);
    fputc('\n', out);
    for (int i = 0; i < l->n; i++) {
        const mpp_finding_record_t *f = &l->items[i];
        char *call = call_text(f->src), ranks[128];
        int src = mpp_report_src_of_key(r->reduced, f->src);
        ranks_text(f, r->reduced->nprocs, ranks, sizeof ranks);
        fprintf(out, "   %s %s: %s", severity_name(f->severity), mpp_finding_kinds[f->kind].name, call ? call : "?");
        if (src >= 0)
            fprintf(out, " (SRC %d)", src);
        fprintf(out, "; %s; %llu time%s\n", ranks, (unsigned long long)f->count, f->count == 1 ? "" : "s");
        if (f->detail[0])
            fprintf(out, "      first: %s\n", f->detail);
        if (f->other) {
            char *other = call_text(f->other);
            int osrc = mpp_report_src_of_key(r->reduced, f->other);
            fprintf(out, "      other side: %s", other ? other : "?");
            if (f->peer >= 0)
                fprintf(out, " on rank %d", f->peer);
            if (osrc >= 0)
                fprintf(out, " (SRC %d)", osrc);
            fputc('\n', out);
            free(other);
        } else if (f->peer >= 0) {
            fprintf(out, "      other side: rank %d\n", f->peer);
        }
        free(call);
    }
}

static json_t *stack_json(const char *key, json_t **function)
{
    char *name = NULL;
    mpp_frame_t *fr = NULL;
    int n = mpp_srckey_parse(key, &name, &fr);
    json_t *stack = json_array();
    for (int f = 0; f < n; f++)
        json_array_append_new(stack, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}", "file", mpp_json_text(fr[f].file),
                                               "path", mpp_json_text(fr[f].path), "line",
                                               fr[f].line ? json_integer(fr[f].line) : json_null(), "function",
                                               *fr[f].function ? mpp_json_text(fr[f].function) : json_null(), "text",
                                               mpp_json_text(fr[f].text), "source",
                                               *fr[f].origin ? mpp_json_text(fr[f].origin) : json_null()));
    *function = mpp_json_text(name ? name : "?");
    free(name);
    mpp_srckey_free_frames(fr, n);
    return stack;
}

static json_t *side_json(const mpp_reduced_t *rd, const char *key)
{
    json_t *function;
    json_t *stack = stack_json(key, &function);
    int src = mpp_report_src_of_key(rd, key);
    return json_pack("{s:o, s:o, s:o}", "function", function, "src", src >= 0 ? json_integer(src) : json_null(),
                     "stack", stack);
}

json_t *mpp_correctness_json(const mpp_report_t *r)
{
    const mpp_finding_list_t *l = &r->reduced->findings;
    json_t *findings = json_array();
    uint64_t errors, warnings;
    mpp_finding_list_counts(l, &errors, &warnings);
    for (int i = 0; l->level > 0 && i < l->n; i++) {
        const mpp_finding_record_t *f = &l->items[i];
        json_t *o = side_json(r->reduced, f->src);
        json_object_set_new(o, "kind", json_string(mpp_finding_kinds[f->kind].name));
        json_object_set_new(o, "severity", json_string(severity_name(f->severity)));
        json_object_set_new(o, "count", json_integer((json_int_t)f->count));
        json_object_set_new(o, "processes", json_integer(f->nprocs));
        json_object_set_new(o, "first_rank", json_integer(f->first_rank));
        json_object_set_new(o, "last_rank", json_integer(f->last_rank));
        json_object_set_new(o, "detail", mpp_json_text(f->detail));
        json_object_set_new(o, "peer", f->peer >= 0 ? json_integer(f->peer) : json_null());
        json_object_set_new(o, "other", f->other ? side_json(r->reduced, f->other) : json_null());
        json_array_append_new(findings, o);
    }
    int on = l->level > 0;
    return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "level", mpp_check_level_text(l->level), "checks",
                     checks_of(l->level), "errors", on ? json_integer((json_int_t)errors) : json_null(), "warnings",
                     on ? json_integer((json_int_t)warnings) : json_null(), "dropped",
                     on ? json_integer((json_int_t)l->dropped) : json_null(), "findings", findings);
}
