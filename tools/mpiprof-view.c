/* mpiprof-view: the dialog view of one JSON protocol, or of several (the
 * first and another side by side, and at different process counts a
 * scaling study), as one self-contained HTML page (mpiprof-view(1)).  The
 * page is written by the same code as MPIPROF_FORMAT's html at
 * MPI_Finalize (src/write/view.c); with several protocols, the matching
 * of their intervals and SRC points and the scaling study are those of
 * mpiprof-compare (src/compare/), carried in the page's data.  A file that
 * is not a protocol, or a protocol that lacks what the page needs, is
 * refused with one message and exit 1. */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "autoconf.h"
#include "compare/match.h"
#include "compare/scaling.h"
#include "replay/links.h" /* rp_links only where libotf2 is (MPIPROF_HAVE_OTF2) */
#include "write/view.h"

static const char usage[] =
    "usage: mpiprof-view [-o REPORT.html] [--source DIR] [--trace ARCHIVE | --no-trace] [--events N]\n"
    "                    PROTOCOL.json [PROTOCOL2.json ...]\n"
    "  PROTOCOL.json  a JSON protocol (MPIPROF_FORMAT=json, both or all)\n"
    "  PROTOCOL2.json more: the first and another side by side with their differences,\n"
    "                 and at different process counts a scaling study\n"
    "  -o, --output   the page (default: PROTOCOL.json's path with .json replaced by .html)\n"
    "  -s, --source   where the program's sources are (default: the paths of the debugging\n"
    "                 information, relative ones from the run's working directory)\n"
    "  -t, --trace    the OTF2 trace of PROTOCOL.json's run (its traces.otf2 or directory):\n"
    "                 SRC points link to their calls (default: the trace beside the protocol)\n"
    "  --no-trace     no trace links, even with a trace beside the protocol\n"
    "  -n, --events   calls per SRC point and process the page carries (default 100)\n";

/* Where the trace links come from (mpiprof-view(1), TRACE LINKS). */
typedef struct {
    const char *trace; /* --trace */
    int no_trace;
    long events;
} trace_options_t;

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* A protocol's name on the page: its file name without .json, as the
 * writer at MPI_Finalize names it (the protocol's path). */
static void label_of(const char *path, char *out, size_t size)
{
    const char *slash = strrchr(path, '/');
    snprintf(out, size, "%s", slash ? slash + 1 : path);
    if (ends_with(out, ".json") && strlen(out) > 5)
        out[strlen(out) - 5] = '\0';
}

/* The document of `path`, or NULL with why in `why`. */
static json_t *load(const char *path, char *why, size_t size)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    int first = fgetc(f);
    while (first == ' ' || first == '\n' || first == '\r' || first == '\t')
        first = fgetc(f);
    if (first != '{') {
        /* a text protocol begins with its Parameters, not with '{' */
        char line[64] = "";
        rewind(f);
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
        if (first == EOF)
            snprintf(why, size, "%s: empty, not a JSON protocol", path);
        else if (strstr(line, "Parameters") || strstr(line, "mpiprof"))
            snprintf(why, size,
                     "%s: a text protocol, not a JSON one; give its .json sibling "
                     "(written with MPIPROF_FORMAT=json, both or all)",
                     path);
        else
            snprintf(why, size, "%s: not a JSON protocol (it does not begin with '{')", path);
        return NULL;
    }
    rewind(f);
    json_error_t error;
    json_t *doc = json_loadf(f, JSON_REJECT_DUPLICATES, &error);
    fclose(f);
    if (!doc)
        snprintf(why, size, "%s: not valid JSON: %s (line %d, column %d)", path, error.text, error.line,
                 error.column);
    return doc;
}

enum { GO_ON = -1 };

/* --trace and --events: GO_ON, or 2 with the message said. */
static int trace_option(int c, const char *arg, trace_options_t *trace)
{
    if (c == 't') {
#if MPIPROF_HAVE_OTF2
        trace->trace = arg;
#else
        fprintf(stderr,
                "mpiprof-view: --trace %s: this mpiprof-view was built without libotf2 (configure "
                "--with-otf2) and cannot read traces; no page written (without --trace it has no trace links)\n",
                arg);
        return 2;
#endif
    } else if (c == 'T') {
        trace->no_trace = 1;
    } else {
        char *end;
        trace->events = strtol(arg, &end, 10);
        if (end == arg || *end || trace->events < 1 || trace->events > RP_LINKS_EVENTS_MAX) {
            fprintf(stderr, "mpiprof-view: --events %s: not a number of calls from 1 to %d\n", arg,
                    RP_LINKS_EVENTS_MAX);
            return 2;
        }
    }
    return GO_ON;
}

