/* intervals_seq: replicated code marked with MPIPROF_SEQ_BEGIN/END inside
 * intervals, for tests/mpi/intervals/test_intervals_seq.sh.
 *
 *   "replicated"   busy T_PAR (parallel work, not marked), then
 *                  replicated code: busy T_SEQ between SEQ_BEGIN and SEQ_END,
 *     "inner"      replicated code: busy T_INNER between two nested pairs
 *                  of SEQ_BEGIN/SEQ_END (nested marks count once),
 *                  then MPI_Allreduce
 *   "parallel"     busy T_PAR, then MPI_Barrier (no replicated code)
 *
 * Every process repeats the replicated code, so with P processes it counts
 * t(p) * (P-1)/P as insufficient parallelism on process p, in every interval
 * open around it (intervals are inclusive).  Each rank measures the wall
 * time of its replicated code and prints
 *   rank=R seq=S inner=S
 * (seq: the code marked in "replicated" itself; inner: that in "inner").
 * Computation is a busy loop on the clock, not sleep.  Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "mpiprof.h"

#define T_PAR 0.020
#define T_SEQ 0.080
#define T_INNER 0.040

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size, value, sum;
    double t, seq, inner;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "intervals_seq: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    MPIPROF_INTERVAL_BEGIN("replicated"); /* MARK:replicated */
    busy(T_PAR);
    t = now();
    MPIPROF_SEQ_BEGIN();
    busy(T_SEQ);
    MPIPROF_SEQ_END();
    seq = now() - t;

    MPIPROF_INTERVAL_BEGIN("inner"); /* MARK:inner */
    t = now();
    MPIPROF_SEQ_BEGIN();
    MPIPROF_SEQ_BEGIN();
    busy(T_INNER);
    MPIPROF_SEQ_END();
    MPIPROF_SEQ_END();
    inner = now() - t;
    MPIPROF_INTERVAL_END();

    value = rank;
    MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPIPROF_INTERVAL_END();

    MPIPROF_INTERVAL_BEGIN("parallel"); /* MARK:parallel */
    busy(T_PAR);
    MPI_Barrier(MPI_COMM_WORLD);
    MPIPROF_INTERVAL_END();

    printf("rank=%d seq=%.6f inner=%.6f\n", rank, seq, inner);
    fflush(stdout);
    MPI_Finalize();
    return sum != 1;
}
