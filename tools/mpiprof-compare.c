/* mpiprof-compare: two protocols compared interval by interval and SRC
 * point by SRC point (mpiprof-compare(1)): what is in one and not the
 * other, counts that differ, every number beyond the tolerance, the
 * correctness findings, and what changed from A to B (speedup,
 * efficiency, each part of Lost time).
 * Exit 0 when equal, 1 when different, 2 on bad input.  Protocols are read
 * in their JSON form, checked as mpiprof-view checks them; a text protocol
 * is read through its JSON sibling (the text rounds every number and
 * cannot be parsed back without ambiguity: see the man page, INPUT). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/compare.h"
#include "compare/match.h"
#include "compare/scaling.h"
#include "write/view.h"

static const char usage[] =
    "usage: mpiprof-compare [--rtol R] [--atol A] [--ignore NAME]... [--include NAME]... [--brief] [--json]\n"
    "                       [--top N] A B [C ...]\n"
    "  A, B, ...       protocols: JSON, or text with their JSON sibling (MPIPROF_FORMAT=both); each\n"
    "                  after the first is compared with the first; at different process counts\n"
    "                  they are a scaling study\n"
    "  --rtol R        relative tolerance of times and numbers (default 0.01)\n"
    "  --atol A        absolute tolerance in seconds (default 0.002): a number differs when\n"
    "                  |a - b| > A + R * max(|a|, |b|)\n"
    "  --ignore NAME   do not compare members named NAME (a characteristic, a Parameters field,\n"
    "                  an MPIPROF_* variable, line: match intervals and frames without lines)\n"
    "  --include NAME  compare a Parameters field that differs between runs by design\n"
    "  --brief         the differences alone, without the change from A to B\n"
    "  --json          the comparison as JSON on standard output\n"
    "  --top N         SRC points in the scaling study's text (default 10; all in --json)\n"
    "exit status: 0 equal, 1 different, 2 bad input\n";

typedef struct {
    const char *given; /* the path given */
    char read[4200];   /* the file read */
    char note[4400];   /* how it was read, when not as given */
    json_t *doc;
} protocol_t;

static int bad_input(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int bad_input(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("mpiprof-compare: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 2;
}

/* The value of `label` in a text protocol's Parameters ("Label : value"). */
static int text_parameter(FILE *f, const char *label, char *out, size_t size)
{
    char line[4096];
    size_t n = strlen(label);
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "====", 4))
            break;
        if (strncmp(line, label, n) != 0 || (line[n] != ' ' && line[n] != ':'))
            continue;
        char *colon = strchr(line + n, ':');
        if (!colon)
            continue;
        colon += strspn(colon + 1, " ") + 1;
        colon[strcspn(colon, "\n")] = '\0';
        snprintf(out, size, "%s", colon);
        return 0;
    }
    return -1;
}

static json_t *load_json(const char *path, char *why, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    json_error_t error;
    struct stat st;
    off_t bytes = fstat(fileno(f), &st) == 0 ? st.st_size : -1;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &error);
    fclose(f);
    /* Cut short: jansson says so at the end of the input, or stops at the
     * last bytes when the cut falls inside a token ("invalid token near
     * 'tr'" of a cut "true"). */
    int cut = strstr(error.text, "end of") || strstr(error.text, "premature") ||
              (bytes >= 0 && (off_t)error.position + 16 >= bytes);
    if (!doc)
        snprintf(why, size, "%s: not valid JSON: %s (line %d, column %d)%s", path, error.text, error.line,
                 error.column, cut ? ": the file is cut short" : "");
    return doc;
}

