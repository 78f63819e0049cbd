/* callsites_thread: MPI calls from a thread started by pthread_create, for
 * tests/mpi/callsites/test_callsites_thread.sh.
 *
 * With MPI_THREAD_MULTIPLE, a second thread runs worker(), which calls
 * MPI_Sendrecv N_ROUNDS times at its marked line, while the main
 * thread waits for it.  The worker's stack is worker() and then the C
 * library's code that started the thread (start_thread, clone3): the
 * protocol's stack of that SRC point ends at worker(), as the main
 * thread's end at main.
 *
 * Prints "callsites_thread: ok" on rank 0 when every message was right;
 * "callsites_thread: skipped" when MPI_THREAD_MULTIPLE is not provided.
 * Run with 2 processes. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#define N_ROUNDS 5

static int rank, errors;

static void *worker(void *arg)
{
    (void)arg;
    for (int i = 0; i < N_ROUNDS; i++) {
        int out = rank * 100 + i, in = -1, peer = 1 - rank;
        MPI_Sendrecv(&out, 1, MPI_INT, peer, i, &in, 1, MPI_INT, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:thread */
        errors += in != peer * 100 + i;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, all = 0;
    pthread_t thread;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("callsites_thread: skipped\n");
        MPI_Finalize();
        return 0;
    }
    if (pthread_create(&thread, NULL, worker, NULL) != 0 || pthread_join(thread, NULL) != 0)
        errors++;
    MPI_Reduce(&errors, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0 && all == 0)
        printf("callsites_thread: ok\n");
    MPI_Finalize();
    return 0;
}
