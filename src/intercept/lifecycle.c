/* The hand-written wrappers: MPI_Init and MPI_Init_thread start the profiler,
 * MPI_Finalize runs the pipeline  accumulate -> reduce -> analyze -> write
 * before the MPI library shuts down. */
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "accumulate/intervals.h"
#include "accumulate/profile.h"
#include "analyze/characteristics.h"
#include "analyze/model.h"
#include "attribute/callsite.h"
#include "attribute/requests.h"
#include "attribute/symbolize.h"
#include "attribute/thread_state.h"
#include "attribute/watchdog.h"
#include "autoconf.h"
#include "context/clock.h"
#include "context/config.h"
#include "context/config_unknown.h"
#include "context/counters.h"
#include "context/runinfo.h"
#include "context/threads.h"
#include "context/topology.h"
#include "gen/function_table.h"
#include "intercept/check/ends.h"
#include "intercept/check/errors.h"
#include "intercept/check/run.h"
#include "intercept/faults.h"
#include "intercept/lifecycle.h"
#include "intercept/matrix_hook.h"
#include "intercept/trace_hooks.h"
#include "intercept/waitstates/run.h"
#include "intercept/world.h"
#include "intercept/wrapper_support.h"
#include "reduce/calibrate.h"
#include "reduce/exchange.h"
#include "reduce/ptp_collectives.h"
#include "reduce/reduce.h"
#include "reduce/share.h"
#include "util/srckey.h"
#include "util/warnings.h"
#include "write/partial.h"
#include "write/process_data.h"
#include "write/report.h"
#include "write/writer.h"

static int active;    /* between a profiled MPI_Init and MPI_Finalize */
static int finishing; /* MPI_Finalize's protocol is on its way (a partial one can still be written) */
static int state = MPP_LIFE_BEFORE;
static int rank, nprocs;
static MPI_Comm profiler_comm = MPI_COMM_NULL;
static mpp_run_info_t run;
static uintptr_t init_site[MPP_MAX_DEPTH];
/* The calls that started and ended the profile, as the Clock line names
 * them (world.h: MPI_Session_init and _finalize in a program of sessions). */
static const char *started_in = "MPI_Init", *ended_in = "MPI_Finalize";
static mpp_calibration_t calibration; /* the communication model (model.h) */
static const char *matrix_na;         /* why MPI_Finalize's protocol has no communication matrix */

/* The protocol's path, when it is fixed at MPI_Init (the hang watchdog's
 * dumps go next to it); "": chosen at MPI_Finalize. */
static char fixed_path[PATH_MAX];
static int hang_timeout;   /* rank 0's MPIPROF_HANG_TIMEOUT; 0: off */
static char hang_run[160]; /* names the run in every process's hang dump */

MPP_EXPORT const char *mpiprof_version(void) { return PACKAGE_VERSION; }

int mpp_lifecycle_state(void) { return state; }
int mpp_lifecycle_quiet(void) { return (int)mpp_config.number[MPP_CFG_QUIET]; }

/* "file:line" of a return address, for warnings about marks (rare: the
 * symbolizer is opened for each). */
static void describe_site(uintptr_t site, char *out, unsigned size)
{
    mpp_symbolizer_t *sym = mpp_symbolizer_open();
    mpp_srckey_record_text(sym ? mpp_symbolize(sym, site) : "?", out, size);
    mpp_symbolizer_close(sym);
}

static const char *thread_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE:
        return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED:
        return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED:
        return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE:
        return "MPI_THREAD_MULTIPLE";
    default:
        return "unknown";
    }
}

/* Rank 0's MPIPROF_HANG_TIMEOUT, for every process; when it is on (or trace
 * mode), the protocol's path is chosen now, by rank 0, so that each process
 * knows where its hang dump (<protocol>.hang.<rank>) and trace go.  Collective. */
