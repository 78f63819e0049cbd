/* known_counts: MPI calls whose numbers, sizes and call sites are known in
 * advance, for tests/mpi/callsites/test_known_counts.sh.
 *
 *   1000 x MPI_Allreduce of 4 ints, every process, from one line
 *          (inside reduce_step, which main calls from one line);
 *    500 x MPI_Send of 8 ints from rank 0 to rank 1, from one line;
 *    500 x MPI_Recv of 8 ints on rank 1, from one line.
 *
 * The test finds the lines by their MARK: comments (keep each marked call on
 * one line).  Results are verified, so a profiler that disturbs the data
 * makes the program fail.  Run with exactly 2 processes. */
#include <mpi.h>
#include <stdio.h>

#define N_ALLREDUCE 1000
#define N_SENDRECV 500
#define REDUCE_COUNT 4
#define MSG_COUNT 8

static void reduce_step(const int *in, int *out)
{
    MPI_Allreduce(in, out, REDUCE_COUNT, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
}

int main(int argc, char **argv)
{
    int rank, size, i, j, errors = 0;
    int in[REDUCE_COUNT], out[REDUCE_COUNT], msg[MSG_COUNT];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "known_counts: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }

    for (i = 0; i < N_ALLREDUCE; i++) {
        for (j = 0; j < REDUCE_COUNT; j++)
            in[j] = rank + i + j;
        reduce_step(in, out); /* MARK:reduce_step_call */
        for (j = 0; j < REDUCE_COUNT; j++)
            errors += out[j] != 2 * (i + j) + 1;
    }

    for (i = 0; i < N_SENDRECV; i++) {
        if (rank == 0) {
            for (j = 0; j < MSG_COUNT; j++)
                msg[j] = i * MSG_COUNT + j;
            MPI_Send(msg, MSG_COUNT, MPI_INT, 1, 7, MPI_COMM_WORLD); /* MARK:send */
        } else {
            MPI_Recv(msg, MSG_COUNT, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
            for (j = 0; j < MSG_COUNT; j++)
                errors += msg[j] != i * MSG_COUNT + j;
        }
    }

    if (errors)
        fprintf(stderr, "known_counts: rank %d: %d wrong results\n", rank, errors);
    else if (rank == 0)
        printf("known_counts: ok\n");
    MPI_Finalize();
    return errors != 0;
}
