/* view_trace_known: a program whose trace the trace-links test knows
 * (tests/view/test_view_trace.sh).  Run with 2 processes:
 *
 *   N_SENDS x: rank 0 tells rank 1 to go (MPI_Isend, an eager message;
 *              rank 1: MPI_Irecv, MPI_Wait) and waits in MPI_Recv; rank 1 computes T_LATE,
 *              then MPI_Send to rank 0 (a late sender: Real sync on
 *              rank 0, about T_LATE per receive, whatever the scheduling
 *              of rank 0 between two receives);
 *   N_BARRIERS x: rank 1 computes T_LATE, then both call MPI_Barrier
 *              (rank 0 enters first and waits: Potential sync on rank 0),
 *              the first time in interval "first barrier", the others in
 *              "later barriers": one SRC number (one call site) in two
 *              intervals, 1 and N_BARRIERS - 1 calls per process.
 *
 * The tests find the calls by their MARK: comments.  Computation is a
 * busy loop on the clock, not sleep. */
#define _POSIX_C_SOURCE 199309L
#include <mpi.h>
#include <stdio.h>

#include "../mpi/lib/busy.h"
#include "mpiprof.h"

#define N_SENDS 12
#define N_BARRIERS 3
#define T_LATE 0.010

int main(int argc, char **argv)
{
    int rank, size, value = 0, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "view_trace_known: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    for (int i = 0; i < N_SENDS; i++) {
        if (rank == 1) {
            MPI_Request go;
            MPI_Irecv(&value, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &go);
            MPI_Wait(&go, MPI_STATUS_IGNORE);
            busy(T_LATE);
            value = i;
            MPI_Send(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD); /* MARK:send */
        } else {
            MPI_Request go;
            MPI_Isend(&i, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &go);
            MPI_Recv(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
            MPI_Wait(&go, MPI_STATUS_IGNORE);
            sum += value;
        }
    }
    for (int i = 0; i < N_BARRIERS; i++) {
        MPIPROF_INTERVAL_BEGIN(i == 0 ? "first barrier" : "later barriers");
        if (rank == 1)
            busy(T_LATE);
        MPI_Barrier(MPI_COMM_WORLD); /* MARK:barrier */
        MPIPROF_INTERVAL_END();
    }
    if (rank == 0)
        printf("view_trace_known: sum=%d\n", sum);
    MPI_Finalize();
    return 0;
}
