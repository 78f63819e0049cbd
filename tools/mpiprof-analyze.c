/* mpiprof-analyze: the protocol of an OTF2 trace (mpiprof-analyze(1)).  A
 * trace is another source of the same events: read (src/replay/), its
 * wait states computed exactly from the events, each traced process
 * replayed into the accumulate stage as the wrappers feed it, the
 * processes reduced together as MPI_Finalize reduces them (exchange.h, in
 * memory, one thread each) and written by the protocol's own writers,
 * `Collection mode: trace`.  Alone it never touches MPI; started by an MPI
 * launcher (mpiexec -n K), each of its K processes reads and replays a
 * share of the traced processes, the shares exchange what their wait
 * states need of each other (replay_mpi.h), the profiles are reduced
 * across them (exchange_split.h), and rank 0 writes the protocol. */
#include <getopt.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accumulate/waitstates/waitstates.h"
#include "autoconf.h"
#include "cli.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "reduce/exchange.h"
#include "reduce/exchange_split.h"
#include "reduce/matrix_build.h"
#include "replay/matrix.h"
#include "replay/replay.h"
#include "replay/replay_mpi.h"
#include "util/file_tree.h"
#include "util/srckey.h"
#include "util/warnings.h"
#include "write/report.h"

static const char usage[] = "usage: mpiprof-analyze [-o PATH] [-f FORMAT] [-q] ARCHIVE\n"
                            "       mpiprof-analyze --help | --version\n"
                            "  ARCHIVE  an OTF2 trace: its directory (e.g. run.prof.otf2, as trace mode writes it)\n"
                            "           or its anchor file (run.prof.otf2/traces.otf2)\n"
                            "  -o PATH  the protocol (default: the archive's directory with .prof appended)\n"
                            "  -f       which files: text, json, html, a comma-separated set of them, both or all\n"
                            "           (default: MPIPROF_FORMAT's value, text when it is not set)\n"
                            "  -q       print nothing but errors\n"
                            "  -h, --help  this usage;  --version  mpiprof's version\n";

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

/* The Trace parameter: the archive analysed (its directory), as trace
 * mode names the archive it wrote. */
static void describe_archive(const rp_trace_t *t, const rp_totals_t *all, int analyzers, mpp_run_info_t *run)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", t->path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    else
        snprintf(dir, sizeof dir, ".");
    long long bytes = mpp_tree_bytes(dir);
    snprintf(run->trace_path, sizeof run->trace_path, "%s", dir);
    run->trace_bytes = bytes;
    run->trace_complete = !all->incomplete;
    char by[64] = "";
    if (analyzers > 1)
        snprintf(by, sizeof by, " by %d processes", analyzers);
    snprintf(run->trace, sizeof run->trace, "analysed from %s (%lld bytes, OTF2)%s%s", t->path, bytes, by,
             all->incomplete ? ", incomplete: see Warnings" : "");
}

/* ns since the epoch as local ISO 8601. */
static void iso8601(uint64_t ns, char *out, size_t size)
{
    time_t s = (time_t)(ns / 1000000000u);
    struct tm tm;
    if (!localtime_r(&s, &tm) || !strftime(out, size, "%Y-%m-%dT%H:%M:%S%z", &tm))
        snprintf(out, size, "1970-01-01T00:00:00Z");
}

