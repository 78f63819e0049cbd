/* intervals: a program marked with nested intervals whose times, executions
 * and MPI calls are known, for tests/mpi/intervals/test_intervals.sh.
 *
 *   "setup"      once:      busy T_SETUP, then MPI_Bcast
 *   "loop"       N_ITER x:  busy (rank 0: T_LOOP0, rank 1: T_LOOP1), then
 *                           MPI_Barrier, then
 *     "exchange" N_ITER x:  ["pack" from the 2nd iteration on: busy T_PACK]
 *                           busy (rank 0: T_EX0, rank 1: T_EX1), then
 *                           MPI_Allreduce
 *     "update"   N_ITER x:  busy T_UPDATE
 *   "final"      once:      busy T_FINAL, then MPI_Reduce
 *
 * "pack" is first entered (2nd iteration) after "update" (1st iteration),
 * so the protocol's depth-first order (setup, loop, exchange, pack, update,
 * final) differs from a plain sort by first entry (... update, pack ...).
 *
 * The unequal busy times make each rank wait in the barrier (rank 1) or the
 * allreduce (rank 0), so each interval has communication worth measuring.
 * Each rank measures itself and prints one line
 *   rank=R exec=S setup=S loop=S exchange=S pack=S update=S final=S
 *          comm_setup=S comm_loop=S comm_exchange=S comm_final=S
 * (exec: from MPI_Init's return to MPI_Finalize's entry; an interval's time:
 * from just before its begin mark to just before its end mark, as the
 * profiler counts it: what the end mark itself does, and a preemption at
 * its system calls on a loaded node, are not the interval's; summed over
 * its executions; comm_X: time inside the MPI calls made directly in X).
 * The test finds the lines of the marks and calls by their MARK: comments.
 * Computation is a busy loop on the clock, not sleep.  Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "mpiprof.h"

#define N_ITER 50
#define T_SETUP 0.050
#define T_LOOP0 0.003
#define T_LOOP1 0.002
#define T_EX0 0.001
#define T_EX1 0.002
#define T_PACK 0.0005
#define T_UPDATE 0.0005
#define T_FINAL 0.030

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size, i, errors = 0, value, sum;
    double start, t, c, t_loop0, t_ex0;
    double t_setup = 0, t_loop = 0, t_exchange = 0, t_pack = 0, t_update = 0, t_final = 0;
    double comm_setup = 0, comm_loop = 0, comm_exchange = 0, comm_final = 0;

    MPI_Init(&argc, &argv);
    start = now();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "intervals: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    t = now();
    MPIPROF_INTERVAL_BEGIN("setup"); /* MARK:setup */
    busy(T_SETUP);
    value = rank == 0 ? 42 : 0;
    c = now();
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD); /* MARK:bcast */
    comm_setup += now() - c;
    errors += value != 42;
    t_setup += now() - t;
    MPIPROF_INTERVAL_END();

    for (i = 0; i < N_ITER; i++) {
        t_loop0 = now();
        MPIPROF_INTERVAL_BEGIN("loop"); /* MARK:loop */
        busy(rank == 0 ? T_LOOP0 : T_LOOP1);
        c = now();
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier */
        comm_loop += now() - c;

        t_ex0 = now();
        MPIPROF_INTERVAL_BEGIN("exchange"); /* MARK:exchange */
        if (i > 0) {
            t = now();
            MPIPROF_INTERVAL_BEGIN("pack"); /* MARK:pack */
            busy(T_PACK);
            t_pack += now() - t;
            MPIPROF_INTERVAL_END();
        }
        busy(rank == 0 ? T_EX0 : T_EX1);
        value = rank + i;
        c = now();
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
        comm_exchange += now() - c;
        errors += sum != 2 * i + 1;
        t_exchange += now() - t_ex0;
        MPIPROF_INTERVAL_END();

        t = now();
        MPIPROF_INTERVAL_BEGIN("update"); /* MARK:update */
        busy(T_UPDATE);
        t_update += now() - t;
        MPIPROF_INTERVAL_END();

        t_loop += now() - t_loop0;
        MPIPROF_INTERVAL_END();
    }

    t = now();
    MPIPROF_INTERVAL_BEGIN("final"); /* MARK:final */
    busy(T_FINAL);
    value = rank + 1;
    c = now();
    MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD); /* MARK:reduce */
    comm_final += now() - c;
    errors += rank == 0 && sum != 3;
    t_final += now() - t;
    MPIPROF_INTERVAL_END();

    if (errors)
        fprintf(stderr, "intervals: rank %d: %d wrong results\n", rank, errors);
    printf("rank=%d exec=%.6f setup=%.6f loop=%.6f exchange=%.6f pack=%.6f update=%.6f final=%.6f "
           "comm_setup=%.6f comm_loop=%.6f comm_exchange=%.6f comm_final=%.6f\n",
           rank, now() - start, t_setup, t_loop, t_exchange, t_pack, t_update, t_final, comm_setup,
           comm_loop, comm_exchange, comm_final);
    fflush(stdout);
    MPI_Finalize();
    return errors != 0;
}
