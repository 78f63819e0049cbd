/* Misuses the within-process checks find (requests, handles, threads,
 * calls outside MPI), one scenario each: argv[1] names it, the marks give
 * its exact findings (check_findings.py).  Run on 2 processes by
 * test_check_requests.sh, test_check_resources.sh, test_check_threads.sh
 * and test_check_outside.sh. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, peer;

static void pause_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* --- requests --- */

static void pending_send(void)
{
    int out[3] = {1, 2, 3}, in[3];
    MPI_Request rq[3];
    for (int i = 0; i < 3; i++)
        MPI_Isend(&out[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, &rq[i]); /* expect pending-send: unfinished-send ranks=0-1 count=6 */
    for (int i = 0; i < 3; i++)
        MPI_Recv(&in[i], 1, MPI_INT, peer, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void pending_recv(void)
{
    int out = rank, in = -1;
    MPI_Request rq;
    MPI_Irecv(&in, 1, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq); /* expect pending-recv: unfinished-recv ranks=0-1 */
    MPI_Send(&out, 1, MPI_INT, peer, 5, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void persistent(const char *scenario)
{
    int out = rank, in = -1;
    MPI_Request rq[2];
    MPI_Send_init(&out, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[0]); /* expect persistent-not-freed: nonfreed-request ranks=0-1 */
    MPI_Recv_init(&in, 1, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[1]); /* expect persistent-not-freed: nonfreed-request ranks=0-1 */ /* expect persistent-pending: unfinished-recv ranks=0-1 */
    for (int i = 0; i < 2; i++) {
        MPI_Startall(2, rq);
        if (!strcmp(scenario, "persistent-pending") && i == 1) {
            MPI_Wait(&rq[0], MPI_STATUS_IGNORE); /* the receive stays active */
            MPI_Request_free(&rq[0]);
            break;
        }
        int done = 0;
        while (!done)
            MPI_Testall(2, rq, &done, MPI_STATUSES_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

static void persistent_collective(void)
{
    int v = rank;
    MPI_Request rq;
    MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rq); /* expect persistent-coll: nonfreed-request ranks=0-1 */
    MPI_Start(&rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
}

static void free_active(void)
{
    int out = rank, in = -1;
    MPI_Request rq;
    MPI_Isend(&out, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &rq); /* label isend-freed */
    MPI_Request_free(&rq); /* expect free-active: active-request-free ranks=0-1 other=isend-freed */
    MPI_Recv(&in, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
}

static void free_active_persistent(void)
{
    int out = rank, in = -1;
    MPI_Request rq;
    MPI_Recv_init(&in, 1, MPI_INT, peer, 8, MPI_COMM_WORLD, &rq); /* label recv-init-freed */
    MPI_Start(&rq);
    MPI_Request_free(&rq); /* expect free-active-persistent: active-request-free ranks=0-1 other=recv-init-freed */
    MPI_Send(&out, 1, MPI_INT, peer, 8, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A wait that fails (a truncated receive) completes its persistent
 * request all the same: freeing it then is no misuse.  The truncation is
 * one finding, wrong-send-size at the receive (with the send). */
static void failed_wait(void)
{
    int out[2] = {rank, rank}, in = -1;
    MPI_Request rq;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Recv_init(&in, 1, MPI_INT, peer, 11, MPI_COMM_WORLD, &rq); /* expect failed-wait: wrong-send-size ranks=0-1 other=truncating-send */
    MPI_Start(&rq);
    MPI_Send(out, 2, MPI_INT, peer, 11, MPI_COMM_WORLD); /* label truncating-send */
    MPI_Wait(&rq, MPI_STATUS_IGNORE); /* MPI_ERR_TRUNCATE: the wrong-send-size, no mpi-error besides */
    MPI_Request_free(&rq);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* MPI_Request_get_status found the requests complete: one freed then
 * (not active: no finding), one left (not completed by a wait or test,
 * never freed). */
static void peeked(void)
{
    int out = rank, in = -1, flag = 0;
    MPI_Request rq[2];
    MPI_Isend(&out, 1, MPI_INT, peer, 10, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(&in, 1, MPI_INT, peer, 10, MPI_COMM_WORLD, &rq[1]); /* expect peeked: nonfreed-request ranks=0-1 */
    for (int i = 0; i < 2; i++)
        for (flag = 0; !flag;)
            MPI_Request_get_status(rq[i], &flag, MPI_STATUS_IGNORE);
    MPI_Request_free(&rq[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d got %d\n", rank, in);
}

static void cancel(void)
{
    int in = -1;
    MPI_Request rq;
    MPI_Status st;
    MPI_Irecv(&in, 1, MPI_INT, peer, 9, MPI_COMM_WORLD, &rq); /* label irecv-cancelled */
    MPI_Cancel(&rq); /* expect cancel: request-cancel ranks=0-1 other=irecv-cancelled */
    MPI_Wait(&rq, &st);
    int cancelled = 0;
    MPI_Test_cancelled(&st, &cancelled);
    printf("rank %d cancelled %d\n", rank, cancelled);
}

/* --- handles --- */

static void leak_comm(void)
{
    MPI_Comm dup[3], half, freed;
    for (int i = 0; i < 3; i++)
        MPI_Comm_dup(MPI_COMM_WORLD, &dup[i]); /* expect leak-comm: resource-leak ranks=0-1 count=6 */
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &half); /* expect leak-comm: resource-leak ranks=0-1 */
    MPI_Comm_split(MPI_COMM_WORLD, rank == 0 ? 0 : MPI_UNDEFINED, 0, &freed); /* MPI_COMM_NULL on rank 1 */
    if (freed != MPI_COMM_NULL)
        MPI_Comm_free(&freed);
    MPI_Barrier(dup[2]);
}

static void leak_types(void)
{
    MPI_Datatype pair, vec, freed;
    MPI_Type_contiguous(2, MPI_INT, &pair); /* expect leak-types: resource-leak ranks=0-1 */
    MPI_Type_commit(&pair);
    MPI_Type_vector(2, 1, 2, pair, &vec); /* expect leak-types: resource-leak ranks=0-1 */
    MPI_Type_dup(MPI_DOUBLE, &freed);
    MPI_Type_free(&freed);
    int out[4] = {0, 1, 2, 3}, in[4];
    MPI_Sendrecv(out, 2, pair, peer, 3, in, 2, pair, peer, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

static void leak_others(void)
{
    MPI_Group g[2], empty;
    for (int i = 0; i < 2; i++) /* MPICH gives the same group twice: one free is missing */
        MPI_Comm_group(MPI_COMM_WORLD, &g[i]); /* expect leak-others: resource-leak ranks=0-1 count=2 */
    MPI_Group_free(&g[1]);
    MPI_Group_incl(g[0], 0, NULL, &empty); /* MPI_GROUP_EMPTY: predefined */
    MPI_Op op;
    MPI_Op_create(user_sum, 1, &op); /* expect leak-others: resource-leak ranks=0-1 */
    MPI_Info info;
    MPI_Info_create(&info); /* expect leak-others: resource-leak ranks=0-1 */
    MPI_Info_set(info, "no_locks", "true");
    /* (not a window: MPICH's UCX aborts in MPI_Finalize on one left) */
    char path[64];
    snprintf(path, sizeof path, "/tmp/mpiprof-leak-%d-%d", (int)getpid(), rank);
    MPI_File fh;
    MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY | MPI_MODE_DELETE_ON_CLOSE, MPI_INFO_NULL, /* expect leak-others: resource-leak ranks=0-1 */
                  &fh);
    int v = rank, sum = 0;
    MPI_Allreduce(&v, &sum, 1, MPI_INT, op, MPI_COMM_WORLD);
    printf("rank %d sum %d\n", rank, sum);
    remove(path);
}

/* Memory the process has used at most, in kB (its VmHWM), to stderr. */
static void print_peak_memory(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6))
            fprintf(stderr, "peak %ld kB\n", strtol(line + 6, NULL, 10));
    if (f)
        fclose(f);
}

static void leak_many(void)
{
    enum { TYPES = 10000, COMMS = 1000 }; /* MPICH makes at most 2048 communicators */
    for (int i = 0; i < TYPES; i++) {
        MPI_Datatype t;
        MPI_Type_contiguous(i % 7 + 1, MPI_INT, &t); /* expect leak-many: resource-leak ranks=0-1 count=20000 */
    }
    for (int i = 0; i < COMMS; i++) {
        MPI_Comm c;
        MPI_Comm_dup(MPI_COMM_SELF, &c); /* expect leak-many: resource-leak ranks=0-1 count=2000 */
    }
    print_peak_memory();
}

/* An attribute on MPI_COMM_SELF whose delete callback, run inside
 * MPI_Finalize, frees a datatype: no resource-leak (not checked). */
static int free_type(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    MPI_Type_free((MPI_Datatype *)value);
    return MPI_SUCCESS;
}

static void freed_at_finalize(void)
{
    static MPI_Datatype pair;
    int keyval;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_type, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &pair);
}

/* --- threads --- */

typedef struct {
    long delay_ms;
    int result;
} thread_arg_t;

static void *other_thread(void *p)
{
    thread_arg_t *a = p;
    pause_ms(a->delay_ms);
    int flag = 0;
    MPI_Initialized(&flag); /* allowed from any thread */
    MPI_Comm_rank(MPI_COMM_WORLD, &a->result); /* expect thread-single,thread-funneled: thread-level ranks=0-1 */ /* expect thread-serialized: thread-level ranks=1 */
    return NULL;
}

static void threads(const char *scenario)
{
    thread_arg_t a = {0, -1};
    pthread_t t;
    if (!strcmp(scenario, "thread-serialized") || !strcmp(scenario, "thread-multiple")) {
        /* rank 1 waits in MPI_Barrier for rank 0, which sleeps meanwhile;
         * its other thread calls MPI then */
        MPI_Barrier(MPI_COMM_WORLD);
        a.delay_ms = 200;
        pthread_create(&t, NULL, other_thread, &a);
        if (rank == 0)
            pause_ms(1500);
        MPI_Barrier(MPI_COMM_WORLD);
        pthread_join(t, NULL);
    } else { /* one thread in MPI at a time: an error below SERIALIZED only */
        pthread_create(&t, NULL, other_thread, &a);
        pthread_join(t, NULL);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    printf("rank %d thread says %d\n", rank, a.result);
}

/* --- outside MPI_Init and MPI_Finalize --- */

/* MPICH converts a status before MPI_Init and after MPI_Finalize without
 * complaint; the standard does not allow it. */
static void convert_status(void)
{
    MPI_Status st;
    MPI_Fint f[sizeof(MPI_Status) / sizeof(MPI_Fint) + 1];
    memset(&st, 0, sizeof st);
    MPI_Status_c2f(&st, f); /* expect before-init: call-outside-mpi ranks=0-1 */
}

static int level_of(const char *scenario)
{
    if (!strcmp(scenario, "thread-single"))
        return MPI_THREAD_SINGLE;
    if (!strcmp(scenario, "thread-serialized") || !strcmp(scenario, "thread-serialized-ok"))
        return MPI_THREAD_SERIALIZED;
    if (!strcmp(scenario, "thread-multiple"))
        return MPI_THREAD_MULTIPLE;
    return MPI_THREAD_FUNNELED;
}

static void run(const char *s)
{
    if (!strcmp(s, "pending-send"))
        pending_send();
    else if (!strcmp(s, "pending-recv"))
        pending_recv();
    else if (!strcmp(s, "persistent-not-freed") || !strcmp(s, "persistent-pending"))
        persistent(s);
    else if (!strcmp(s, "persistent-coll"))
        persistent_collective();
    else if (!strcmp(s, "free-active"))
        free_active();
    else if (!strcmp(s, "free-active-persistent"))
        free_active_persistent();
    else if (!strcmp(s, "peeked"))
        peeked();
    else if (!strcmp(s, "failed-wait"))
        failed_wait();
    else if (!strcmp(s, "cancel"))
        cancel();
    else if (!strcmp(s, "leak-comm"))
        leak_comm();
    else if (!strcmp(s, "leak-types"))
        leak_types();
    else if (!strcmp(s, "leak-others"))
        leak_others();
    else if (!strcmp(s, "leak-many"))
        leak_many();
    else if (!strcmp(s, "freed-at-finalize"))
        freed_at_finalize();
    else if (!strncmp(s, "thread-", 7))
        threads(s);
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "";
    if (!strcmp(s, "before-init"))
        convert_status();
    if (!strcmp(s, "before-init-abort"))
        MPI_Comm_rank(MPI_COMM_WORLD, &rank); /* MPICH aborts here */
    int provided;
    MPI_Init_thread(&argc, &argv, level_of(s), &provided);
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (rank + 1) % size;
    run(s);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    if (!strcmp(s, "after-finalize"))
        convert_status();
    if (!strcmp(s, "after-finalize-abort"))
        MPI_Barrier(MPI_COMM_WORLD); /* MPICH aborts here */
    return 0;
}
