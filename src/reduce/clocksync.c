#include "clock.h"
#include "clocksync.h"
#include "waitstates.h"

enum { TAG_PING = 7101, TAG_RESULT = 7102 };

/* The parent answers each ping with its clock, then sends its own
 * alignment to rank 0. */
static void serve_child(MPI_Comm comm, int child, const mpp_clock_alignment_t *mine)
{
    for (int i = 0; i < MPP_CLOCKSYNC_ROUNDS; i++) {
        int64_t ping, now;
        PMPI_Recv(&ping, 1, MPI_INT64_T, child, TAG_PING, comm, MPI_STATUS_IGNORE);
        now = (int64_t)mpp_now();
        PMPI_Send(&now, 1, MPI_INT64_T, child, TAG_PING, comm);
    }
    int64_t result[2] = {mine->offset, mine->uncertainty};
    PMPI_Send(result, 2, MPI_INT64_T, child, TAG_RESULT, comm);
}

static void measure_parent(MPI_Comm comm, int parent, mpp_clock_alignment_t *out)
{
    int64_t t_send[MPP_CLOCKSYNC_ROUNDS], t_peer[MPP_CLOCKSYNC_ROUNDS], t_recv[MPP_CLOCKSYNC_ROUNDS];
    for (int i = 0; i < MPP_CLOCKSYNC_ROUNDS; i++) {
        t_send[i] = (int64_t)mpp_now();
        PMPI_Send(&t_send[i], 1, MPI_INT64_T, parent, TAG_PING, comm);
        PMPI_Recv(&t_peer[i], 1, MPI_INT64_T, parent, TAG_PING, comm, MPI_STATUS_IGNORE);
        t_recv[i] = (int64_t)mpp_now();
    }
    int64_t parent_alignment[2], offset = 0, uncertainty = 0;
    PMPI_Recv(parent_alignment, 2, MPI_INT64_T, parent, TAG_RESULT, comm, MPI_STATUS_IGNORE);
    /* the first round trips warm the path up; the best one counts anyway */
    mpp_clock_offset_estimate(t_send, t_peer, t_recv, MPP_CLOCKSYNC_ROUNDS, &offset, &uncertainty);
    out->offset = offset + parent_alignment[0];
    out->uncertainty = uncertainty + parent_alignment[1];
}

int mpp_clock_align(MPI_Comm comm, mpp_clock_alignment_t *out)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    out->offset = out->uncertainty = 0;
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank < mask && rank + mask < size)
            serve_child(comm, rank + mask, out);
        else if (rank >= mask && rank < 2 * mask)
            measure_parent(comm, rank - mask, out);
    }
    out->at = mpp_now();
    return 0;
}