static int hang_setup(void)
{
    int timeout = mpp_share_int(profiler_comm, (int)mpp_config.number[MPP_CFG_HANG_TIMEOUT]);
    fixed_path[0] = '\0';
    if (timeout <= 0 && !mpp_share_int(profiler_comm, (int)mpp_config.number[MPP_CFG_TRACE])) /* trace: there too */
        return 0;
    if (rank == 0) {
        if (mpp_output_path(mpp_config.text[MPP_CFG_OUTPUT], run.program_name, nprocs, run.hostname,
                            (int)mpp_config.number[MPP_CFG_OVERWRITE], (int)mpp_config.number[MPP_CFG_FORMAT],
                            fixed_path, sizeof fixed_path) != 0)
            fixed_path[0] = '\0';
        /* dumps of an earlier run may lie at the same path: mpiprof-hang tells them apart */
        snprintf(hang_run, sizeof hang_run, "%.64s-%ld-%ld", run.hostname, (long)getpid(), (long)time(NULL));
    }
    mpp_share_text(profiler_comm, fixed_path, sizeof fixed_path);
    mpp_share_text(profiler_comm, hang_run, sizeof hang_run);
    if (!fixed_path[0] && timeout > 0) {
        mpp_warn("MPIPROF_HANG_TIMEOUT: no writable place for the protocol, so none for hang dumps; "
                 "hangs are not detected");
        return 0;
    }
    return timeout > 0 ? timeout : 0;
}

static void hang_start(void)
{
    mpp_watchdog_setup_t setup = {.timeout = hang_timeout,
                                  .rank = rank,
                                  .world_size = nprocs,
                                  .quiet = (int)mpp_config.number[MPP_CFG_QUIET],
                                  .protocol_path = fixed_path,
                                  .run = hang_run,
                                  .host = run.hostname,
                                  .program = run.program};
    if (mpp_watch_comms_start() != 0 || mpp_watchdog_start(&setup) != 0) {
        mpp_watch_comms_stop();
        hang_timeout = 0;
    }
}

/* The id of an MPI function by its name in lower case ("mpi_file_open"):
 * which function an entry point of the MPI library's bindings implements
 * (callsite.h, mpp_callsite_library_call). */
static int function_of_name(const char *name)
{
    for (int f = 0; f < MPP_NFUNCTIONS; f++)
        if (!strcasecmp(mpp_functions[f].name, name))
            return f;
    return -1;
}

/* The run as the protocol's Parameters describe it: program, directory,
 * start, thread level, MPI library and host. */
