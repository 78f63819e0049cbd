#include "reduce/clocksync.h"

#include <stdlib.h>
#include <time.h>

#include "accumulate/waitstates/waitstates.h"
#include "context/clock.h"
#include "context/config.h"
#include "reduce/apart.h"
#include "util/warnings.h"

enum { TAG_PING = 7101, TAG_RESULT = 7102 };

/* A ping: the child's clock, whether it wants more (bit 0) and what it asks
 * of the parent's CPU (MPP_APART_* << 1), the child's CPU, its host and
 * which clock of the host it reads (mpp_clock_shared).  A pong: the
 * parent's clock, its CPU and answer when asked, its host, and whether the
 * two read one clock (then the first ping is the only one). */
enum { PING_LEN = 5, PONG_LEN = 5, RESULT_LEN = 3 };

static int64_t host_hash(const char *host)
{
    uint64_t h = 14695981039346656037ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)host; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (int64_t)(h >> 1);
}

/* MPIPROF_TEST_CLOCK_PONG_DELAY in seconds (0: none): a slow reply to
 * every ping, which biases the child's offset by about half of it (a test
 * of the analyzer's bounds from messages, mpiprof-analyze(1)).  Read only
 * by a library with the test hooks: elsewhere a warning, once. */
static double pong_delay(void)
{
    const char *text = mpp_config.text[MPP_CFG_TEST_CLOCK_PONG_DELAY];
    double s = text && *text ? strtod(text, NULL) : 0;
#ifndef MPP_TEST_HOOKS
    static int warned;
    if (s != 0 && !warned++)
        mpp_warn("MPIPROF_TEST_CLOCK_PONG_DELAY has no effect: the library was not configured with "
                 "--enable-test-hooks");
    s = 0;
#endif
    return s > 0 ? s : 0;
}

static void sleep_seconds(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
}

/* Split, the two halves must be alike (a sleep overshoots by a time
 * slice on a loaded node): spin. */
static void spin_seconds(double s)
{
    uint64_t end = mpp_now() + (uint64_t)(s * mpp_clock_rate_estimate());
    while (mpp_now() < end)
        ;
}

/* The parent answers each ping with its clock until the child says it has
 * enough, then sends its own alignment to the child. */
static void serve_child(MPI_Comm comm, int child, int64_t host, int rank, const mpp_clock_alignment_t *mine)
{
    mpp_apart_t pin = {0};
    double delay = pong_delay();
    for (;;) {
        int64_t ping[PING_LEN], pong[PONG_LEN];
        PMPI_Recv(ping, PING_LEN, MPI_INT64_T, child, TAG_PING, comm, MPI_STATUS_IGNORE);
        int split = delay > 0 && mpp_config.number[MPP_CFG_TEST_CLOCK_PONG_SPLIT] &&
                    !(ping[3] == host && ping[4] && ping[4] == mpp_clock_shared());
        if (split) /* half the wait before the clock is read: the round trip slow both ways */
            spin_seconds(delay / 2);
        pong[0] = (int64_t)mpp_now();
        pong[1] = -1;
        pong[2] = MPP_APART_STAYED;
        pong[3] = host;
        pong[4] = ping[3] == host && ping[4] && ping[4] == mpp_clock_shared();
        int ask = (int)(ping[1] >> 1);
        if (ask) {
            if (ask & MPP_APART_LEAVE)
                pong[2] = mpp_apart_answer(&pin, (int)ping[2], rank);
            pong[1] = mpp_apart_cpu();
        }
        if (delay > 0 && !pong[4]) {
            /* the clock read before the wait: the child takes it for the
             * midpoint of a round trip the wait lengthened, so its offset
             * comes out half the wait too small and its events that much
             * early (a late sender's Real sync too small: the direction
             * the cap at the receive's duration does not hide); split,
             * about right but as uncertain */
            if (split)
                spin_seconds(delay / 2);
            else
                sleep_seconds(delay);
        }
        PMPI_Send(pong, PONG_LEN, MPI_INT64_T, child, TAG_PING, comm);
        if (!(ping[1] & 1) || pong[4])
            break;
    }
    mpp_apart_restore(&pin);
    int64_t result[RESULT_LEN] = {mine->offset, mine->uncertainty, mine->init_error};
    PMPI_Send(result, RESULT_LEN, MPI_INT64_T, child, TAG_RESULT, comm);
}

