/* mpiprof-merge: one protocol from the partial protocols of processes of one
 * run (mpiprof-merge(1)).  Each partial protocol carries its process's
 * profile as the reduction takes it (its process data); the processes are
 * reduced together as MPI_Finalize would have reduced them (exchange.h, in
 * memory, one thread each) and written by the protocol's own writers, marked
 * partial, naming the processes present, those missing and how each ended.
 * No MPI. */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/characteristics.h"
#include "autoconf.h"
#include "cli.h"
#include "reduce/exchange.h"
#include "reduce/matrix_build.h"
#include "util/warnings.h"
#include "write/partial.h"
#include "write/process_data.h"
#include "write/report.h"

static const char usage[] =
    "usage: mpiprof-merge [-o PATH] [-f text|json|both] [-q] PARTIAL...\n"
    "       mpiprof-merge --help | --version\n"
    "  PARTIAL  partial protocols of one run (<protocol path>.partial.<rank>, text or .json),\n"
    "           or a directory: those in it\n"
    "  -o PATH  the merged protocol (default: <protocol path>.partial)\n"
    "  -f       which files to write (default both: PATH and PATH.json)\n"
    "  -q       print nothing but errors\n"
    "  -h, --help  this usage;  --version  mpiprof's version\n";

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

/* The lines of a text protocol's process data section (allocated), the
 * lines broken to keep within the width joined again. */
static char **process_lines(const char *path, int *n)
{
    FILE *f = fopen(path, "r");
    char **lines = NULL, *line = NULL;
    size_t cap = 0;
    int in_section = 0, in_header = 0, count = 0, room = 0;
    *n = 0;
    if (!f)
        return NULL;
    while (getline(&line, &cap, f) > 0) {
        line[strcspn(line, "\n")] = '\0';
        size_t length = strlen(line);
        if (!in_section || in_header) { /* up to the end of the section's title, broken or not */
            in_header = (in_header || !strncmp(line, "--- Process data", 16)) && length && line[length - 1] == '\\';
            in_section = in_section || !strncmp(line, "--- Process data", 16);
            continue;
        }
        if (!*line)
            continue;
        size_t last = count ? strlen(lines[count - 1]) : 0;
        if (last && lines[count - 1][last - 1] == '\\' && !strncmp(line, "      ", 6)) {
            /* a line the protocol broke at 160 characters (mpiprof-protocol(5)) */
            char *joined = malloc(last + strlen(line));
            if (!joined)
                break;
            snprintf(joined, last + strlen(line), "%.*s%s", (int)(last - 1), lines[count - 1], line + 6);
            free(lines[count - 1]);
            lines[count - 1] = joined;
            continue;
        }
        if (count == room) {
            room = room ? 2 * room : 64;
            char **grown = realloc(lines, (size_t)room * sizeof *lines);
            if (!grown)
                break;
            lines = grown;
        }
        lines[count++] = strdup(line);
    }
    free(line);
    fclose(f);
    *n = count;
    return lines;
}

/* The process data of one partial protocol: its JSON form when there is
 * one (the file given, or its .json sibling), else its text form. */
static json_t *load_process(const char *path, char *why, size_t size)
{
    char json_path[4096];
    snprintf(json_path, sizeof json_path, "%s%s", path, ends_with(path, ".json") ? "" : ".json");
    if (access(json_path, R_OK) == 0) {
        json_error_t error;
        json_t *doc = json_load_file(json_path, 0, &error);
        if (!doc) {
            snprintf(why, size, "%s: %s (line %d)", json_path, error.text, error.line);
            return NULL;
        }
        json_t *process = json_incref(json_object_get(doc, "process"));
        json_decref(doc);
        if (!process)
            snprintf(why, size, "%s has no process data: not the partial protocol of one process", json_path);
        return process;
    }
    if (access(path, R_OK) != 0) {
        snprintf(why, size, "%s: %s", path, strerror(errno));
        return NULL;
    }
    int n;
    char **lines = process_lines(path, &n);
    char detail[256] = "no process data section: not the partial protocol of one process";
    json_t *process = n ? mpp_process_data_from_lines(lines, n, detail, sizeof detail) : NULL;
    if (!process)
        snprintf(why, size, "%s: %s", path, detail);
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
    return process;
}

static int by_rank(const void *a, const void *b)
{
    return ((const mpp_parsed_process_t *)a)->rank - ((const mpp_parsed_process_t *)b)->rank;
}

