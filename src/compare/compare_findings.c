/* Comparing the Correctness sections of two protocols (compare.h,
 * mpiprof-compare(1)).  Findings are matched by kind, MPI function and
 * call stack, and the other side's function and stack, each the k-th of
 * its key with the k-th (as SRC points are); a finding in one protocol
 * only is a difference of structure, like an SRC point in one only; a
 * matched finding whose severity, count or ranks (processes, first and
 * last rank: one difference, "ranks") differ, a difference of counts, as
 * the number of dropped ones is.  The
 * level is not compared here: it is MPIPROF_CHECK, in Configuration.  The
 * first occurrence's details and peer are not compared (which message of a
 * kind came first varies with timing).  A protocol without the section,
 * of an mpiprof before the checks, is "not recorded", and one whose checks
 * did not run (MPIPROF_CHECK=off, or a trace's analyzer) found nothing to
 * compare: nothing of it is compared, and that is no difference. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"

static int ignored(const mpp_compare_options_t *o, const char *name)
{
    for (int i = 0; i < o->nignore; i++)
        if (!strcmp(o->ignore[i], name))
            return 1;
    return 0;
}

/* "MPI_Recv at a.c:12 (main) <- a.c:40 (run)"; with `no_lines`, frames
 * as "a.c (main)" (--ignore line).  Allocated, or NULL. */
static char *side_text(json_t *side, int no_lines)
{
    const char *fn = json_string_value(json_object_get(side, "function"));
    char *out = NULL;
    size_t len = 0;
    FILE *s = open_memstream(&out, &len);
    if (!s)
        return NULL;
    fprintf(s, "%s at ", fn ? fn : "?");
    json_t *stack = json_object_get(side, "stack"), *frame;
    size_t i;
    json_array_foreach(stack, i, frame)
    {
        const char *text = json_string_value(json_object_get(frame, "text"));
        const char *file = json_string_value(json_object_get(frame, "file"));
        const char *function = json_string_value(json_object_get(frame, "function"));
        if (i)
            fputs(" <- ", s);
        if (no_lines)
            fprintf(s, "%s (%s)", file ? file : "?", function ? function : "?");
        else
            fputs(text ? text : "?", s);
    }
    if (!json_array_size(stack))
        fputs("(no stack)", s);
    fclose(s);
    return out;
}

/* A finding's key (no_lines >= 0) or its label (no_lines < 0): "error
 * wrong-datatype: MPI_Recv at a.c:12 (main); other side MPI_Send at
 * a.c:8 (main)".  Allocated, or NULL. */
static char *finding_text(json_t *f, int no_lines)
{
    const char *kind = json_string_value(json_object_get(f, "kind"));
    const char *severity = json_string_value(json_object_get(f, "severity"));
    json_t *other = json_object_get(f, "other");
    char *call = side_text(f, no_lines > 0), *peer = json_is_object(other) ? side_text(other, no_lines > 0) : NULL;
    char *out = NULL;
    int rc = -1;
    if (call && (peer || !json_is_object(other))) {
        if (no_lines >= 0)
            rc = asprintf(&out, "%s\x1f%s\x1f%s", kind ? kind : "?", call, peer ? peer : "");
        else
            rc = asprintf(&out, "%s %s: %s%s%s", severity ? severity : "?", kind ? kind : "?", call,
                          peer ? "; other side " : "", peer ? peer : "");
    }
    free(call), free(peer);
    return rc < 0 ? NULL : out;
}

/* A finding's key for the matching: its text, lines left out (`ctx`: no_lines). */
static char *finding_key(const void *ctx, json_t *f) { return finding_text(f, *(const int *)ctx); }

static void value_text(json_t *v, char *out, size_t size)
{
    if (json_is_integer(v))
        snprintf(out, size, "%lld", (long long)json_integer_value(v));
    else if (json_is_string(v))
        snprintf(out, size, "%.200s", json_string_value(v));
    else
        snprintf(out, size, "%s", v && !json_is_null(v) ? "?" : "n/a");
}

/* Member `name` of a and b: a difference of structure when they differ. */
static void compare_member(mpp_compare_t *c, const mpp_compare_options_t *o, const char *label, const char *name,
                           json_t *a, json_t *b)
{
    json_t *x = json_object_get(a, name), *y = json_object_get(b, name);
    if (ignored(o, name) || json_equal(x, y))
        return;
    char ta[256], tb[256], message[600];
    value_text(x, ta, sizeof ta), value_text(y, tb, sizeof tb);
    snprintf(message, sizeof message, "%s in A, %s in B", ta, tb);
    mpp_compare_add_diff(c, MPP_DIFF_STRUCTURE, "correctness", label, name, x, y, message);
}

/* "ranks 0-3 (4 processes)", "rank 2", "3 processes, ranks 0 to 7". */
static void ranks_text(json_t *f, char *out, size_t size)
{
    long long n = (long long)json_integer_value(json_object_get(f, "processes"));
    long long first = (long long)json_integer_value(json_object_get(f, "first_rank"));
    long long last = (long long)json_integer_value(json_object_get(f, "last_rank"));
    if (first == last && n == 1)
        snprintf(out, size, "rank %lld", first);
    else if (last - first + 1 == n)
        snprintf(out, size, "ranks %lld-%lld (%lld processes)", first, last, n);
    else
        snprintf(out, size, "%lld processes, ranks %lld to %lld", n, first, last);
}

/* The ranks of two matched findings (processes, first and last rank): one
 * difference, named ranks. */
