/* Misuses between processes, one scenario each (argv[1]), for
 * test_check_collectives.sh and test_check_p2p.sh: run on 2 processes,
 * the findings must be exactly those marked.  Each erroneous scenario is
 * one MPI lets run to its end (a collective whose members disagree in a
 * way MPICH does not notice, a truncation returned by MPI_ERRORS_RETURN);
 * the -ok scenarios are correct and give no finding.  A scenario name
 * with a suffix (-basic) runs the same code as the name without it: its
 * own marks say what that level finds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank;

static void bcast_roots(void)
{
    int v = 1;
    MPI_Bcast(&v, 1, MPI_INT, rank, MPI_COMM_WORLD); /* expect bcast-roots,bcast-roots-basic: different-roots ranks=0-1 */
}

static void reduce_ops(void)
{
    int v = rank + 1, s = 0;
    MPI_Allreduce(&v, &s, 1, MPI_INT, rank == 0 ? MPI_SUM : MPI_MAX, MPI_COMM_WORLD); /* expect reduce-ops: different-reductions ranks=0-1 */
}

static void coll_mismatch(void)
{
    int v = 1, s = 0;
    if (rank == 0) {
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);                    /* expect coll-mismatch: collective-mismatch ranks=0 */
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);      /* expect coll-mismatch: collective-mismatch ranks=0 */
    } else {
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);      /* expect coll-mismatch: collective-mismatch ranks=1 */
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);                    /* expect coll-mismatch: collective-mismatch ranks=1 */
    }
}

/* Each member sends 1 int and takes 2 from each: every member's own sizes disagree. */
static void coll_size(void)
{
    int v = rank, all[4];
    MPI_Allgather(&v, 1, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD); /* expect coll-size: collective-size ranks=0-1 */
}

/* The same size in bytes, other types: only MPIPROF_CHECK=full sees it. */
static void coll_datatype(void)
{
    int v = 1, s = 0;
    MPI_Allreduce(&v, &s, 1, rank == 0 ? MPI_INT : MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); /* expect coll-datatype: collective-datatype ranks=0-1 */
}

/* An operation in its large-count form is the same operation; a
 * persistent one's values are its creating call's (not compared with
 * blocking or nonblocking calls: they do not match them); 4 ints and 2
 * pairs of ints have one signature: no finding. */
