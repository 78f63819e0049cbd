/* unfinished-send, unfinished-recv, nonfreed-request, active-request-free
 * and request-cancel (correctness.md), from the profiler's request table
 * (attribute/requests.h).  A request leaves the table when MPI sets its
 * handle to MPI_REQUEST_NULL (a successful wait or test, MPI_Request_free),
 * so a nonpersistent request still in it was never completed; a persistent
 * one stays until freed, active from MPI_Start to the wait or test that
 * completes it.  The checks add to each request the SRC point of the call
 * that created it (its cell's frames, kept for the run) and, for a
 * persistent one, whether it is active: one more look-up of the table per
 * request made, started or completed, with the checks on only.
 * Nonblocking and persistent collectives are left to the collective
 * checks: only nonfreed-request names a persistent collective. */
#include <stdio.h>
#include <stdlib.h>

#include "check/tally.h"
#include "gen/function_table.h"
#include "intercept/check/local.h"
#include "intercept/check/run.h"

/* The creating call of the request MPI_Request_free or MPI_Cancel handles,
 * from before the call (the request is gone after it) to the report after
 * it.  Profiled calls never nest in one thread. */
static __thread uint32_t handled_fid;
static __thread uintptr_t handled_site;

static const char *function_name(uint32_t fid) { return fid < MPP_NFUNCTIONS ? mpp_functions[fid].name : "MPI_?"; }

/* MPP_FCHECK_SEND or _RECV of a request's creating function, 0: not point to point. */
static int p2p_of(uint32_t fid)
{
    return fid < MPP_NFUNCTIONS ? mpp_functions[fid].check & (MPP_FCHECK_SEND | MPP_FCHECK_RECV) : 0;
}

void mpp_check_request_created(const mpp_call_t *c)
{
    if (!c->new_serial)
        return;
    mpp_request_origin_t o = {0};
    if (c->cell) /* none for MPI's own calls and while paused: the function only */
        mpp_call_origin_frames(c, &o);
    mpp_request_set_site(mpp_request_handle_of(c->new_request), c->new_serial, c->fid, o.frames, o.depth);
}

void mpp_check_requests_started(const mpp_reqset_t *set)
{
    for (int i = 0; i < set->n; i++)
        if (set->keys[i])
            mpp_request_set_pending(mpp_request_handle_of(set->keys[i]), mpp_request_serial_of(set->keys[i]), 1);
}

void mpp_check_completed(const mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which,
                         const MPI_Status *statuses)
{
    (void)c, (void)statuses;
    for (int i = 0; i < n; i++) {
        int k = which ? which[i] : i;
        if (k < 0 || k >= set->n || !set->keys[k])
            continue;
        mpp_request_set_pending(mpp_request_handle_of(set->keys[k]), mpp_request_serial_of(set->keys[k]), 0);
    }
}

int mpp_check_wait_failed(int ret)
{
    int cls = ret;
    if (ret == MPI_SUCCESS || PMPI_Error_class(ret, &cls) != MPI_SUCCESS)
        return 0;
    return cls != MPI_ERR_REQUEST && cls != MPI_ERR_ARG && cls != MPI_ERR_IN_STATUS && cls != MPI_ERR_PENDING;
}

void mpp_check_request_peeked(const mpp_reqset_t *set)
{
    if (set->n >= 1 && set->keys[0])
        mpp_request_set_done(mpp_request_handle_of(set->keys[0]), mpp_request_serial_of(set->keys[0]));
}

int mpp_check_request_state(const mpp_reqset_t *set)
{
    mpp_request_check_t info;
    if (set->n < 1 || !set->keys[0] ||
        !mpp_request_check_find(mpp_request_handle_of(set->keys[0]), mpp_request_serial_of(set->keys[0]), &info))
        return 0;
    if (!info.checked)
        return 0; /* made before the checks started */
    handled_fid = info.site_fid;
    handled_site = info.site_depth ? info.site[0] : 0;
    int state = p2p_of(info.site_fid) ? MPP_CHECK_REQ_P2P : 0;
    if (info.persistent)
        state |= MPP_CHECK_REQ_PERSISTENT | (info.pending ? MPP_CHECK_REQ_ACTIVE : 0);
    else if (!info.done)
        state |= MPP_CHECK_REQ_ACTIVE; /* not completed yet: that would have freed it */
    return state;
}

