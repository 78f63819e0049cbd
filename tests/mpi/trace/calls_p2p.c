/* Every point-to-point function of mpi_functions.txt a C program can call
 * on 2 processes (blocking, buffered, ready, synchronous, nonblocking,
 * persistent, partitioned, probes and matched probes, sendrecv, the waits
 * and tests, cancel), each with its large-count _c form where MPI has one,
 * a few times: the trace analyzer must give each the SRC point, calls and
 * bytes of the dynamic mode (test_analyze_functions.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 8
#define ITER 2

static void check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "calls_p2p: %s failed (%d)\n", what, err);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* ready sends need the receive posted first: the receiver posts it, then
 * both pass a barrier */
static void ready(int rank, int peer, int *buf, int *in)
{
    MPI_Request rq;
    MPI_Status st;
    if (rank == 1) {
        MPI_Irecv(in, N, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&rq, &st);
        MPI_Irecv(in, N, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&rq, &st);
        MPI_Irecv(in, N, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&rq, &st);
        MPI_Irecv(in, N, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Wait(&rq, &st);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        check(MPI_Rsend(buf, N, MPI_INT, peer, 3, MPI_COMM_WORLD), "MPI_Rsend");
        MPI_Barrier(MPI_COMM_WORLD);
        check(MPI_Rsend_c(buf, N, MPI_INT, peer, 3, MPI_COMM_WORLD), "MPI_Rsend_c");
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Irsend(buf, N, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, &st);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Irsend_c(buf, N, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq);
        MPI_Wait(&rq, &st);
    }
}

/* persistent requests, started twice each; rank 0 sends, rank 1 receives */
static void persistent(int rank, int peer, int *buf, int *in)
{
    MPI_Request rq[2];
    MPI_Status st[2];
    if (rank == 0) {
        MPI_Send_init(buf, N, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[0]);
        MPI_Ssend_init(buf, N, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[1]);
    } else {
        MPI_Recv_init(in, N, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[0]);
        MPI_Recv_init_c(in + N, N, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[1]);
    }
    for (int i = 0; i < 2; i++) {
        MPI_Start(&rq[0]);
        MPI_Wait(&rq[0], &st[0]);
        MPI_Start(&rq[1]);
        MPI_Wait(&rq[1], &st[1]);
        MPI_Startall(2, rq);
        MPI_Waitall(2, rq, st);
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    if (rank == 0) {
        MPI_Send_init_c(buf, N, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[0]);
        MPI_Ssend_init_c(buf, N, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[1]);
    } else {
        MPI_Recv_init(in, N, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[0]);
        MPI_Recv_init(in + N, N, MPI_INT, peer, 5, MPI_COMM_WORLD, &rq[1]);
    }
    MPI_Startall(2, rq);
    MPI_Waitall(2, rq, st);
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    /* buffered and ready persistent sends */
    if (rank == 0) {
        MPI_Bsend_init(buf, N, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[0]);
        MPI_Bsend_init_c(buf, N, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[1]);
    } else {
        MPI_Recv_init(in, N, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[0]);
        MPI_Recv_init(in + N, N, MPI_INT, peer, 6, MPI_COMM_WORLD, &rq[1]);
    }
    MPI_Startall(2, rq);
    MPI_Waitall(2, rq, st);
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    if (rank == 0) {
        MPI_Rsend_init(buf, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &rq[0]);
        MPI_Rsend_init_c(buf, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &rq[1]);
        MPI_Barrier(MPI_COMM_WORLD);
    } else {
        MPI_Recv_init(in, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &rq[0]);
        MPI_Recv_init(in + N, N, MPI_INT, peer, 7, MPI_COMM_WORLD, &rq[1]);
        MPI_Startall(2, rq);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (rank == 0)
        MPI_Startall(2, rq);
    MPI_Waitall(2, rq, st);
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
}

/* partitioned communication: 2 partitions of N/2 ints */
static void partitioned(int rank, int peer, int *buf, int *in)
{
    MPI_Request rq;
    int flag = 0;
    if (rank == 0)
        MPI_Psend_init(buf, 2, N / 2, MPI_INT, peer, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    else
        MPI_Precv_init(in, 2, N / 2, MPI_INT, peer, 8, MPI_COMM_WORLD, MPI_INFO_NULL, &rq);
    for (int i = 0; i < 3; i++) {
        MPI_Start(&rq); /* MARK:pstart (2 partitions of N / 2 ints: 32 bytes a start) */
        if (rank == 0) {
            int list[2] = {0, 1};
            if (i == 0) {
                MPI_Pready(0, rq);
                MPI_Pready(1, rq);
            } else if (i == 1) {
                MPI_Pready_range(0, 1, rq);
            } else {
                MPI_Pready_list(2, list, rq);
            }
        } else {
            while (!flag)
                MPI_Parrived(rq, 1, &flag);
            flag = 0;
        }
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&rq);
}

/* probes: rank 0 sends 6 messages, rank 1 probes and receives each */
static void probes(int rank, int peer, int *buf, int *in)
{
    MPI_Status st;
    MPI_Message msg;
    MPI_Request rq;
    int flag = 0;
    if (rank == 0) {
        for (int k = 0; k < 6; k++)
            MPI_Send(buf, N, MPI_INT, peer, 10 + k, MPI_COMM_WORLD);
        return;
    }
    MPI_Probe(peer, 10, MPI_COMM_WORLD, &st);
    MPI_Recv(in, N, MPI_INT, peer, 10, MPI_COMM_WORLD, &st);
    while (!flag)
        MPI_Iprobe(peer, 11, MPI_COMM_WORLD, &flag, &st);
    MPI_Recv(in, N, MPI_INT, peer, 11, MPI_COMM_WORLD, &st);
    MPI_Mprobe(peer, 12, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv(in, N, MPI_INT, &msg, &st);
    MPI_Mprobe(peer, 13, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv_c(in, N, MPI_INT, &msg, &st);
    for (flag = 0; !flag;)
        MPI_Improbe(peer, 14, MPI_COMM_WORLD, &flag, &msg, &st);
    MPI_Imrecv(in, N, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, &st);
    for (flag = 0; !flag;)
        MPI_Improbe(peer, 15, MPI_COMM_WORLD, &flag, &msg, &st);
    MPI_Imrecv_c(in, N, MPI_INT, &msg, &rq);
    MPI_Wait(&rq, &st);
}

int main(int argc, char **argv)
{
    int rank, size, count, *buf, *in, idx, flag, outcount, indices[2];
    MPI_Count ccount;
    MPI_Request rq[2];
    MPI_Status st[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        fprintf(stderr, "calls_p2p: run on 2 processes\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int peer = 1 - rank, bsize = 8 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
    buf = calloc(2 * N, sizeof *buf);
    in = calloc(2 * N, sizeof *in);
    char *bbuf = malloc((size_t)bsize), *bout;
    check(MPI_Buffer_attach(bbuf, bsize), "MPI_Buffer_attach");
    for (int i = 0; i < ITER; i++) {
        /* blocking: standard, buffered, synchronous; rank 0 sends */
        if (rank == 0) {
            check(MPI_Send(buf, N, MPI_INT, peer, 1, MPI_COMM_WORLD), "MPI_Send");
            check(MPI_Send_c(buf, N, MPI_INT, peer, 1, MPI_COMM_WORLD), "MPI_Send_c");
            check(MPI_Bsend(buf, N, MPI_INT, peer, 1, MPI_COMM_WORLD), "MPI_Bsend");
            check(MPI_Bsend_c(buf, N, MPI_INT, peer, 1, MPI_COMM_WORLD), "MPI_Bsend_c");
            check(MPI_Ssend(buf, N, MPI_INT, peer, 1, MPI_COMM_WORLD), "MPI_Ssend");
            check(MPI_Ssend_c(buf, N, MPI_INT, peer, 1, MPI_COMM_WORLD), "MPI_Ssend_c");
        } else {
            for (int k = 0; k < 3; k++) {
                check(MPI_Recv(in, N, MPI_INT, peer, 1, MPI_COMM_WORLD, &st[0]), "MPI_Recv");
                check(MPI_Get_count(&st[0], MPI_INT, &count), "MPI_Get_count");
                check(MPI_Recv_c(in, N, MPI_INT, peer, 1, MPI_COMM_WORLD, &st[0]), "MPI_Recv_c");
                check(MPI_Get_count_c(&st[0], MPI_INT, &ccount), "MPI_Get_count_c");
                if (count != N || ccount != N)
                    check(1, "the count received");
            }
            MPI_Get_elements(&st[0], MPI_INT, &count);
            MPI_Get_elements_c(&st[0], MPI_INT, &ccount);
            MPI_Get_elements_x(&st[0], MPI_INT, &ccount);
        }
        ready(rank, peer, buf, in);
        /* nonblocking, completed by each wait and test */
        if (rank == 0) {
            MPI_Isend(buf, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]);
            MPI_Isend_c(buf + N, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
            MPI_Waitall(2, rq, st);
            MPI_Ibsend(buf, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]);
            MPI_Ibsend_c(buf + N, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
            MPI_Waitany(2, rq, &idx, st);
            MPI_Waitsome(2, rq, &outcount, indices, st);
            MPI_Issend(buf, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]);
            MPI_Issend_c(buf + N, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
            for (flag = 0; !flag;)
                MPI_Testall(2, rq, &flag, st);
        } else {
            MPI_Irecv(in, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv_c(in + N, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
            MPI_Wait(&rq[0], &st[0]);
            for (flag = 0; !flag;)
                MPI_Test(&rq[1], &flag, &st[1]);
            MPI_Irecv(in, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(in + N, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
            for (flag = 0; !flag;)
                MPI_Request_get_status(rq[0], &flag, &st[0]);
            for (flag = 0; !flag;)
                MPI_Testany(2, rq, &idx, &flag, st);
            for (outcount = 0; outcount < 1;)
                MPI_Testsome(2, rq, &outcount, indices, st);
            MPI_Irecv(in, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[0]);
            MPI_Irecv(in + N, N, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
            MPI_Waitall(2, rq, st);
        }
        /* a receive nobody sends to, cancelled */
        MPI_Irecv(in, N, MPI_INT, peer, 99, MPI_COMM_WORLD, &rq[0]);
        MPI_Cancel(&rq[0]);
        MPI_Wait(&rq[0], &st[0]);
        MPI_Test_cancelled(&st[0], &flag);
        if (!flag)
            check(1, "MPI_Cancel of a receive nobody matches");
        /* a send request freed before it completes */
        if (rank == 0) {
            MPI_Isend(buf, N, MPI_INT, peer, 9, MPI_COMM_WORLD, &rq[0]);
            MPI_Request_free(&rq[0]);
        } else {
            MPI_Recv(in, N, MPI_INT, peer, 9, MPI_COMM_WORLD, &st[0]);
        }
        /* sendrecv in all forms */
        check(MPI_Sendrecv(buf, N, MPI_INT, peer, 20, in, N, MPI_INT, peer, 20, MPI_COMM_WORLD, &st[0]),
              "MPI_Sendrecv");
        check(MPI_Sendrecv_c(buf, N, MPI_INT, peer, 20, in, N, MPI_INT, peer, 20, MPI_COMM_WORLD, &st[0]),
              "MPI_Sendrecv_c");
        check(MPI_Sendrecv_replace(in, N, MPI_INT, peer, 21, peer, 21, MPI_COMM_WORLD, &st[0]),
              "MPI_Sendrecv_replace");
        check(MPI_Sendrecv_replace_c(in, N, MPI_INT, peer, 21, peer, 21, MPI_COMM_WORLD, &st[0]),
              "MPI_Sendrecv_replace_c");
        MPI_Isendrecv(buf, N, MPI_INT, peer, 22, in, N, MPI_INT, peer, 22, MPI_COMM_WORLD, &rq[0]);
        MPI_Wait(&rq[0], &st[0]);
        MPI_Isendrecv_c(buf, N, MPI_INT, peer, 22, in, N, MPI_INT, peer, 22, MPI_COMM_WORLD, &rq[0]);
        MPI_Wait(&rq[0], &st[0]);
        MPI_Isendrecv_replace(in, N, MPI_INT, peer, 23, peer, 23, MPI_COMM_WORLD, &rq[0]);
        MPI_Wait(&rq[0], &st[0]);
        MPI_Isendrecv_replace_c(in, N, MPI_INT, peer, 23, peer, 23, MPI_COMM_WORLD, &rq[0]);
        MPI_Wait(&rq[0], &st[0]);
        persistent(rank, peer, buf, in);
        partitioned(rank, peer, buf, in);
        probes(rank, peer, buf, in);
    }
    check(MPI_Buffer_detach(&bout, &bsize), "MPI_Buffer_detach");
    MPI_Count csize = bsize;
    check(MPI_Buffer_attach_c(bbuf, csize), "MPI_Buffer_attach_c");
    check(MPI_Buffer_detach_c(&bout, &csize), "MPI_Buffer_detach_c");
    free(bbuf);
    free(buf);
    free(in);
    if (rank == 0)
        printf("calls_p2p done\n");
    MPI_Finalize();
    return 0;
}
