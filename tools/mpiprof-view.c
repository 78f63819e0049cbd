/* mpiprof-view: the dialog view of one protocol, or of two side by side,
 * as one self-contained HTML page (mpiprof-view(1)).  A protocol is read in
 * its JSON form (a text protocol through its JSON sibling, a directory for
 * the one protocol it holds: protocol_input.h).  The page is written by the
 * same code as MPIPROF_FORMAT's html at MPI_Finalize (src/write/view.c); a
 * file that is not a protocol, or a protocol that lacks what the page
 * needs, is refused with one message and exit 1.  --list-vars lists the
 * MPIPROF_* variables (list_vars.h). */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "list_vars.h"
#include "protocol_input.h"
#include "write/view.h"

static const char usage[] =
    "usage: mpiprof-view [-o REPORT.html] [--source DIR] PROTOCOL [PROTOCOL2]\n"
    "       mpiprof-view --list-vars | --help | --version\n"
    "  PROTOCOL       a protocol: JSON, text with its JSON sibling (MPIPROF_FORMAT=both, json or all),\n"
    "                 or a directory that holds one\n"
    "  PROTOCOL2      a second one: both side by side with their differences\n"
    "  -o, --output   the page (default: the JSON protocol's path with .json replaced by .html)\n"
    "  -s, --source   where the program's sources are (default: the paths of the debugging\n"
    "                 information, relative ones from the run's working directory)\n"
    "  --list-vars    every MPIPROF_* variable: its default, its value here and what it does\n"
    "  -h, --help     this usage;  --version  mpiprof's version\n";

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
    snprintf(out, size, "%.255s", slash ? slash + 1 : path); /* a file name: NAME_MAX at most */
    if (ends_with(out, ".json") && strlen(out) > 5)
        out[strlen(out) - 5] = '\0';
}

/* The document of the JSON protocol `in` names, or NULL with why. */
static json_t *load(const char *given, const mpp_protocol_input_t *in, char *why, size_t size)
{
    json_error_t error;
    json_t *doc = json_load_file(in->json, JSON_REJECT_DUPLICATES, &error);
    if (!doc)
        snprintf(why, size, "%.4200s%.4400s: not valid JSON: %.160s (line %d, column %d)", in->json,
                 strcmp(given, in->json) ? in->note : "", error.text, error.line, error.column);
    return doc;
}

enum { GO_ON = -1 };

static const struct option options[] = {{"output", required_argument, NULL, 'o'},
                                        {"source", required_argument, NULL, 's'},
                                        {"list-vars", no_argument, NULL, 'L'},
                                        {NULL, 0, NULL, 0}};
static const mpp_cli_t cli = {"mpiprof-view", usage, "o:s:", options, 0};

/* -o and --source: GO_ON, or the exit status of a bad, --help, --version
 * or --list-vars command line (its message said). */
static int parse_options(int argc, char **argv, const char **output, mpp_view_options_t *view)
{
    int c, rc;
    while ((c = mpp_cli_next(&cli, argc, argv, &rc)) != -1) {
        if (c == MPP_CLI_EXIT)
            return rc;
        if (c == 'o') {
            *output = optarg;
        } else if (c == 'L') {
            return mpp_list_vars(stdout) == 0 ? 0 : 1;
        } else if (c == 's') {
            struct stat st;
            int found = stat(optarg, &st) == 0;
            if (!found || !S_ISDIR(st.st_mode))
                return mpp_cli_error(&cli, "--source %s: %s (a directory of sources is required)", optarg,
                                     found ? "not a directory" : strerror(errno));
            view->source_dir = optarg;
        }
    }
    int n = argc - optind;
    if (n < 1 || n > 2)
        return mpp_cli_error(&cli, "%s", n < 1 ? "no protocol given" : "at most two protocols");
    return GO_ON;
}

/* The `n` protocols at `paths` into docs, each checked to have what the
 * page needs, and their names on the page; 0, or -1 with the message said
 * and nothing kept. */
static int load_protocols(char **paths, int n, mpp_protocol_input_t in[2], json_t *docs[2], char labels[2][PATH_MAX],
                          const char *names[2])
{
    char why[3 * PATH_MAX + 256];
    for (int i = 0; i < n; i++) {
        if (mpp_protocol_input(paths[i], &in[i], why, sizeof why) == 0)
            docs[i] = load(paths[i], &in[i], why, sizeof why);
        if (!docs[i]) {
            fprintf(stderr, "mpiprof-view: %s\n", why);
            json_decref(docs[0]);
            return -1;
        }
        label_of(in[i].json, labels[i], sizeof labels[i]);
        names[i] = labels[i];
    }
    /* checked before the file is made: a refused protocol leaves no page */
    for (int i = 0; i < n; i++) {
        char detail[1536];
        if (mpp_view_check(docs[i], detail, sizeof detail) != 0) {
            fprintf(stderr, "mpiprof-view: %s%s: not a valid mpiprof protocol: %s\n", in[i].json,
                    strcmp(paths[i], in[i].json) ? in[i].note : "", detail);
            json_decref(docs[0]), json_decref(docs[1]);
            return -1;
        }
    }
    return 0;
}

/* The page into a temporary file renamed to `path` once whole (a failed
 * write leaves no half page); 0, or -1 with why. */
static int write_page(const char *path, json_t *docs[2], const char *names[2], int n, const mpp_view_options_t *view,
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

int main(int argc, char **argv)
{
    const char *output = NULL;
    mpp_view_options_t view = {.source_dir = NULL};
    int rc = parse_options(argc, argv, &output, &view);
    if (rc != GO_ON)
        return rc;
    int n = argc - optind;
    json_t *docs[2] = {NULL, NULL};
    char labels[2][PATH_MAX], why[2 * PATH_MAX + 256];
    const char *names[2];
    static mpp_protocol_input_t in[2];
    if (load_protocols(argv + optind, n, in, docs, labels, names) != 0)
        return 1;
    /* the page next to the protocol, named as MPIPROF_FORMAT=html names it */
    char path[sizeof in[0].json + 8];
    if (output) {
        snprintf(path, sizeof path, "%s", output);
    } else {
        snprintf(path, sizeof path, "%s", in[0].json);
        if (ends_with(path, ".json"))
            path[strlen(path) - 5] = '\0';
        strcat(path, ".html");
    }
    rc = write_page(path, docs, names, n, &view, why, sizeof why);
    json_decref(docs[0]), json_decref(docs[1]);
    if (rc != 0) {
        fprintf(stderr, "mpiprof-view: %s\n", why);
        return 1;
    }
    printf("mpiprof-view: page written to %s\n", path);
    return 0;
}
