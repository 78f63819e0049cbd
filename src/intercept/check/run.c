#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/profile.h"
#include "attribute/callsite.h"
#include "attribute/requests.h"
#include "attribute/symbolize.h"
#include "check/finding_list.h"
#include "check/findings.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "intercept/check/argcheck.h"
#include "intercept/check/local.h"
#include "intercept/check/run.h"
#include "intercept/world.h"
#include "reduce/ptp_collectives.h"
#include "util/srckey.h"

int mpp_check_level;
static int ended;

void mpp_check_run_start(MPI_Comm comm, int rank)
{
    long level = mpp_config.number[MPP_CFG_CHECK];
    int agreed = rank == 0 ? (int)level : 0;
    mpp_ptp_bcast(&agreed, 1, MPI_INT, 0, comm);
    mpp_findings_init((size_t)mpp_config.number[MPP_CFG_MAX_FINDINGS]);
    ended = 0;
    mpp_check_level = agreed;
    int provided = MPI_THREAD_MULTIPLE; /* sessions alone: no Query_thread, no thread-level check */
    if (mpp_world_model())
        PMPI_Query_thread(&provided);
    mpp_requests_count_shared(agreed != 0); /* unfinished-send counts each of MPICH's shared handles */
    mpp_check_handles_start(provided == MPI_THREAD_MULTIPLE);
    mpp_check_threads_start(provided);
    mpp_check_rma_start(provided == MPI_THREAD_MULTIPLE);
    mpp_check_outside_start();
    if (agreed > MPP_CHECK_BASIC)
        mpp_chk_start(comm); /* arguments and buffers: full, or checksums */
}

int mpp_check_call_frames(const mpp_call_t *c, uintptr_t *frames)
{
    memset(frames, 0, MPP_MAX_DEPTH * sizeof *frames);
    mpp_thread_t *t = c ? c->thread : NULL;
    if (!t)
        return 0;
    int depth = t->table.depth;
    if (c->cell) {
        memcpy(frames, c->cell->frames, (size_t)depth * sizeof *frames);
    } else if (c->frame) {
        void **frame = c->frame; /* the wrapper keeps a frame pointer: its return address is above it */
        mpp_callsite_capture(frames, NULL, depth, frame[1], c->frame, t->stack_lo, t->stack_hi);
    }
    return depth;
}

static void add_v(int kind, int severity, uint32_t fid, const uintptr_t *frames, int depth, int32_t peer,
                  uint32_t other_fid, uintptr_t other_address, const char *fmt, va_list ap)
{
    char detail[MPP_FINDING_DETAIL] = "";
    if (fmt)
        vsnprintf(detail, sizeof detail, fmt, ap);
    mpp_findings_add_as(kind, severity, fid, frames, depth, peer, other_fid, other_address, detail);
}

void mpp_check_report(const mpp_call_t *c, int kind, int32_t peer, uint32_t other_fid, uintptr_t other_address,
                      const char *fmt, ...)
{
    uintptr_t frames[MPP_MAX_DEPTH];
    int depth = mpp_check_call_frames(c, frames);
    va_list ap;
    va_start(ap, fmt);
    add_v(kind, -1, c ? c->fid : MPP_FINDING_NO_FUNCTION, frames, depth, peer, other_fid, other_address, fmt, ap);
    va_end(ap);
}

void mpp_check_report_at(int kind, int severity, uint32_t fid, const uintptr_t *frames, int depth, int32_t peer,
                         uint32_t other_fid, uintptr_t other_address, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    add_v(kind, severity, fid, frames, depth, peer, other_fid, other_address, fmt, ap);
    va_end(ap);
}

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }

static const char *resolve_frame(void *ctx, uintptr_t address) { return mpp_symbolize(ctx, address); }

void mpp_check_call_position(const uintptr_t *frames, int depth, char *out, size_t size)
{
    snprintf(out, size, "?");
    if (depth <= 0 || !frames[0])
        return;
    mpp_symbolizer_t *sym = mpp_symbolizer_open();
    if (!sym)
        return;
    char *function = NULL;
    mpp_frame_t *fr = NULL;
    char *key = mpp_profile_src_key(0, frames, 1, resolve_frame, sym, function_name);
    int n = key ? mpp_srckey_parse(key, &function, &fr) : 0;
    if (n > 0)
        snprintf(out, size, "%s", fr[0].text);
    free(function);
    mpp_srckey_free_frames(fr, n);
    free(key);
    mpp_symbolizer_close(sym);
}

