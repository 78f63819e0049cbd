/* waitstates_idup_threads: nonblocking communicator duplication from
 * several threads at once, amid nonblocking collectives, for
 * tests/mpi/waitstates/test_waitstates_idup_threads.sh.
 *
 * MPI_THREAD_MULTIPLE, 2 processes, NTHREADS threads, each with its own
 * parent communicator, an intercommunicator between the two processes, and
 * its own duplicate of MPI_COMM_WORLD ("side").  Each thread, ITERS times:
 *   - MPI_Comm_idup of its parent into NCHILD children, overlapped with
 *     MPI_Iallreduce, MPI_Ibcast, MPI_Ibarrier on the parent and
 *     MPI_Iscan, MPI_Iallreduce on its side communicator;
 *   - once the first child is there (MPI_Wait on its request):
 *     MPI_Comm_idup of it (a grandchild), overlapped with MPI_Iallreduce,
 *     MPI_Ibcast, MPI_Ibarrier on it; MPI_Waitall of everything;
 *   - on the idup'ed communicators: a skewed MPI_Allreduce (rank 1 sleeps
 *     T_SKEW first: rank 0's Potential sync), a late message (rank 1 sleeps
 *     T_LATE, then sends; rank 0 already waits in MPI_Recv: its Real sync),
 *     an MPI_Barrier on the grandchild;
 *   - MPI_Comm_free of the children and the grandchild.
 * (Parents that are intracommunicators, duplicated by one thread while
 * another duplicates an intercommunicator, make MPICH 4.0.2 itself hang
 * now and then, without the profiler; the side communicators carry the
 * MPI_Iscan instead.)  Sleeping (not busy loops) keeps the threads off the
 * 2 cores.  Each rank checks every result and prints "rank=R errors=N";
 * rank 0 then prints "waitstates_idup_threads: ok" when no rank had an
 * error, or "waitstates_idup_threads: MPI_THREAD_MULTIPLE not provided"
 * (the test skips).  The skewed MPI_Allreduce and the late message are
 * recorded (waitstates_events.c, keys skewT, sendT, recvT for thread T) in
 * PREFIX.RANK (PREFIX: the first argument, default "events").  A second
 * argument sets the rounds (default ITERS). */
#include "../lib/waitstates_events.c"

#include <mpi.h>
#include <pthread.h>

#define NTHREADS 2
#define ITERS 150

static int iters = ITERS;
#define NCHILD 3
#define T_SKEW 0.002
#define T_LATE 0.002

static int rank;
static MPI_Comm parents[NTHREADS], sides[NTHREADS];
static int errors[NTHREADS];
static char keys[NTHREADS][3][16];
static pthread_mutex_t record_lock = PTHREAD_MUTEX_INITIALIZER;

