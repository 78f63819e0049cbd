/* thread_times: two threads call MPI at one source line on different
 * communicators, each with a late partner, for test_thread_times.sh.
 *
 *   mpiexec -n 2 ./thread_times LATE_MS
 *
 * MPI_THREAD_MULTIPLE.  After a barrier, the main thread starts two threads
 * that run worker(): thread t makes one MPI_Sendrecv with the other rank on
 * its own duplicate of MPI_COMM_WORLD, from the one marked line, and waits
 * for the other before it ends.  On rank 1 thread 0 first sleeps LATE_MS
 * and thread 1 LATE_MS / 3, so that rank 0's threads wait that long in
 * their calls, at the same time; rank 1's find their partners there.
 * Known answer: one SRC point, called by 2 threads on each rank; rank 0's
 * two threads spent about LATE_MS and LATE_MS / 3 in it, rank 1's both
 * about 0; rank 0's Communication is about LATE_MS (the time during which
 * one of its threads was inside MPI), not their sum.  Rank 0 prints
 * "thread_times: ok". */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static MPI_Comm comms[2];
static int rank, late_ms, got[2];
/* both threads stay until both have called: a thread that ended would
 * leave its state (and thread index) to the next one */
static pthread_barrier_t called;

static void *worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    if (rank == 1) {
        int ms = t == 0 ? late_ms : late_ms / 3;
        struct timespec late = {ms / 1000, (ms % 1000) * 1000000L};
        nanosleep(&late, NULL);
    }
    int out = rank * 10 + t;
    MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, 7, &got[t], 1, MPI_INT, 1 - rank, 7, comms[t], MPI_STATUS_IGNORE); /* MARK:sendrecv */
    pthread_barrier_wait(&called);
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, size;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided != MPI_THREAD_MULTIPLE || size != 2 || argc < 2) {
        fprintf(stderr, "thread_times: needs MPI_THREAD_MULTIPLE, 2 processes and LATE_MS\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    late_ms = atoi(argv[1]);
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[1]);
    MPI_Barrier(MPI_COMM_WORLD);
    pthread_barrier_init(&called, NULL, 2);
    pthread_t threads[2];
    for (int t = 0; t < 2; t++)
        pthread_create(&threads[t], NULL, worker, (void *)(intptr_t)t);
    for (int t = 0; t < 2; t++)
        pthread_join(threads[t], NULL);
    int ok = got[0] == (1 - rank) * 10 && got[1] == (1 - rank) * 10 + 1;
    MPI_Comm_free(&comms[0]);
    MPI_Comm_free(&comms[1]);
    if (rank == 0)
        printf("thread_times: %s\n", ok ? "ok" : "wrong values received");
    MPI_Finalize();
    return 0;
}
