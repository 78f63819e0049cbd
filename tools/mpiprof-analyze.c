/* mpiprof-analyze: the protocol of an OTF2 trace (mpiprof-analyze(1)).  A
 * trace is another source of the same events: read (src/replay/), its
 * wait states computed exactly from the events, each traced process
 * replayed into the accumulate stage as the wrappers feed it, the
 * processes reduced together as MPI_Finalize reduces them (exchange.h, in
 * memory, one thread each) and written by the protocol's own writers,
 * `Collection mode: trace`.  No MPI. */
#include <getopt.h>
#include <stdio.h>
#include <ftw.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "autoconf.h"
#include "config.h"
#include "exchange.h"
#include "function_table.h"
#include "replay.h"
#include "report.h"
#include "srckey.h"
#include "warnings.h"

static const char usage[] =
    "usage: mpiprof-analyze [-o PATH] [-f FORMAT] [-q] ARCHIVE\n"
    "  ARCHIVE  an OTF2 trace: its anchor file (e.g. run/traces.otf2)\n"
    "  -o PATH  the protocol (default: the archive's directory with .prof appended)\n"
    "  -f       which files: text, json, html, a comma-separated set of them, both or all\n"
    "           (default: MPIPROF_FORMAT's value, text when it is not set)\n"
    "  -q       print nothing but errors\n";

static const char model_na[] =
    "Overlap and the predicted characteristics are n/a: a trace carries no calibration of the communication "
    "model (mpiprof-analyze(1))";

/* "<archive directory>.prof" from ".../run/traces.otf2". */
static void default_output(const char *archive, char *out, size_t size)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", archive);
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, "trace");
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        dir[--n] = '\0';
    snprintf(out, size, "%s.prof", dir);
}

/* The archive's size: every file under its directory. */
static long long archive_bytes;

static int add_size(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)path, (void)ftw;
    if (type == FTW_F)
        archive_bytes += (long long)st->st_size;
    return 0;
}

/* The Trace parameter: the archive analysed (its directory), as trace
 * mode names the archive it wrote. */
static void describe_archive(const rp_trace_t *t, mpp_run_info_t *run)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", t->path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    archive_bytes = 0;
    nftw(dir, add_size, 16, FTW_PHYS);
    snprintf(run->trace_path, sizeof run->trace_path, "%s", dir);
    run->trace_bytes = archive_bytes;
    run->trace_complete = !t->incomplete;
    snprintf(run->trace, sizeof run->trace, "analysed from %s (%lld bytes, OTF2)%s", t->path, archive_bytes,
             t->incomplete ? ", incomplete: see Warnings" : "");
}

/* ns since the epoch as local ISO 8601. */
static void iso8601(uint64_t ns, char *out, size_t size)
{
    time_t s = (time_t)(ns / 1000000000u);
    struct tm tm;
    if (!localtime_r(&s, &tm) || !strftime(out, size, "%Y-%m-%dT%H:%M:%S%z", &tm))
        snprintf(out, size, "1970-01-01T00:00:00Z");
}