static void coll_forms_ok(void)
{
    int v = 1, s = 0;
    MPI_Request r;
#if MPI_VERSION >= 4
    MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int i = 0; i < 2; i++) {
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r);
    /* two persistent collectives created in one order, started in
     * different orders: each start matches the other members' start of
     * the same request (MPICH's coll/p_order) */
    MPI_Request pr[2];
    int a = 1, b = 0;
    MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &pr[0]);
    MPI_Allreduce_init(&a, &b, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &pr[1]);
    for (int i = 0; i < 2; i++) {
        MPI_Start(&pr[rank % 2]);
        MPI_Start(&pr[1 - rank % 2]);
        MPI_Waitall(2, pr, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&pr[0]);
    MPI_Request_free(&pr[1]);
#endif
    MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
#if MPI_VERSION >= 4
    if (rank == 0)
        MPI_Allreduce_c(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
#endif
        MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    int buf[4] = {rank, rank, rank, rank};
    MPI_Bcast(buf, rank == 0 ? 4 : 2, rank == 0 ? MPI_INT : two, 0, MPI_COMM_WORLD);
    MPI_Type_free(&two);
}

/* A persistent collective's roots, given at its creation, differ: the
 * finding is at each start (the instance). */
static void pcoll_roots(void)
{
#if MPI_VERSION >= 4
    int v = 1;
    MPI_Request r;
    MPI_Bcast_init(&v, 1, MPI_INT, rank, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    MPI_Start(&r); /* expect pcoll-roots: different-roots ranks=0-1 */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Request_free(&r);
#endif
}

/* Rank 0 makes one collective call more on MPI_COMM_WORLD than rank 1. */
static void incomplete(void)
{
    int v = 1;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD); /* expect incomplete: incomplete-collective ranks=0 */
}

/* A nonblocking collective no member ever completes. */
static void unfinished(void)
{
    static MPI_Request r;
    MPI_Ibarrier(MPI_COMM_WORLD, &r); /* expect unfinished: unfinished-collective ranks=0-1 */
}

static void p2p_truncate(void)
{
    int out[4] = {1, 2, 3, 4}, in[2];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(out, 4, MPI_INT, 1, 1, MPI_COMM_WORLD); /* label trunc-send */
    } else {
        /* MPI's MPI_ERR_TRUNCATE is this wrong-send-size, no mpi-error besides */
        int err = MPI_Recv(in, 2, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* expect p2p-truncate,p2p-truncate-basic: wrong-send-size ranks=1 other=trunc-send */
        int cls;
        MPI_Error_class(err, &cls);
        printf("truncated: %d\n", cls == MPI_ERR_TRUNCATE);
    }
}

/* The same through MPI_Waitall: MPI_ERR_IN_STATUS, one element truncated,
 * the other received whole: the wrong-send-size at the truncated receive
 * alone. */
static void p2p_truncate_waitall(void)
{
    int out[4] = {1, 2, 3, 4}, in[2], one = -1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(out, 4, MPI_INT, 1, 2, MPI_COMM_WORLD); /* label trunc-send-all */
        MPI_Send(out, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else {
        MPI_Request rq[2];
        MPI_Status st[2];
        MPI_Irecv(in, 2, MPI_INT, 0, 2, MPI_COMM_WORLD, &rq[0]); /* expect p2p-truncate-waitall: wrong-send-size ranks=1 other=trunc-send-all */
        MPI_Irecv(&one, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &rq[1]);
        int err = MPI_Waitall(2, rq, st), cls = -1;
        MPI_Error_class(err, &cls);
        int first = -1;
        MPI_Error_class(st[0].MPI_ERROR, &first);
        if (st[1].MPI_ERROR == MPI_ERR_PENDING) /* (MPICH stops at the failed one) */
            MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
        printf("in status: %d, truncated: %d, received: %d\n", cls == MPI_ERR_IN_STATUS, first == MPI_ERR_TRUNCATE,
               one);
    }
}

/* A truncation whose send the profiler does not see (PMPI_Send): no
 * record comes to pair it with, and MPI's error stays an mpi-error. */
static void p2p_truncate_unseen(void)
{
    int out[4] = {1, 2, 3, 4}, in[2];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        PMPI_Send(out, 4, MPI_INT, 1, 4, MPI_COMM_WORLD);
    } else {
        int err = MPI_Recv(in, 2, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* expect p2p-truncate-unseen: mpi-error ranks=1 */
        int cls;
        MPI_Error_class(err, &cls);
        printf("truncated: %d\n", cls == MPI_ERR_TRUNCATE);
    }
}

/* The same into a receive request: the truncation is the wait's error,
 * and again the wrong-send-size alone. */
static void p2p_itruncate(void)
{
    int out[4] = {1, 2, 3, 4}, in[2];
    MPI_Request r;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        MPI_Send(out, 4, MPI_INT, 1, 5, MPI_COMM_WORLD); /* label itrunc-send */
    } else {
        MPI_Irecv(in, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &r); /* expect p2p-itruncate: wrong-send-size ranks=1 other=itrunc-send */
        int err = MPI_Wait(&r, MPI_STATUS_IGNORE);
        int cls;
        MPI_Error_class(err, &cls);
        printf("truncated: %d\n", cls == MPI_ERR_TRUNCATE);
    }
}

/* A message shorter than the receive buffer: legal, a warning at full only. */
static void p2p_shorter(void)
{
    int out[2] = {1, 2}, in[4];
    if (rank == 0)
        MPI_Send(out, 2, MPI_INT, 1, 2, MPI_COMM_WORLD); /* label short-send */
    else
        MPI_Recv(in, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* expect p2p-shorter: incorrect-send-size ranks=1 other=short-send */
}

static void p2p_datatype(void)
{
    int out[4] = {1, 2, 3, 4};
    float in[4];
    if (rank == 0)
        MPI_Send(out, 4, MPI_INT, 1, 3, MPI_COMM_WORLD); /* label int-send */
    else
        MPI_Recv(in, 4, MPI_FLOAT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* expect p2p-datatype: wrong-datatype ranks=1 other=int-send */
}

/* Persistent requests: the findings name the calls that created them,
 * once for both starts. */
static void p2p_persistent(void)
{
    int out[4] = {1, 2, 3, 4};
    float in[4];
    MPI_Request r;
    if (rank == 0)
        MPI_Send_init(out, 4, MPI_INT, 1, 4, MPI_COMM_WORLD, &r); /* label psend-init */
    else
        MPI_Recv_init(in, 4, MPI_FLOAT, 0, 4, MPI_COMM_WORLD, &r); /* expect p2p-persistent: wrong-datatype ranks=1 count=2 other=psend-init */
    for (int i = 0; i < 2; i++) {
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r);
}

/* Every other int of 8 sent by a vector type, received as 4 ints; and two
 * receives on one channel completed in the other order than posted (each
 * took the message of its posting): no finding. */
static void p2p_derived_ok(void)
{
    int out[8] = {0, 1, 2, 3, 4, 5, 6, 7}, in[4], a[2], b[4];
    MPI_Datatype every_other;
    MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    if (rank == 0) {
        MPI_Send(out, 1, every_other, 1, 4, MPI_COMM_WORLD);
        MPI_Send(out, 2, MPI_INT, 1, 5, MPI_COMM_WORLD);
        MPI_Send(out, 4, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else {
        MPI_Recv(in, 4, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Request ra, rb;
        MPI_Irecv(a, 2, MPI_INT, 0, 5, MPI_COMM_WORLD, &ra);
        MPI_Irecv(b, 4, MPI_INT, 0, 5, MPI_COMM_WORLD, &rb);
        MPI_Wait(&rb, MPI_STATUS_IGNORE);
        MPI_Wait(&ra, MPI_STATUS_IGNORE);
        printf("received %d %d %d\n", in[3], a[1], b[3]);
    }
    MPI_Type_free(&every_other);
}

/* A small message sent (and its send complete) that no one receives. */
static void unmatched_send(void)
{
    int v = 7;
    if (rank == 0) {
        MPI_Request r;
        MPI_Isend(&v, 1, MPI_INT, 1, 77, MPI_COMM_WORLD, &r); /* expect unmatched-send: nonpaired-send ranks=1 */
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A receive no one sends to, pending at MPI_Finalize. */
static void pending_irecv(void)
{
    static int v;
    static MPI_Request r;
    if (rank == 1)
        MPI_Irecv(&v, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &r); /* expect pending-irecv: nonpaired-recv ranks=1 */ /* expect pending-irecv: unfinished-recv ranks=1 */
    MPI_Barrier(MPI_COMM_WORLD);
}

/* The send buffer changed after MPI_Isend (a large message: it travels
 * once the receive is posted, after the change): the bytes received are
 * not those the send was called with. */
static void checksum(void)
{
    enum { N = 4 << 20 };
    int *buf = calloc(N, sizeof *buf);
    if (rank == 0) {
        MPI_Request r;
        MPI_Isend(buf, N, MPI_INT, 1, 6, MPI_COMM_WORLD, &r); /* label changed-send */ /* expect checksum: send-buffer-modified ranks=0 */
        buf[N - 1] = 42;
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Recv(buf, N, MPI_INT, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* expect checksum: recv-checksum ranks=1 other=changed-send */
        printf("last %d\n", buf[N - 1]);
    }
    free(buf);
}

static const struct {
    const char *name;
    void (*run)(void);
} scenarios[] = {
    {"bcast-roots", bcast_roots},
    {"reduce-ops", reduce_ops},
    {"coll-mismatch", coll_mismatch},
    {"coll-size", coll_size},
    {"coll-datatype", coll_datatype},
    {"coll-forms-ok", coll_forms_ok},
    {"pcoll-roots", pcoll_roots},
    {"incomplete", incomplete},
    {"unfinished", unfinished},
    {"p2p-truncate", p2p_truncate},
    {"p2p-truncate-waitall", p2p_truncate_waitall},
    {"p2p-truncate-unseen", p2p_truncate_unseen},
    {"p2p-itruncate", p2p_itruncate},
    {"p2p-shorter", p2p_shorter},
    {"p2p-datatype", p2p_datatype},
    {"p2p-derived-ok", p2p_derived_ok},
    {"p2p-persistent", p2p_persistent},
    {"unmatched-send", unmatched_send},
    {"pending-irecv", pending_irecv},
    {"checksum", checksum},
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *name = argc > 1 ? argv[1] : "";
    size_t len = strlen(name);
    if (len > 6 && !strcmp(name + len - 6, "-basic"))
        len -= 6;
    int found = 0;
    for (size_t i = 0; i < sizeof scenarios / sizeof *scenarios; i++) {
        if (strlen(scenarios[i].name) == len && !strncmp(scenarios[i].name, name, len)) {
            scenarios[i].run();
            found = 1;
        }
    }
    if (!found && rank == 0)
        fprintf(stderr, "between: no scenario %s\n", name);
    if (rank == 0)
        printf("between %s done\n", name);
    MPI_Finalize();
    return found ? 0 : 2;
}
