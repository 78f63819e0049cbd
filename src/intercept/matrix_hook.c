/* The communication matrix's state in the library (matrix_hook.h). */
#include "intercept/matrix_hook.h"
#include "intercept/comms.h"

int mpp_matrix_on;
mpp_peer_table_t mpp_matrix_table;
mpp_mt_lock_t mpp_matrix_lock = MPP_MT_LOCK_INITIALIZER;
uint64_t mpp_matrix_unattributed;

/* Room for the peers of a stencil (up to 26 neighbours in 3-D) before the
 * first growth. */
#define FIRST_PEERS 64

void mpp_matrix_start(int thread_multiple)
{
    mpp_matrix_lock.on = thread_multiple;
    mpp_matrix_unattributed = 0;
    mpp_matrix_on = mpp_peer_table_init(&mpp_matrix_table, FIRST_PEERS) == 0;
}

void mpp_matrix_stop(void)
{
    mpp_matrix_on = 0;
    mpp_peer_table_free(&mpp_matrix_table);
}

int mpp_matrix_peer_slow(MPI_Comm comm, int rank)
{
    if (!mpp_comm_world_entry) { /* no registry: the wait-state analysis is off */
        mpp_mt_take(&mpp_matrix_lock);
        mpp_matrix_unattributed++;
        mpp_mt_give(&mpp_matrix_lock);
        return -1;
    }
    mpp_comm_t *c = mpp_comm_get(comm);
    return c ? mpp_comm_world_rank(c, rank) : -1;
}