static void describe_run(int provided)
{
    memset(&run, 0, sizeof run);
    mpp_read_command_line(run.program, sizeof run.program, run.program_name, sizeof run.program_name);
    if (!getcwd(run.cwd, sizeof run.cwd))
        strcpy(run.cwd, "(unknown)");
    mpp_now_iso8601(run.started, sizeof run.started);
    run.nprocs = nprocs;
    snprintf(run.threads_level, sizeof run.threads_level, "%s", thread_level_name(provided));
    char library[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0, version = 0, subversion = 0;
    PMPI_Get_library_version(library, &len);
    library[strcspn(library, "\n")] = '\0';
    /* its first line, cut to fit */
    snprintf(run.mpi_library, sizeof run.mpi_library, "%.*s", (int)sizeof run.mpi_library - 1, library);
    PMPI_Get_version(&version, &subversion);
    snprintf(run.mpi_standard, sizeof run.mpi_standard, "%d.%d", version, subversion);
    gethostname(run.hostname, sizeof run.hostname - 1);
}

/* The communication model: calibrated (or given), then used by every
 * modelled call from here on. */
static void start_model(void)
{
    mpp_calibration_free(&calibration);
    mpp_calibrate(profiler_comm, run.hostname, (int)mpp_config.number[MPP_CFG_PREDICT],
                  mpp_config.text[MPP_CFG_MODEL], &calibration);
    if (calibration.model_malformed) { /* warned: what is in effect is the default */
        snprintf(mpp_config.text[MPP_CFG_MODEL], MPP_CONFIG_STRING_MAX, "%s", mpp_vars[MPP_CFG_MODEL].default_value);
        mpp_config.is_default[MPP_CFG_MODEL] = 1;
    }
    if (calibration.setup.enabled) {
        mpp_requests_set_tick_rate(mpp_clock_rate_estimate());
        mpp_model_runtime_start(&calibration.setup.model, calibration.setup.nodes, calibration.same_node,
                                calibration.world_size);
    }
}

/* Context, once per process: the CPU binding (hwloc's topology itself is
 * loaded at MPI_Finalize, by one process per host), and the counters,
 * started before interval 0 opens so that it reads them; then the
 * intervals, interval 0 opened at *interval0.  -1 when out of memory
 * (warned, the counters stopped again). */
static int start_intervals(uint64_t *interval0)
{
    mpp_topology_start();
    mpp_counters_start(mpp_config.text[MPP_CFG_PAPI_EVENTS], (int)mpp_config.number[MPP_CFG_PAPI_SRC]);
    *interval0 = mpp_now();
    /* the last 4096 interval boundaries (64 KiB): the ends that bound the
     * windows of collective instances not reduced yet (intervals.h) */
    if (mpp_interval_log_init(4096) != 0 ||
        mpp_intervals_init((uint32_t)mpp_config.number[MPP_CFG_MAX_INTERVALS] + 1,
                           (uint32_t)mpp_config.number[MPP_CFG_MAX_NESTING], *interval0) != 0) {
        mpp_warn("out of memory at MPI_Init; the profiler is disabled for this run");
        mpp_counters_stop();
        return -1;
    }
    return 0;
}

void mpp_lifecycle_start(uint32_t fid, int provided, void *return_address, void *frame_address)
{
    if (active || state == MPP_LIFE_AFTER) /* MPI started again (sessions) after the protocol: not profiled */
        return;
    PMPI_Comm_rank(mpp_world(), &rank);
    PMPI_Comm_size(mpp_world(), &nprocs);
    started_in = mpp_world_model() ? "MPI_Init" : "MPI_Session_init";
    mpp_world_size = nprocs;
    mpp_config_parse(&mpp_config, NULL);
    mpp_config_warn_unknown(environ); /* a misspelt MPIPROF_* name, said once (rank 0's stderr) */
    mpp_warnings_set_echo(rank == 0 && !mpp_config.number[MPP_CFG_QUIET] && !mpp_config.number[MPP_CFG_DISABLE]);
    if (mpp_config.number[MPP_CFG_DISABLE]) {
        state = MPP_LIFE_DISABLED;
        return;
    }

    PMPI_Comm_dup(mpp_world(), &profiler_comm);
    char unique[64] = "";
    if (rank == 0)
        mpp_output_unique(unique, sizeof unique);
    mpp_ptp_bcast(unique, sizeof unique, MPI_CHAR, 0, profiler_comm);
    mpp_output_set_unique(unique);
    describe_run(provided);

    mpp_clock_start((int)mpp_config.number[MPP_CFG_CLOCK], mpp_config.text[MPP_CFG_TEST_CLOCK_SKEW]);
    uint64_t entered = mpp_now(); /* trace mode's Enter of MPI_Init */
    mpp_callsite_init((int)mpp_config.number[MPP_CFG_DEPTH], (int)mpp_config.number[MPP_CFG_UNWIND],
                      function_of_name);
    uintptr_t stack_lo, stack_hi;
    mpp_stack_bounds(&stack_lo, &stack_hi);
    mpp_callsite_capture(init_site, NULL, mpp_callsite_depth(), return_address, frame_address, stack_lo, stack_hi);
    hang_timeout = hang_setup();
    mpp_requests_init(provided == MPI_THREAD_MULTIPLE || hang_timeout > 0);
    mpp_thread_requests_keep_frames(provided >= MPI_THREAD_SERIALIZED);
    start_model();
    mpp_describe_site = describe_site;
    mpp_ws_run_start(profiler_comm, &run, provided == MPI_THREAD_MULTIPLE);
    mpp_matrix_start(profiler_comm, provided == MPI_THREAD_MULTIPLE);
    mpp_check_run_start(profiler_comm, rank);
    mpp_check_errors_start(); /* with the checks on: mpiprof's handlers for MPI's fatal ones */
    mpp_trace_mode_start(profiler_comm, rank, nprocs, fixed_path, (int)mpp_config.number[MPP_CFG_OVERWRITE], &run);
    uint64_t interval0;
    if (start_intervals(&interval0) != 0)
        return;
    if (mpp_trace_on)
        mpp_trace_init_call(fid, init_site, mpp_callsite_depth(), entered, interval0);
    mpp_union_tracking = mpp_union_measured = provided == MPI_THREAD_MULTIPLE;
    active = 1;
    state = MPP_LIFE_ACTIVE;
    mpp_threads_start();
    mpp_collect_set(1, 0);
    mpp_thread_attach_bounded(stack_lo, stack_hi); /* bounds as for MPI_Init's call site: one read of the maps */
    static const mpp_faults_profile_t profile = {mpp_lifecycle_partial_possible, mpp_lifecycle_ending_call,
                                                 mpp_lifecycle_stop, mpp_lifecycle_partial, mpp_check_ends_report};
    mpp_faults_start(rank, nprocs, (int)mpp_config.number[MPP_CFG_QUIET], &profile);
    if (hang_timeout > 0) {
        hang_start();
        mpp_collect_set(1, 0); /* the watchdog's calls take the general path */
    }
}

static const char *resolve_frame(void *ctx, uintptr_t address) { return mpp_symbolize(ctx, address); }

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }

static int function_model_op(uint32_t fid)
{
    return fid < MPP_NFUNCTIONS ? mpp_functions[fid].model_op : MPP_OP_MEASURED;
}

/* File and line of a return address: the position of MPI_Init's call
 * (interval 0) and of interval marks made from Fortran or MPI_Pcontrol. */
static void resolve_position(mpp_symbolizer_t *sym, uintptr_t site, char *file, size_t size, int *line)
{
    const char *record = mpp_symbolize(sym, site);
    char *function;
    mpp_frame_t *frames;
    char key[2048];
    snprintf(key, sizeof key, "MPI_Init%c%s", '\x1e', record);
    int n = mpp_srckey_parse(key, &function, &frames);
    if (n > 0) {
        snprintf(file, size, "%s", frames[0].line ? frames[0].file : frames[0].text);
        *line = frames[0].line;
    }
    free(function);
    mpp_srckey_free_frames(frames, n);
}

/* MPP_SRC_* bits of the wait states that apply to a function. */
static int waits_of(const char *function)
{
    for (int f = 0; f < MPP_NFUNCTIONS; f++) {
        if (strcmp(mpp_functions[f].name, function))
            continue;
        if (mpp_functions[f].by_request)
            return MPP_SRC_REALSYNC | MPP_SRC_COLLECTIVE_WAITS;
        if (mpp_functions[f].category == MPP_CAT_SENDRECV)
            return MPP_SRC_REALSYNC;
        if (mpp_functions[f].category == MPP_CAT_COLLECTIVE)
            return MPP_SRC_COLLECTIVE_WAITS;
        return 0;
    }
    return 0;
}

/* MPI_Finalize's lines on stderr, once the protocol is written. */
static void announce(void *ctx, const mpp_report_t *report)
{
    const char *path = ctx;
    int format = (int)mpp_config.number[MPP_CFG_FORMAT];
    if (mpp_config.number[MPP_CFG_QUIET])
        return;
    /* the first file written, and the suffixes of the others */
    char shown[PATH_MAX + 16], others[32] = "";
    const char *first = format & MPP_FORMAT_TEXT ? "" : format & MPP_FORMAT_JSON ? ".json" : ".html";
    snprintf(shown, sizeof shown, "%s%s%s%s", path[0] == '/' ? "" : run.cwd, path[0] == '/' ? "" : "/", path, first);
    if ((format & MPP_FORMAT_JSON) && *first != '.')
        strcat(others, ".json");
    if ((format & MPP_FORMAT_HTML) && strcmp(first, ".html") != 0)
        strcat(strcat(others, *others ? ", " : ""), ".html");
    fprintf(stderr, "mpiprof: protocol written to %s%s%s%s\n", shown, *others ? " (and " : "", others,
            *others ? ")" : "");
    mpp_write_headline(stderr, report);
}