/* The protocol `p->given`, its JSON form in p->doc; 0, or -1 with why. */
static int load_protocol(protocol_t *p, char *why, size_t size)
{
    snprintf(p->read, sizeof p->read, "%s", p->given);
    FILE *f = fopen(p->given, "r");
    if (!f) {
        snprintf(why, size, "%s: %s", p->given, strerror(errno));
        return -1;
    }
    int first = fgetc(f);
    while (first == ' ' || first == '\n' || first == '\r' || first == '\t')
        first = fgetc(f);
    if (first == '{') {
        fclose(f);
        if (!(p->doc = load_json(p->given, why, size)))
            return -1;
    } else {
        char line[64] = "";
        rewind(f);
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        if (first == EOF || strncmp(line, "mpiprof protocol", 16) != 0) {
            fclose(f);
            if (first == EOF)
                snprintf(why, size, "%s: empty, not a protocol", p->given);
            else
                snprintf(why, size,
                         "%s: not a protocol (neither JSON nor a text protocol, which begins "
                         "with \"mpiprof protocol\")",
                         p->given);
            return -1;
        }
        snprintf(p->read, sizeof p->read, "%s.json", p->given);
        FILE *sibling = fopen(p->read, "r");
        if (!sibling) {
            fclose(f);
            snprintf(why, size,
                     "%s: a text protocol, and its JSON sibling %s cannot be read (%s); "
                     "mpiprof-compare reads the JSON form (write protocols with MPIPROF_FORMAT=both)",
                     p->given, p->read, strerror(errno));
            return -1;
        }
        fclose(sibling);
        char written[256] = "";
        int have_written = text_parameter(f, "Protocol written", written, sizeof written) == 0;
        fclose(f);
        if (!(p->doc = load_json(p->read, why, size)))
            return -1;
        const char *json_written =
            json_string_value(json_object_get(json_object_get(p->doc, "parameters"), "protocol_written"));
        if (have_written && json_written && strcmp(written, json_written) != 0) {
            snprintf(why, size, "%s: its JSON sibling %s is of another run (protocol written %s, the text's %s)",
                     p->given, p->read, json_written, written);
            return -1;
        }
        snprintf(p->note, sizeof p->note, " (the JSON sibling of the text protocol %s)", p->given);
    }
    char detail[1536];
    if (mpp_view_check(p->doc, detail, sizeof detail) != 0) {
        snprintf(why, size, "%s: not a valid mpiprof protocol: %s", p->read, detail);
        return -1;
    }
    return 0;
}

static int parse_tolerance(const char *option, const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || v < 0)
        return bad_input("%s %s: not a number >= 0 (e.g. %s); nothing compared", option, text,
                         !strcmp(option, "--rtol") ? "0.01 for 1%" : "0.002 for 2 ms");
    *out = v;
    return 0;
}

static void print_protocol(const char *side, const protocol_t *p)
{
    json_t *par = json_object_get(p->doc, "parameters");
    long long n = (long long)json_integer_value(json_object_get(par, "processes"));
    printf("%s  %s%s: %s, %lld process%s, collection mode %s, written %s\n", side, p->read, p->note,
           json_string_value(json_object_get(par, "program")), n, n == 1 ? "" : "es",
           json_string_value(json_object_get(par, "collection_mode")),
           json_string_value(json_object_get(par, "protocol_written")));
}

static void print_seconds_share(json_t *c, const char *value, const char *share)
{
    json_t *v = json_object_get(c, value), *s = json_object_get(c, share);
    char text[64];
    if (!json_is_number(v))
        snprintf(text, sizeof text, "n/a");
    else if (json_is_number(s))
        snprintf(text, sizeof text, "%.6f (%.1f%%)", json_number_value(v), 100 * json_number_value(s));
    else
        snprintf(text, sizeof text, "%.6f", json_number_value(v));
    printf("  %-20s", text);
}

