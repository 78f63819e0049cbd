/* mpiprof-compare: two protocols compared interval by interval and SRC
 * point by SRC point (mpiprof-compare(1)): what is in one and not the
 * other, counts that differ, every number beyond the tolerance, the
 * correctness findings, and what changed from A to B (speedup,
 * efficiency, each part of Lost time).
 * Exit 0 when equal, 1 when different, 2 on bad input.  Protocols are read
 * in their JSON form, checked as mpiprof-view checks them; a text protocol
 * is read through its JSON sibling, a directory for the one protocol it
 * holds (protocol_input.h) (the text rounds every number and
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

#include "cli.h"
#include "compare/compare.h"
#include "protocol_input.h"
#include "write/view.h"

static const char usage[] =
    "usage: mpiprof-compare [--rtol R] [--atol A] [--ignore NAME]... [--include NAME]... [--brief] [--json] A B\n"
    "       mpiprof-compare --help | --version\n"
    "  A, B            protocols: JSON, text with their JSON sibling (MPIPROF_FORMAT=both),\n"
    "                  or directories that hold one each\n"
    "  --rtol R        relative tolerance of times and numbers (default 0.01)\n"
    "  --atol A        absolute tolerance in seconds (default 0.002): a number differs when\n"
    "                  |a - b| > A + R * max(|a|, |b|)\n"
    "  --ignore NAME   do not compare members named NAME (a characteristic, a Parameters field,\n"
    "                  an MPIPROF_* variable, line: match intervals and frames without lines)\n"
    "  --include NAME  compare a Parameters field that differs between runs by design\n"
    "  --brief         the differences alone, without the change from A to B\n"
    "  --json          the comparison as JSON on standard output\n"
    "  -h, --help      this usage;  --version  mpiprof's version\n"
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
    mpp_protocol_input_t in;
    if (mpp_protocol_input(p->given, &in, why, size) != 0)
        return -1;
    snprintf(p->read, sizeof p->read, "%s", in.json);
    snprintf(p->note, sizeof p->note, "%s", in.note);
    if (!(p->doc = load_json(p->read, why, size)))
        return -1;
    if (in.text[0]) {
        /* the sibling of another run's text: the JSON would compare a run the text does not show */
        char written[256] = "";
        FILE *f = fopen(in.text, "r");
        int have_written = f && text_parameter(f, "Protocol written", written, sizeof written) == 0;
        if (f)
            fclose(f);
        const char *json_written =
            json_string_value(json_object_get(json_object_get(p->doc, "parameters"), "protocol_written"));
        if (have_written && json_written && strcmp(written, json_written) != 0) {
            snprintf(why, size, "%s: its JSON sibling %s is of another run (protocol written %s, the text's %s)",
                     in.text, p->read, json_written, written);
            return -1;
        }
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

static void print_summary(json_t *summary)
{
    json_t *in;
    size_t i;
    printf("\nChange from A to B (seconds; share of the total time)\n");
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
        printf("   %-32s  %-20s  %-20s  %-10s\n", "", "A", "B", "change");
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
                                            {NULL, 0, NULL, 0}};
    const mpp_cli_t cli = {"mpiprof-compare", usage, "", options, 0};
    int c, rc;
    rq->o = (mpp_compare_options_t){.rtol = MPP_COMPARE_RTOL, .atol = MPP_COMPARE_ATOL};
    rq->ignore = calloc((size_t)argc, sizeof *rq->ignore), rq->include = calloc((size_t)argc, sizeof *rq->include);
    if (!rq->ignore || !rq->include)
        return bad_input("out of memory");
    while ((c = mpp_cli_next(&cli, argc, argv, &rc)) != -1) {
        if (c == MPP_CLI_EXIT) {
            return rc;
        } else if (c == 'r' || c == 'a') {
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
        } else if (c == 'b') {
            rq->brief = 1;
        } else if (c == 'j') {
            rq->as_json = 1;
        }
    }
    if (argc - optind != 2)
        return mpp_cli_error(&cli, "%s protocols given, two are compared",
                             argc - optind < 2 ? "fewer than two" : "more than two");
    return GO_ON;
}

/* Both protocols, and the names given checked against them: 0, or 2 with
 * the message said.  The names go into the comparison's options. */
static int load_inputs(protocol_t p[2], request_t *rq)
{
    char why[8192];
    int rc = 0;
    for (int i = 0; i < 2 && rc == 0; i++)
        if (load_protocol(&p[i], why, sizeof why) != 0)
            rc = bad_input("%s", why);
    for (int i = 0; i < rq->nignore && rc == 0; i++)
        if (mpp_compare_check_ignore(rq->ignore[i], p[0].doc, p[1].doc, why, sizeof why) != 0)
            rc = bad_input("--ignore %s: %s", rq->ignore[i], why);
    for (int i = 0; i < rq->ninclude && rc == 0; i++)
        if (mpp_compare_check_include(rq->include[i], why, sizeof why) != 0)
            rc = bad_input("--include %s: %s", rq->include[i], why);
    if (rc != 0)
        return rc;
    rq->o.ignore = (const char *const *)rq->ignore, rq->o.nignore = rq->nignore;
    rq->o.include = (const char *const *)rq->include, rq->o.ninclude = rq->ninclude;
    return 0;
}

