/* The wait-state analysis over the run: started at MPI_Init, where the
 * clocks are aligned before the first profiled call; finished at
 * MPI_Finalize, where they are aligned again and the last batches reduced;
 * described in the protocol's Clock and Wait states lines and Warnings. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "accumulate/waitstates/offsetbound.h"
#include "accumulate/waitstates/waitstates.h"
#include "attribute/thread_state.h"
#include "context/clock.h"
#include "context/config.h"
#include "intercept/check/collectives.h"
#include "intercept/check/messages.h"
#include "intercept/waitstates/clockbound.h"
#include "intercept/waitstates/hooks.h"
#include "intercept/waitstates/run.h"
#include "reduce/clocksync.h"
#include "reduce/ptp_collectives.h"
#include "util/warnings.h"

/* The clock alignment at MPI_Init and what the protocol says of the wait
 * states.  Their batches travel on the profiler's communicator (exchange.c): by
 * point-to-point messages only, with tags of their own (72xx) that none of
 * the profiler's other messages has, nor receives with MPI_ANY_TAG; the
 * profiler's MPI collectives there (MPI_Comm_split, MPI_Comm_free) come
 * before they start and after they end. */
static int waitstates;
static mpp_clock_alignment_t alignment, final_alignment; /* MPI_Init's, MPI_Finalize's */
static int64_t sync_threshold;                           /* ticks: differences below it count as 0 */
static int64_t fine_threshold; /* ticks: ... or below this one, when MPI_Finalize's alignment allows */
static int64_t used_threshold; /* ticks: the one of the two the protocol's wait states have */
static char waitstates_off_reason[160];
/* from MPI_Finalize's reductions: the largest uncertainties at MPI_Init and
 * MPI_Finalize, offset change, error of MPI_Init's offsets
 * (mpp_clock_init_error), pairs stuck on one CPU at MPI_Init; (rank 0)
 * summed counts */
/* and, as the run's own messages bounded the offsets (clockbound.h): the
 * largest error at MPI_Finalize, the lowest threshold used (negated) */
enum { WS_U_INIT, WS_U_FINALIZE, WS_CHANGE, WS_INIT_ERROR, WS_SHARED_CPU, WS_RUN_ERROR, WS_LEAST, WS_NLARGEST };
static int64_t ws_largest[WS_NLARGEST];
/* the lowest ranks with the largest uncertainty at MPI_Init and MPI_Finalize */
static int64_t ws_uncertain_rank[2];
/* processes aligned to their tree parent by measurement, not by sharing
 * its clock (rank 0: none); at MPI_Init, summed */
static int64_t ws_measured;
/* ... and the bounds the run's messages tightened, and those that crossed */
enum { WS_NSUMS = 13 };
static uint64_t ws_sums[WS_NSUMS];
static uint64_t ws_span; /* ticks between the two alignments */

/* Rank 0's MPIPROF_WAITSTATES, MPIPROF_SYNC_BATCH and MPIPROF_CHECK hold
 * for every process (the batches must break at the same instants
 * everywhere, and carry the same checks' values); the clocks are aligned
 * before the first profiled call. */