static void print_summary(json_t *summary, const char *b)
{
    json_t *in;
    size_t i;
    printf("\nChange from A to %s (seconds; share of the total time)\n", b);
    json_array_foreach(json_object_get(summary, "intervals"), i, in)
    {
        json_t *e = json_object_get(in, "execution_time"), *k = json_object_get(in, "parallelization_efficiency");
        json_t *p = json_object_get(in, "processors"), *speedup = json_object_get(in, "speedup");
        printf("%s\n   execution time %.6f -> %.6f s: speedup ", json_string_value(json_object_get(in, "where")),
               json_number_value(json_array_get(e, 0)), json_number_value(json_array_get(e, 1)));
        if (json_is_number(speedup))
            printf("%.3f", json_number_value(speedup));
        else
            printf("n/a (%s)", json_string_value(json_object_get(in, "speedup_na_reason")));
        json_t *scaling = json_object_get(in, "scaling_efficiency");
        if (scaling)
            printf(" on %lld -> %lld processors: scaling efficiency %s%.3f",
                   (long long)json_number_value(json_array_get(p, 0)),
                   (long long)json_number_value(json_array_get(p, 1)), json_is_number(scaling) ? "" : "n/a ",
                   json_is_number(scaling) ? json_number_value(scaling) : 0.0);
        json_t *change = json_object_get(in, "efficiency_change");
        if (json_is_number(change))
            printf("\n   parallelization efficiency %.4f -> %.4f (%+.4f)\n", json_number_value(json_array_get(k, 0)),
                   json_number_value(json_array_get(k, 1)), json_number_value(change));
        else
            printf("\n   parallelization efficiency n/a\n");
        printf("   %-32s  %-20s  %-20s  %-10s\n", "", "A", b, "change");
        json_t *c;
        size_t j;
        json_array_foreach(json_object_get(in, "components"), j, c)
        {
            int level = (int)json_integer_value(json_object_get(c, "level"));
            printf("   %*s%-*s", 3 * level, "", 32 - 3 * level, json_string_value(json_object_get(c, "label")));
            print_seconds_share(c, "a", "share_a");
            print_seconds_share(c, "b", "share_b");
            json_t *d = json_object_get(c, "change");
            if (json_is_number(d))
                printf("  %+.6f  %s\n", json_number_value(d), json_string_value(json_object_get(c, "trend")));
            else
                printf("  n/a (%s)\n", json_string_value(json_object_get(c, "na_reason")));
        }
    }
}

static json_t *names_json(char **names, int n)
{
    json_t *list = json_array();
    for (int i = 0; list && i < n; i++)
        json_array_append_new(list, json_string(names[i]));
    return list;
}

/* What the command line asks for: the tolerances and names of the
 * comparison, and how it is shown. */
typedef struct {
    mpp_compare_options_t o;
    char **ignore, **include;
    int nignore, ninclude, as_json, brief;
    size_t top;
} request_t;

enum { GO_ON = -1 };

/* The options into `rq`: GO_ON, or the exit status of a bad or --help
 * command line (its message said). */
