/* waitstates_algorithms: an intercommunicator program for
 * tests/mpi/waitstates/test_waitstates_algorithms.sh, which runs it with MPICH's
 * reduce, ireduce and allreduce algorithms forced (MPIR_CVAR_*), with and
 * without the profiler.
 *
 * MPI_COMM_WORLD splits into the even and the odd ranks; the two halves
 * make an intercommunicator (MPI_Intercomm_create), exchange messages on
 * it (each even rank with the odd rank of the same index, both
 * directions), and call MPI_Barrier, MPI_Bcast and MPI_Allgather on it --
 * no reduction on the intercommunicator, whose algorithms the forced
 * variables may break in MPICH itself.  Then MPI_Intercomm_merge, and
 * MPI_Allreduce on the merged communicator and on MPI_COMM_WORLD (no
 * MPI_Reduce: MPICH 4.0.2 asserts in it, on any communicator, with
 * REDUCE_INTRA=nb and IREDUCE_INTRA=tsp_tree or tsp_ring); a second
 * intercommunicator is created and freed without any operation on it;
 * everything is freed.  Each rank prints one line of results,
 *   rank=R lsize=.. remote=.. bcast=.. allgather=.. allreduce=.. world=..
 * which must be the same with and without the profiler.  Run with an even
 * number of processes. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 3

int main(int argc, char **argv)
{
    int rank, size, lrank, lsize, rsize, even, i, r;
    MPI_Comm local, inter, inter2, merged;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size % 2) {
        if (rank == 0)
            fprintf(stderr, "waitstates_algorithms: run with an even number of processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    even = rank % 2 == 0;
    MPI_Comm_split(MPI_COMM_WORLD, !even, rank, &local);
    MPI_Comm_rank(local, &lrank);
    MPI_Comm_size(local, &lsize);
    /* leaders: world ranks 0 (even half) and 1 (odd half) */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, even ? 1 : 0, 42, &inter);
    MPI_Comm_remote_size(inter, &rsize);

    long remote = 0, bcast = 0, allgather = 0, allreduce = 0, world = 0;
    int *gathered = malloc((size_t)rsize * sizeof *gathered);
    if (!gathered)
        MPI_Abort(MPI_COMM_WORLD, 3);
    for (r = 0; r < ROUNDS; r++) {
        int out = 100 * rank + r, in = -1;
        /* point to point: local rank i of one half with local rank i of the other */
        if (lrank < rsize) {
            if (even) {
                MPI_Send(&out, 1, MPI_INT, lrank, 7, inter);
                MPI_Recv(&in, 1, MPI_INT, lrank, 8, inter, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(&in, 1, MPI_INT, lrank, 7, inter, MPI_STATUS_IGNORE);
                MPI_Send(&out, 1, MPI_INT, lrank, 8, inter);
            }
            remote += in;
        }
        MPI_Barrier(inter);
        /* the even half's rank 0 broadcasts to the odd half */
        int value = even ? 1000 + r : -1;
        if (even)
            MPI_Bcast(&value, 1, MPI_INT, lrank == 0 ? MPI_ROOT : MPI_PROC_NULL, inter);
        else
            MPI_Bcast(&value, 1, MPI_INT, 0, inter);
        bcast += even ? 0 : value;
        MPI_Allgather(&out, 1, MPI_INT, gathered, 1, MPI_INT, inter);
        for (i = 0; i < rsize; i++)
            allgather += gathered[i];
    }
    MPI_Intercomm_merge(inter, !even, &merged);
    for (r = 0; r < ROUNDS; r++) {
        long x = rank + r, sum = 0, wsum = 0;
        MPI_Allreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, merged);
        MPI_Allreduce(&x, &wsum, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
        allreduce += sum;
        world += wsum;
    }
    /* an intercommunicator with no operation on it */
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, even ? 1 : 0, 43, &inter2);
    MPI_Comm_free(&inter2);

    printf("rank=%d lsize=%d remote=%ld bcast=%ld allgather=%ld allreduce=%ld world=%ld\n", rank, lsize, remote,
           bcast, allgather, allreduce, world);
    free(gathered);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