int mpp_ws_run_start(MPI_Comm profiler_comm, mpp_run_info_t *run, int thread_multiple)
{
    int settings[3] = {(int)mpp_config.number[MPP_CFG_WAITSTATES], (int)mpp_config.number[MPP_CFG_SYNC_BATCH],
                       (int)mpp_config.number[MPP_CFG_CHECK]};
    mpp_ptp_bcast(settings, 3, MPI_INT, 0, profiler_comm);
    waitstates = settings[0];
    snprintf(run->waitstates, sizeof run->waitstates, "off (MPIPROF_WAITSTATES=off)");
    snprintf(waitstates_off_reason, sizeof waitstates_off_reason,
             "Real sync, Potential sync and Time variation are n/a: MPIPROF_WAITSTATES=off");
    if (!waitstates) {
        if (settings[2] & MPP_CHECK_LEVEL) /* they travel with the wait states' messages: not run, and said */
            mpp_warn("Correctness: the collective and message checks (collective-*, different-roots, "
                     "different-reductions, incomplete-collective, nonpaired-*, wrong-send-size, "
                     "incorrect-send-size, wrong-datatype, recv-checksum) need MPIPROF_WAITSTATES=on: not run");
        return 0;
    }
    mpp_clock_align(profiler_comm, run->hostname, NULL, &alignment);
    int rank;
    PMPI_Comm_rank(profiler_comm, &rank);
    int64_t uncertainty = alignment.uncertainty, largest = 0, measured = rank && !alignment.shared_clock;
    mpp_ptp_allreduce(&uncertainty, &largest, 1, MPI_INT64_T, MPI_MAX, profiler_comm);
    mpp_ptp_reduce(&measured, &ws_measured, 1, MPI_INT64_T, MPI_SUM, 0, profiler_comm);
    /* two processes' clocks, each that far from rank 0's; 0 on one shared clock */
    sync_threshold = used_threshold = 2 * largest;
    fine_threshold = (int64_t)(MPP_WAIT_FINE * mpp_clock_rate_estimate());
    int rows = mpp_chk_coll_start(settings[2]);
    int size;
    PMPI_Comm_size(profiler_comm, &size);
    if (mpp_wsc_start(size, alignment.offset, rank ? alignment.uncertainty : 0) != 0)
        mpp_warn("out of memory at MPI_Init: the wait states' messages bound this process's clock offset, not "
                 "the others'");
    mpp_ws_start(profiler_comm, alignment.offset, sync_threshold, settings[1], thread_multiple, rows,
                 mpp_chk_msg_record_bytes(settings[2]));
    mpp_ws_fine_threshold(fine_threshold);
    int started = mpp_ws_on, everywhere = 0;
    mpp_ptp_allreduce(&started, &everywhere, 1, MPI_INT, MPI_MIN, profiler_comm);
    if (!everywhere) { /* out of memory somewhere: the analysis needs every process */
        mpp_ws_cancel();
        mpp_wsc_stop();
        mpp_chk_coll_end();
        waitstates = 0;
        snprintf(run->waitstates, sizeof run->waitstates, "off (out of memory at MPI_Init)");
        snprintf(waitstates_off_reason, sizeof waitstates_off_reason,
                 "Real sync, Potential sync and Time variation are n/a: out of memory at MPI_Init on some process");
        return 0;
    }
    waitstates_off_reason[0] = '\0';
    mpp_chk_msg_start(settings[2]);
    return 1;
}

/* MPI_Finalize: the last wait-state batches, the clocks measured again. */
void mpp_ws_run_finish(MPI_Comm profiler_comm, const char *hostname)
{
    if (!waitstates)
        return;
    mpp_ws_finish();
    mpp_wsc_stats_t bounds;
    mpp_wsc_get_stats(&bounds);
    mpp_wsc_stop();
    mpp_chk_msg_end(); /* every record has come: what is left is reported */
    mpp_chk_coll_end();
    mpp_clock_align(profiler_comm, hostname, &alignment, &final_alignment);
    mpp_ws_stats_t st;
    mpp_ws_get_stats(&st);
    int64_t drift = final_alignment.offset - alignment.offset;
    int64_t local[WS_NLARGEST] = {alignment.uncertainty,      final_alignment.uncertainty, drift < 0 ? -drift : drift,
                                  final_alignment.init_error, alignment.shared_cpu,        bounds.error,
                                  -st.least_threshold};
    uint64_t counts[WS_NSUMS] = {st.messages,  st.paired,        st.unpaired,        st.batches,    st.batch_bytes,
                                 st.instances, st.exits_unknown, st.dropped,         st.unfollowed, st.cuts.within,
                                 st.unbounded, bounds.tightened, bounds.contradicted};
    mpp_ptp_allreduce(local, ws_largest, WS_NLARGEST, MPI_INT64_T, MPI_MAX, profiler_comm);
    int rank, size;
    PMPI_Comm_rank(profiler_comm, &rank);
    PMPI_Comm_size(profiler_comm, &size);
    int64_t which[2] = {local[WS_U_INIT] == ws_largest[WS_U_INIT] ? rank : size,
                        local[WS_U_FINALIZE] == ws_largest[WS_U_FINALIZE] ? rank : size};
    mpp_ptp_reduce(which, ws_uncertain_rank, 2, MPI_INT64_T, MPI_MIN, 0, profiler_comm);
    /* Instants were aligned with MPI_Init's offsets, and differences below
     * its threshold counted as 0, but for the fine part (waitstates.h):
     * counted now if MPI_Finalize's alignment shows MPI_Init's offsets
     * good enough for it. */
    int fine = fine_threshold < sync_threshold && 2 * ws_largest[WS_INIT_ERROR] <= fine_threshold;
    for (mpp_thread_t *t = mpp_threads(); t; t = t->next)
        mpp_table_fold_fine(&t->table, fine);
    used_threshold = fine ? fine_threshold : sync_threshold;
    mpp_ptp_reduce(counts, ws_sums, WS_NSUMS, MPI_UINT64_T, MPI_SUM, 0, profiler_comm);
    ws_span = final_alignment.at > alignment.at ? final_alignment.at - alignment.at : 1;
}

