/* hang_short: MPI calls that are long but not stuck, for
 * tests/mpi/hangs/test_hang_short.sh, run with MPIPROF_HANG_TIMEOUT=2.
 *
 *   hang_short DUMP0 DUMP1
 *
 * 1. Rank 0 waits 1 s in MPI_Recv (rank 1 sleeps before sending), then
 *    both make short calls for 3 s (longer than the timeout in all, each
 *    far shorter): neither DUMP0 nor DUMP1 (the paths of the two processes'
 *    hang dumps) may exist, which rank 0 checks.
 * 2. Rank 0 waits 4 s in MPI_Recv from the line marked MARK:long: that call
 *    outlasts the timeout and is dumped, then returns; the dump must say so
 *    (the test checks after MPI_Finalize).
 * Prints "hang_short: ok" from rank 0 when step 1 found no dump. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, size, value = 0, errors = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2 || argc != 3) {
        if (rank == 0)
            fprintf(stderr, "usage: mpiexec -n 2 hang_short DUMP0 DUMP1\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    /* 1. long, not stuck */
    if (rank == 0) {
        MPI_Recv(&value, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        sleep(1);
        MPI_Send(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    double until = now() + 3.0;
    int more = 1;
    while (more) {
        MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        more = now() < until;
        MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
        usleep(1000);
    }
    if (rank == 0)
        for (int r = 0; r < 2; r++)
            if (access(argv[1 + r], F_OK) == 0) {
                fprintf(stderr, "hang_short: %s exists after calls shorter than the timeout\n", argv[1 + r]);
                errors++;
            }

    /* 2. stuck for a while, then returns */
    if (rank == 0) {
        MPI_Recv(&value, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:long */
    } else {
        sleep(4);
        MPI_Send(&value, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && !errors)
        printf("hang_short: ok\n");
    MPI_Finalize();
    return 0;
}
