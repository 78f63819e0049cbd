/* threads: MPI calls of known numbers from several threads, for
 * tests/mpi/threads/test_threads.sh and test_threads_tsan.sh.
 *
 *   mpiexec -n 2 ./threads single|funneled|serialized|multiple [K]
 *
 * MPI_Init_thread asks for the level named.  The work is the same at every
 * level: four "workers" t = 0..3, each run from its own line of run_as()
 * (so every worker's calls form their own SRC points: the second stack
 * frame differs), each doing one setup step, K steps and one clean-up step:
 *
 *   setup     nothing (keeps the steps of all workers aligned)
 *   step      MPI_Sendrecv of COUNT ints with the other rank, tag 100+t
 *             MPI_Iprobe for tag 900+t, which is never sent (flag 0)
 *             MPI_Irecv + MPI_Isend of COUNT ints, tag 300+t, MPI_Waitall
 *             MPI_Send_init + MPI_Recv_init (tag 500+t), MPI_Startall,
 *             MPI_Waitall, MPI_Request_free of both (a persistent request
 *             made per step: handles are freed and reused all the time,
 *             while other workers create theirs)
 *   clean-up  nothing; with a third argument "spread", 16 MPI_Comm_rank
 *             from distinct call instructions (for test_threads_tsan.sh:
 *             with MPIPROF_MAX_SRC=16 every thread's table overflows after
 *             its 10 counted sites, and all threads warn at about once)
 *
 * single:     the main thread runs workers 0..3 one after the other;
 * funneled:   the same, while four helper threads compute (no MPI);
 * serialized: four threads, one per worker, take turns step by step (a
 *             mutex and a turn counter: worker t runs step s at turn 4s+t),
 *             so that one thread at a time calls MPI, in the same order on
 *             both ranks;
 * multiple:   four threads, one per worker, all at once.
 *
 * Every received value is checked; rank 0 prints "threads: LEVEL ok
 * (provided PROVIDED)".  The test finds the lines by their MARK: comments
 * (keep each marked call on one line).  Run with exactly 2 processes. */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NWORKERS 4
#define COUNT 16

static int rank, peer, steps = 200, spread;
static int level_asked;
static int errors[NWORKERS];

/* serialized: whose turn it is */
static pthread_mutex_t turn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_changed = PTHREAD_COND_INITIALIZER;
static long turn;

static void gate_enter(int t, long step)
{
    if (level_asked != MPI_THREAD_SERIALIZED)
        return;
    pthread_mutex_lock(&turn_lock);
    while (turn != step * NWORKERS + t)
        pthread_cond_wait(&turn_changed, &turn_lock);
    pthread_mutex_unlock(&turn_lock);
}

static void gate_leave(void)
{
    if (level_asked != MPI_THREAD_SERIALIZED)
        return;
    pthread_mutex_lock(&turn_lock);
    turn++;
    pthread_cond_broadcast(&turn_changed);
    pthread_mutex_unlock(&turn_lock);
}

static void check(int t, const int *buf, int base)
{
    for (int j = 0; j < COUNT; j++)
        if (buf[j] != base + j)
            errors[t]++;
}

static void fill(int *buf, int base)
{
    for (int j = 0; j < COUNT; j++)
        buf[j] = base + j;
}

