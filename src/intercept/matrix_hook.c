/* The communication matrix's state in the library (matrix_hook.h). */
#include "intercept/matrix_hook.h"
#include "context/clock.h"
#include "context/config.h"
#include "intercept/comms.h"
#include "reduce/matrix_mpi.h"
#include "reduce/ptp_collectives.h"
#include "util/warnings.h"

int mpp_matrix_on;
mpp_peer_table_t mpp_matrix_table;
mpp_mt_lock_t mpp_matrix_lock = MPP_MT_LOCK_INITIALIZER;
uint64_t mpp_matrix_unattributed;

/* Room for the peers of a stencil (up to 26 neighbours in 3-D) before the
 * first growth. */
#define FIRST_PEERS 64

static int wanted; /* rank 0's MPIPROF_MATRIX: every process reduces, or none */
static int limit;  /* rank 0's MPIPROF_MATRIX_RANKS */

void mpp_matrix_start(MPI_Comm comm, int thread_multiple)
{
    int settings[2] = {(int)mpp_config.number[MPP_CFG_MATRIX], (int)mpp_config.number[MPP_CFG_MATRIX_RANKS]};
    mpp_ptp_bcast(settings, 2, MPI_INT, 0, comm);
    wanted = settings[0], limit = settings[1];
    mpp_matrix_lock.on = thread_multiple;
    mpp_matrix_unattributed = 0;
    mpp_matrix_on = wanted && mpp_peer_table_init(&mpp_matrix_table, FIRST_PEERS) == 0;
    if (wanted && !mpp_matrix_on)
        mpp_warn("out of memory at MPI_Init: this process's point-to-point calls are not counted in the "
                 "communication matrix, which is left out of the protocol");
}

mpp_pair_t *mpp_matrix_own_pairs(int rank, int *n, double *not_counted)
{
    *n = -1;
    *not_counted = (double)(mpp_matrix_unattributed + mpp_matrix_table.dropped);
    if (!mpp_matrix_on)
        return NULL;
    /* no lock: a dying process's partial protocol is written where a
     * thread that died holding it would never give it back */
    mpp_pair_t *pairs = mpp_peer_table_pairs(&mpp_matrix_table, rank, mpp_ticks_to_seconds, n);
    if (mpp_matrix_table.count && !pairs)
        *n = -1; /* no memory: said as not counted */
    return pairs;
}

mpp_matrix_t *mpp_matrix_finish(MPI_Comm comm, const char *hostname, const char **na)
{
    mpp_matrix_t *m = NULL;
    *na = "MPIPROF_MATRIX=off";
    if (wanted) {
        m = mpp_matrix_reduce(comm, hostname, mpp_matrix_on ? &mpp_matrix_table : NULL, mpp_matrix_unattributed,
                              mpp_ticks_to_seconds, limit, &mpp_config);
        *na = "out of memory, as Warnings say";
    }
    mpp_matrix_on = 0;
    mpp_peer_table_free(&mpp_matrix_table);
    return m;
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