/* The protocol, or this process's partial protocol at <protocol
 * path>.partial.<rank> (the path written to `written`, "" when none). */
static void write_report(mpp_reduced_t *rd, size_t local_warnings_before, const mpp_partial_t *partial, char *written,
                         size_t size)
{
    char path[PATH_MAX], template_text[2 * PATH_MAX + 32];
    int format = (int)mpp_config.number[MPP_CFG_FORMAT], overwrite = (int)mpp_config.number[MPP_CFG_OVERWRITE];
    snprintf(template_text, sizeof template_text, "%s", mpp_config.text[MPP_CFG_OUTPUT]);
    if (partial)
        format = mpp_partial_format(format);
    if (partial) {
        /* the protocol's path (an older protocol there does not matter),
         * then its partial protocol's, as a template: '%' doubled */
        char base[PATH_MAX];
        if (mpp_output_path(template_text, run.program_name, nprocs, run.hostname, 1, format, base, sizeof base) != 0)
            base[0] = '\0';
        size_t n = 0;
        for (const char *c = base; *c && n + 2 < sizeof template_text - 32; c++) {
            if (*c == '%')
                template_text[n++] = '%';
            template_text[n++] = *c;
        }
        snprintf(template_text + n, sizeof template_text - n, ".partial.%d", rank);
    }
    int have_path = !partial && fixed_path[0] ? (snprintf(path, sizeof path, "%s", fixed_path), 1)
                                              : mpp_output_path(template_text, run.program_name, nprocs, run.hostname,
                                                                overwrite, format, path, sizeof path) == 0;
    if (!have_path)
        mpp_warn("no writable place for the protocol was found; it is not written");
    /* SRC points are in order of their keys, which begin with the
     * function: the points of one function follow one another, and their
     * function is looked up once (the whole list of MPI functions per
     * point before: 10^5 strcmp for 1000 points) */
    for (int s = 0; s < rd->nsrcs; s++) {
        const mpp_reduced_src_t *previous = s ? &rd->srcs[s - 1] : NULL;
        rd->srcs[s].waits = previous && previous->function && rd->srcs[s].function &&
                                    !strcmp(previous->function, rd->srcs[s].function)
                                ? previous->waits
                                : waits_of(rd->srcs[s].function);
    }
    if (partial) {
        snprintf(run.clock, sizeof run.clock, "%s, resolution %.3g s%s%s%s", mpp_clock_name(), mpp_clock_resolution(),
                 mpp_ws_run_on() ? ", aligned to rank 0 at " : "", mpp_ws_run_on() ? started_in : "",
                 mpp_ws_run_on() ? " only (a partial protocol)" : "");
        snprintf(run.waitstates, sizeof run.waitstates, "not given in a partial protocol");
        mpp_trace_mode_partial(partial->ends, mpp_ws_run_alignment(), &run);
    }
    mpp_report_input_t in = {.run = &run,
                             .config = &mpp_config,
                             .model = &calibration.setup,
                             .warnings_from = local_warnings_before,
                             .partial = partial,
                             .waitstates_na = partial                      ? mpp_partial_waits_reason
                                              : mpp_ws_run_off_reason()[0] ? mpp_ws_run_off_reason()
                                                                           : NULL,
                             .matrix_na = partial ? NULL : matrix_na,
                             .written = partial ? NULL : announce,
                             .written_ctx = path};
    int rc = mpp_report_write(rd, &in, have_path ? path : NULL, format);
    snprintf(written, size, "%s", rc == 0 ? path : "");
}

void mpp_lifecycle_stop(uint64_t end, int read_counters)
{
    mpp_collect_set(0, 0);
    mpp_model_runtime_stop();
    active = 0;
    state = MPP_LIFE_AFTER;
    finishing = 1;
    if (!read_counters) /* PAPI's state is the parent's: not read in a child (lifecycle.h) */
        mpp_interval_counters = NULL;
    mpp_intervals_close_all(end);
    mpp_union_tracking = 0;
    if (read_counters)
        mpp_counters_stop();
    mpp_clock_stop();
    mpp_now_iso8601(run.finished, sizeof run.finished);
}