static void describe_run(const rp_trace_t *t, const rp_totals_t *all, const rp_bounds_t *bounds, int analyzers,
                         mpp_run_info_t *run)
{
    memset(run, 0, sizeof *run);
    snprintf(run->program, sizeof run->program, "n/a (not in the trace)");
    snprintf(run->program_name, sizeof run->program_name, "trace");
    if (!getcwd(run->cwd, sizeof run->cwd))
        snprintf(run->cwd, sizeof run->cwd, "?");
    int64_t first = all->first, last = all->last;
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
    char offsets[400];
    double tick = 1.0 / (double)t->resolution;
    if (!all->offsets)
        snprintf(offsets, sizeof offsets,
                 "no clock offsets in the trace: its timestamps taken as synchronized by its writer");
    else if (!all->inexact)
        snprintf(offsets, sizeof offsets,
                 "every location's clock offsets 0 and exact (one clock shared by every process)");
    else
        snprintf(
            offsets, sizeof offsets,
            "each location's clock offsets applied: one constant, their mean weighted by 1/u^2, where they agree "
            "within their uncertainties u, linear between two measurements where they differ by more (%lld of "
            "%lld locations: a drift); largest offset uncertainty %.3g s at the first measurement (rank %lld's), "
            "%.3g s at the last (rank %lld's)",
            (long long)all->drifting, (long long)all->offsets, (double)all->uncertain[0] * tick,
            (long long)all->uncertain_rank[0], (double)all->uncertain[1] * tick, (long long)all->uncertain_rank[1]);
    char bounded[160] = "";
    if (bounds->moved)
        snprintf(bounded, sizeof bounded,
                 "; the trace's messages bounded %d processes' offsets (largest shift %.3g s, rank %d's)",
                 bounds->moved, (double)bounds->largest * tick, bounds->largest_rank);
    snprintf(run->clock, sizeof run->clock,
             "the trace's timestamps, resolution %.3g s; %s%s; every wait state exact from the events (no "
             "threshold)",
             tick, offsets, bounded);
    snprintf(run->waitstates, sizeof run->waitstates,
             "real sync (late senders) and potential sync / time variation (collectives), exact from the trace's "
             "events; %llu messages paired of %llu sent, %llu collective calls",
             (unsigned long long)(all->recvs - all->unmatched_receives), (unsigned long long)all->sends,
             (unsigned long long)all->collectives);
    snprintf(run->mode, sizeof run->mode, "%s", all->incomplete ? "trace, incomplete" : "trace");
    describe_archive(t, all, analyzers, run);
    /* interval 0's position: where rank 0 called MPI_Init, as MPI_Finalize
     * resolves it (its first frame) */
    uint32_t site = t->locations[t->processes[0].locations[0]].init_site;
    if (site) {
        char *key = NULL, *function = NULL;
        mpp_frame_t *frames = NULL;
        int n = asprintf(&key, "MPI_Init%c%s", MPP_RS, t->sites[site]) < 0
                    ? 0
                    : mpp_srckey_parse(key, &function, &frames);
        if (n > 0) {
            snprintf(run->init_file, sizeof run->init_file, "%s", frames[0].line ? frames[0].file : frames[0].text);
            run->init_line = frames[0].line;
        }
        free(key), free(function);
        mpp_srckey_free_frames(frames, n);
    }
}

/* Whether any process failed; the lowest that did says why, in one line. */
static int stopped(const rp_mpi_t *mpi, int failed, const char *why)
{
    int who = mpi ? rp_mpi_lowest(mpi, failed) : failed ? 0 : -1;
    if (who >= 0 && who == (mpi ? mpi->rank : 0))
        fprintf(stderr, "mpiprof-analyze: %s\n", why);
    return who >= 0;
}

/* Which wait states apply to each SRC point, as MPI_Finalize marks them. */
static void mark_waits(mpp_reduced_t *rd)
{
    for (int s = 0; s < rd->nsrcs; s++)
        for (int f = 0; f < MPP_NFUNCTIONS; f++)
            if (!strcmp(mpp_functions[f].name, rd->srcs[s].function)) {
                rd->srcs[s].waits = mpp_functions[f].by_request ? MPP_SRC_REALSYNC | MPP_SRC_COLLECTIVE_WAITS
                                    : mpp_functions[f].category == MPP_CAT_SENDRECV   ? MPP_SRC_REALSYNC
                                    : mpp_functions[f].category == MPP_CAT_COLLECTIVE ? MPP_SRC_COLLECTIVE_WAITS
                                                                                      : 0;
                break;
            }
}

/* The profiles of this share's processes, first..end-1, reduced over all
 * of them: in memory alone, across the analyzer's processes under mpiexec
 * (those with a share).  The reduced data on rank 0; *failed everywhere
 * when memory or threads ran out anywhere. */