static void describe_counts(mpp_run_info_t *run, const uint64_t *sums, double used);

static double seconds_of(int64_t ticks) { return mpp_ticks_to_seconds(ticks > 0 ? (uint64_t)ticks : 0); }

/* What the run's own messages did to the offsets' bounds (clockbound.h):
 * appended to the Clock line; crossed bounds said in Warnings. */
static void describe_run_bounds(mpp_run_info_t *run, int64_t least, const char *ended_in)
{
    const int64_t *largest = ws_largest;
    const uint64_t *sums = ws_sums;
    if (least < sync_threshold) {
        size_t at = strlen(run->clock);
        snprintf(run->clock + at, sizeof run->clock - at,
                 "; while the program ran, the analysis's own messages bounded the offsets (round trips, as "
                 "NTP's; %llu bounds tightened), to an error of at most %.3g s at %s, and lowered that "
                 "threshold to as little as %.3g s where they applied",
                 (unsigned long long)sums[11], seconds_of(largest[WS_RUN_ERROR]), ended_in, seconds_of(least));
    }
    if (sums[12])
        mpp_warn("Clock: %llu bounds the wait states' messages put on clock offsets contradicted earlier ones: two "
                 "hosts' clocks drifted apart faster than the %g ppm assumed; the newer bound was kept",
                 (unsigned long long)sums[12], MPP_OFFSET_DRIFT * 1e6);
}

/* The Clock and Wait states lines and their warnings (rank 0, once ticks
 * convert to seconds). */
void mpp_ws_run_describe(int rank, mpp_run_info_t *run, const char *started_in, const char *ended_in)
{
    if (!waitstates) {
        snprintf(run->clock, sizeof run->clock, "%s, resolution %.3g s, clocks not aligned (MPIPROF_WAITSTATES=off)",
                 mpp_clock_name(), mpp_clock_resolution());
        return;
    }
    if (rank != 0)
        return;
    int64_t *largest = ws_largest;
    uint64_t *sums = ws_sums;
    double span = mpp_ticks_to_seconds(ws_span > 0 ? ws_span : 1);
    double used = mpp_ticks_to_seconds((uint64_t)used_threshold), error = seconds_of(largest[WS_INIT_ERROR]);
    char why[160];
    if (!used_threshold)
        snprintf(why, sizeof why, "every difference counts");
    else if (used_threshold < sync_threshold)
        snprintf(why, sizeof why, "lowered from MPI_Init's %.3g s, as MPI_Finalize's alignment allows",
                 seconds_of(sync_threshold));
    else
        snprintf(why, sizeof why, "twice the largest uncertainty at MPI_Init");
    if (!ws_measured) {
        snprintf(run->clock, sizeof run->clock,
                 "%s, resolution %.3g s, one clock shared by every process (%s; all on one host): aligned to "
                 "rank 0 at %s (largest offset uncertainty 0 s) and %s (0 s) without measuring, every offset 0 "
                 "and exact; differences below 0 s count as 0 (%s)",
                 mpp_clock_name(), mpp_clock_resolution(), mpp_clock_shared_why(), started_in, ended_in, why);
        describe_counts(run, sums, used);
        return;
    }
    char shared[224] = "";
    if (ws_measured + 1 < run->nprocs)
        snprintf(shared, sizeof shared,
                 "; %llu processes share their tree parent's clock (%s, one host): offset 0 and exact to it",
                 (unsigned long long)(run->nprocs - 1 - ws_measured), mpp_clock_shared_why());
    snprintf(run->clock, sizeof run->clock,
             "%s, resolution %.3g s, aligned to rank 0 at %s (largest offset uncertainty %.3g s) and "
             "%s (%.3g s); largest change of an offset over the run %.3g s (drift %.3g), not "
             "corrected in instants reduced during the run, which %s's offsets aligned (error at most "
             "%.3g s, as %s's alignment bounds it); differences below %.3g s count as 0 (%s)%s",
             mpp_clock_name(), mpp_clock_resolution(), started_in, seconds_of(largest[WS_U_INIT]), ended_in,
             seconds_of(largest[WS_U_FINALIZE]), seconds_of(largest[WS_CHANGE]),
             seconds_of(largest[WS_CHANGE]) / span, started_in, error, ended_in, used, why, shared);
    int64_t least = -largest[WS_LEAST];
    describe_run_bounds(run, least, ended_in);
    mpp_clock_uncertain_warning(started_in, seconds_of(largest[WS_U_INIT]), (int)ws_uncertain_rank[0],
                                "MPI_Init's offsets align every instant: differences below twice that count as 0");
    mpp_clock_uncertain_warning(ended_in, seconds_of(largest[WS_U_FINALIZE]), (int)ws_uncertain_rank[1],
                                "MPI_Finalize's offsets only bound the error of MPI_Init's, which aligned the "
                                "instants");
    char lowered[96] = "";
    if (least < sync_threshold)
        snprintf(lowered, sizeof lowered, " (down to %.3g s where the run's messages bounded the clocks better)",
                 seconds_of(least));
    if (used > MPP_WAIT_FINE)
        mpp_warn("Wait states: differences below %.3g s count as 0%s, more than the %g us a quiet clock alignment "
                 "gives: %s; shorter waits are not in Real sync, Potential sync and Time variation",
                 used, lowered, MPP_WAIT_FINE * 1e6,
                 largest[WS_SHARED_CPU]
                     ? "at MPI_Init two processes whose clocks were aligned shared one CPU their affinity lets "
                       "neither leave, so that every round trip waited for the scheduler"
                     : "no round trip of the clock alignment at MPI_Init was quicker (a loaded node, or a slow "
                       "network), and MPI_Finalize's alignment did not show MPI_Init's offsets better");
    if (2 * error > used && 2 * error > MPP_WAIT_FINE)
        mpp_warn("Wait states: differences below %.3g s may be the clocks' drift over the run, not waiting: "
                 "MPI_Finalize's alignment bounds the error of MPI_Init's offsets, which aligned the instants, to "
                 "%.3g s, and only differences below %.3g s count as 0",
                 2 * error, error, used);
    describe_counts(run, sums, used);
}