static void compare_ranks(mpp_compare_t *c, const mpp_compare_options_t *o, const char *label, json_t *a, json_t *b)
{
    static const char *const keys[] = {"processes", "first_rank", "last_rank"};
    int same = 1;
    for (size_t k = 0; k < 3; k++)
        same = same && json_equal(json_object_get(a, keys[k]), json_object_get(b, keys[k]));
    if (same || ignored(o, "ranks"))
        return;
    char ta[128], tb[128], message[300];
    ranks_text(a, ta, sizeof ta), ranks_text(b, tb, sizeof tb);
    snprintf(message, sizeof message, "%s in A, %s in B", ta, tb);
    json_t *x = json_pack("{s:O?, s:O?, s:O?}", keys[0], json_object_get(a, keys[0]), keys[1],
                          json_object_get(a, keys[1]), keys[2], json_object_get(a, keys[2]));
    json_t *y = json_pack("{s:O?, s:O?, s:O?}", keys[0], json_object_get(b, keys[0]), keys[1],
                          json_object_get(b, keys[1]), keys[2], json_object_get(b, keys[2]));
    mpp_compare_add_diff(c, MPP_DIFF_STRUCTURE, "correctness", label, "ranks", x, y, message);
    json_decref(x), json_decref(y);
}

static void only_in(mpp_compare_t *c, json_t *f, int in_b)
{
    char *label = finding_text(f, -1);
    if (!label) {
        c->out_of_memory = 1;
        return;
    }
    mpp_compare_add_diff(c, MPP_DIFF_STRUCTURE, "correctness", label, NULL, in_b ? NULL : f, in_b ? f : NULL,
                         in_b ? "finding only in B" : "finding only in A");
    free(label);
}

/* The section, when its checks ran (its errors are null when none did). */
static json_t *checked(json_t *doc)
{
    json_t *k = json_object_get(doc, "correctness");
    return json_is_object(k) && !json_is_null(json_object_get(k, "errors")) ? k : NULL;
}

int mpp_compare_findings(json_t *a, json_t *b, const mpp_compare_options_t *o, mpp_compare_t *out)
{
    json_t *ca = checked(a), *cb = checked(b);
    if (!ca || !cb || ignored(o, "correctness"))
        return 0; /* not recorded or not checked (mpp_compare_findings_summary says so), or --ignore correctness */
    json_t *fa = json_object_get(ca, "findings"), *fb = json_object_get(cb, "findings");
    size_t na = json_array_size(fa), nb = json_array_size(fb);
    size_t *match = calloc(na + 1, sizeof *match);
    char *matched_b = calloc(nb + 1, 1);
    int no_lines = ignored(o, "line");
    if (!match || !matched_b || mpp_compare_match_lists(fa, fb, finding_key, &no_lines, match) != 0) {
        free(match), free(matched_b);
        out->out_of_memory = 1;
        return -1;
    }
    if (!json_is_null(json_object_get(ca, "dropped")) && !json_is_null(json_object_get(cb, "dropped")))
        compare_member(out, o, NULL, "dropped", ca, cb);
    for (size_t i = 0; i < na; i++) {
        json_t *x = json_array_get(fa, i), *y = json_array_get(fb, match[i]);
        if (match[i] == SIZE_MAX) {
            only_in(out, x, 0);
            continue;
        }
        matched_b[match[i]] = 1;
        char *label = finding_text(x, -1);
        if (!label) {
            out->out_of_memory = 1;
            continue;
        }
        compare_member(out, o, label, "severity", x, y);
        compare_member(out, o, label, "count", x, y);
        compare_ranks(out, o, label, x, y);
        free(label);
    }
    for (size_t j = 0; j < nb; j++)
        if (!matched_b[j])
            only_in(out, json_array_get(fb, j), 1);
    free(match), free(matched_b);
    return out->out_of_memory ? -1 : 0;
}

static json_t *side_summary(json_t *doc)
{
    json_t *k = json_object_get(doc, "correctness");
    if (!json_is_object(k))
        return json_null();
    return json_pack("{s:O?, s:O?, s:O?, s:O?, s:I}", "level", json_object_get(k, "level"), "errors",
                     json_object_get(k, "errors"), "warnings", json_object_get(k, "warnings"), "dropped",
                     json_object_get(k, "dropped"), "findings",
                     (json_int_t)json_array_size(json_object_get(k, "findings")));
}

json_t *mpp_compare_findings_summary(json_t *a, json_t *b, const mpp_compare_options_t *o)
{
    json_t *sa = side_summary(a), *sb = side_summary(b);
    int compared = checked(a) && checked(b) && !ignored(o, "correctness");
    const char *why = NULL;
    if (ignored(o, "correctness"))
        why = "--ignore correctness";
    else if (json_is_null(sa) || json_is_null(sb))
        why = json_is_null(sa) && json_is_null(sb) ? "not recorded in either protocol (mpiprof before its checks)"
              : json_is_null(sa)                   ? "not recorded in A (mpiprof before its correctness checks)"
                                                   : "not recorded in B (mpiprof before its correctness checks)";
    else if (!compared)
        why = !checked(a) && !checked(b) ? "no check ran for either protocol"
              : !checked(a)              ? "no check ran for A (nothing found is not nothing wrong)"
                                         : "no check ran for B (nothing found is not nothing wrong)";
    json_t *out = json_pack("{s:o, s:o, s:b}", "a", sa, "b", sb, "compared", compared);
    if (out && why)
        json_object_set_new(out, "not_compared", json_string(why));
    return out;
}