/* A finding at call c with a severity of its own, the request's creating call as the other side. */
static void report_handled(const mpp_call_t *c, int kind, int severity, const char *detail)
{
    uintptr_t frames[MPP_MAX_DEPTH];
    int depth = mpp_check_call_frames(c, frames);
    mpp_check_report_at(kind, severity, c->fid, frames, depth, -1, handled_site ? handled_fid : 0, handled_site, "%s",
                        detail);
}

void mpp_check_request_freed(const mpp_call_t *c, int state)
{
    if (!(state & MPP_CHECK_REQ_ACTIVE))
        return;
    char detail[160];
    int persistent = state & MPP_CHECK_REQ_PERSISTENT;
    snprintf(detail, sizeof detail, "%s%s request still active (%s)", persistent ? "persistent " : "",
             function_name(handled_fid),
             persistent ? "started, not completed since" : "not completed by a wait or test");
    report_handled(c, MPP_FIND_ACTIVE_REQUEST_FREE, persistent ? MPP_FINDING_ERROR : MPP_FINDING_WARNING, detail);
}

void mpp_check_request_cancelled(const mpp_call_t *c, int state)
{
    if (!(state & MPP_CHECK_REQ_P2P))
        return;
    char detail[160];
    snprintf(detail, sizeof detail, "%s request cancelled", function_name(handled_fid));
    report_handled(c, MPP_FIND_REQUEST_CANCEL, -1, detail);
}

/* The finding a request left at the end stands for (-1: none). */
static int left_as(const mpp_request_check_t *r, int finalize)
{
    int p2p = p2p_of(r->site_fid);
    if (!r->checked || !r->site_depth)
        return -1; /* no SRC point to name */
    if (p2p && !r->done && (!r->persistent || r->pending))
        return p2p & MPP_FCHECK_RECV ? MPP_FIND_UNFINISHED_RECV : MPP_FIND_UNFINISHED_SEND;
    if ((r->persistent && !r->pending) || r->done)
        return finalize ? MPP_FIND_NONFREED_REQUEST : -1;
    return -1;
}

static void report_group(const mpp_tally_item_t *item, uint64_t count, int finalize)
{
    char detail[160];
    const char *s = count == 1 ? "" : "s";
    if (item->kind == MPP_FIND_NONFREED_REQUEST)
        snprintf(detail, sizeof detail, "%llu inactive request%s never freed (MPI_Request_free)",
                 (unsigned long long)count, s);
    else
        snprintf(detail, sizeof detail, "%llu request%s never completed (no successful wait or test) %s",
                 (unsigned long long)count, s, finalize ? "by MPI_Finalize" : "when the process ended");
    for (uint64_t i = 0; i < count; i++)
        mpp_check_report_at(item->kind, -1, item->fid, item->frames, item->depth, -1, 0, 0, "%s", detail);
}

void mpp_check_requests_end(int finalize)
{
    size_t n = (size_t)mpp_requests_outstanding();
    mpp_request_check_t *all = n ? malloc(n * sizeof *all) : NULL;
    mpp_tally_item_t *items = all ? malloc(n * sizeof *items) : NULL;
    mpp_tally_group_t *groups = items ? malloc(n * sizeof *groups) : NULL;
    if (groups) {
        size_t listed = mpp_requests_check_list(all, n), nitems = 0;
        for (size_t i = 0; i < listed; i++) {
            int kind = left_as(&all[i], finalize);
            if (kind >= 0)
                items[nitems++] = (mpp_tally_item_t){kind, all[i].site_fid, all[i].site_depth, all[i].site,
                                                     (uint64_t)all[i].more + 1};
        }
        size_t ngroups = mpp_tally(items, nitems, groups);
        for (size_t g = 0; g < ngroups; g++)
            report_group(&items[groups[g].first], groups[g].count, finalize);
    }
    free(groups);
    free(items);
    free(all);
}
