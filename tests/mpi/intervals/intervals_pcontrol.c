/* intervals_pcontrol: intervals and pauses through MPI_Pcontrol, for
 * tests/mpi/intervals/test_intervals_pcontrol.sh.
 *
 *   MPI_Pcontrol(1, "region") ... MPI_Pcontrol(-1, "region"), twice:
 *       busy T_REGION, N_REGION x MPI_Allreduce      -> interval "region"
 *   MPI_Pcontrol(0)   pause:   N_PAUSED x MPI_Barrier, MPI_Bcast
 *   MPI_Pcontrol(2)   resume:  N_RESUMED x MPI_Barrier
 *   MPI_Pcontrol(0)   pause:   MPI_Allreduce
 *   MPI_Pcontrol(1)   resume (level 1 without a name; then with an address
 *                     in the C library, as a leftover register): MPI_Bcast
 *
 * The calls made while paused must not be counted; the others exactly.
 * Each rank measures its time in "region" (from just before the begin call
 * to just after the end call, both executions) and prints
 *   rank=R region=S
 * The test finds the lines of the calls by their MARK: comments.
 * Computation is a busy loop on the clock, not sleep.  Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define N_REGION 20
#define N_PAUSED 30
#define N_RESUMED 40
#define T_REGION 0.020

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size, i, k, value, sum, errors = 0;
    double t, region = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "intervals_pcontrol: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (k = 0; k < 2; k++) {
        t = now();
        MPI_Pcontrol(1, "region"); /* MARK:region */
        busy(T_REGION);
        for (i = 0; i < N_REGION; i++) {
            value = rank + i;
            MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:region_allreduce */
            errors += sum != 2 * i + 1;
        }
        MPI_Pcontrol(-1, "region"); /* MARK:region_end */
        region += now() - t;
    }

    MPI_Pcontrol(0); /* MARK:pause */
    for (i = 0; i < N_PAUSED; i++)
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:paused_barrier */
    value = rank == 0 ? 7 : 0;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); /* MARK:paused_bcast */
    errors += value != 7;

    MPI_Pcontrol(2); /* MARK:resume2 */
    for (i = 0; i < N_RESUMED; i++)
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:resumed_barrier */

    MPI_Pcontrol(0); /* MARK:pause2 */
    value = 1;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:paused_allreduce */
    errors += sum != 2;

    MPI_Pcontrol(1); /* MARK:resume1 */
    /* what a register holds when no name is passed, made certain: an
     * address in the C library, which mpiprof never takes for a name */
    MPI_Pcontrol(1, strerror(0)); /* MARK:resume_libc */
    value = rank == 0 ? 9 : 0;
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); /* MARK:resumed_bcast */
    errors += value != 9;

    if (errors)
        fprintf(stderr, "intervals_pcontrol: rank %d: %d wrong results\n", rank, errors);
    printf("rank=%d region=%.6f\n", rank, region);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
