/* context: a small MPI program for the machine-context tests (Machine,
 * Placement, hardware counters that degrade): an interval with some
 * computation and collective calls, on any number of processes.
 * "late-finalize": rank 1 sleeps 0.3 s before MPI_Finalize, where the
 * others wait for it. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mpiprof.h"

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    volatile double x = 0;
    MPIPROF_INTERVAL_BEGIN("compute");
    for (int i = 0; i < 2000000; i++)
        x += i * 1e-9;
    double sum = 0, mine = rank + x * 0;
    for (int i = 0; i < 10; i++)
        MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPIPROF_INTERVAL_END();
    if (rank == 0)
        printf("context: %d processes, sum %.0f\n", size, sum);
    if (argc > 1 && !strcmp(argv[1], "late-finalize") && rank == 1)
        nanosleep(&(struct timespec){0, 300000000}, NULL);
    MPI_Finalize();
    return 0;
}