/* "<protocol path>.partial" from "<protocol path>.partial.<rank>[.json]". */
static void default_output(const char *input, char *out, size_t size)
{
    snprintf(out, size, "%s", input);
    if (ends_with(out, ".json"))
        out[strlen(out) - 5] = '\0';
    char *dot = strrchr(out, '.');
    if (dot && dot[1] && strspn(dot + 1, "0123456789") == strlen(dot + 1))
        *dot = '\0';
    if (!ends_with(out, ".partial"))
        snprintf(out + strlen(out), size - strlen(out), ".partial");
}

/* The SRC point of the merged protocol a process ended in: the same
 * function and stack (the partial protocol's number is its own). */
static int merged_src(const mpp_reduced_t *rd, const mpp_process_end_t *e)
{
    for (int s = 0; e->mpi_call[0] && s < rd->nsrcs; s++) {
        const mpp_reduced_src_t *src = &rd->srcs[s];
        char stack[MPP_END_SITE];
        size_t at = 0;
        for (int f = 0; f < src->nframes && at < sizeof stack; f++)
            at += (size_t)snprintf(stack + at, sizeof stack - at, "%s%s", f ? " <- " : "", src->frames[f].text);
        if (!strcmp(src->function, e->mpi_call) && !strcmp(stack, e->site))
            return src->id;
    }
    return 0;
}

enum { GO_ON = -1 };

/* -o, -f and -q: GO_ON, or the exit status of a bad, --help or --version
 * command line (its message said). */
static int parse_options(int argc, char **argv, const char **output, int *format, int *quiet)
{
    const mpp_cli_t cli = {"mpiprof-merge", usage, "o:f:q", NULL, 0};
    int c, rc;
    while ((c = mpp_cli_next(&cli, argc, argv, &rc)) != -1) {
        if (c == MPP_CLI_EXIT)
            return rc;
        if (c == 'o')
            *output = optarg;
        else if (c == 'q')
            *quiet = 1;
        else if (c == 'f' && (!strcmp(optarg, "text") || !strcmp(optarg, "json") || !strcmp(optarg, "both")))
            *format = !strcmp(optarg, "text")   ? MPP_FORMAT_TEXT
                      : !strcmp(optarg, "json") ? MPP_FORMAT_JSON
                                                : MPP_FORMAT_BOTH;
        else if (c == 'f')
            return mpp_cli_error(&cli, "-f %s: not a format (text, json or both)", optarg);
    }
    if (argc - optind < 1)
        return mpp_cli_error(&cli, "no partial protocol given");
    return GO_ON;
}

/* The process data of each partial protocol in `paths`, in order of rank,
 * checked to be of one run; NULL when one is not (said). */
static mpp_parsed_process_t *load_processes(char **paths, int n)
{
    mpp_parsed_process_t *procs = calloc((size_t)n, sizeof *procs);
    if (!procs)
        return NULL;
    for (int i = 0; i < n; i++) {
        char why[4096 + 256] = "";
        json_t *process = load_process(paths[i], why, sizeof why);
        char detail[512];
        if (!process || mpp_process_data_parse(process, &procs[i], detail, sizeof detail) != 0) {
            if (process)
                snprintf(why, sizeof why, "%s: %s", paths[i], detail);
            fprintf(stderr, "mpiprof-merge: %s\n", why);
            return NULL;
        }
        json_decref(process);
    }
    qsort(procs, (size_t)n, sizeof *procs, by_rank);
    for (int i = 0; i < n; i++) {
        if (i && procs[i].rank == procs[i - 1].rank) {
            fprintf(stderr, "mpiprof-merge: rank %d is given twice\n", procs[i].rank);
            return NULL;
        }
        if (procs[i].run.nprocs != procs[0].run.nprocs) {
            fprintf(stderr, "mpiprof-merge: rank %d ran with %d processes, rank %d with %d: not one run\n",
                    procs[i].rank, procs[i].run.nprocs, procs[0].rank, procs[0].run.nprocs);
            return NULL;
        }
    }
    return procs;
}

/* The processes' profiles, ranks, hosts and ends side by side, as the
 * reduction and the writers take them. */
typedef struct {
    const mpp_local_profile_t **profiles;
    int *ranks;
    const char **hosts;
    mpp_process_end_t *ends;
} columns_t;

/* The columns of `procs`, and the run as its lowest rank present saw it,
 * from the first start to the last end; -1 when out of memory. */
