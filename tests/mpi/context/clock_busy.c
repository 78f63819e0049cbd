/* clock_busy: each rank spins 0.4 s between MPI_Init and MPI_Finalize and
 * prints how long it measured ("rank=R busy=SECONDS"); then it reads
 * CLOCK_BOOTTIME once, which arms tests/mpi/context/clock_delay.c when that is
 * preloaded (test_clock_descheduled.sh). */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    double t0 = now(), t1;
    while ((t1 = now()) - t0 < 0.4)
        ;
    printf("rank=%d busy=%.6f\n", rank, t1 - t0);
    fflush(stdout);
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts); /* the arming mark */
    MPI_Finalize();
    return 0;
}