static void __attribute__((noinline)) work(int t)
{
    int out[COUNT], in[COUNT], out2[COUNT], in2[COUNT], flag;
    MPI_Request req[2], pers[2];
    MPI_Status st[2];

    gate_enter(t, 0);
    gate_leave();
    for (int s = 0; s < steps; s++) {
        int mine = (rank * 1000 + t) * 100000 + s * 100, theirs = (peer * 1000 + t) * 100000 + s * 100;
        gate_enter(t, s + 1);
        fill(out, mine);
        MPI_Sendrecv(out, COUNT, MPI_INT, peer, 100 + t, in, COUNT, MPI_INT, peer, 100 + t, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* MARK:sendrecv */
        check(t, in, theirs);
        MPI_Iprobe(peer, 900 + t, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); /* MARK:iprobe */
        errors[t] += flag != 0;
        fill(out, mine + 1);
        MPI_Irecv(in, COUNT, MPI_INT, peer, 300 + t, MPI_COMM_WORLD, &req[0]); /* MARK:irecv */
        MPI_Isend(out, COUNT, MPI_INT, peer, 300 + t, MPI_COMM_WORLD, &req[1]); /* MARK:isend */
        MPI_Waitall(2, req, st); /* MARK:waitall */
        check(t, in, theirs + 1);
        fill(out2, mine + 2);
        MPI_Send_init(out2, COUNT, MPI_INT, peer, 500 + t, MPI_COMM_WORLD, &pers[0]); /* MARK:send_init */
        MPI_Recv_init(in2, COUNT, MPI_INT, peer, 500 + t, MPI_COMM_WORLD, &pers[1]); /* MARK:recv_init */
        MPI_Startall(2, pers); /* MARK:startall */
        MPI_Waitall(2, pers, st); /* MARK:waitall_persistent */
        check(t, in2, theirs + 2);
        for (int k = 0; k < 2; k++)
            MPI_Request_free(&pers[k]); /* MARK:request_free */
        gate_leave();
    }
    gate_enter(t, steps + 1);
    if (spread) {
        int r;
#define FOUR(call) call; call; call; call
        FOUR(FOUR(MPI_Comm_rank(MPI_COMM_WORLD, &r)));
#undef FOUR
    }
    gate_leave();
}

/* One line per worker: the second stack frame of its SRC points. */
static void __attribute__((noinline)) run_as(int t)
{
    switch (t) {
    case 0: work(0); break; /* MARK:worker0 */
    case 1: work(1); break; /* MARK:worker1 */
    case 2: work(2); break; /* MARK:worker2 */
    case 3: work(3); break; /* MARK:worker3 */
    }
}

static pthread_barrier_t workers_done;
static void *worker_thread(void *arg)
{
    run_as((int)(long)arg);
    /* No worker ends before every worker is done: a thread that ends gives
     * its profiler state (its table) to the next thread that calls MPI
     * (mpiprof(7), THREADS), and each worker's calls are counted in its
     * own table here (MPIPROF_MAX_SRC=16 overflows each one alike). */
    pthread_barrier_wait(&workers_done);
    return NULL;
}

/* funneled: threads that compute while the main thread calls MPI. */
static _Atomic int helpers_stop;
static void *helper_thread(void *arg)
{
    volatile double x = (double)(long)arg;
    while (!helpers_stop)
        x = x * 0.5 + 1.0;
    return NULL;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; int level; } levels[] = {
        {"single", MPI_THREAD_SINGLE}, {"funneled", MPI_THREAD_FUNNELED},
        {"serialized", MPI_THREAD_SERIALIZED}, {"multiple", MPI_THREAD_MULTIPLE}};
    const char *name = argc > 1 ? argv[1] : "";
    int provided = -1, size, found = 0;
    for (size_t i = 0; i < sizeof levels / sizeof *levels; i++)
        if (!strcmp(name, levels[i].name))
            level_asked = levels[i].level, found = 1;
    if (!found) {
        fprintf(stderr, "usage: threads single|funneled|serialized|multiple [STEPS [spread]]\n");
        return 2;
    }
    if (argc > 2)
        steps = atoi(argv[2]);
    spread = argc > 3 && !strcmp(argv[3], "spread");

    MPI_Init_thread(&argc, &argv, level_asked, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "threads: run with 2 processes, not %d\n", size);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    if (provided < level_asked) {
        if (rank == 0)
            fprintf(stderr, "threads: %s asked, the MPI library provides only %d\n", name, provided);
        MPI_Abort(MPI_COMM_WORLD, 3);
    }
    peer = 1 - rank;

    pthread_t threads[NWORKERS];
    if (level_asked == MPI_THREAD_SINGLE || level_asked == MPI_THREAD_FUNNELED) {
        if (level_asked == MPI_THREAD_FUNNELED)
            for (long t = 0; t < NWORKERS; t++)
                pthread_create(&threads[t], NULL, helper_thread, (void *)t);
        for (int t = 0; t < NWORKERS; t++)
            run_as(t);
        if (level_asked == MPI_THREAD_FUNNELED) {
            helpers_stop = 1;
            for (int t = 0; t < NWORKERS; t++)
                pthread_join(threads[t], NULL);
        }
    } else {
        pthread_barrier_init(&workers_done, NULL, NWORKERS);
        for (long t = 0; t < NWORKERS; t++)
            pthread_create(&threads[t], NULL, worker_thread, (void *)t);
        for (int t = 0; t < NWORKERS; t++)
            pthread_join(threads[t], NULL);
    }

    int total = 0;
    for (int t = 0; t < NWORKERS; t++)
        total += errors[t];
    if (total)
        fprintf(stderr, "threads: rank %d: %d wrong values\n", rank, total);
    int all = 0;
    MPI_Allreduce(&total, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* MARK:allreduce */
    if (rank == 0 && all == 0)
        printf("threads: %s ok (provided %d)\n", name, provided);
    MPI_Finalize();
    return all != 0;
}