/* --json: the comparison as one document; 0, or 2 when it cannot be made. */
static int print_json(const protocol_t p[2], const request_t *rq, const mpp_compare_t *result, json_t *summary,
                      json_t *findings)
{
    json_t *diffs = json_array();
    for (size_t i = 0; diffs && i < result->ndiffs; i++)
        json_array_append_new(diffs, mpp_compare_diff_json(&result->diffs[i]));
    json_t *out = json_pack(
        "{s:{s:s, s:s}, s:{s:s, s:s}, s:{s:f, s:f}, s:o, s:o, s:b, s:b, s:{s:I, s:I, s:I}, s:O, s:o, s:O}", "a",
        "given", p[0].given, "read", p[0].read, "b", "given", p[1].given, "read", p[1].read, "tolerance", "rtol",
        rq->o.rtol, "atol", rq->o.atol, "ignored", names_json(rq->ignore, rq->nignore), "included",
        names_json(rq->include, rq->ninclude), "by_process_compared", !result->by_process_skipped, "equal",
        result->ndiffs == 0, "counts", "parameter", (json_int_t)result->counts[MPP_DIFF_PARAMETER], "structure",
        (json_int_t)result->counts[MPP_DIFF_STRUCTURE], "number", (json_int_t)result->counts[MPP_DIFF_NUMBER],
        "correctness", findings, "differences", diffs ? diffs : json_array(), "summary", summary);
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
static void print_correctness(json_t *findings)
{
    printf("Correctness: ");
    print_findings_of("A", json_object_get(findings, "a"));
    print_findings_of("; B", json_object_get(findings, "b"));
    json_t *why = json_object_get(findings, "not_compared");
    if (why)
        printf("; findings not compared: %s", json_string_value(why));
    putchar('\n');
}

/* The comparison as text: the protocols, the tolerance, what was left out,
 * both Correctness sections, the change from A to B (unless --brief), the
 * differences and the verdict. */
static void print_text(const protocol_t p[2], const request_t *rq, const mpp_compare_t *result, json_t *summary,
                       json_t *findings)
{
    print_protocol("A", &p[0]);
    print_protocol("B", &p[1]);
    printf("Tolerance: |a - b| > %g s + %g x max(|a|, |b|); counts must be equal\n", rq->o.atol, rq->o.rtol);
    if (rq->nignore) {
        printf("Not compared (--ignore):");
        for (int i = 0; i < rq->nignore; i++)
            printf(" %s", rq->ignore[i]);
        putchar('\n');
    }
    if (result->by_process_skipped)
        printf("Per-process values not compared: the runs had %lld and %lld processes\n",
               (long long)json_integer_value(json_object_get(json_object_get(p[0].doc, "parameters"), "processes")),
               (long long)json_integer_value(json_object_get(json_object_get(p[1].doc, "parameters"), "processes")));
    print_correctness(findings);
    if (!rq->brief)
        print_summary(summary);
    if (result->ndiffs)
        printf("\nDifferences\n");
    for (size_t i = 0; i < result->ndiffs; i++) {
        const mpp_diff_t *d = &result->diffs[i];
        if (!strcmp(d->where, "parameters")) {
            printf("%s: %s\n", d->name ? d->name : d->where, d->message);
            continue;
        }
        /* a finding is at an SRC point, named by its kind and call site */
        const char *what = !strcmp(d->where, "correctness") ? "finding " : "SRC ";
        printf("%s: %s%s%s%s%s%s\n", d->where, d->src ? what : "", d->src ? d->src : "", d->src ? ": " : "",
               d->name ? d->name : "", d->name ? ": " : "", d->message);
    }
    if (result->ndiffs == 0)
        printf("\nmpiprof-compare: equal within the tolerance\n");
    else
        printf(
            "\nmpiprof-compare: different: %zu in Parameters, %zu of structure, %zu numbers beyond the tolerance\n",
            result->counts[MPP_DIFF_PARAMETER], result->counts[MPP_DIFF_STRUCTURE], result->counts[MPP_DIFF_NUMBER]);
}

int main(int argc, char **argv)
{
    request_t rq = {0};
    int rc = parse_options(argc, argv, &rq);
    if (rc != GO_ON)
        return rc;
    protocol_t p[2] = {{.given = argv[optind]}, {.given = argv[optind + 1]}};
    mpp_compare_t result = {0};
    json_t *summary = NULL, *findings = NULL;
    rc = load_inputs(p, &rq);
    if (rc != 0)
        goto done;
    if (mpp_compare(p[0].doc, p[1].doc, &rq.o, &result) != 0 ||
        !(summary = mpp_compare_summary(p[0].doc, p[1].doc, &result, &rq.o)) ||
        !(findings = mpp_compare_findings_summary(p[0].doc, p[1].doc, &rq.o))) {
        rc = bad_input("out of memory comparing %s and %s", p[0].read, p[1].read);
        goto done;
    }
    rc = result.ndiffs == 0 ? 0 : 1;
    if (rq.as_json) {
        if (print_json(p, &rq, &result, summary, findings) != 0)
            rc = 2;
    } else {
        print_text(p, &rq, &result, summary, findings);
    }
done:
    json_decref(summary), json_decref(findings);
    mpp_compare_free(&result);
    json_decref(p[0].doc), json_decref(p[1].doc);
    for (int i = 0; i < rq.nignore; i++)
        free(rq.ignore[i]);
    for (int i = 0; i < rq.ninclude; i++)
        free(rq.include[i]);
    free(rq.ignore), free(rq.include);
    return rc;
}