static void pause_for(double seconds)
{
    struct timespec ts;
    ts.tv_sec = (time_t)seconds;
    ts.tv_nsec = (long)((seconds - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0)
        ;
}

static void record(const char *key, int i, double start, double end)
{
    pthread_mutex_lock(&record_lock);
    ws_record(key, i, start, end);
    pthread_mutex_unlock(&record_lock);
}

/* The overlapped collectives on an intercommunicator between the two
 * processes; their results in res[2] once the requests complete.  Returns
 * the number of requests started at req. */
static int start_collectives(MPI_Comm comm, int *in, int *res, MPI_Request *req)
{
    *in = rank + 1;
    MPI_Iallreduce(in, &res[0], 1, MPI_INT, MPI_SUM, comm, &req[0]); /* MARK:iallreduce */
    res[1] = rank == 0 ? 77 : -1;
    MPI_Ibcast(&res[1], 1, MPI_INT, rank == 0 ? MPI_ROOT : 0, comm, &req[1]); /* MARK:ibcast */
    MPI_Ibarrier(comm, &req[2]); /* MARK:ibarrier */
    return 3;
}

/* the remote group's sum, the remote root's value */
static void check_collectives(int t, const int *res)
{
    errors[t] += res[0] != 2 - rank;
    errors[t] += res[1] != 77;
}

static void *work(void *arg)
{
    int t = *(int *)arg, i, c;
    /* the recorded events keep their keys until they are written */
    char *skew_key = keys[t][0], *send_key = keys[t][1], *recv_key = keys[t][2];
    snprintf(skew_key, sizeof keys[t][0], "skew%d", t);
    snprintf(send_key, sizeof keys[t][1], "send%d", t);
    snprintf(recv_key, sizeof keys[t][2], "recv%d", t);

    for (i = 0; i < iters; i++) {
        MPI_Comm child[NCHILD], grand;
        MPI_Request req[NCHILD + 16];
        MPI_Status statuses[NCHILD + 16];
        int in[4], res[2][2], side[2], n = 0, value, sum, buf = 0;
        double t0;

        /* the parent: children being duplicated, collectives in between */
        MPI_Comm_idup(parents[t], &child[0], &req[n++]); /* MARK:idup_parent */
        n += start_collectives(parents[t], &in[0], res[0], &req[n]);
        in[2] = rank + 1;
        MPI_Iscan(&in[2], &side[0], 1, MPI_INT, MPI_SUM, sides[t], &req[n++]); /* MARK:iscan */
        MPI_Iallreduce(&in[2], &side[1], 1, MPI_INT, MPI_MAX, sides[t], &req[n++]); /* MARK:side_iallreduce */
        for (c = 1; c < NCHILD; c++)
            MPI_Comm_idup(parents[t], &child[c], &req[n++]); /* MARK:idup_parent2 */
        /* the first child once it is there: a grandchild, collectives */
        MPI_Wait(&req[0], MPI_STATUS_IGNORE); /* MARK:wait_first */
        MPI_Comm_idup(child[0], &grand, &req[n++]); /* MARK:idup_child */
        n += start_collectives(child[0], &in[1], res[1], &req[n]);
        MPI_Waitall(n - 1, &req[1], statuses); /* MARK:waitall */
        check_collectives(t, res[0]);
        check_collectives(t, res[1]);
        errors[t] += side[0] != (rank == 0 ? 1 : 3);
        errors[t] += side[1] != 2;

        /* a skewed collective on an idup'ed communicator */
        if (rank == 1)
            pause_for(T_SKEW);
        value = rank + 1;
        t0 = ws_now();
        MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, child[1]); /* MARK:skew_allreduce */
        record(skew_key, i, t0, ws_now());
        errors[t] += sum != 2 - rank;
        /* a late message on another: rank 0 of the remote group */
        if (rank == 1) {
            pause_for(T_LATE);
            buf = 1000 * t + i;
            t0 = ws_now();
            MPI_Send(&buf, 1, MPI_INT, 0, 5, child[2]); /* MARK:late_send */
            record(send_key, i, t0, ws_now());
        } else {
            t0 = ws_now();
            MPI_Recv(&buf, 1, MPI_INT, 0, 5, child[2], MPI_STATUS_IGNORE); /* MARK:late_recv */
            record(recv_key, i, t0, ws_now());
            errors[t] += buf != 1000 * t + i;
        }
        MPI_Barrier(grand); /* MARK:grand_barrier */

        MPI_Comm_free(&grand);
        for (c = 0; c < NCHILD; c++)
            MPI_Comm_free(&child[c]);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    int provided, size, t, args[NTHREADS], total = 0, mine = 0;
    pthread_t threads[NTHREADS];
    MPI_Comm local;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (provided != MPI_THREAD_MULTIPLE) {
        if (rank == 0)
            printf("waitstates_idup_threads: MPI_THREAD_MULTIPLE not provided\n");
        MPI_Finalize();
        return 0;
    }
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "waitstates_idup_threads: run with 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (argc > 2 && atoi(argv[2]) > 0)
        iters = atoi(argv[2]);
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &local);
    for (t = 0; t < NTHREADS; t++) {
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 1 - rank, 100 + t, &parents[t]);
        MPI_Comm_dup(MPI_COMM_WORLD, &sides[t]);
    }
    for (t = 0; t < NTHREADS; t++) {
        args[t] = t;
        if (pthread_create(&threads[t], NULL, work, &args[t]) != 0) {
            fprintf(stderr, "waitstates_idup_threads: pthread_create failed\n");
            MPI_Abort(MPI_COMM_WORLD, 3);
        }
    }
    for (t = 0; t < NTHREADS; t++) {
        pthread_join(threads[t], NULL);
        mine += errors[t];
    }
    for (t = 0; t < NTHREADS; t++) {
        MPI_Comm_free(&parents[t]);
        MPI_Comm_free(&sides[t]);
    }
    MPI_Comm_free(&local);
    if (ws_write_events(argc > 1 ? argv[1] : "events", rank) != 0)
        mine++;
    /* Only rank 0 writes to standard output: the test reads its one line, which
       must not share a chunk of mpiexec's merged output with another rank's. */
    if (mine)
        fprintf(stderr, "waitstates_idup_threads: rank %d: %d errors\n", rank, mine);
    MPI_Allreduce(&mine, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && total == 0)
        printf("waitstates_idup_threads: ok\n");
    MPI_Finalize();
    return 0;
}