static mpp_reduced_t *reduce_share(const rp_trace_t *t, int first, int end, const mpp_config_t *config,
                                   const rp_mpi_t *mpi, int *failed)
{
    int n = end - first;
    size_t room = (size_t)(n > 0 ? n : 1);
    rp_local_t *locals = calloc(room, sizeof *locals);
    const mpp_local_profile_t **profiles = calloc(room, sizeof *profiles);
    int *ranks = calloc(room, sizeof *ranks);
    const char **hosts = calloc(room, sizeof *hosts);
    static const char *const no_warnings[1];
    char why[256];
    int bad = !locals || !profiles || !ranks || !hosts, done = 0;
    snprintf(why, sizeof why, "out of memory for %d processes", n);
    for (; !bad && done < n; done++) {
        int p = first + done;
        if (rp_profile(t, p, (int)config->number[MPP_CFG_MAX_SRC], (int)config->number[MPP_CFG_MAX_INTERVALS],
                       (int)config->number[MPP_CFG_MAX_NESTING], &locals[done]) != 0) {
            snprintf(why, sizeof why, "out of memory replaying rank %d", p);
            bad = 1;
            break;
        }
        /* the analyzer's warnings are the run's, said once (not per process) */
        locals[done].profile->context.warnings = no_warnings;
        profiles[done] = locals[done].profile;
        ranks[done] = t->processes[p].rank;
        hosts[done] = t->processes[p].host;
    }
    mpp_reduced_t *rd = NULL;
    *failed = stopped(mpi, bad, why);
    if (!*failed && !mpi) {
        rd = mpp_reduce_in_memory(profiles, ranks, hosts, n, n, config->text[MPP_CFG_RANKS]);
        *failed = stopped(mpi, !rd, "out of memory (or threads) for the reduction");
    } else if (!*failed) {
        /* the processes with a share, ranks 0 to min(K, P) - 1 */
        MPI_Comm readers;
        PMPI_Comm_split(mpi->comm, n > 0 ? 0 : MPI_UNDEFINED, mpi->rank, &readers);
        int lost = 0;
        if (n > 0) {
            rd = mpp_reduce_split(profiles, hosts, n, first, t->nprocesses, readers, config->text[MPP_CFG_RANKS],
                                  &lost);
            PMPI_Comm_free(&readers);
        }
        *failed = stopped(mpi, lost, "out of memory for the reduction");
    }
    for (int p = 0; p < done; p++)
        rp_local_free(&locals[p]);
    free(locals), free(profiles), free(ranks), free(hosts);
    if (*failed) {
        mpp_reduced_free(rd);
        rd = NULL;
    }
    return rd;
}

/* The Warnings of the analysis, on rank 0. */
static void warn_totals(const rp_trace_t *t, const rp_totals_t *all, const rp_bounds_t *bounds)
{
    double tick = 1.0 / (double)t->resolution;
    if (bounds->beyond)
        mpp_warn("Clock alignment: the trace's messages moved %d processes' clocks by more than their offsets' "
                 "stated uncertainty (rank %d's by %.3g s, its offsets uncertain by %.3g s): a receive ended before "
                 "its send began by the measured offsets, which were wrong by that much; the wait states use the "
                 "shifted timestamps",
                 bounds->beyond, bounds->beyond_rank, (double)bounds->beyond_shift * tick,
                 (double)bounds->beyond_u * tick);
    if (bounds->contradictory)
        mpp_warn("Clock alignment: the trace's messages contradict each other as bounds on the clocks (receives "
                 "ending before their sends began both ways, or between processes of one exact clock): no clock "
                 "was shifted by them, and the wait states use the measured offsets alone");
    if (bounds->failed)
        mpp_warn("Clock alignment: out of memory for the bounds the trace's messages put on the clocks: none was "
                 "applied, the wait states use the measured offsets alone");
    const char *consequence = "a drift smaller than a location's offsets' uncertainty is not applied: its offset is "
                              "one constant, the measurements weighted by 1/u^2";
    mpp_clock_uncertain_warning("MPI_Init", (double)all->uncertain[0] / (double)t->resolution,
                                (int)all->uncertain_rank[0], consequence);
    mpp_clock_uncertain_warning("MPI_Finalize", (double)all->uncertain[1] / (double)t->resolution,
                                (int)all->uncertain_rank[1], consequence);
    if (!all->from_mpiprof)
        mpp_warn("SRC points: the trace records no call sites (a trace not written by mpiprof): each SRC point "
                 "is an MPI function alone, its stack n/a");
    if (all->unmatched_receives || all->unmatched_sends)
        mpp_warn("Real sync: %llu received messages and %llu sent ones have no partner in the trace (a process "
                 "not traced, or events lost); their waits are not counted",
                 (unsigned long long)all->unmatched_receives, (unsigned long long)all->unmatched_sends);
    if (all->unmatched_collectives)
        mpp_warn("Potential sync, Time variation: %llu collective calls belong to instances that not every member "
                 "of their communicator reached in the trace; their waits are not counted",
                 (unsigned long long)all->unmatched_collectives);
    if (all->untraced)
        mpp_warn("Real sync, Potential sync, Time variation: %llu calls start persistent requests or receive "
                 "matched messages (MPI_Start, MPI_Startall, MPI_Mrecv, MPI_Imrecv), whose messages and "
                 "operations the earlier mpiprof that wrote this trace did not record (mpiprof-trace(5)): their "
                 "waits are not counted here, where the dynamic protocol counts them",
                 (unsigned long long)all->untraced);
    if (all->incomplete)
        mpp_warn("the trace is incomplete (%s): the run did not end with MPI_Finalize, or the trace was cut; this "
                 "protocol covers what it holds",
                 all->incomplete_why);
}