static int parse_options(int argc, char **argv, request_t *rq)
{
    static const struct option options[] = {{"rtol", required_argument, NULL, 'r'},
                                            {"atol", required_argument, NULL, 'a'},
                                            {"ignore", required_argument, NULL, 'i'},
                                            {"include", required_argument, NULL, 'I'},
                                            {"brief", no_argument, NULL, 'b'},
                                            {"json", no_argument, NULL, 'j'},
                                            {"help", no_argument, NULL, 'h'},
                                            {"top", required_argument, NULL, 't'},
                                            {NULL, 0, NULL, 0}};
    int c;
    rq->o = (mpp_compare_options_t){.rtol = MPP_COMPARE_RTOL, .atol = MPP_COMPARE_ATOL};
    rq->top = 10;
    rq->ignore = calloc((size_t)argc, sizeof *rq->ignore), rq->include = calloc((size_t)argc, sizeof *rq->include);
    if (!rq->ignore || !rq->include)
        return bad_input("out of memory");
    while ((c = getopt_long(argc, argv, "h", options, NULL)) != -1) {
        if (c == 'r' || c == 'a') {
            if (parse_tolerance(c == 'r' ? "--rtol" : "--atol", optarg, c == 'r' ? &rq->o.rtol : &rq->o.atol) != 0)
                return 2;
        } else if (c == 'i' || c == 'I') {
            char *name = mpp_compare_name(optarg);
            if (!name)
                return bad_input("out of memory");
            if (c == 'i')
                rq->ignore[rq->nignore++] = name;
            else
                rq->include[rq->ninclude++] = name;
        } else if (c == 't') {
            char *end;
            long top = strtol(optarg, &end, 10);
            if (end == optarg || *end || top < 0)
                return bad_input("--top %s: not a count >= 0 (e.g. 10); nothing compared", optarg);
            rq->top = (size_t)top;
        } else if (c == 'b') {
            rq->brief = 1;
        } else if (c == 'j') {
            rq->as_json = 1;
        } else {
            fputs(usage, c == 'h' ? stdout : stderr);
            return c == 'h' ? 0 : 2;
        }
    }
    if (argc - optind < 2) {
        fprintf(stderr, "mpiprof-compare: fewer than two protocols given, two or more are compared\n%s", usage);
        return 2;
    }
    return GO_ON;
}

/* The protocols, and the names given checked against them (a name to
 * ignore is one of any of them): 0, or 2 with the message said.  The
 * names go into the comparison's options. */
static int load_inputs(protocol_t *p, int n, request_t *rq)
{
    char why[8192];
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        if (load_protocol(&p[i], why, sizeof why) != 0)
            rc = bad_input("%s", why);
    for (int i = 0; i < rq->nignore && rc == 0; i++) {
        int known = 0;
        for (int k = 1; k < n && !known; k++)
            known = mpp_compare_check_ignore(rq->ignore[i], p[0].doc, p[k].doc, why, sizeof why) == 0;
        if (!known)
            rc = bad_input("--ignore %s: %s", rq->ignore[i], why);
    }
    for (int i = 0; i < rq->ninclude && rc == 0; i++)
        if (mpp_compare_check_include(rq->include[i], why, sizeof why) != 0)
            rc = bad_input("--include %s: %s", rq->include[i], why);
    if (rc != 0)
        return rc;
    rq->o.ignore = (const char *const *)rq->ignore, rq->o.nignore = rq->nignore;
    rq->o.include = (const char *const *)rq->include, rq->o.ninclude = rq->ninclude;
    return 0;
}

/* One comparison: the first protocol against another. */
typedef struct {
    mpp_compare_t result;
    json_t *summary, *findings;
    char side[8]; /* the other's letter: B, C, ... */
} pair_t;

static size_t different(const mpp_compare_t *r) { return r->ndiffs - r->counts[MPP_DIFF_MOVED]; }

/* A comparison as JSON: {"a", "b", "tolerance", ...} as two protocols
 * give it; NULL out of memory. */
static json_t *pair_json(const protocol_t *a, const protocol_t *b, const request_t *rq, const pair_t *pr)
{
    const mpp_compare_t *result = &pr->result;
    json_t *diffs = json_array();
    for (size_t i = 0; diffs && i < result->ndiffs; i++)
        json_array_append_new(diffs, mpp_compare_diff_json(&result->diffs[i]));
    return json_pack(
        "{s:{s:s, s:s}, s:{s:s, s:s}, s:{s:f, s:f}, s:o, s:o, s:b, s:b, s:{s:I, s:I, s:I, s:I}, s:O, s:o, s:O}", "a",
        "given", a->given, "read", a->read, "b", "given", b->given, "read", b->read, "tolerance", "rtol", rq->o.rtol,
        "atol", rq->o.atol, "ignored", names_json(rq->ignore, rq->nignore), "included",
        names_json(rq->include, rq->ninclude), "by_process_compared", !result->by_process_skipped, "equal",
        different(result) == 0, "counts", "parameter", (json_int_t)result->counts[MPP_DIFF_PARAMETER], "structure",
        (json_int_t)result->counts[MPP_DIFF_STRUCTURE], "number", (json_int_t)result->counts[MPP_DIFF_NUMBER],
        "moved", (json_int_t)result->counts[MPP_DIFF_MOVED], "correctness", pr->findings, "differences",
        diffs ? diffs : json_array(), "summary", pr->summary);
}

