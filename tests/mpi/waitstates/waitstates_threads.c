/* waitstates_threads: wait states under MPI_THREAD_MULTIPLE, for
 * tests/mpi/waitstates/test_waitstates_threads.sh.
 *
 * Two threads per process, each on its own duplicate of MPI_COMM_WORLD, at
 * once, STEPS times:
 *   a late message: rank 1 sleeps T_LATE, then MPI_Send; rank 0 MPI_Recv;
 *   an exchange: MPI_Irecv + MPI_Isend + MPI_Waitall on both ranks;
 *   skewed collectives: rank r sleeps (r+1) x T_SKEW before an
 *   MPI_Allreduce, an MPI_Iallreduce + MPI_Wait and an MPI_Barrier.
 * Sleeping (not busy loops) keeps the 4 threads off the 2 cores of a small
 * machine.  Then the main thread checks the threads' sums with one
 * MPI_Allreduce on MPI_COMM_WORLD.  Prints "waitstates_threads: ok" on
 * rank 0 when every result is right; when MPI_THREAD_MULTIPLE is not
 * provided, "waitstates_threads: MPI_THREAD_MULTIPLE not provided" (the
 * test skips).  Run with 2 processes. */
#define _POSIX_C_SOURCE 200112L
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define NTHREADS 2
#define STEPS 20
#define T_LATE 0.002
#define T_SKEW 0.001
#define COUNT 4

static int rank;
static MPI_Comm comms[NTHREADS];
static int errors[NTHREADS];

static void pause_for(double seconds)
{
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void work(int t)
{
    MPI_Comm comm = comms[t];
    int s, buf[COUNT], in[COUNT], out[COUNT], value, sum, sum2;
    MPI_Request req[2];
    MPI_Status sts[2];

    for (s = 0; s < STEPS; s++) {
        /* a late sender */
        if (rank == 1) {
            pause_for(T_LATE);
            buf[0] = 1000 * t + s;
            MPI_Send(buf, COUNT, MPI_INT, 0, 1, comm); /* MARK:t_send */
        } else {
            MPI_Recv(buf, COUNT, MPI_INT, 1, 1, comm, MPI_STATUS_IGNORE); /* MARK:t_recv */
            errors[t] += buf[0] != 1000 * t + s;
        }
        /* an exchange */
        out[0] = 100 * rank + s;
        MPI_Irecv(in, COUNT, MPI_INT, 1 - rank, 2, comm, &req[0]); /* MARK:t_irecv */
        MPI_Isend(out, COUNT, MPI_INT, 1 - rank, 2, comm, &req[1]); /* MARK:t_isend */
        MPI_Waitall(2, req, sts); /* MARK:t_waitall */
        errors[t] += in[0] != 100 * (1 - rank) + s;
        /* skewed collectives */
        pause_for((rank + 1) * T_SKEW);
        value = rank + s + t;
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm); /* MARK:t_allreduce */
        pause_for((rank + 1) * T_SKEW);
        MPI_Iallreduce(&value, &sum2, 1, MPI_INT, MPI_SUM, comm, &req[0]); /* MARK:t_iallreduce */
        MPI_Wait(&req[0], MPI_STATUS_IGNORE); /* MARK:t_iwait */
        errors[t] += sum != 1 + 2 * (s + t) || sum2 != sum;
        pause_for((rank + 1) * T_SKEW);
        MPI_Barrier(comm); /* MARK:t_barrier */
    }
}

static void *run(void *arg)
{
    int t = (int)(long)arg;
    work(t); /* MARK:run_work */
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, size, t, mine = 0, total;
    pthread_t th[NTHREADS];

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "waitstates_threads: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (provided < MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("waitstates_threads: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Finalize();
        return 0;
    }
    for (t = 0; t < NTHREADS; t++)
        MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]); /* MARK:dup */
    for (t = 0; t < NTHREADS; t++)
        if (pthread_create(&th[t], NULL, run, (void *)(long)t) != 0) {
            fprintf(stderr, "waitstates_threads: pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    for (t = 0; t < NTHREADS; t++) {
        pthread_join(th[t], NULL);
        mine += errors[t];
    }
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:m_check */
    for (t = 0; t < NTHREADS; t++)
        MPI_Comm_free(&comms[t]); /* MARK:free */
    if (rank == 0) {
        if (total == 0)
            printf("waitstates_threads: ok\n");
        else
            printf("waitstates_threads: %d wrong results\n", total);
        fflush(stdout);
    }
    MPI_Finalize();
    return total != 0;
}