static void describe_run(const rp_trace_t *t, mpp_run_info_t *run, uint64_t paired, uint64_t instances)
{
    memset(run, 0, sizeof *run);
    snprintf(run->program, sizeof run->program, "n/a (not in the trace)");
    snprintf(run->program_name, sizeof run->program_name, "trace");
    if (!getcwd(run->cwd, sizeof run->cwd))
        snprintf(run->cwd, sizeof run->cwd, "?");
    int64_t first = INT64_MAX, last = INT64_MIN;
    int offsets = 0;
    for (int l = 0; l < t->nlocations; l++) {
        const rp_location_t *loc = &t->locations[l];
        if (loc->process < 0 || !loc->events)
            continue;
        first = loc->first < first ? loc->first : first;
        last = loc->last > last ? loc->last : last;
        offsets += loc->noffsets > 0;
    }
    /* the run's dates: the trace's, else the archive's last change less
     * the trace's length */
    uint64_t length = (uint64_t)((double)(last > first ? last - first : 0) * 1e9 / (double)t->resolution);
    uint64_t start = t->realtime;
    struct stat st;
    if (!start && stat(t->path, &st) == 0) {
        uint64_t changed = (uint64_t)st.st_mtim.tv_sec * 1000000000u + (uint64_t)st.st_mtim.tv_nsec;
        start = changed > length ? changed - length : 0;
        mpp_warn("Started and Finished: the trace does not give the date of its clock; they are the archive's "
                 "last change less the trace's length");
    }
    iso8601(start, run->started, sizeof run->started);
    iso8601(start + length, run->finished, sizeof run->finished);
    run->nprocs = t->nprocesses;
    snprintf(run->threads_level, sizeof run->threads_level, "n/a (not in the trace)");
    snprintf(run->mpi_library, sizeof run->mpi_library, "n/a (not in the trace)");
    snprintf(run->mpi_standard, sizeof run->mpi_standard, "n/a (not in the trace)");
    snprintf(run->hostname, sizeof run->hostname, "%s", t->processes[0].host);
    snprintf(run->clock, sizeof run->clock,
             "the trace's timestamps, resolution %.3g s; %s; every wait state exact from the events (no threshold)",
             1.0 / (double)t->resolution,
             offsets ? "each location's clock offsets applied (linear between two measurements)"
                     : "no clock offsets in the trace: its timestamps taken as synchronized by its writer");
    snprintf(run->waitstates, sizeof run->waitstates,
             "real sync (late senders) and potential sync / time variation (collectives), exact from the trace's "
             "events; %llu messages paired of %zu sent, %llu collective calls",
             (unsigned long long)paired, t->nsends, (unsigned long long)instances);
    snprintf(run->mode, sizeof run->mode, "%s", t->incomplete ? "trace, incomplete" : "trace");
    describe_archive(t, run);
    /* interval 0's position: where rank 0 called MPI_Init, as MPI_Finalize
     * resolves it (its first frame) */
    uint32_t site = t->locations[t->processes[0].locations[0]].init_site;
    if (site) {
        char *key = NULL, *function = NULL;
        mpp_frame_t *frames = NULL;
        int n = asprintf(&key, "MPI_Init%c%s", MPP_RS, t->sites[site]) < 0 ? 0
                                                                           : mpp_srckey_parse(key, &function, &frames);
        if (n > 0) {
            snprintf(run->init_file, sizeof run->init_file, "%s", frames[0].line ? frames[0].file : frames[0].text);
            run->init_line = frames[0].line;
        }
        free(key), free(function);
        mpp_srckey_free_frames(frames, n);
    }
}