/* This process's profile: every thread's table, the intervals, the model's
 * part and the context (what reduce needs of the machine and the
 * counters); `counters_na`: why the counters are left out (NULL: export
 * them).  The tables array is kept in *tables until the profile is freed. */
static mpp_local_profile_t *local_profile(mpp_symbolizer_t *sym, const char *counters_na, const mpp_table_t ***tables)
{
    if (init_site[0])
        resolve_position(sym, init_site[0], run.init_file, sizeof run.init_file, &run.init_line);
    for (uint32_t i = 1; i < mpp_nintervals; i++)
        if (!mpp_intervals[i].file[0] && mpp_intervals[i].site)
            resolve_position(sym, mpp_intervals[i].site, mpp_intervals[i].file, sizeof mpp_intervals[i].file,
                             &mpp_intervals[i].line);
    int ntables = 0;
    for (mpp_thread_t *t = mpp_threads(); t; t = t->next)
        ntables++;
    *tables = calloc((size_t)ntables + 1, sizeof **tables);
    if (!*tables)
        return NULL;
    int k = 0;
    for (mpp_thread_t *t = mpp_threads(); t; t = t->next)
        (*tables)[k++] = &t->table;
    mpp_local_profile_t *profile = mpp_profile_build(*tables, ntables, mpp_intervals, (int)mpp_nintervals,
                                                     mpp_ticks_to_seconds, resolve_frame, sym, function_name);
    if (profile) {
        mpp_check_local_list(&profile->findings, rank, resolve_frame, sym, function_name);
        profile->findings_max = (size_t)mpp_config.number[MPP_CFG_MAX_FINDINGS];
        /* the model's parameters as they stand: MPI_Finalize's
         * measurement taken into account, or MPI_Init's alone (a partial
         * protocol); none that could be plausible: no prediction */
        profile->predict = mpp_model_usable(&calibration.setup);
        profile->thread_times = mpp_union_measured; /* MPI_THREAD_MULTIPLE */
        profile->speed = calibration.speed;
        if (profile->predict)
            mpp_profile_predict(profile, function_model_op, &calibration.setup.model);
        mpp_local_context_t *ctx = &profile->context;
        double *values = NULL;
        ctx->machine_na = mpp_topology_na();
        ctx->binding = mpp_topology_binding();
        ctx->describe_node = mpp_topology_describe;
        if (counters_na) {
            ctx->counters_na = counters_na;
        } else if (mpp_counters_export(profile->nintervals, &ctx->counters_na, &ctx->events, &ctx->nevents,
                                       &ctx->facts, &ctx->nfacts, &values) != 0 ||
                   mpp_profile_set_counters(profile, values) != 0) {
            mpp_warn("out of memory at MPI_Finalize: hardware counters are left out of the protocol");
            ctx->nevents = 0;
        }
        if (mpp_threads_add_fact(&ctx->facts, &ctx->nfacts, run.hostname) != 0)
            mpp_warn("out of memory at MPI_Finalize: the threads are left out of the protocol");
    }
    return profile;
}

/* The call that ends the profile (MPI_Finalize, or the last
 * MPI_Session_finalize) is the call its thread is in from its entry until
 * the MPI library's returns, like a wrapped call: a process that ends in
 * between names it in its partial protocol (faults.c), and the hang
 * watchdog watches it.  Static: the thread's current call must stay valid
 * to the end (a wrapper's call lives on its stack, gone once it returns). */
static mpp_call_t finalize_call;
static mpp_thread_t *finalizing;

int mpp_lifecycle_ending_call(const struct mpp_call *c) { return c && c == &finalize_call; }

