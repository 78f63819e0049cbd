/* Correct uses of the operations the correctness checks look at: no
 * finding at any level (test_check_clean.sh). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int peer = (rank + 1) % size, from = (rank + size - 1) % size;
    int out[4] = {rank, rank, rank, rank}, in[4];
    double d = rank;

    /* point to point: blocking, nonblocking, persistent, probe */
    MPI_Sendrecv(out, 4, MPI_INT, peer, 1, in, 4, MPI_INT, from, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* the buffer holds what was received once the call returns: the sent
     * message's checksum is not that of its bytes then */
    int swap[4] = {rank + 10, rank + 20, rank + 30, rank + 40};
    MPI_Sendrecv_replace(swap, 4, MPI_INT, peer, 41, from, 41, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request rq[2];
#if MPI_VERSION >= 4
    MPI_Isendrecv_replace(swap, 4, MPI_INT, peer, 42, from, 42, MPI_COMM_WORLD, &rq[0]);
    MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
#endif
    MPI_Irecv(in, 4, MPI_INT, from, 2, MPI_COMM_WORLD, &rq[0]);
    MPI_Isend(out, 4, MPI_INT, peer, 2, MPI_COMM_WORLD, &rq[1]);
    MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    MPI_Send_init(out, 4, MPI_INT, peer, 3, MPI_COMM_WORLD, &rq[1]);
    MPI_Recv_init(in, 4, MPI_INT, from, 3, MPI_COMM_WORLD, &rq[0]);
    for (int i = 0; i < 3; i++) {
        MPI_Startall(2, rq);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    MPI_Status st;
    MPI_Isend(out, 2, MPI_INT, peer, 4, MPI_COMM_WORLD, &rq[1]);
    MPI_Probe(from, 4, MPI_COMM_WORLD, &st);
    int n;
    MPI_Get_count(&st, MPI_INT, &n);
    MPI_Recv(in, n, MPI_INT, from, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
    /* a receive larger than the message it gets, by a derived type of the same signature */
    MPI_Datatype two;
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    MPI_Sendrecv(out, 4, MPI_INT, peer, 5, in, 2, two, from, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&two);
    /* MPICH's status of an MPI_Isendrecv names an internal tag: paired by
     * the tag posted (MPICH's pt2pt/isendrecv: nonpaired-send) */
#if MPI_VERSION >= 4
    MPI_Request isr;
    MPI_Isendrecv(out, 4, MPI_INT, peer, 8, in, 4, MPI_INT, from, 8, MPI_COMM_WORLD, &isr);
    MPI_Wait(&isr, MPI_STATUS_IGNORE);
#endif
    /* no element of MPI_DATATYPE_NULL (MPICH's part/nonblocking_pready):
     * legal, and not to be asked MPI about (its error would be fatal) */
    MPI_Sendrecv(NULL, 0, MPI_DATATYPE_NULL, peer, 6, NULL, 0, MPI_DATATYPE_NULL, from, 6, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (size == 2 && rank == 0)
        MPI_Send(NULL, 0, MPI_DATATYPE_NULL, 1, 7, MPI_COMM_WORLD);
    else if (size == 2)
        MPI_Recv(NULL, 0, MPI_DATATYPE_NULL, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

    /* collectives, in place and not, on a duplicate and a split */
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Allreduce(MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_SUM, dup);
    MPI_Bcast(out, 4, MPI_INT, 0, dup);
    MPI_Reduce(out, in, 4, MPI_INT, MPI_MAX, size - 1, MPI_COMM_WORLD);
    int all[64];
    MPI_Allgather(out, 1, MPI_INT, all, 1, MPI_INT, half);
    MPI_Request cr;
    MPI_Iallreduce(out, in, 4, MPI_INT, MPI_SUM, dup, &cr);
    MPI_Wait(&cr, MPI_STATUS_IGNORE);
    MPI_Barrier(dup);
    /* MPICH completes these at once and gives both one shared handle: not
     * an unfinished-collective (MPICH's comm/comm_idup_nb) */
    MPI_Request selfs[2];
    MPI_Ibarrier(MPI_COMM_SELF, &selfs[0]);
    MPI_Ibarrier(MPI_COMM_SELF, &selfs[1]);
    MPI_Waitall(2, selfs, MPI_STATUSES_IGNORE);
    MPI_Comm_free(&half);
    MPI_Comm_free(&dup);

    /* groups, ops, info: created and freed */
    MPI_Group g;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Group_free(&g);
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_free(&info);

    printf("rank %d done %g\n", rank, d);
    MPI_Finalize();
    return 0;
}