/* --json: two protocols, their comparison with "title" and "scaling"
 * added; more, {"title", "protocols", "comparisons": [the first with
 * each other], "scaling"}.  0, or 2 when it cannot be made. */
static int print_json(const protocol_t *p, int n, const request_t *rq, const pair_t *pairs, const char *title,
                      json_t *scaling)
{
    json_t *out = NULL;
    if (n == 2) {
        out = pair_json(&p[0], &p[1], rq, &pairs[1]);
    } else {
        json_t *protocols = json_array(), *comparisons = json_array();
        for (int k = 0; protocols && comparisons && k < n; k++) {
            json_array_append_new(protocols, json_pack("{s:s, s:s}", "given", p[k].given, "read", p[k].read));
            if (k)
                json_array_append_new(comparisons, pair_json(&p[0], &p[k], rq, &pairs[k]));
        }
        out = json_pack("{s:o, s:o}", "protocols", protocols ? protocols : json_null(), "comparisons",
                        comparisons ? comparisons : json_null());
    }
    if (out)
        json_object_set_new(out, "title", json_string(title)), json_object_set(out, "scaling", scaling);
    int rc = 0;
    if (!out || json_dumpf(out, stdout, JSON_INDENT(1)) != 0)
        rc = bad_input("out of memory writing the comparison as JSON");
    else
        putchar('\n');
    json_decref(out);
    return rc;
}

static void print_findings_of(const char *side, json_t *s)
{
    if (json_is_null(s)) {
        printf("%s not recorded", side);
        return;
    }
    printf("%s MPIPROF_CHECK=%s", side, json_string_value(json_object_get(s, "level")));
    json_t *errors = json_object_get(s, "errors"), *warnings = json_object_get(s, "warnings");
    if (!json_is_integer(errors)) {
        printf(" (no check ran)");
        return;
    }
    long long e = (long long)json_integer_value(errors), w = (long long)json_integer_value(warnings);
    long long n = (long long)json_integer_value(json_object_get(s, "findings"));
    printf(", %lld error%s, %lld warning%s in %lld finding%s", e, e == 1 ? "" : "s", w, w == 1 ? "" : "s", n,
           n == 1 ? "" : "s");
}

/* One line of both Correctness sections, and why their findings were not
 * compared when they were not. */
static void print_correctness(json_t *findings, const char *b)
{
    char side[16];
    snprintf(side, sizeof side, "; %s", b);
    printf("Correctness: ");
    print_findings_of("A", json_object_get(findings, "a"));
    print_findings_of(side, json_object_get(findings, "b"));
    json_t *why = json_object_get(findings, "not_compared");
    if (why)
        printf("; findings not compared: %s", json_string_value(why));
    putchar('\n');
}

/* What moved in the source: matched, at other lines. */
static void print_moved(const mpp_compare_t *result)
{
    if (!result->counts[MPP_DIFF_MOVED])
        return;
    printf("\nMoved in the source (matched by name and place, at other lines): %zu\n",
           result->counts[MPP_DIFF_MOVED]);
    for (size_t i = 0; i < result->ndiffs; i++) {
        const mpp_diff_t *d = &result->diffs[i];
        if (d->kind == MPP_DIFF_MOVED)
            printf("%s: %s%s%s%s\n", d->where, d->src ? "SRC " : "", d->src ? d->src : "", d->src ? ": " : "",
                   d->message);
    }
}