/* The Threads parameter: what trace mode recorded of each process, else
 * only the threads that called MPI (the locations with events). */
static void warn_threads(const rp_trace_t *t)
{
    int without = 0;
    for (int p = 0; p < t->nprocesses; p++)
        without += !t->processes[p].threads;
    if (without)
        mpp_warn("Threads: the trace does not record the threads of %d of its %d processes (mpiprof::threads: a "
                 "trace not written by mpiprof's trace mode, or a process that ended early); their threads alive "
                 "at once and OpenMP team are n/a, their threads that called MPI are their locations with calls",
                 without, t->nprocesses);
}

/* The Correctness section's source (mpiprof-analyze(1), CORRECTNESS): the
 * findings the traced processes carried to the trace, when they did, and
 * those the events give (replay/checks.c). */
static void warn_findings(const rp_trace_t *t)
{
    if (!t->findings_from && t->derived_level)
        mpp_warn("Correctness: the trace carries no findings of mpiprof's checks (mpiprof::findings, "
                 "mpiprof-trace(5)); the section has only those the analyzer makes from its message and "
                 "collective events (mpiprof-analyze(1), CORRECTNESS)");
    else if (!t->findings_from)
        mpp_warn("Correctness: the trace carries no findings of mpiprof's checks (mpiprof::findings: it was "
                 "written by an earlier mpiprof or another tool, mpiprof-trace(5)); the section says no check ran, "
                 "whatever MPIPROF_CHECK the traced run had");
    else if (t->findings_from < t->nprocesses)
        mpp_warn("Correctness: the trace carries the findings of %d of its %d processes (the others ended before "
                 "their findings could be written): theirs are missing",
                 t->findings_from, t->nprocesses);
    if (t->findings_bad)
        mpp_warn("Correctness: the findings of %d processes in the trace are unreadable (mpiprof::findings "
                 "damaged); those read before the damage are kept",
                 t->findings_bad);
}

/* Rank 0: the protocol written at output (or beside the archive) and what
 * is said of it; 0 when written.  size: the analyzing processes (0: one,
 * without MPI). */
static int write_protocol(mpp_reduced_t *rd, const char *archive, const char *output, long format, int quiet,
                          const mpp_config_t *config, const rp_trace_t *trace, const rp_totals_t *all,
                          const rp_bounds_t *bounds, int size, const char *matrix_na)
{
    mark_waits(rd);
    mpp_run_info_t run;
    describe_run(trace, all, bounds, size ? size : 1, &run);
    warn_totals(trace, all, bounds);
    warn_findings(trace);
    warn_threads(trace);
    char path[4096];
    if (output)
        snprintf(path, sizeof path, "%s", output);
    else
        default_output(archive, path, sizeof path);
    mpp_report_input_t in = {.run = &run,
                             .config = config,
                             .model = NULL,
                             .warnings_from = 0,
                             .model_na = model_na,
                             .matrix_na = matrix_na};
    int rc = mpp_report_write(rd, &in, path, (int)format) != 0;
    if (rc) {
        for (size_t w = 0; w < mpp_warnings_count(); w++)
            fprintf(stderr, "mpiprof-analyze: %s\n", mpp_warning_text(w));
    } else if (all->incomplete) {
        fprintf(stderr,
                "mpiprof-analyze: %s: the trace is incomplete (%s); the protocol %s covers what it "
                "holds\n",
                archive, all->incomplete_why, path);
    } else if (!quiet) {
        printf("mpiprof-analyze: %d processes, %llu events (%llu MPI) analysed into %s%s", trace->nprocesses,
               (unsigned long long)all->events, (unsigned long long)all->mpi_events, path,
               format & MPP_FORMAT_TEXT   ? ""
               : format & MPP_FORMAT_JSON ? ".json"
                                          : ".html");
        if (size)
            printf(" by %d processes", size);
        printf("\n");
    }
    return rc;
}