/* -o, --source and the trace's options: GO_ON, or the exit status of a bad
 * or --help command line (its message said). */
static int parse_options(int argc, char **argv, const char **output, mpp_view_options_t *view, trace_options_t *trace)
{
    static const struct option options[] = {{"output", required_argument, NULL, 'o'},
                                            {"source", required_argument, NULL, 's'},
                                            {"trace", required_argument, NULL, 't'},
                                            {"no-trace", no_argument, NULL, 'T'},
                                            {"events", required_argument, NULL, 'n'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    int c, rc = GO_ON;
    while (rc == GO_ON && (c = getopt_long(argc, argv, "o:s:t:n:h", options, NULL)) != -1) {
        if (c == 'o') {
            *output = optarg;
        } else if (c == 's') {
            struct stat st;
            int found = stat(optarg, &st) == 0;
            if (!found || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "mpiprof-view: --source %s: %s (a directory of sources is required)\n", optarg,
                        found ? "not a directory" : strerror(errno));
                return 2;
            }
            view->source_dir = optarg;
        } else if (c == 't' || c == 'T' || c == 'n') {
            rc = trace_option(c, optarg, trace);
        } else {
            fputs(usage, c == 'h' ? stdout : stderr);
            return c == 'h' ? 0 : 2;
        }
    }
    if (rc != GO_ON)
        return rc;
    if (trace->trace && trace->no_trace) {
        fprintf(stderr, "mpiprof-view: --trace and --no-trace: give one of them\n");
        return 2;
    }
    if (argc - optind < 1) {
        fprintf(stderr, "mpiprof-view: no protocol given\n%s", usage);
        return 2;
    }
    return GO_ON;
}

/* The anchor file of the trace beside the JSON protocol `doc` read from
 * `json_path`: the archive its Trace parameter names (parameters.trace.path),
 * else PROTOCOL.otf2/traces.otf2 beside it (mpiprof-trace(5), FILES), if
 * one of them exists; 0 and the path in `out`, or -1 (none). */
static int trace_beside(json_t *doc, const char *json_path, char *out, size_t size)
{
    struct stat st;
    const char *named =
        json_string_value(json_object_get(json_object_get(json_object_get(doc, "parameters"), "trace"), "path"));
    if (named) {
        snprintf(out, size, "%s/traces.otf2", named);
        if (stat(out, &st) == 0 && S_ISREG(st.st_mode))
            return 0;
    }
    size_t n = strlen(json_path);
    if (n > 5 && !strcmp(json_path + n - 5, ".json"))
        n -= 5;
    snprintf(out, size, "%.*s.otf2/traces.otf2", (int)n, json_path);
    return stat(out, &st) == 0 && S_ISREG(st.st_mode) ? 0 : -1;
}

/* The trace links of the first protocol (docs[0], read from `path`) into
 * view->traces[0]: from --trace (a trace that cannot be used is an error:
 * -1, said), else from the trace beside it (one that cannot be used is
 * said, and the page has no links); 0. */
static int load_trace(json_t *doc, const char *path, const trace_options_t *trace, mpp_view_options_t *view)
{
    char beside[PATH_MAX];
    if (trace->no_trace || (!trace->trace && trace_beside(doc, path, beside, sizeof beside) != 0))
        return 0;
#if MPIPROF_HAVE_OTF2
    char why[2 * PATH_MAX];
    int rc =
        rp_links(doc, trace->trace ? trace->trace : beside, (size_t)trace->events, &view->traces[0], why, sizeof why);
    if (rc == RP_LINKS_OK) {
        printf("mpiprof-view: trace links from %s\n", json_string_value(json_object_get(view->traces[0], "archive")));
        return 0;
    }
    if (trace->trace) {
        fprintf(stderr, "mpiprof-view: --trace %s: %s%s; no page written\n", trace->trace,
                rc == RP_LINKS_OTHER_RUN ? "not the trace of this protocol's run: " : "", why);
        return -1;
    }
    fprintf(stderr, "mpiprof-view: the trace beside %s is not used (%s): the page has no trace links\n", path, why);
#else
    (void)view;
    fprintf(stderr,
            "mpiprof-view: %s: a trace is beside the protocol, but this mpiprof-view was built without libotf2 "
            "(configure --with-otf2): the page has no trace links\n",
            beside);
#endif
    return 0;
}

/* The `n` protocols at `paths` into docs, each checked to have what the
 * page needs, and their names on the page; 0, or -1 with the message said
 * and nothing kept. */
static int load_protocols(char **paths, int n, json_t **docs, char (*labels)[PATH_MAX], const char **names)
{
    char why[2 * PATH_MAX + 256];
    for (int i = 0; i < n; i++) {
        docs[i] = load(paths[i], why, sizeof why);
        if (!docs[i]) {
            fprintf(stderr, "mpiprof-view: %s\n", why);
            for (int k = 0; k < i; k++)
                json_decref(docs[k]);
            return -1;
        }
        label_of(paths[i], labels[i], sizeof labels[i]);
        names[i] = labels[i];
    }
    /* checked before the file is made: a refused protocol leaves no page */
    for (int i = 0; i < n; i++) {
        char detail[1536];
        if (mpp_view_check(docs[i], detail, sizeof detail) != 0) {
            fprintf(stderr, "mpiprof-view: %s: not a valid mpiprof protocol: %s\n", paths[i], detail);
            for (int k = 0; k < n; k++)
                json_decref(docs[k]);
            return -1;
        }
    }
    return 0;
}

/* The page into a temporary file renamed to `path` once whole (a failed
 * write leaves no half page); 0, or -1 with why. */
static int write_page(const char *path, json_t **docs, const char **names, int n, const mpp_view_options_t *view,
                      char *why, size_t size)
{
    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *out = fopen(tmp, "w");
    if (!out) {
        snprintf(why, size, "cannot create %s: %s", tmp, strerror(errno));
        return -1;
    }
    int rc = mpp_view_write(out, docs, names, n, view, why, size);
    if (fclose(out) != 0 && rc == 0) {
        snprintf(why, size, "writing %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        snprintf(why, size, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        unlink(tmp);
    return rc;
}

/* With several protocols, what the page adds to their data: "matches",
 * the first protocol's intervals and SRC points matched in each other
 * (null for the first), and "scaling", the study of mpiprof-compare.
 * NULL: out of memory. */
static json_t *comparison_of(json_t **docs, const char **names, int n)
{
    mpp_match_t *matches = calloc((size_t)n, sizeof *matches);
    json_t *list = json_array(), *out = NULL;
    int rc = matches && list ? json_array_append_new(list, json_null()) : -1;
    for (int k = 1; rc == 0 && k < n; k++)
        rc = mpp_match(docs[0], docs[k], &matches[k]) == 0 ? json_array_append_new(list, mpp_match_json(&matches[k]))
                                                           : -1;
    json_t *scaling = rc == 0 ? mpp_scaling(docs, names, (size_t)n, matches) : NULL;
    if (scaling)
        out = json_pack("{s:O, s:o}", "matches", list, "scaling", scaling);
    for (int k = 0; matches && k < n; k++)
        mpp_match_free(&matches[k]);
    free(matches);
    json_decref(list);
    return out;
}

int main(int argc, char **argv)
{
    const char *output = NULL;
    mpp_view_options_t view = {.source_dir = NULL};
    trace_options_t trace = {.trace = NULL, .no_trace = 0, .events = RP_LINKS_EVENTS};
    int rc = parse_options(argc, argv, &output, &view, &trace);
    if (rc != GO_ON)
        return rc;
    int n = argc - optind;
    json_t **docs = calloc((size_t)n, sizeof *docs);
    char(*labels)[PATH_MAX] = calloc((size_t)n, sizeof *labels);
    const char **names = calloc((size_t)n, sizeof *names);
    char why[2 * PATH_MAX + 256];
    char path[PATH_MAX + 8];
    if (!docs || !labels || !names) {
        fprintf(stderr, "mpiprof-view: out of memory for %d protocols\n", n);
        return 1;
    }
    if (output) {
        snprintf(path, sizeof path, "%s", output);
    } else {
        snprintf(path, sizeof path, "%s", argv[optind]);
        if (ends_with(path, ".json"))
            path[strlen(path) - 5] = '\0';
        strcat(path, ".html");
    }
    if (load_protocols(argv + optind, n, docs, labels, names) != 0)
        return 1;
    if (load_trace(docs[0], argv[optind], &trace, &view) != 0) {
        for (int k = 0; k < n; k++)
            json_decref(docs[k]);
        free(docs), free(labels), free(names);
        return 1;
    }
    if (n > 1 && !(view.extra = comparison_of(docs, names, n))) {
        snprintf(why, sizeof why, "out of memory comparing %d protocols", n);
        rc = -1;
    } else {
        rc = write_page(path, docs, names, n, &view, why, sizeof why);
    }
    for (int k = 0; k < n; k++)
        json_decref(docs[k]);
    json_decref(view.extra), json_decref(view.traces[0]);
    free(docs), free(labels), free(names);
    if (rc != 0) {
        fprintf(stderr, "mpiprof-view: %s\n", why);
        return 1;
    }
    printf("mpiprof-view: page written to %s\n", path);
    return 0;
}