/* The comparison of the first protocol with another as text: the
 * tolerance, what was left out, both Correctness sections, the change
 * (unless --brief), what moved, the differences and the verdict. */
static void print_text(const protocol_t *a, const protocol_t *b, const request_t *rq, const pair_t *pr, int n)
{
    const mpp_compare_t *result = &pr->result;
    if (n > 2)
        printf("\n==== A against %s (%s)%s%s ====\n", pr->side, b->read,
               strcmp(pr->side, "B") ? ": in the differences below, B is " : "",
               strcmp(pr->side, "B") ? pr->side : "");
    printf("Tolerance: |a - b| > %g s + %g x max(|a|, |b|); counts must be equal\n", rq->o.atol, rq->o.rtol);
    if (rq->nignore) {
        printf("Not compared (--ignore):");
        for (int i = 0; i < rq->nignore; i++)
            printf(" %s", rq->ignore[i]);
        putchar('\n');
    }
    if (result->by_process_skipped)
        printf("Per-process values not compared: the runs had %lld and %lld processes\n",
               (long long)json_integer_value(json_object_get(json_object_get(a->doc, "parameters"), "processes")),
               (long long)json_integer_value(json_object_get(json_object_get(b->doc, "parameters"), "processes")));
    print_correctness(pr->findings, pr->side);
    if (!rq->brief)
        print_summary(pr->summary, pr->side);
    print_moved(result);
    if (different(result))
        printf("\nDifferences\n");
    for (size_t i = 0; i < result->ndiffs; i++) {
        const mpp_diff_t *d = &result->diffs[i];
        if (d->kind == MPP_DIFF_MOVED)
            continue;
        if (!strcmp(d->where, "parameters")) {
            printf("%s: %s\n", d->name ? d->name : d->where, d->message);
            continue;
        }
        /* a finding is at an SRC point, named by its kind and call site */
        const char *what = !strcmp(d->where, "correctness") ? "finding " : "SRC ";
        printf("%s: %s%s%s%s%s%s\n", d->where, d->src ? what : "", d->src ? d->src : "", d->src ? ": " : "",
               d->name ? d->name : "", d->name ? ": " : "", d->message);
    }
    const char *of = n > 2 ? pr->side : "";
    if (different(result) == 0)
        printf("\nmpiprof-compare%s%s: equal within the tolerance%s\n", *of ? " A, " : "", of,
               result->counts[MPP_DIFF_MOVED] ? " (some moved in the source)" : "");
    else
        printf("\nmpiprof-compare%s%s: different: %zu in Parameters, %zu of structure, %zu numbers beyond the "
               "tolerance\n",
               *of ? " A, " : "", of, result->counts[MPP_DIFF_PARAMETER], result->counts[MPP_DIFF_STRUCTURE],
               result->counts[MPP_DIFF_NUMBER]);
}

/* The title: the program, and each run's process count and date
 * ("./jacobi 256 200: P = 1 (2026-11-29T09:00:01), P = 2 (...)"); a
 * program that differs is named at its run.  Allocated, or NULL. */
static char *title_of(const protocol_t *p, int n)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return NULL;
    const char *first = json_string_value(json_object_get(json_object_get(p[0].doc, "parameters"), "program"));
    fprintf(f, "%s:", first ? first : "?");
    for (int k = 0; k < n; k++) {
        json_t *par = json_object_get(p[k].doc, "parameters");
        const char *program = json_string_value(json_object_get(par, "program"));
        fprintf(f, "%s P = %lld (%s%s%s)", k ? "," : "",
                (long long)json_integer_value(json_object_get(par, "processes")),
                json_string_value(json_object_get(par, "started")),
                program && first && strcmp(program, first) ? ", " : "",
                program && first && strcmp(program, first) ? program : "");
    }
    fclose(f);
    return out;
}

/* Every protocol after the first compared with it, and their matches for
 * the scaling study; 0, or -1 out of memory. */
