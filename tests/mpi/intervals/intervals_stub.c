/* intervals_stub: a program with interval and replicated-code marks, for
 * tests/mpi/intervals/test_intervals_stub.sh, which builds it three ways with the
 * plain MPI compiler:
 *   linked with -lmpiprof_stub: runs, no protocol (mpiprof_version() is
 *   "stub"); the same binary with LD_PRELOAD=libmpiprof.so is profiled: the
 *   interval "stubbed" is in the protocol (mpiprof_version() is the
 *   library's);
 *   compiled with -DMPIPROF_DISABLE: the marks are nothing, and it links
 *   without any mpiprof library.
 *
 *   "stubbed"   N_ALLREDUCE x MPI_Allreduce, replicated code (busy T_SEQ)
 *
 * Prints "intervals_stub: ok version=V" (V: "disabled" when built with
 * -DMPIPROF_DISABLE).  Run with 2 processes. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#include "mpiprof.h"

#define N_ALLREDUCE 5
#define T_SEQ 0.010

#include "../lib/busy.h"

int main(int argc, char **argv)
{
    int rank, i, value, sum, errors = 0;
    const char *version = "disabled";

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifndef MPIPROF_DISABLE
    version = mpiprof_version();
#endif

    MPIPROF_INTERVAL_BEGIN("stubbed"); /* MARK:stubbed */
    for (i = 0; i < N_ALLREDUCE; i++) {
        value = rank + i;
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
        errors += sum != 2 * i + 1;
    }
    MPIPROF_SEQ_BEGIN();
    busy(T_SEQ);
    MPIPROF_SEQ_END();
    MPIPROF_INTERVAL_END();

    if (errors)
        fprintf(stderr, "intervals_stub: rank %d: %d wrong results\n", rank, errors);
    else if (rank == 0)
        printf("intervals_stub: ok version=%s\n", version);
    MPI_Finalize();
    return errors != 0;
}