/* The communication matrix's pairs of this share's processes, on rank 0
 * those of all (MPIPROF_MATRIX as the analyzer's environment says; *na
 * why there are none).  Before the shares exchange their sends: t->sends
 * is still this share's. */
static int matrix_pairs(const rp_trace_t *t, int first, int end, const mpp_config_t *config, const rp_mpi_t *mpi,
                        mpp_pair_t **pairs, int *n, const char **na)
{
    *pairs = NULL, *n = 0;
    *na = "MPIPROF_MATRIX=off";
    if (!config->number[MPP_CFG_MATRIX])
        return 0;
    *na = "out of memory, as Warnings say";
    int failed = rp_matrix_pairs(t, first, end, pairs, n) != 0;
    if (mpi && rp_mpi_any(mpi, failed))
        failed = 1, free(*pairs), *pairs = NULL, *n = 0;
    if (!failed && mpi)
        failed = rp_mpi_gather_pairs(mpi, pairs, n) != 0;
    if (failed)
        mpp_warn("out of memory for the communication matrix: it is left out of the protocol");
    return failed ? -1 : 1;
}

/* Rank 0: the matrix of every process's pairs (taken over), set in rd;
 * *na NULL when it is there. */
static void set_matrix(mpp_reduced_t *rd, const rp_trace_t *t, const mpp_config_t *config, mpp_pair_t *pairs, int n,
                       int have, const char **na)
{
    if (have <= 0) {
        free(pairs);
        return;
    }
    const char **hosts = malloc((size_t)(t->nprocesses > 0 ? t->nprocesses : 1) * sizeof *hosts);
    for (int p = 0; hosts && p < t->nprocesses; p++)
        hosts[p] = t->processes[p].host;
    rd->matrix =
        hosts ? mpp_matrix_build(pairs, n, t->nprocesses, hosts, (int)config->number[MPP_CFG_MATRIX_RANKS], config)
              : (free(pairs), NULL);
    free(hosts);
    if (rd->matrix)
        *na = NULL;
    else
        mpp_warn("out of memory for the communication matrix: it is left out of the protocol");
}

/* The protocol of the archive, written by rank 0; the exit status. */
static int analyze(const char *archive, const char *output, long format, int quiet, rp_mpi_t *mpi)
{
    mpp_warnings_set_echo(0);
    mpp_config_t config;
    mpp_config_parse(&config, NULL);
    if (format < 0)
        format = config.number[MPP_CFG_FORMAT];
    int rank = mpi ? mpi->rank : 0, size = mpi ? mpi->size : 1;

    rp_trace_t trace;
    char why[4096 + 1024];
    int unread = rp_trace_read_share(&trace, archive, rank, size, why, sizeof why) != 0;
    if (stopped(mpi, unread, why)) {
        if (!unread)
            rp_trace_free(&trace);
        return 1;
    }
    int first, end;
    rp_share(trace.nprocesses, rank, size, &first, &end);
    uint64_t sends = trace.nsends;
    mpp_pair_t *pairs;
    int npairs;
    const char *matrix_na;
    int have_matrix = matrix_pairs(&trace, first, end, &config, mpi, &pairs, &npairs, &matrix_na);
    if (mpi) {
        mpi->nprocesses = trace.nprocesses;
        mpi->ncomms = trace.ncomms;
        snprintf(why, sizeof why,
                 "process %d replays %d traced processes, one thread each, which needs "
                 "MPI_THREAD_MULTIPLE: the MPI library does not give it (run it with -n %d: one each)",
                 rank, end - first, trace.nprocesses);
        if (stopped(mpi, end - first > 1 && !mpi->thread_multiple, why) ||
            stopped(mpi, rp_mpi_gather_sends(mpi, &trace) != 0, "out of memory for the messages of its share")) {
            free(pairs);
            rp_trace_free(&trace);
            return 1;
        }
    }
    /* the clocks corrected by the messages before any wait is computed
     * (no memory, or contradictory bounds: the measured offsets alone) */
    rp_bounds_t bounds;
    rp_clock_bounds(&trace, mpi ? rp_mpi_gather_bounds : NULL, mpi, &bounds);
    /* (no memory: the waits said unmatched) */
    (void)rp_waits(&trace, mpi ? rp_mpi_combine : NULL, mpi, (int)config.number[MPP_CFG_MAX_INTERVALS],
                   (int)config.number[MPP_CFG_MAX_NESTING]);
    rp_totals_t all;
    rp_totals(&trace, sends, &all);
    if (mpi)
        rp_mpi_totals(mpi, &all);
    snprintf(why, sizeof why, "%s: %s", archive, RP_NO_MPI_EVENTS);
    int failed = stopped(mpi, rank == 0 && !all.mpi_events, why);
    mpp_reduced_t *rd = failed ? NULL : reduce_share(&trace, first, end, &config, mpi, &failed);
    int rc = failed;
    if (rd) { /* rank 0 */
        set_matrix(rd, &trace, &config, pairs, npairs, have_matrix, &matrix_na);
        pairs = NULL;
        rc = write_protocol(rd, archive, output, format, quiet, &config, &trace, &all, &bounds, mpi ? size : 0,
                            matrix_na);
        mpp_reduced_free(rd);
    }
    free(pairs);
    if (mpi && rp_mpi_any(mpi, rc))
        rc = 1;
    rp_trace_free(&trace);
    return rc ? 1 : all.incomplete ? 3 : 0;
}

