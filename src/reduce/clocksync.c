#include "clock.h"
#include "clocksync.h"
#include "waitstates.h"

enum { TAG_PING = 7101, TAG_RESULT = 7102 };

/* The parent answers each ping with its clock until the child says it has
 * enough, then sends its own alignment to rank 0. */
static void serve_child(MPI_Comm comm, int child, const mpp_clock_alignment_t *mine)
{
    for (;;) {
        int64_t ping[2], now; /* the child's clock, and whether it wants more */
        PMPI_Recv(ping, 2, MPI_INT64_T, child, TAG_PING, comm, MPI_STATUS_IGNORE);
        now = (int64_t)mpp_now();
        PMPI_Send(&now, 1, MPI_INT64_T, child, TAG_PING, comm);
        if (!ping[1])
            break;
    }
    int64_t result[2] = {mine->offset, mine->uncertainty};
    PMPI_Send(result, 2, MPI_INT64_T, child, TAG_RESULT, comm);
}

/* At least MPP_CLOCKSYNC_ROUNDS round trips; on a loaded machine (a round
 * trip longer than `good` ticks: a process was descheduled) more, up to
 * MPP_CLOCKSYNC_MAX_ROUNDS or `budget` ticks, so that one quiet round trip
 * bounds the uncertainty. */
static void measure_parent(MPI_Comm comm, int parent, int64_t good, int64_t budget, mpp_clock_alignment_t *out)
{
    static int64_t t_send[MPP_CLOCKSYNC_MAX_ROUNDS], t_peer[MPP_CLOCKSYNC_MAX_ROUNDS],
        t_recv[MPP_CLOCKSYNC_MAX_ROUNDS];
    int64_t best = INT64_MAX, start = (int64_t)mpp_now();
    int n = 0;
    for (int more = 1; more; n++) {
        t_send[n] = (int64_t)mpp_now();
        int rounds_left = n + 1 < MPP_CLOCKSYNC_ROUNDS;
        int want = n + 1 < MPP_CLOCKSYNC_MAX_ROUNDS && t_send[n] - start < budget && (rounds_left || best > good);
        int64_t ping[2] = {t_send[n], want};
        PMPI_Send(ping, 2, MPI_INT64_T, parent, TAG_PING, comm);
        PMPI_Recv(&t_peer[n], 1, MPI_INT64_T, parent, TAG_PING, comm, MPI_STATUS_IGNORE);
        t_recv[n] = (int64_t)mpp_now();
        if (t_recv[n] - t_send[n] < best)
            best = t_recv[n] - t_send[n];
        more = want;
    }
    int64_t parent_alignment[2], offset = 0, uncertainty = 0;
    PMPI_Recv(parent_alignment, 2, MPI_INT64_T, parent, TAG_RESULT, comm, MPI_STATUS_IGNORE);
    mpp_clock_offset_estimate(t_send, t_peer, t_recv, n, &offset, &uncertainty);
    out->offset = offset + parent_alignment[0];
    out->uncertainty = uncertainty + parent_alignment[1];
}

int mpp_clock_align(MPI_Comm comm, mpp_clock_alignment_t *out)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    double rate = mpp_clock_rate_estimate(); /* ticks per second */
    int64_t good = (int64_t)(20e-6 * rate), budget = (int64_t)(0.2 * rate);
    out->offset = out->uncertainty = 0;
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank < mask && rank + mask < size)
            serve_child(comm, rank + mask, out);
        else if (rank >= mask && rank < 2 * mask)
            measure_parent(comm, rank - mask, good, budget, out);
    }
    out->at = mpp_now();
    return 0;
}
