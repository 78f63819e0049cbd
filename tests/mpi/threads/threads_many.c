/* threads_many: many short-lived threads that call MPI, for
 * tests/mpi/threads/test_threads_many.sh (MPICH's threads/pt2pt/alltoall: 10,000
 * threads one after the other, each receiving until every process said it
 * is done).
 *
 *   threads_many [N]
 *
 * N rounds (default 10000); in each, a new thread receives one message
 * from every process (MPI_Recv, MPI_ANY_SOURCE) while the main
 * thread sends one to every process, joins the thread and
 * makes an MPI_Barrier.  After MPI_Finalize (which folds what the threads
 * accumulated), prints "threads_many: ok N peak_kib K" on each rank: the
 * process's peak resident memory (VmHWM).  MPI_THREAD_MULTIPLE. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size;

static void *listener(void *arg)
{
    int *got = arg, value;
    for (int i = 0; i < size; i++) {
        MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 111, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:recv */
        *got += value;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, rounds = argc > 1 ? atoi(argv[1]) : 10000, wrong = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) {
        printf("threads_many: MPI_THREAD_MULTIPLE is not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 0; r < rounds; r++) {
        pthread_t thread;
        int got = 0, one = 1;
        if (pthread_create(&thread, NULL, listener, &got) != 0) {
            printf("threads_many: pthread_create failed in round %d\n", r);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (int j = 0; j < size; j++)
            MPI_Send(&one, 1, MPI_INT, j, 111, MPI_COMM_WORLD); /* MARK:send */
        pthread_join(thread, NULL);
        wrong += got != size;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    long peak = -1;
    char line[256];
    FILE *status = fopen("/proc/self/status", "r");
    while (status && fgets(line, sizeof line, status))
        if (!strncmp(line, "VmHWM:", 6))
            peak = atol(line + 6);
    if (status)
        fclose(status);
    printf("threads_many: %s %d peak_kib %ld\n", wrong ? "wrong" : "ok", rounds, peak);
    return wrong != 0;
}