int main(int argc, char **argv)
{
    const char *output = NULL;
    long format = -1;
    int quiet = 0, c;
    while ((c = getopt(argc, argv, "o:f:qh")) != -1) {
        if (c == 'o') {
            output = optarg;
        } else if (c == 'q') {
            quiet = 1;
        } else if (c == 'f' && mpp_config_parse_format(optarg, &format) == 0) {
        } else {
            if (c == 'f')
                fprintf(stderr, "mpiprof-analyze: -f %s: not a format (text, json, html, a comma-separated set of "
                        "them, both or all)\n", optarg);
            fputs(usage, c == 'h' ? stdout : stderr);
            return c == 'h' ? 0 : 2;
        }
    }
    if (argc - optind != 1) {
        fputs(usage, stderr);
        return 2;
    }
    const char *archive = argv[optind];
    mpp_warnings_set_echo(0);
    mpp_config_t config;
    mpp_config_parse(&config, NULL);
    if (format < 0)
        format = config.number[MPP_CFG_FORMAT];

    rp_trace_t trace;
    char why[1024];
    if (rp_trace_read(&trace, archive, why, sizeof why) != 0) {
        fprintf(stderr, "mpiprof-analyze: %s\n", why);
        return 1;
    }
    rp_waits(&trace);
    uint64_t paired = trace.nrecvs - trace.unmatched_receives;
    int n = trace.nprocesses;
    rp_local_t *locals = calloc((size_t)n, sizeof *locals);
    const mpp_local_profile_t **profiles = calloc((size_t)n, sizeof *profiles);
    int *ranks = calloc((size_t)n, sizeof *ranks);
    const char **hosts = calloc((size_t)n, sizeof *hosts);
    static const char *const no_warnings[1];
    if (!locals || !profiles || !ranks || !hosts) {
        fprintf(stderr, "mpiprof-analyze: out of memory for %d processes\n", n);
        return 1;
    }
    for (int p = 0; p < n; p++) {
        if (rp_profile(&trace, p, (int)config.number[MPP_CFG_MAX_SRC], (int)config.number[MPP_CFG_MAX_INTERVALS],
                       (int)config.number[MPP_CFG_MAX_NESTING], &locals[p]) != 0) {
            fprintf(stderr, "mpiprof-analyze: out of memory replaying rank %d\n", p);
            return 1;
        }
        /* the analyzer's warnings are the run's, said once (not per process) */
        locals[p].profile->context.warnings = no_warnings;
        profiles[p] = locals[p].profile;
        ranks[p] = trace.processes[p].rank;
        hosts[p] = trace.processes[p].host;
    }
    mpp_reduced_t *rd = mpp_reduce_in_memory(profiles, ranks, hosts, n, n, config.text[MPP_CFG_RANKS]);
    if (!rd) {
        fprintf(stderr, "mpiprof-analyze: out of memory (or threads) for %d processes\n", n);
        return 1;
    }
    for (int s = 0; s < rd->nsrcs; s++) /* which wait states apply, as MPI_Finalize marks them */
        for (int f = 0; f < MPP_NFUNCTIONS; f++)
            if (!strcmp(mpp_functions[f].name, rd->srcs[s].function)) {
                rd->srcs[s].waits = mpp_functions[f].by_request ? MPP_SRC_REALSYNC | MPP_SRC_COLLECTIVE_WAITS
                                    : mpp_functions[f].category == MPP_CAT_SENDRECV   ? MPP_SRC_REALSYNC
                                    : mpp_functions[f].category == MPP_CAT_COLLECTIVE ? MPP_SRC_COLLECTIVE_WAITS
                                                                                      : 0;
                break;
            }

    mpp_run_info_t run;
    describe_run(&trace, &run, paired, trace.ncollectives);
    if (!trace.from_mpiprof)
        mpp_warn("SRC points: the trace records no call sites (a trace not written by mpiprof): each SRC point "
                 "is an MPI function alone, its stack n/a");
    if (trace.unmatched_receives || trace.unmatched_sends)
        mpp_warn("Real sync: %llu received messages and %llu sent ones have no partner in the trace (a process "
                 "not traced, or events lost); their waits are not counted",
                 (unsigned long long)trace.unmatched_receives, (unsigned long long)trace.unmatched_sends);
    if (trace.unmatched_collectives)
        mpp_warn("Potential sync, Time variation: %llu collective calls belong to instances that not every member "
                 "of their communicator reached in the trace; their waits are not counted",
                 (unsigned long long)trace.unmatched_collectives);
    if (trace.incomplete)
        mpp_warn("the trace is incomplete (%s): the run did not end with MPI_Finalize, or the trace was cut; this "
                 "protocol covers what it holds", trace.incomplete_why);

    char path[4096];
    if (output)
        snprintf(path, sizeof path, "%s", output);
    else
        default_output(archive, path, sizeof path);
    mpp_report_input_t in = {.run = &run, .config = &config, .model = NULL, .warnings_from = 0,
                             .model_na = model_na};
    int rc = mpp_report_write(rd, &in, path, (int)format);
    if (rc != 0) {
        for (size_t w = 0; w < mpp_warnings_count(); w++)
            fprintf(stderr, "mpiprof-analyze: %s\n", mpp_warning_text(w));
    } else if (trace.incomplete) {
        fprintf(stderr, "mpiprof-analyze: %s: the trace is incomplete (%s); the protocol %s covers what it holds\n",
                archive, trace.incomplete_why, path);
    } else if (!quiet) {
        printf("mpiprof-analyze: %d processes, %llu events (%llu MPI) analysed into %s%s\n", n,
               (unsigned long long)trace.events, (unsigned long long)trace.mpi_events, path,
               format & MPP_FORMAT_TEXT ? "" : format & MPP_FORMAT_JSON ? ".json" : ".html");
    }
    mpp_reduced_free(rd);
    for (int p = 0; p < n; p++)
        rp_local_free(&locals[p]);
    free(locals), free(profiles), free(ranks), free(hosts);
    int incomplete = trace.incomplete;
    rp_trace_free(&trace);
    return rc != 0 ? 1 : incomplete ? 3 : 0;
}