static int gather(const mpp_parsed_process_t *procs, int n, columns_t *col, mpp_run_info_t *run)
{
    col->profiles = calloc((size_t)n, sizeof *col->profiles);
    col->ranks = calloc((size_t)n, sizeof *col->ranks);
    col->hosts = calloc((size_t)n, sizeof *col->hosts);
    col->ends = calloc((size_t)n, sizeof *col->ends);
    if (!col->profiles || !col->ranks || !col->hosts || !col->ends)
        return -1;
    *run = procs[0].run;
    for (int i = 0; i < n; i++) {
        col->profiles[i] = &procs[i].profile;
        col->ranks[i] = procs[i].rank;
        col->hosts[i] = procs[i].hostname ? procs[i].hostname : "?";
        col->ends[i] = procs[i].end;
        if (strcmp(procs[i].run.started, run->started) < 0)
            memcpy(run->started, procs[i].run.started, sizeof run->started);
        if (strcmp(procs[i].run.finished, run->finished) > 0)
            memcpy(run->finished, procs[i].run.finished, sizeof run->finished);
    }
    run->partial = 1;
    return 0;
}

/* The communication matrix of the run when every process's partial
 * protocol is there with its row (reduce/matrix_build.h); else NULL and
 * *na why. */
static mpp_matrix_t *merged_matrix(const mpp_parsed_process_t *procs, int n, int nprocs, const mpp_config_t *config,
                                   const char **na)
{
    *na = "the partial protocols of some processes are missing, and their rows with them";
    if (n != nprocs)
        return NULL;
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        if (procs[i].npairs < 0) {
            *na = "a process did not count it (MPIPROF_MATRIX=off, no memory, or a partial protocol of an earlier "
                  "mpiprof)";
            return NULL;
        }
        total += (size_t)procs[i].npairs;
    }
    *na = "out of memory";
    mpp_pair_t *pairs = total <= INT_MAX ? malloc((total ? total : 1) * sizeof *pairs) : NULL;
    const char **hosts = malloc((size_t)n * sizeof *hosts);
    if (!pairs || !hosts) {
        free(pairs), free(hosts);
        return NULL;
    }
    size_t at = 0;
    for (int i = 0; i < n; i++) { /* by rank: procs[r] is rank r's */
        memcpy(pairs + at, procs[i].pairs, (size_t)procs[i].npairs * sizeof *pairs);
        at += (size_t)procs[i].npairs;
        hosts[i] = procs[i].hostname ? procs[i].hostname : "?";
    }
    mpp_matrix_t *m =
        mpp_matrix_build(pairs, (int)total, nprocs, hosts, (int)config->number[MPP_CFG_MATRIX_RANKS], config);
    free(hosts);
    for (int i = 0; m && i < n; i++) /* the calls in no pair, as MPI_Finalize sums them */
        m->dropped_calls += procs[i].matrix_not_counted;
    if (m)
        *na = NULL;
    return m;
}

/* What was merged into where, unless -q. */
static void say_merged(const mpp_process_end_t *ends, int n, int nprocs, const char *path, int format)
{
    char *present = mpp_rank_ranges(ends, n, nprocs, 0), *missing = mpp_rank_ranges(ends, n, nprocs, 1);
    printf("mpiprof-merge: rank%s %s of %d processes (missing: %s) merged into %s%s%s\n", n == 1 ? "" : "s",
           present ? present : "?", nprocs, missing && *missing ? missing : "none", path,
           format == MPP_FORMAT_JSON ? ".json" : "", format == MPP_FORMAT_BOTH ? " (and .json)" : "");
    free(present), free(missing);
}

/* The rank of a partial protocol's file name "<protocol>.partial.<rank>"
 * (or its .json sibling's), its protocol's name's length in *base; -1 when
 * the name is not one. */
static int partial_rank(const char *name, size_t *base)
{
    size_t n = strlen(name) - (ends_with(name, ".json") ? 5 : 0);
    size_t digits = 0;
    while (digits < n && name[n - digits - 1] >= '0' && name[n - digits - 1] <= '9')
        digits++;
    if (!digits || digits > 9 || n < digits + 9 || strncmp(name + n - digits - 9, ".partial.", 9) != 0)
        return -1;
    *base = n - digits - 9;
    return atoi(name + n - digits);
}

/* The partial protocols of the one run in the directory `dir` (a text one
 * and its JSON sibling count once) appended to *paths; 0, or -1 said. */