/* The anchor file of the archive `given` names: itself, or the one
 * *.otf2 file in the directory given (traces.otf2, as trace mode and
 * Score-P write it); 0, or -1 with why said (by rank 0). */
static int anchor_of(const char *given, char *anchor, size_t size, int speaks)
{
    struct stat st;
    snprintf(anchor, size, "%s", given);
    if (stat(given, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0; /* the reader says what is wrong with a file */
    char pattern[4200];
    snprintf(pattern, sizeof pattern, "%s%s*.otf2", given, given[strlen(given) - 1] == '/' ? "" : "/");
    glob_t found;
    int rc = glob(pattern, 0, NULL, &found);
    if (rc == 0 && found.gl_pathc == 1) {
        snprintf(anchor, size, "%s", found.gl_pathv[0]);
        globfree(&found);
        return 0;
    }
    if (speaks && rc == 0)
        fprintf(stderr, "mpiprof-analyze: %s: a directory of %zu OTF2 anchor files (*.otf2): give one of them\n",
                given, found.gl_pathc);
    else if (speaks)
        fprintf(stderr,
                "mpiprof-analyze: %s: a directory without an OTF2 anchor file (*.otf2, such as traces.otf2): not "
                "an OTF2 archive\n",
                given);
    if (rc == 0)
        globfree(&found);
    return -1;
}

int main(int argc, char **argv)
{
    /* MPI only under a launcher: alone the analyzer runs where no MPI
     * runtime is set up, and pays nothing for it */
    rp_mpi_t mpi;
    int launched = rp_mpi_launched();
    if (launched)
        rp_mpi_init(&mpi, &argc, &argv);
    int speaks = !launched || mpi.rank == 0; /* the usage is said once */
    const mpp_cli_t cli = {"mpiprof-analyze", usage, "o:f:q", NULL, !speaks};
    const char *output = NULL;
    long format = -1;
    int quiet = 0, c, rc = -1;
    while (rc < 0 && (c = mpp_cli_next(&cli, argc, argv, &rc)) != -1) {
        if (c == MPP_CLI_EXIT)
            break;
        if (c == 'o')
            output = optarg;
        else if (c == 'q')
            quiet = 1;
        else if (c == 'f' && mpp_config_parse_format(optarg, &format) != 0)
            rc = mpp_cli_error(
                &cli, "-f %s: not a format (text, json, html, a comma-separated set of them, both or all)", optarg);
    }
    if (rc < 0 && argc - optind != 1)
        rc = mpp_cli_error(&cli, "%s", argc - optind < 1 ? "no trace given" : "one trace at a time");
    char anchor[4096];
    if (rc < 0 && anchor_of(argv[optind], anchor, sizeof anchor, speaks) != 0)
        rc = 1;
    if (rc < 0)
        rc = analyze(anchor, output, format, quiet, launched && mpi.size > 1 ? &mpi : NULL);
    if (launched)
        rp_mpi_finalize(&mpi);
    return rc;
}
