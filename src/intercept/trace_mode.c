/* Trace mode in the lifecycle (trace.h): whether it runs, and what the
 * protocol's Trace parameter says of it.  Built with or without libotf2:
 * without it, MPIPROF_TRACE=on is refused here, never ignored. */
#include <limits.h>
#include <stdio.h>

#include "attribute/symbolize.h"
#include "check/finding_list.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "intercept/check/run.h"
#include "intercept/lifecycle.h"
#include "intercept/trace_hooks.h"
#include "reduce/ptp_collectives.h"
#include "util/warnings.h"
#include "write/partial.h"

void mpp_trace_mode_start(MPI_Comm comm, int rank, int nprocs, const char *protocol, int overwrite,
                          mpp_run_info_t *run)
{
    int settings[2] = {(int)mpp_config.number[MPP_CFG_TRACE], (int)mpp_config.number[MPP_CFG_TRACE_BUFFER]};
    mpp_ptp_bcast(settings, 2, MPI_INT, 0, comm);
    run->trace[0] = run->trace_path[0] = '\0';
    run->trace_bytes = -1;
    if (!settings[0])
        return;
#if !MPIPROF_HAVE_OTF2
    (void)nprocs, (void)protocol, (void)overwrite;
    snprintf(run->trace, sizeof run->trace, "off (MPIPROF_TRACE=on refused: mpiprof was built without libotf2)");
    if (rank == 0)
        mpp_warn("MPIPROF_TRACE=on: trace mode is not available, as this mpiprof was built without libotf2 "
                 "(configure did not find it, or was given --without-otf2); the run goes on untraced and only the "
                 "protocol is written");
#else
    if (!protocol[0]) {
        snprintf(run->trace, sizeof run->trace, "off (no writable place for the protocol, so none for the trace)");
        if (rank == 0)
            mpp_warn("MPIPROF_TRACE=on: no writable place for the protocol, so none for the trace; the run goes "
                     "on untraced");
        return;
    }
    char path[PATH_MAX + 8];
    snprintf(path, sizeof path, "%s.otf2", protocol);
    if (mpp_trace_start(comm, path, settings[1], rank, nprocs, run->hostname, overwrite) != 0)
        snprintf(run->trace, sizeof run->trace, "off (the archive %s could not be opened; see Warnings)", path);
#endif
}

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }
static const char *resolve_frame(void *sym, uintptr_t address) { return mpp_symbolize(sym, address); }

/* This process's findings as its protocol reduces them (the local store
 * once the checks of the run's end ran: mpp_check_run_end), for the
 * trace's definitions; at the end of the process only. */
static void give_findings(void)
{
    mpp_symbolizer_t *sym = mpp_symbolizer_open();
    mpp_finding_list_t l;
    mpp_check_local_list(&l, mpp_lifecycle_rank(), resolve_frame, sym, function_name);
    char *text = NULL;
    if (mpp_finding_list_text(&l, (size_t)mpp_config.number[MPP_CFG_MAX_FINDINGS], &text) == 0)
        mpp_trace_set_findings(text);
    mpp_finding_list_free(&l);
    mpp_symbolizer_close(sym);
}

void mpp_trace_mode_finish(MPI_Comm comm, uint64_t end, const mpp_clock_alignment_t *at_init,
                           const mpp_clock_alignment_t *at_finalize, mpp_run_info_t *run)
{
    if (!mpp_trace_on) /* off, or refused at MPI_Init everywhere */
        return;
    give_findings();
    long long bytes = 0;
    int complete = mpp_trace_finish(comm, end, at_init, at_init ? at_finalize : NULL, run->trace_path,
                                    sizeof run->trace_path, &bytes) == 0;
    if (!run->trace_path[0]) /* processes other than rank 0 */
        return;
    run->trace_complete = complete;
    run->trace_bytes = bytes;
    snprintf(run->trace, sizeof run->trace, "%s (%lld bytes, OTF2)%s", run->trace_path, bytes,
             complete ? "" : ", incomplete: see Warnings");
}

void mpp_trace_mode_partial(const mpp_process_end_t *end, const mpp_clock_alignment_t *at_init, mpp_run_info_t *run)
{
    if (!mpp_trace_on)
        return;
    mpp_process_end_t e = *end;
    e.src = 0; /* an SRC point of this partial protocol, not of the trace's */
    char ended[MPP_END_TEXT + MPP_END_SITE + 128];
    mpp_end_describe(&e, ended, sizeof ended);
    give_findings();
    long long bytes = 0;
    int readable = mpp_trace_rescue(ended, at_init, run->trace_path, sizeof run->trace_path, &bytes) == 0;
    run->trace_complete = 0;
    run->trace_bytes = bytes;
    if (readable)
        snprintf(run->trace, sizeof run->trace,
                 "%.4000s (%lld bytes, OTF2), incomplete: readable up to this process's end and "
                 "the other processes' last flushes (its anchor file says so: MPIPROF::INCOMPLETE)",
                 run->trace_path, bytes);
    else
        snprintf(run->trace, sizeof run->trace,
                 "%.4000s (%lld bytes, OTF2), incomplete and unreadable: its definitions could "
                 "not be written at this process's end (a partial protocol)",
                 run->trace_path, bytes);
}