static int partials_in(const char *dir, char ***paths, int *n)
{
    glob_t found;
    char pattern[4200], first[4200] = "";
    snprintf(pattern, sizeof pattern, "%s/*.partial.[0-9]*", dir);
    int rc = glob(pattern, 0, NULL, &found), added = 0;
    for (size_t i = 0; rc == 0 && i < found.gl_pathc; i++) {
        const char *path = found.gl_pathv[i], *name = strrchr(path, '/') + 1;
        size_t base, len = strlen(path);
        if (partial_rank(name, &base) < 0)
            continue;
        if (ends_with(path, ".json") && i > 0 && !strncmp(found.gl_pathv[i - 1], path, len - 5) &&
            found.gl_pathv[i - 1][len - 5] == '\0')
            continue; /* the text one's sibling: the text names both */
        if (!first[0])
            snprintf(first, sizeof first, "%.*s", (int)base, name);
        else if (strlen(first) != base || strncmp(first, name, base) != 0) {
            fprintf(stderr, "mpiprof-merge: %s: the partial protocols of several runs (%s, %.*s): give one run's\n",
                    dir, first, (int)base, name);
            globfree(&found);
            return -1;
        }
        char **grown = realloc(*paths, (size_t)(*n + 1) * sizeof **paths);
        if (!grown || !(grown[*n] = strdup(path))) {
            *paths = grown ? grown : *paths;
            fprintf(stderr, "mpiprof-merge: out of memory\n");
            globfree(&found);
            return -1;
        }
        *paths = grown;
        ++*n, ++added;
    }
    if (rc == 0)
        globfree(&found);
    if (!added)
        fprintf(stderr, "mpiprof-merge: %s: a directory without partial protocols (<protocol>.partial.<rank>)\n",
                dir);
    return added ? 0 : -1;
}

/* The partial protocols given (allocated): files as they are, each
 * directory's; NULL when a directory holds none or several runs' (said). */
static char **expand_inputs(char **args, int nargs, int *n)
{
    char **paths = NULL;
    *n = 0;
    for (int i = 0; i < nargs; i++) {
        struct stat st;
        if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (partials_in(args[i], &paths, n) != 0)
                return NULL;
            continue;
        }
        char **grown = realloc(paths, (size_t)(*n + 1) * sizeof *paths);
        if (!grown || !(grown[*n] = strdup(args[i]))) {
            fprintf(stderr, "mpiprof-merge: out of memory\n");
            return NULL;
        }
        paths = grown;
        ++*n;
    }
    return paths;
}

int main(int argc, char **argv)
{
    const char *output = NULL;
    int format = MPP_FORMAT_BOTH, quiet = 0;
    int rc = parse_options(argc, argv, &output, &format, &quiet);
    if (rc != GO_ON)
        return rc;
    int n;
    char **inputs = expand_inputs(argv + optind, argc - optind, &n);
    if (!inputs)
        return 1;
    mpp_warnings_set_echo(0);
    mpp_parsed_process_t *procs = load_processes(inputs, n);
    if (!procs)
        return 1;
    int nprocs = procs[0].run.nprocs;
    columns_t col;
    mpp_run_info_t run;
    if (gather(procs, n, &col, &run) != 0)
        return 1;
    const mpp_config_t *config = &procs[0].config;
    size_t warnings_from = mpp_warnings_count();
    mpp_reduced_t *rd =
        mpp_reduce_in_memory(col.profiles, col.ranks, col.hosts, n, nprocs, config->text[MPP_CFG_RANKS]);
    if (!rd) {
        fprintf(stderr, "mpiprof-merge: out of memory (or threads) for %d processes\n", n);
        return 1;
    }
    for (int i = 0; i < n; i++)
        col.ends[i].src = merged_src(rd, &col.ends[i]);
    const char *matrix_na;
    rd->matrix = merged_matrix(procs, n, nprocs, config, &matrix_na);

    char path[4096];
    if (output)
        snprintf(path, sizeof path, "%s", output);
    else
        default_output(inputs[0], path, sizeof path);
    mpp_partial_t partial = {col.ends, n, NULL};
    mpp_report_input_t in = {.run = &run,
                             .config = config,
                             .model = &procs[0].model,
                             .warnings_from = warnings_from,
                             .partial = &partial,
                             .waitstates_na = mpp_partial_waits_reason,
                             .matrix_na = matrix_na};
    rc = mpp_report_write(rd, &in, path, format);
    if (rc != 0) {
        for (size_t w = warnings_from; w < mpp_warnings_count(); w++)
            fprintf(stderr, "mpiprof-merge: %s\n", mpp_warning_text(w));
    } else if (!quiet) {
        say_merged(col.ends, n, nprocs, path, format);
    }
    mpp_reduced_free(rd);
    for (int i = 0; i < n; i++)
        mpp_parsed_process_free(&procs[i]);
    free(procs), free(col.profiles), free(col.ranks), free(col.hosts), free(col.ends);
    for (int i = 0; i < n; i++)
        free(inputs[i]);
    free(inputs);
    return rc == 0 ? 0 : 1;
}
