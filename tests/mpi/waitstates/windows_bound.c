/* windows_bound: collective windows that reach past the end of their
 * interval on their process, for tests/mpi/waitstates/test_windows_bound.sh.
 *
 *   windows_bound MODE
 *
 * MODE "late": rank 0 computes T_LATE before it enters the interval
 * "short"; in it, both ranks make one MPI_Reduce to rank 0
 * and leave.  Rank 1, not the root, leaves its MPI_Reduce at once (the
 * message is small) and the interval right after: its Potential sync
 * window [its entry, rank 0's entry) and Time variation window [its exit,
 * rank 0's exit) are T_LATE long, far more than its time in "short", and
 * rank 0's time there is short too.  A process's part of its own time in
 * an interval cannot exceed that time: each window ends where the
 * interval ended on its process, and the interval's Potential sync and
 * Time variation stay within its Total time.
 *
 * MODE "short": REPEAT MPI_Allreduce, MPI_Reduce and MPI_Bcast right after
 * MPI_Init and nothing else (MPICH's coll/opland, coll/oplor: a run of a
 * fraction of a millisecond, in which the processes return from MPI_Init
 * up to a millisecond apart).
 *
 * Prints "windows_bound: ok" on rank 0.  Run with 2 processes. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "../lib/busy.h"
#include "mpiprof.h"

#define T_LATE 0.050
#define REPEAT 3

int main(int argc, char **argv)
{
    int rank, size, in = 1, out = 0, ok = 1;
    const char *mode = argc > 1 ? argv[1] : "late";
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (!strcmp(mode, "late")) {
        MPI_Barrier(MPI_COMM_WORLD); /* processes leave MPI_Init up to tens of ms apart */
        if (rank == 0)
            busy(T_LATE);
        MPIPROF_INTERVAL_BEGIN("short");
        MPI_Reduce(&in, &out, 1, MPI_INT, MPI_LOR, 0, MPI_COMM_WORLD); /* MARK:reduce */
        MPIPROF_INTERVAL_END();
        ok = rank != 0 || out == 1;
    } else {
        for (int i = 0; i < REPEAT; i++) {
            MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
            ok &= out == 1;
            MPI_Reduce(&in, &out, 1, MPI_INT, MPI_LOR, 0, MPI_COMM_WORLD);
            ok &= rank != 0 || out == 1;
            MPI_Bcast(&in, 1, MPI_INT, 0, MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf(ok ? "windows_bound: ok\n" : "windows_bound: wrong results\n");
    MPI_Finalize();
    return !ok;
}