static void enter_finalize(uint32_t fid, uint64_t now, void *return_address, void *frame_address)
{
    mpp_thread_t *t = mpp_tls_thread ? mpp_tls_thread : mpp_thread_attach();
    if (!t || mpp_thread_in_call(t))
        return; /* called from inside another MPI call: that one stays the current call */
    finalize_call = (mpp_call_t){.thread = t, .fid = fid, .frame = frame_address, .t0 = now};
    /* set before the entry counts: a signal handler that sees the thread in
     * a call reads this call, never the previous one's dead frame */
    t->current = &finalize_call;
    atomic_signal_fence(memory_order_seq_cst);
    mpp_call_enter(t, &finalize_call, fid, frame_address);
    finalizing = t;
    if (hang_timeout > 0) /* a process may hang in MPI_Finalize too: watched until it returns */
        mpp_watch_finalize_enter(&finalize_call, return_address, frame_address);
}

void mpp_lifecycle_finish(uint32_t fid, void *return_address, void *frame_address)
{
    if (!active)
        return;
    uint64_t end = mpp_now();
    enter_finalize(fid, end, return_address, frame_address);
    ended_in = fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_Finalize";
    mpp_collect_set(0, 0);
    /* The intervals end, and the counters are last read, where the program
     * entered MPI_Finalize: the wait-state exchange and the clocks' second
     * alignment that follow are the profiler's work (a process that waited
     * there for a late one had that wait counted as its program's CPU time,
     * more than its wall time). */
    mpp_intervals_close_all(end);
    mpp_ws_run_finish(profiler_comm, run.hostname);
    mpp_lifecycle_stop(end, 1);
    mpp_threads_sample(0);
    mpp_check_run_end(1); /* before the trace is closed: it carries the findings (trace_mode.c) */
    mpp_trace_mode_finish(profiler_comm, end, mpp_ws_run_alignment(), mpp_ws_run_final_alignment(), &run);
    mpp_calibrate_again(profiler_comm, &calibration); /* after the counters' last read: not the program's */
    mpp_symbolizer_t *sym = mpp_symbolizer_open();
    const mpp_table_t **tables = NULL;
    mpp_local_profile_t *profile = local_profile(sym, NULL, &tables);
    if (profile)
        profile->waitstates = mpp_ws_run_on();
    size_t warnings_before = mpp_warnings_count();
    mpp_reduced_t *rd =
        profile ? mpp_reduce(profile, profiler_comm, mpp_config.text[MPP_CFG_RANKS], run.hostname) : NULL;
    mpp_matrix_t *matrix = mpp_matrix_finish(profiler_comm, run.hostname, &matrix_na);
    if (matrix)
        matrix_na = NULL;
    if (rd)
        rd->matrix = matrix;
    else
        mpp_matrix_free(matrix);
    mpp_ws_run_describe(
        rank, &run, started_in,
        ended_in); /* its warnings are rank 0's about the run: added as they are, after the reduction's */
    char written[PATH_MAX];
    if (rank == 0 && rd) {
        write_report(rd, warnings_before, NULL, written, sizeof written);
        mpp_check_summary_line(&rd->findings);
    }
    finishing = 0;
    mpp_reduced_free(rd);
    mpp_profile_free(profile);
    mpp_counters_release();
    free(tables);
    mpp_symbolizer_close(sym);
    mpp_calibration_free(&calibration);
    PMPI_Comm_free(&profiler_comm);
    mpp_faults_stop();
    if (hang_timeout > 0)
        mpp_watch_comms_stop();
}

void mpp_lifecycle_finalized(void)
{
    if (finalizing) /* the ending call returned */
        atomic_store_explicit(&finalizing->left, atomic_load_explicit(&finalizing->entered, memory_order_relaxed),
                              memory_order_relaxed);
    finalizing = NULL;
    if (hang_timeout <= 0)
        return;
    mpp_watchdog_stop(); /* its last look marks a dump of MPI_Finalize as resumed */
    hang_timeout = 0;
}

int mpp_lifecycle_rank(void) { return rank; }
int mpp_lifecycle_waitstates(void) { return mpp_ws_run_on(); }
int mpp_lifecycle_nprocs(void) { return nprocs; }
int mpp_lifecycle_partial_possible(void) { return active || finishing; }

/* The SRC point of the call a process ended in, and its call stack as the
 * protocol prints it; the node described now, for the process data. */
