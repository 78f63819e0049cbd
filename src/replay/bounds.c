/* The trace's messages as bounds on its clocks (mpiprof-analyze(1),
 * issue 27).  The offsets measured at MPI_Init and MPI_Finalize are only
 * as good as their ping-pong (a loaded node, a slow reply: milliseconds
 * off), while every message is a fact: its receive completed after its
 * send began.  Where the aligned timestamps say otherwise, the receiver's
 * clock is later than it seems by at least the difference, so the
 * processes whose offsets are uncertain are shifted (mpp_clock_bounds)
 * before the wait states are computed.  Without this a late sender whose
 * offset is off by 5 ms shows a Real sync off by 5 ms per message. */
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"

/* The largest uncertainty of each process's offsets this reader holds
 * (its share's: the others' locations have no definitions read), -1 for
 * a process whose offsets are all exact or absent (one clock with rank
 * 0's, or a trace taken as synchronized by its writer): those never
 * move. */
static void uncertainties(const rp_trace_t *t, int64_t *u)
{
    for (int p = 0; p < t->nprocesses; p++)
        u[p] = -1;
    for (int l = 0; l < t->nlocations; l++) {
        const rp_location_t *loc = &t->locations[l];
        if (loc->process < 0 || loc->process >= t->nprocesses)
            continue;
        for (int i = 0; i < loc->noffsets; i++) {
            int64_t dev = (int64_t)loc->offset_dev[i];
            if (loc->offset_dev[i] > 0 && dev < 1)
                dev = 1;
            if (dev > 0 && dev > u[loc->process])
                u[loc->process] = dev;
        }
    }
}

/* Every time of process p's locations and messages this reader holds. */
static void shift(rp_trace_t *t, const int64_t *d)
{
    for (int l = 0; l < t->nlocations; l++) {
        rp_location_t *loc = &t->locations[l];
        if (loc->process < 0 || loc->process >= t->nprocesses || !d[loc->process])
            continue;
        int64_t by = d[loc->process];
        for (size_t c = 0; c < loc->ncalls; c++) {
            loc->calls[c].enter += by;
            loc->calls[c].leave += by;
        }
        for (size_t m = 0; m < loc->nmarks; m++)
            loc->marks[m].time += by;
        if (loc->events) {
            loc->first += by;
            loc->last += by;
        }
        if (loc->init_leave >= 0) /* (-1: not traced) */
            loc->init_leave += by;
        if (loc->finalize_enter >= 0)
            loc->finalize_enter += by;
    }
    /* the sends: those of other shares too (their senders' shifts are
     * every share's, the bounds being gathered) */
    for (size_t s = 0; s < t->nsends; s++) {
        int p = t->locations[t->sends[s].location].process;
        if (p >= 0 && p < t->nprocesses)
            t->sends[s].posted += d[p];
    }
    for (size_t r = 0; r < t->nrecvs; r++) {
        int p = t->locations[t->recvs[r].location].process;
        if (p >= 0 && p < t->nprocesses)
            t->recvs[r].posted += d[p];
    }
    for (size_t r = 0; r < t->npending; r++) {
        int p = t->pending[r].process;
        if (p >= 0 && p < t->nprocesses)
            t->pending[r].posted += d[p];
    }
}

void rp_clock_bounds(rp_trace_t *t, rp_gather_bounds_fn gather, void *ctx, rp_bounds_t *out)
{
    memset(out, 0, sizeof *out);
    int n = t->nprocesses;
    size_t room = (size_t)(n > 0 ? n : 1);
    int64_t *u = malloc(room * sizeof *u), *d = calloc(room, sizeof *d);
    int *movable = calloc(room, sizeof *movable);
    mpp_clock_bound_t *b = NULL;
    size_t nb = 0;
    int failed = !u || !d || !movable || rp_message_bounds(t, &b, &nb) != 0;
    if (u)
        uncertainties(t, u);
    if (gather && gather(&b, &nb, u, failed, ctx) != 0)
        failed = 1;
    /* every reader the same bounds and uncertainties now: the same shifts */
    int rc = 0;
    for (int p = 0; !failed && p < n; p++)
        movable[p] = u[p] > 0;
    if (!failed && (rc = mpp_clock_bounds(n, movable, b, nb, d)) == -2)
        failed = 1;
    out->failed = failed;
    out->contradictory = rc == -1;
    if (!failed && rc == 0) {
        out->largest_rank = out->beyond_rank = -1;
        for (int p = 0; p < n; p++) {
            int64_t by = d[p] < 0 ? -d[p] : d[p];
            if (!by)
                continue;
            out->moved++;
            if (by > out->largest)
                out->largest = by, out->largest_rank = t->processes[p].rank;
            if (by > u[p]) { /* the measurement was wrong: said in Warnings */
                out->beyond++;
                if (by > out->beyond_shift)
                    out->beyond_shift = by, out->beyond_u = u[p], out->beyond_rank = t->processes[p].rank;
            }
        }
        if (out->moved)
            shift(t, d);
    }
    free(u), free(d), free(movable), free(b);
}
