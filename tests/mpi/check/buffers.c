/* Buffers that overlap (test_check_buffers.sh): within one call
 * (sendrecv-overlap), with a pending nonblocking operation's
 * (overlapping-buffers), a send buffer changed while pending
 * (send-buffer-modified, with ,checksum); the cases that share an address
 * range and no byte, or that MPI allows, must give none; many-pending
 * posts 10^5 receives at once and prints its time and memory on stderr. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static int rank, size, peer;

static void one_call(const char *s)
{
    int buf[16] = {0}, recv[2];
    if (!strcmp(s, "sendrecv-overlap")) {
        MPI_Sendrecv(buf, 4, MPI_INT, peer, 0, buf + 2, 4, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* expect sendrecv-overlap: sendrecv-overlap ranks=0-1 */
        MPI_Sendrecv(buf, 4, MPI_INT, peer, 1, buf + 4, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv_replace(buf, 4, MPI_INT, peer, 2, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (!strcmp(s, "coll-overlap")) {
        /* the send buffer is the other process's part of the receive buffer */
        MPI_Allgather(recv + (1 - rank), 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD); /* expect coll-overlap: sendrecv-overlap ranks=0-1 */
        MPI_Allgather(buf, 1, MPI_INT, buf + 1, 1, MPI_INT, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, buf, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        /* the receive buffer matters at the root only */
        MPI_Gather(buf, 1, MPI_INT, rank == 0 ? buf + 4 : buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
}

static void pending(const char *s)
{
    int a[8] = {0}, out[8] = {0}, more[8] = {0};
    MPI_Request rq[4];
    if (!strcmp(s, "pending-overlap")) {
        MPI_Irecv(a, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[0]); /* label pend-a */
        MPI_Irecv(a + 2, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]); /* expect pending-overlap: overlapping-buffers ranks=0-1 other=pend-a */
        MPI_Isend(out, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq[2]); /* label pend-out */
        MPI_Irecv(out + 1, 2, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[3]); /* expect pending-overlap: overlapping-buffers ranks=0-1 other=pend-out */
        MPI_Send(a + 1, 4, MPI_INT, peer, 2, MPI_COMM_WORLD); /* expect pending-overlap: overlapping-buffers ranks=0-1 other=pend-a */
        MPI_Send(more, 2, MPI_INT, peer, 3, MPI_COMM_WORLD);
        MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    } else if (!strcmp(s, "persistent-overlap")) {
        MPI_Request p;
        MPI_Recv_init(a, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &p);
        MPI_Irecv(a + 3, 1, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]); /* label pend-one */
        MPI_Start(&p); /* expect persistent-overlap: overlapping-buffers ranks=0-1 other=pend-one */
        MPI_Send(out, 4, MPI_INT, peer, 1, MPI_COMM_WORLD);
        MPI_Send(out, 1, MPI_INT, peer, 2, MPI_COMM_WORLD);
        MPI_Wait(&p, MPI_STATUS_IGNORE);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        MPI_Request_free(&p);
    }
}

/* Ranges that meet without a shared byte, and buffers MPI allows to be
 * used again: no finding. */
static void no_overlap(void)
{
    int m[8] = {0}, a[8] = {0}, out[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    MPI_Request rq[4];
    MPI_Datatype col; /* every other int: the columns of a 4x2 matrix */
    MPI_Type_vector(4, 1, 2, MPI_INT, &col);
    MPI_Type_commit(&col);
    MPI_Irecv(m, 1, col, peer, 1, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(m + 1, 1, col, peer, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Irecv(a, 4, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[2]);
    MPI_Irecv(a + 4, 4, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[3]);
    for (int tag = 1; tag <= 4; tag++)
        MPI_Send(out, 4, MPI_INT, peer, tag, MPI_COMM_WORLD);
    MPI_Waitall(4, rq, MPI_STATUSES_IGNORE);
    MPI_Type_free(&col);
    /* two pending sends of one buffer; a receive into it once both are done */
    MPI_Isend(out, 4, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(out, 4, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[1]);
    MPI_Recv(a, 4, MPI_INT, peer, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(a, 4, MPI_INT, peer, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Irecv(out, 4, MPI_INT, peer, 7, MPI_COMM_WORLD, &rq[0]);
    int flag = 0;
    MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    MPI_Send(a, 4, MPI_INT, peer, 7, MPI_COMM_WORLD);
    while (!flag)
        MPI_Test(&rq[0], &flag, MPI_STATUS_IGNORE);
    /* a persistent receive started again into its own buffer; a send to MPI_PROC_NULL */
    MPI_Request p;
    MPI_Recv_init(a, 4, MPI_INT, peer, 8, MPI_COMM_WORLD, &p);
    for (int i = 0; i < 2; i++) {
        MPI_Start(&p);
        MPI_Send(out, 4, MPI_INT, peer, 8, MPI_COMM_WORLD);
        MPI_Wait(&p, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&p);
    MPI_Irecv(a, 4, MPI_INT, MPI_PROC_NULL, 9, MPI_COMM_WORLD, &rq[0]);
    MPI_Irecv(a, 4, MPI_INT, MPI_PROC_NULL, 9, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
}

static void send_modified(void)
{
    int out[4] = {1, 2, 3, 4}, in[4];
    MPI_Request rq;
    MPI_Isend(out, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, &rq); /* expect send-modified: send-buffer-modified ranks=0-1 */
    out[2] = 42;
    MPI_Recv(in, 4, MPI_INT, peer, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    /* changed after the completion: fine */
    MPI_Isend(out, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq);
    MPI_Recv(in, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    out[2] = 43;
}

/* 10^5 receives from this process pending at once, each into its own
 * int, then as many sends to match them (each to the first posted). */
static void many_pending(void)
{
    enum { N = 100000 };
    int *in = malloc(N * sizeof *in), one = 1;
    MPI_Request *rq = malloc(N * sizeof *rq);
    double t0 = MPI_Wtime();
    for (int i = 0; i < N; i++)
        MPI_Irecv(&in[i], 1, MPI_INT, rank, 0, MPI_COMM_WORLD, &rq[i]);
    for (int i = 0; i < N; i++)
        MPI_Send(&one, 1, MPI_INT, rank, 0, MPI_COMM_WORLD);
    MPI_Waitall(N, rq, MPI_STATUSES_IGNORE);
    double t = MPI_Wtime() - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(stderr, "many-pending: rank %d: %d receives in %.3f s, max RSS %ld KiB\n", rank, N, t, ru.ru_maxrss);
    free(rq);
    free(in);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    peer = (rank + 1) % size;
    const char *s = argc > 1 ? argv[1] : "pending-vector-gaps-no-finding";
    one_call(s);
    pending(s);
    if (!strcmp(s, "pending-vector-gaps-no-finding"))
        no_overlap();
    if (!strncmp(s, "send-modified", 13)) /* send-modified-unchecked: the same at full, without checksums */
        send_modified();
    if (!strcmp(s, "many-pending"))
        many_pending();
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d done\n", rank);
    MPI_Finalize();
    return 0;
}