static void locate_end(mpp_process_end_t *end, uint32_t fid, const uintptr_t *frames, mpp_symbolizer_t *sym,
                       const mpp_reduced_t *rd)
{
    int depth = 0;
    while (depth < mpp_callsite_depth() && frames[depth])
        depth++;
    if (!depth)
        return;
    char *key = mpp_profile_src_key(fid < MPP_NFUNCTIONS ? fid : 0, frames, depth, resolve_frame, sym, function_name);
    char *function = NULL;
    mpp_frame_t *fr = NULL;
    int n = key ? mpp_srckey_parse(key, &function, &fr) : 0;
    size_t at = 0;
    for (int f = 0; f < n && at < sizeof end->site; f++)
        at += (size_t)snprintf(end->site + at, sizeof end->site - at, "%s%s", f ? " <- " : "", fr[f].text);
    /* an SRC point of the protocol with the same function and frames */
    for (int s = 0; fid < MPP_NFUNCTIONS && s < rd->nsrcs && !end->src; s++) {
        const mpp_reduced_src_t *src = &rd->srcs[s];
        int same = src->nframes == n && !strcmp(src->function, function);
        for (int f = 0; same && f < n; f++)
            same = !strcmp(src->frames[f].text, fr[f].text) && !strcmp(src->frames[f].path, fr[f].path);
        if (same)
            end->src = src->id;
    }
    free(function);
    mpp_srckey_free_frames(fr, n);
    free(key);
}

int mpp_lifecycle_partial(mpp_process_end_t *end, uint32_t fid, const uintptr_t *frames, int counters_read,
                          char *written, size_t size)
{
    written[0] = '\0';
    mpp_check_run_end(0);
    mpp_symbolizer_t *sym = mpp_symbolizer_open();
    const mpp_table_t **tables = NULL;
    mpp_local_profile_t *profile =
        local_profile(sym,
                      counters_read ? NULL
                                    : "not read for a partial protocol written after a signal (PAPI's state is "
                                      "the ended process's)",
                      &tables);
    int rc = -1;
    if (profile) {
        /* described now, so that the process data carries it (mpiprof-merge) */
        mpp_local_context_t *ctx = &profile->context;
        char *type = NULL, *allowed = NULL, *error = NULL;
        if (!ctx->machine_na && ctx->describe_node) {
            if (ctx->describe_node(&type, &allowed, &error) == 0)
                ctx->node_type = type, ctx->node_allowed = allowed;
            else
                ctx->node_error = error ? error : "unknown error";
        }
        size_t nwarnings = mpp_warnings_count();
        const char **warnings = calloc(nwarnings + 1, sizeof *warnings);
        for (size_t w = 0; warnings && w < nwarnings; w++)
            warnings[w] = mpp_warning_text(w);
        run.partial = 1;
        const char *host = run.hostname;
        mpp_reduced_t *rd =
            mpp_reduce_in_memory((const mpp_local_profile_t *const[]){profile}, &rank, &host, 1, nprocs, "all");
        if (rd) {
            end->rank = rank;
            locate_end(end, fid, frames, sym, rd);
            int npairs;
            double not_counted;
            mpp_pair_t *pairs = mpp_matrix_own_pairs(rank, &npairs, &not_counted);
            mpp_process_data_t data = {rank,       run.hostname, profile, warnings, warnings ? (int)nwarnings : 0,
                                       &run,       &mpp_config,  end,     pairs,    npairs,
                                       not_counted};
            mpp_partial_t partial = {end, 1, &data};
            write_report(rd, nwarnings, &partial, written, size);
            rc = written[0] ? 0 : -1;
            free(pairs);
        }
        mpp_reduced_free(rd);
        free(warnings);
        free(type), free(allowed), free(error);
    }
    mpp_profile_free(profile);
    free(tables);
    mpp_symbolizer_close(sym);
    return rc;
}

/* MPI_Finalize ends the profile unless a session opened first is open (world.h). */
int mpp_lifecycle_finalize_begins(void *return_address, void *frame_address)
{
    if (!mpp_world_model_closing())
        return 0;
    mpp_lifecycle_finish(MPP_FN_MPI_Finalize, return_address, frame_address);
    mpp_world_release();
    return 1;
}