/* The Wait states line and the warnings of what could not be counted. */
static void describe_counts(mpp_run_info_t *run, const uint64_t *sums, double used)
{
    snprintf(run->waitstates, sizeof run->waitstates,
             "real sync (late senders) and potential sync / time variation (collectives), batches of %ld; "
             "%llu messages paired of %llu sent, %llu collective calls (counts summed over processes); %llu batches "
             "(%llu bytes) sent",
             mpp_config.number[MPP_CFG_SYNC_BATCH], (unsigned long long)sums[1], (unsigned long long)sums[0],
             (unsigned long long)sums[5], (unsigned long long)sums[3], (unsigned long long)sums[4]);
    if (sums[2])
        mpp_warn("Real sync: %llu received messages could not be paired with their send (a receive the profiler "
                 "did not see, e.g. a request freed before it completed, or a send not profiled); their waits "
                 "are not counted",
                 (unsigned long long)sums[2]);
    if (sums[6])
        mpp_warn("Time variation: %llu nonblocking collective instances had not completed when their batch was "
                 "reduced; their exits are not counted",
                 (unsigned long long)sums[6]);
    if (sums[7])
        mpp_warn("Potential sync, Time variation: %llu batches of collective instances could not be reduced (the "
                 "members of a communicator counted different collective calls on it: calls the profiler did not "
                 "see); their waits are not counted",
                 (unsigned long long)sums[7]);
    if (sums[9])
        mpp_warn("Potential sync, Time variation: %llu windows of collective operations reached past the end of "
                 "their interval on their process by less than the clock alignment's uncertainty (%.3g s): "
                 "whether they did is not known; each was cut there (a process's part of its time in an interval "
                 "is at most that time)",
                 (unsigned long long)sums[9], used);
    if (sums[10])
        mpp_warn("Potential sync, Time variation: %llu collective operations' windows could not be bounded by the "
                 "end of their interval (it ended more than 4096 interval boundaries before their batch was "
                 "reduced): they end at the process's exit from the operation",
                 (unsigned long long)sums[10]);
    if (sums[8])
        mpp_warn("wait states: %llu calls on communicators the analysis cannot follow (made by MPI_Comm_spawn, "
                 "_connect, _accept, _join or where no profiled call created them: their members' ids are not "
                 "known) are not analysed",
                 (unsigned long long)sums[8]);
}

int mpp_ws_run_on(void) { return waitstates; }
const char *mpp_ws_run_off_reason(void) { return waitstates_off_reason; }
const mpp_clock_alignment_t *mpp_ws_run_alignment(void) { return waitstates ? &alignment : NULL; }
const mpp_clock_alignment_t *mpp_ws_run_final_alignment(void) { return &final_alignment; }
