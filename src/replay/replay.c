/* The replay (replay.h): each traced call of a process added to its
 * location's table as the wrappers add a call at run time (its cell by
 * function, interval and call stack; calls, time by category, bytes; the
 * wait states where the dynamic mode's batches add them), then the
 * process's profile built by the same mpp_profile_build as MPI_Finalize's.
 *
 * A call site is one synthetic return address per site of the trace
 * (its index + 1), resolved to the site's frame records: the SRC key is
 * then the function and the frames mpiprof recorded, or, for a trace
 * without call sites, the function and one frame saying so. */
#include <stdlib.h>
#include <string.h>

#include "function_table.h"
#include "replay.h"
#include "srckey.h"

/* The frame of a call whose trace gives no call site: the SRC point is
 * the MPI function alone (path, line, function empty; its text). */
#define REGION_ALONE "\x1f" "0\x1f\x1f[no call site in the trace: the MPI function alone]"

static double ticks_per_second = 1e9;

double rp_seconds(uint64_t ticks) { return (double)ticks / ticks_per_second; }

static const char *resolve_site(void *ctx, uintptr_t address)
{
    const rp_trace_t *t = ctx;
    uint32_t site = (uint32_t)(address - 1);
    return site > 0 && site < t->nsites ? t->sites[site] : REGION_ALONE;
}

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }

/* A wait or test's time goes to the kinds of the requests it completed
 * (thread_state.c's split_by_kind: the remainder to the last kind). */
static void add_time(mpp_stats_t *s, const rp_call_t *c, uint64_t dt)
{
    const mpp_function_info_t *f = &mpp_functions[c->fid];
    uint64_t done[MPP_NCAT] = {0}, total = c->p2p_done + c->coll_done;
    if (!f->by_request || !total) {
        s->ticks[f->category] += dt;
        return;
    }
    done[MPP_CAT_SENDRECV] = c->p2p_done;
    done[MPP_CAT_COLLECTIVE] = c->coll_done;
    uint64_t given = 0;
    int last = -1;
    for (int k = 0; k < MPP_NCAT; k++) {
        if (!done[k])
            continue;
        uint64_t share = dt * done[k] / total;
        s->ticks[k] += share;
        given += share;
        last = k;
    }
    s->ticks[last] += dt - given;
}

/* One location's calls into its table. */
static int replay_location(const rp_trace_t *t, const rp_location_t *loc, mpp_table_t *table)
{
    uintptr_t frames[MPP_MAX_DEPTH] = {0};
    for (size_t i = 0; i < loc->ncalls; i++) {
        const rp_call_t *c = &loc->calls[i];
        frames[0] = (uintptr_t)c->site + 1;
        mpp_cell_t *cell = mpp_table_lookup(table, c->fid, 0, frames);
        if (!cell)
            return -1;
        uint64_t dt = c->leave > c->enter ? (uint64_t)(c->leave - c->enter) : 0;
        cell->stats.calls++;
        add_time(&cell->stats, c, dt);
        cell->stats.bytes_sent += c->bytes_sent;
        cell->stats.bytes_recv += c->bytes_recv;
        for (int w = 0; w < MPP_NWAIT; w++)
            cell->stats.wait[w] += c->wait[w] > 0 ? (uint64_t)c->wait[w] : 0;
    }
    (void)t;
    return 0;
}

int rp_profile(const rp_trace_t *t, int p, int max_src, rp_local_t *out)
{
    memset(out, 0, sizeof *out);
    ticks_per_second = t->resolution ? (double)t->resolution : 1e9;
    const rp_process_t *proc = &t->processes[p];
    const rp_location_t *master = &t->locations[proc->locations[0]];
    /* interval 0: from MPI_Init's return to MPI_Finalize's entry, or the
     * process's first and last events where the trace has neither */
    int64_t from = master->init_leave >= 0 ? master->init_leave : master->first;
    int64_t to = master->finalize_enter >= 0 ? master->finalize_enter : master->last;
    out->intervals = calloc(1, sizeof *out->intervals);
    mpp_table_t *tables = calloc((size_t)proc->nlocations, sizeof *tables);
    const mpp_table_t **views = calloc((size_t)proc->nlocations, sizeof *views);
    int rc = out->intervals && tables && views ? 0 : -1;
    if (rc == 0) {
        mpp_interval_t *whole = &out->intervals[0];
        strcpy(whole->name, "whole program");
        whole->parent = -1;
        whole->executions = 1;
        whole->ticks = to > from ? (uint64_t)(to - from) : 0;
        out->nintervals = 1;
    }
    for (int l = 0; rc == 0 && l < proc->nlocations; l++) {
        rc = mpp_table_init(&tables[l], (size_t)max_src, 1);
        if (rc == 0)
            rc = replay_location(t, &t->locations[proc->locations[l]], &tables[l]);
        views[l] = &tables[l];
    }
    if (rc == 0) {
        out->profile = mpp_profile_build(views, proc->nlocations, out->intervals, out->nintervals, rp_seconds,
                                         resolve_site, (void *)t, function_name);
        rc = out->profile ? 0 : -1;
    }
    if (rc == 0) {
        mpp_local_context_t *ctx = &out->profile->context;
        ctx->machine_na = "the trace does not describe the machine (hwloc is read at run time only)";
        ctx->counters_na = "the trace records no hardware counters";
        out->profile->waitstates = 1;
        out->profile->speed = 1.0;
    }
    for (int l = 0; tables && l < proc->nlocations; l++)
        mpp_table_free(&tables[l]);
    free(tables);
    free(views);
    if (rc != 0)
        rp_local_free(out);
    return rc;
}

void rp_local_free(rp_local_t *l)
{
    mpp_profile_free(l->profile);
    free(l->intervals);
    memset(l, 0, sizeof *l);
}