static int compare_all(const protocol_t *p, int n, const request_t *rq, pair_t *pairs, mpp_match_t *matches)
{
    for (int k = 1; k < n; k++) {
        pair_t *pr = &pairs[k];
        snprintf(pr->side, sizeof pr->side, k < 26 ? "%c" : "#%d", k < 26 ? 'A' + k : k + 1);
        if (mpp_compare(p[0].doc, p[k].doc, &rq->o, &pr->result) != 0 ||
            !(pr->summary = mpp_compare_summary(p[0].doc, p[k].doc, &pr->result, &rq->o)) ||
            !(pr->findings = mpp_compare_findings_summary(p[0].doc, p[k].doc, &rq->o)) ||
            mpp_match(p[0].doc, p[k].doc, &matches[k]) != 0)
            return -1;
    }
    return 0;
}

/* The whole output as text: title, protocols, the scaling study (when
 * they differ in P), then each comparison. */
static void print_all(const protocol_t *p, int n, const request_t *rq, const pair_t *pairs, const char *title,
                      json_t *scaling)
{
    printf("mpiprof-compare: %s\n", title);
    for (int k = 0; k < n; k++) {
        char side[8];
        snprintf(side, sizeof side, k < 26 ? "%c" : "#%d", k < 26 ? 'A' + k : k + 1);
        print_protocol(side, &p[k]);
    }
    if (!json_object_get(scaling, "na_reason") || n > 2)
        mpp_scaling_print(stdout, scaling, rq->top);
    for (int k = 1; k < n; k++)
        print_text(&p[0], &p[k], rq, &pairs[k], n);
}

int main(int argc, char **argv)
{
    request_t rq = {0};
    int rc = parse_options(argc, argv, &rq);
    if (rc != GO_ON)
        return rc;
    int n = argc - optind;
    protocol_t *p = calloc((size_t)n, sizeof *p);
    pair_t *pairs = calloc((size_t)n, sizeof *pairs);
    mpp_match_t *matches = calloc((size_t)n, sizeof *matches);
    const char **labels = calloc((size_t)n, sizeof *labels);
    json_t *scaling = NULL;
    char *title = NULL;
    if (!p || !pairs || !matches || !labels) {
        rc = bad_input("out of memory");
        goto done;
    }
    for (int k = 0; k < n; k++)
        p[k].given = argv[optind + k], labels[k] = p[k].read;
    rc = load_inputs(p, n, &rq);
    if (rc != 0)
        goto done;
    json_t **docs = calloc((size_t)n, sizeof *docs);
    for (int k = 0; docs && k < n; k++)
        docs[k] = p[k].doc;
    if (!docs || compare_all(p, n, &rq, pairs, matches) != 0 ||
        !(scaling = mpp_scaling(docs, labels, (size_t)n, matches)) || !(title = title_of(p, n))) {
        free(docs);
        rc = bad_input("out of memory comparing %d protocols", n);
        goto done;
    }
    free(docs);
    rc = 0;
    for (int k = 1; k < n; k++)
        rc = different(&pairs[k].result) ? 1 : rc;
    if (rq.as_json) {
        if (print_json(p, n, &rq, pairs, title, scaling) != 0)
            rc = 2;
    } else {
        print_all(p, n, &rq, pairs, title, scaling);
    }
done:
    for (int k = 0; p && pairs && matches && k < n; k++) {
        json_decref(pairs[k].summary), json_decref(pairs[k].findings);
        mpp_compare_free(&pairs[k].result);
        mpp_match_free(&matches[k]);
        json_decref(p[k].doc);
    }
    free(p), free(pairs), free(matches), free(labels), free(title);
    json_decref(scaling);
    for (int i = 0; i < rq.nignore; i++)
        free(rq.ignore[i]);
    for (int i = 0; i < rq.ninclude; i++)
        free(rq.include[i]);
    free(rq.ignore), free(rq.include);
    return rc;
}