void mpp_check_report_now(const mpp_call_t *c, int kind, const char *fmt, ...)
{
    uintptr_t frames[MPP_MAX_DEPTH];
    int depth = mpp_check_call_frames(c, frames);
    char detail[MPP_FINDING_DETAIL] = "";
    va_list ap;
    va_start(ap, fmt);
    if (fmt)
        vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    uint32_t fid = c ? c->fid : MPP_FINDING_NO_FUNCTION;
    if (!mpp_config.number[MPP_CFG_QUIET]) {
        char at[512];
        mpp_check_call_position(frames, depth, at, sizeof at);
        fprintf(stderr, "mpiprof: %s: %s in %s at %s: %s\n",
                mpp_finding_kinds[kind].severity == MPP_FINDING_ERROR ? "error" : "warning",
                mpp_finding_kinds[kind].name, function_name(fid), at, detail);
    }
    mpp_findings_add_as(kind, -1, fid, frames, depth, -1, 0, 0, detail);
}

static __thread const mpp_call_t *invalid_call __attribute__((tls_model("initial-exec")));
static __thread uint64_t invalid_t0 __attribute__((tls_model("initial-exec")));

void mpp_check_note_invalid(const mpp_call_t *c)
{
    invalid_call = c;
    invalid_t0 = c->t0; /* (a later call may reuse the same stack slot: its t0 differs) */
}

int mpp_check_was_invalid(const mpp_call_t *c) { return c && c == invalid_call && c->t0 == invalid_t0; }

/* The checks that look at what the run left, each in its file. */
void mpp_check_run_end(int finalize)
{
    if (ended || !mpp_check_level)
        return;
    ended = 1;
    mpp_check_requests_end(finalize);
    mpp_check_threads_end();
    mpp_check_rma_end(finalize);
    if (finalize) {
        mpp_check_handles_end();
        mpp_check_outside_end();
    }
    mpp_chk_stop(finalize);
}

/* The function a finding names: its MPI call's, else the signal that ended
 * the process outside MPI (MPP_CHECK_SIGNAL_FID), else the caller's name
 * for none. */
static mpp_function_name_fn call_name;
static const char *finding_function(uint32_t fid)
{
    static const struct {
        int number;
        const char *name;
    } signals[] = {{SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGILL, "SIGILL"},
                   {SIGABRT, "SIGABRT"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},   {SIGXCPU, "SIGXCPU"},
                   {SIGUSR1, "SIGUSR1"}, {SIGHUP, "SIGHUP"},   {SIGQUIT, "SIGQUIT"}, {SIGKILL, "SIGKILL"}};
    if (fid < MPP_CHECK_SIGNAL_FID(0) || fid >= MPP_CHECK_SIGNAL_FID(NSIG))
        return call_name(fid);
    for (size_t i = 0; i < MPP_ARRAY_LEN(signals); i++)
        if (MPP_CHECK_SIGNAL_FID(signals[i].number) == fid)
            return signals[i].name;
    return "a signal";
}

void mpp_check_local_list(mpp_finding_list_t *out, int rank, mpp_resolve_fn resolve, void *ctx,
                          mpp_function_name_fn name)
{
    call_name = name;
    *out = (mpp_finding_list_t){.level = mpp_check_level};
    size_t n = 0;
    mpp_finding_t *all = mpp_findings_take(&n, &out->dropped);
    for (size_t i = 0; i < n; i++) {
        const mpp_finding_t *f = &all[i];
        uintptr_t other[1] = {(uintptr_t)f->other_site};
        mpp_finding_record_t r = {
            .kind = f->kind,
            .severity = f->severity,
            .src = mpp_profile_src_key(f->fid, f->frames, f->depth, resolve, ctx, finding_function),
            .other = f->other_site ? mpp_profile_src_key(f->other_fid < MPP_NFUNCTIONS ? f->other_fid : 0, other, 1,
                                                         resolve, ctx, name)
                                   : NULL,
            .count = f->count,
            .first_rank = rank,
            .last_rank = rank,
            .nprocs = 1,
            .peer = f->peer,
            .detail = (char *)f->detail,
        };
        if (!r.src || mpp_finding_list_add(out, &r) != 0)
            out->dropped += f->count;
        free(r.src);
        free(r.other);
    }
    free(all);
}

void mpp_check_summary_line(const mpp_finding_list_t *all)
{
    if (!mpp_check_level || mpp_config.number[MPP_CFG_QUIET])
        return;
    uint64_t errors, warnings;
    mpp_finding_list_counts(all, &errors, &warnings);
    if (!errors && !warnings && !all->dropped) {
        fprintf(stderr, "mpiprof: no correctness findings (MPIPROF_CHECK=%s)\n",
                mpp_check_level_text(mpp_check_level));
        return;
    }
    fprintf(stderr, "mpiprof: %llu error%s, %llu warning%s%s: see the protocol's Correctness section\n",
            (unsigned long long)errors, errors == 1 ? "" : "s", (unsigned long long)warnings,
            warnings == 1 ? "" : "s", all->dropped ? " (and more not kept)" : "");
}