/* At least MPP_CLOCKSYNC_ROUNDS round trips; on a loaded machine (a round
 * trip longer than `good` ticks: a process was descheduled) more, up to
 * MPP_CLOCKSYNC_MAX_ROUNDS or `budget` ticks, so that one quiet round trip
 * bounds the uncertainty.  A round trip longer than `slow` ticks took a
 * time slice: on one host, the pair may share a CPU (apart.h).  Rounds
 * that asked about CPUs are left out (they paid for system calls). */
static void measure_parent(MPI_Comm comm, int parent, int64_t host, int rank, int64_t good, int64_t slow,
                           int64_t budget, const mpp_clock_alignment_t *earlier, mpp_clock_alignment_t *out)
{
    static int64_t t_send[MPP_CLOCKSYNC_MAX_ROUNDS], t_peer[MPP_CLOCKSYNC_MAX_ROUNDS],
        t_recv[MPP_CLOCKSYNC_MAX_ROUNDS];
    mpp_apart_decider_t decider = {0};
    int64_t best = INT64_MAX, start = (int64_t)mpp_now();
    int n = 0, counted = 0, same_host = 0, shared = 0;
    for (int more = 1; more; n++) {
        int64_t now = (int64_t)mpp_now();
        int rounds_left = counted + 1 < MPP_CLOCKSYNC_ROUNDS;
        int want = n + 1 < MPP_CLOCKSYNC_MAX_ROUNDS && now - start < budget &&
                   (rounds_left || (best > good && !decider.stuck));
        int ask = want && same_host ? mpp_apart_request(&decider) : 0;
        int64_t ping[PING_LEN] = {0, want | ask << 1, ask ? mpp_apart_cpu() : -1, host, mpp_clock_shared()},
                pong[PONG_LEN];
        t_send[n] = ping[0] = (int64_t)mpp_now();
        PMPI_Send(ping, PING_LEN, MPI_INT64_T, parent, TAG_PING, comm);
        PMPI_Recv(pong, PONG_LEN, MPI_INT64_T, parent, TAG_PING, comm, MPI_STATUS_IGNORE);
        t_recv[n] = (int64_t)mpp_now();
        t_peer[n] = pong[0];
        same_host = pong[3] == host;
        if (pong[4]) { /* one clock: offset 0, exact */
            n = 0, shared = 1;
            break;
        }
        int64_t rtt = t_recv[n] - t_send[n];
        if (same_host && mpp_apart_after(&decider, rtt > slow, (int)pong[1], (int)pong[2], rank)) {
            t_recv[n] = t_send[n] - 1; /* left out of the estimate */
        } else {
            counted++;
            if (rtt < best)
                best = rtt;
        }
        more = want;
    }
    mpp_apart_restore(&decider.pin);
    int64_t parent_alignment[RESULT_LEN], offset = 0, uncertainty = 0;
    PMPI_Recv(parent_alignment, RESULT_LEN, MPI_INT64_T, parent, TAG_RESULT, comm, MPI_STATUS_IGNORE);
    if (!shared)
        mpp_clock_offset_estimate(t_send, t_peer, t_recv, n, &offset, &uncertainty);
    out->shared_clock = shared;
    out->edge_offset = offset;
    out->edge_uncertainty = uncertainty;
    out->same_host = same_host;
    out->shared_cpu = decider.stuck;
    out->offset = offset + parent_alignment[0];
    out->uncertainty = uncertainty + parent_alignment[1];
    if (earlier)
        out->init_error =
            mpp_clock_init_error(earlier->edge_offset, earlier->edge_uncertainty, offset, uncertainty, same_host) +
            parent_alignment[2];
}

int mpp_clock_align(MPI_Comm comm, const char *hostname, const mpp_clock_alignment_t *earlier,
                    mpp_clock_alignment_t *out)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    double rate = mpp_clock_rate_estimate(); /* ticks per second */
    int64_t good = (int64_t)(20e-6 * rate), slow = (int64_t)(200e-6 * rate), budget = (int64_t)(0.2 * rate);
    int64_t host = host_hash(hostname);
    *out = (mpp_clock_alignment_t){0};
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank < mask && rank + mask < size)
            serve_child(comm, rank + mask, host, rank, out);
        else if (rank >= mask && rank < 2 * mask)
            measure_parent(comm, rank - mask, host, rank, good, slow, budget, earlier, out);
    }
    out->at = mpp_now();
    return 0;
}
