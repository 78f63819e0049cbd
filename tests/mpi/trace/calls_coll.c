/* Every collective function of mpi_functions.txt on 2 processes: blocking,
 * nonblocking (MPI_Wait), persistent (started twice, freed), each with its
 * large-count _c form, the v- and w- variants, reduce_scatter, scan and
 * exscan, and the neighborhood collectives on a periodic ring (a cartesian
 * topology: each process has 2 neighbors); a few times each.  The trace
 * analyzer must give each the SRC point, calls and bytes of the dynamic
 * mode (test_analyze_functions.sh). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4
#define ITER 2

static void check(int err, const char *what)
{
    if (err != MPI_SUCCESS) {
        fprintf(stderr, "calls_coll: %s failed (%d)\n", what, err);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* a nonblocking collective completes */
static void done(MPI_Request *rq) { check(MPI_Wait(rq, MPI_STATUS_IGNORE), "MPI_Wait"); }

/* a persistent collective runs twice, then is freed */
static void twice(MPI_Request *rq)
{
    for (int k = 0; k < 2; k++) {
        MPI_Start(rq);
        MPI_Wait(rq, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(rq);
}

int main(int argc, char **argv)
{
    int rank, size, s[4 * N] = {0}, r[4 * N] = {0};
    int cnt[2] = {N, N}, dis[2] = {0, N}, wdis[2] = {0, N * (int)sizeof(int)};
    MPI_Count ccnt[2] = {N, N};
    MPI_Aint cdis[2] = {0, N}, cwdis[2] = {0, N * (MPI_Aint)sizeof(int)};
    MPI_Datatype ty[2] = {MPI_INT, MPI_INT};
    MPI_Comm w = MPI_COMM_WORLD, ring;
    MPI_Info inf = MPI_INFO_NULL;
    MPI_Request rq;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(w, &rank);
    MPI_Comm_size(w, &size);
    if (size != 2) {
        fprintf(stderr, "calls_coll: run on 2 processes\n");
        MPI_Abort(w, 2);
    }
    MPI_Comm_set_errhandler(w, MPI_ERRORS_RETURN);
    int dims[1] = {2}, periods[1] = {1};
    check(MPI_Cart_create(w, 1, dims, periods, 0, &ring), "MPI_Cart_create");
    for (int i = 0; i < ITER; i++) {
        /* blocking */
        check(MPI_Barrier(w), "MPI_Barrier");
        check(MPI_Bcast(s, N, MPI_INT, 0, w), "MPI_Bcast");
        check(MPI_Bcast_c(s, N, MPI_INT, 0, w), "MPI_Bcast_c");
        check(MPI_Reduce(s, r, N, MPI_INT, MPI_SUM, 0, w), "MPI_Reduce");
        check(MPI_Reduce_c(s, r, N, MPI_INT, MPI_SUM, 0, w), "MPI_Reduce_c");
        check(MPI_Allreduce(s, r, N, MPI_INT, MPI_SUM, w), "MPI_Allreduce");
        check(MPI_Allreduce_c(s, r, N, MPI_INT, MPI_SUM, w), "MPI_Allreduce_c");
        check(MPI_Reduce_local(s, r, N, MPI_INT, MPI_SUM), "MPI_Reduce_local");
        check(MPI_Reduce_local_c(s, r, N, MPI_INT, MPI_SUM), "MPI_Reduce_local_c");
        check(MPI_Scan(s, r, N, MPI_INT, MPI_SUM, w), "MPI_Scan");
        check(MPI_Scan_c(s, r, N, MPI_INT, MPI_SUM, w), "MPI_Scan_c");
        check(MPI_Exscan(s, r, N, MPI_INT, MPI_SUM, w), "MPI_Exscan");
        check(MPI_Exscan_c(s, r, N, MPI_INT, MPI_SUM, w), "MPI_Exscan_c");
        check(MPI_Gather(s, N, MPI_INT, r, N, MPI_INT, 0, w), "MPI_Gather");
        check(MPI_Gather_c(s, N, MPI_INT, r, N, MPI_INT, 0, w), "MPI_Gather_c");
        check(MPI_Gatherv(s, N, MPI_INT, r, cnt, dis, MPI_INT, 0, w), "MPI_Gatherv");
        check(MPI_Gatherv_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, 0, w), "MPI_Gatherv_c");
        check(MPI_Scatter(s, N, MPI_INT, r, N, MPI_INT, 0, w), "MPI_Scatter");
        check(MPI_Scatter_c(s, N, MPI_INT, r, N, MPI_INT, 0, w), "MPI_Scatter_c");
        check(MPI_Scatterv(s, cnt, dis, MPI_INT, r, N, MPI_INT, 0, w), "MPI_Scatterv");
        check(MPI_Scatterv_c(s, ccnt, cdis, MPI_INT, r, N, MPI_INT, 0, w), "MPI_Scatterv_c");
        check(MPI_Allgather(s, N, MPI_INT, r, N, MPI_INT, w), "MPI_Allgather");
        check(MPI_Allgather_c(s, N, MPI_INT, r, N, MPI_INT, w), "MPI_Allgather_c");
        check(MPI_Allgatherv(s, N, MPI_INT, r, cnt, dis, MPI_INT, w), "MPI_Allgatherv");
        check(MPI_Allgatherv_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, w), "MPI_Allgatherv_c");
        check(MPI_Alltoall(s, N, MPI_INT, r, N, MPI_INT, w), "MPI_Alltoall");
        check(MPI_Alltoall_c(s, N, MPI_INT, r, N, MPI_INT, w), "MPI_Alltoall_c");
        check(MPI_Alltoallv(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, w), "MPI_Alltoallv");
        check(MPI_Alltoallv_c(s, ccnt, cdis, MPI_INT, r, ccnt, cdis, MPI_INT, w), "MPI_Alltoallv_c");
        check(MPI_Alltoallw(s, cnt, wdis, ty, r, cnt, wdis, ty, w), "MPI_Alltoallw");
        check(MPI_Alltoallw_c(s, ccnt, cwdis, ty, r, ccnt, cwdis, ty, w), "MPI_Alltoallw_c");
        check(MPI_Reduce_scatter(s, r, cnt, MPI_INT, MPI_SUM, w), "MPI_Reduce_scatter");
        check(MPI_Reduce_scatter_c(s, r, ccnt, MPI_INT, MPI_SUM, w), "MPI_Reduce_scatter_c");
        check(MPI_Reduce_scatter_block(s, r, N, MPI_INT, MPI_SUM, w), "MPI_Reduce_scatter_block");
        check(MPI_Reduce_scatter_block_c(s, r, N, MPI_INT, MPI_SUM, w), "MPI_Reduce_scatter_block_c");
        check(MPI_Neighbor_allgather(s, N, MPI_INT, r, N, MPI_INT, ring), "MPI_Neighbor_allgather");
        check(MPI_Neighbor_allgather_c(s, N, MPI_INT, r, N, MPI_INT, ring), "MPI_Neighbor_allgather_c");
        check(MPI_Neighbor_allgatherv(s, N, MPI_INT, r, cnt, dis, MPI_INT, ring), "MPI_Neighbor_allgatherv");
        check(MPI_Neighbor_allgatherv_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, ring), "MPI_Neighbor_allgatherv_c");
        check(MPI_Neighbor_alltoall(s, N, MPI_INT, r, N, MPI_INT, ring), "MPI_Neighbor_alltoall");
        check(MPI_Neighbor_alltoall_c(s, N, MPI_INT, r, N, MPI_INT, ring), "MPI_Neighbor_alltoall_c");
        check(MPI_Neighbor_alltoallv(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, ring), "MPI_Neighbor_alltoallv");
        check(MPI_Neighbor_alltoallv_c(s, ccnt, cdis, MPI_INT, r, ccnt, cdis, MPI_INT, ring),
              "MPI_Neighbor_alltoallv_c");
        check(MPI_Neighbor_alltoallw(s, cnt, cwdis, ty, r, cnt, cwdis, ty, ring), "MPI_Neighbor_alltoallw");
        check(MPI_Neighbor_alltoallw_c(s, ccnt, cwdis, ty, r, ccnt, cwdis, ty, ring), "MPI_Neighbor_alltoallw_c");

        /* nonblocking */
        MPI_Ibarrier(w, &rq), done(&rq);
        MPI_Ibcast(s, N, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Ibcast_c(s, N, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Ireduce(s, r, N, MPI_INT, MPI_SUM, 0, w, &rq), done(&rq);
        MPI_Ireduce_c(s, r, N, MPI_INT, MPI_SUM, 0, w, &rq), done(&rq);
        MPI_Iallreduce(s, r, N, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Iallreduce_c(s, r, N, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Iscan(s, r, N, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Iscan_c(s, r, N, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Iexscan(s, r, N, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Iexscan_c(s, r, N, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Igather(s, N, MPI_INT, r, N, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Igather_c(s, N, MPI_INT, r, N, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Igatherv(s, N, MPI_INT, r, cnt, dis, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Igatherv_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Iscatter(s, N, MPI_INT, r, N, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Iscatter_c(s, N, MPI_INT, r, N, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Iscatterv(s, cnt, dis, MPI_INT, r, N, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Iscatterv_c(s, ccnt, cdis, MPI_INT, r, N, MPI_INT, 0, w, &rq), done(&rq);
        MPI_Iallgather(s, N, MPI_INT, r, N, MPI_INT, w, &rq), done(&rq);
        MPI_Iallgather_c(s, N, MPI_INT, r, N, MPI_INT, w, &rq), done(&rq);
        MPI_Iallgatherv(s, N, MPI_INT, r, cnt, dis, MPI_INT, w, &rq), done(&rq);
        MPI_Iallgatherv_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, w, &rq), done(&rq);
        MPI_Ialltoall(s, N, MPI_INT, r, N, MPI_INT, w, &rq), done(&rq);
        MPI_Ialltoall_c(s, N, MPI_INT, r, N, MPI_INT, w, &rq), done(&rq);
        MPI_Ialltoallv(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, w, &rq), done(&rq);
        MPI_Ialltoallv_c(s, ccnt, cdis, MPI_INT, r, ccnt, cdis, MPI_INT, w, &rq), done(&rq);
        MPI_Ialltoallw(s, cnt, wdis, ty, r, cnt, wdis, ty, w, &rq), done(&rq);
        MPI_Ialltoallw_c(s, ccnt, cwdis, ty, r, ccnt, cwdis, ty, w, &rq), done(&rq);
        MPI_Ireduce_scatter(s, r, cnt, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Ireduce_scatter_c(s, r, ccnt, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Ireduce_scatter_block(s, r, N, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Ireduce_scatter_block_c(s, r, N, MPI_INT, MPI_SUM, w, &rq), done(&rq);
        MPI_Ineighbor_allgather(s, N, MPI_INT, r, N, MPI_INT, ring, &rq), done(&rq);
        MPI_Ineighbor_allgather_c(s, N, MPI_INT, r, N, MPI_INT, ring, &rq), done(&rq);
        MPI_Ineighbor_allgatherv(s, N, MPI_INT, r, cnt, dis, MPI_INT, ring, &rq), done(&rq);
        MPI_Ineighbor_allgatherv_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, ring, &rq), done(&rq);
        MPI_Ineighbor_alltoall(s, N, MPI_INT, r, N, MPI_INT, ring, &rq), done(&rq);
        MPI_Ineighbor_alltoall_c(s, N, MPI_INT, r, N, MPI_INT, ring, &rq), done(&rq);
        MPI_Ineighbor_alltoallv(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, ring, &rq), done(&rq);
        MPI_Ineighbor_alltoallv_c(s, ccnt, cdis, MPI_INT, r, ccnt, cdis, MPI_INT, ring, &rq), done(&rq);
        MPI_Ineighbor_alltoallw(s, cnt, cwdis, ty, r, cnt, cwdis, ty, ring, &rq), done(&rq);
        MPI_Ineighbor_alltoallw_c(s, ccnt, cwdis, ty, r, ccnt, cwdis, ty, ring, &rq), done(&rq);

        /* persistent */
        MPI_Barrier_init(w, inf, &rq), twice(&rq);
        MPI_Bcast_init(s, N, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Bcast_init_c(s, N, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Reduce_init(s, r, N, MPI_INT, MPI_SUM, 0, w, inf, &rq), twice(&rq);
        MPI_Reduce_init_c(s, r, N, MPI_INT, MPI_SUM, 0, w, inf, &rq), twice(&rq);
        MPI_Allreduce_init(s, r, N, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Allreduce_init_c(s, r, N, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Scan_init(s, r, N, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Scan_init_c(s, r, N, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Exscan_init(s, r, N, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Exscan_init_c(s, r, N, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Gather_init(s, N, MPI_INT, r, N, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Gather_init_c(s, N, MPI_INT, r, N, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Gatherv_init(s, N, MPI_INT, r, cnt, dis, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Gatherv_init_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Scatter_init(s, N, MPI_INT, r, N, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Scatter_init_c(s, N, MPI_INT, r, N, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Scatterv_init(s, cnt, dis, MPI_INT, r, N, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Scatterv_init_c(s, ccnt, cdis, MPI_INT, r, N, MPI_INT, 0, w, inf, &rq), twice(&rq);
        MPI_Allgather_init(s, N, MPI_INT, r, N, MPI_INT, w, inf, &rq), twice(&rq);
        MPI_Allgather_init_c(s, N, MPI_INT, r, N, MPI_INT, w, inf, &rq), twice(&rq);
        MPI_Allgatherv_init(s, N, MPI_INT, r, cnt, dis, MPI_INT, w, inf, &rq), twice(&rq);
        MPI_Allgatherv_init_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, w, inf, &rq), twice(&rq);
        MPI_Alltoall_init(s, N, MPI_INT, r, N, MPI_INT, w, inf, &rq), twice(&rq);
        MPI_Alltoall_init_c(s, N, MPI_INT, r, N, MPI_INT, w, inf, &rq), twice(&rq);
        MPI_Alltoallv_init(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, w, inf, &rq), twice(&rq);
        MPI_Alltoallv_init_c(s, ccnt, cdis, MPI_INT, r, ccnt, cdis, MPI_INT, w, inf, &rq), twice(&rq);
        MPI_Alltoallw_init(s, cnt, wdis, ty, r, cnt, wdis, ty, w, inf, &rq), twice(&rq);
        MPI_Alltoallw_init_c(s, ccnt, cwdis, ty, r, ccnt, cwdis, ty, w, inf, &rq), twice(&rq);
        MPI_Reduce_scatter_init(s, r, cnt, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Reduce_scatter_init_c(s, r, ccnt, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Reduce_scatter_block_init(s, r, N, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Reduce_scatter_block_init_c(s, r, N, MPI_INT, MPI_SUM, w, inf, &rq), twice(&rq);
        MPI_Neighbor_allgather_init(s, N, MPI_INT, r, N, MPI_INT, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_allgather_init_c(s, N, MPI_INT, r, N, MPI_INT, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_allgatherv_init(s, N, MPI_INT, r, cnt, dis, MPI_INT, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_allgatherv_init_c(s, N, MPI_INT, r, ccnt, cdis, MPI_INT, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_alltoall_init(s, N, MPI_INT, r, N, MPI_INT, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_alltoall_init_c(s, N, MPI_INT, r, N, MPI_INT, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_alltoallv_init(s, cnt, dis, MPI_INT, r, cnt, dis, MPI_INT, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_alltoallv_init_c(s, ccnt, cdis, MPI_INT, r, ccnt, cdis, MPI_INT, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_alltoallw_init(s, cnt, cwdis, ty, r, cnt, cwdis, ty, ring, inf, &rq), twice(&rq);
        MPI_Neighbor_alltoallw_init_c(s, ccnt, cwdis, ty, r, ccnt, cwdis, ty, ring, inf, &rq), twice(&rq);
    }
    MPI_Comm_free(&ring);
    if (rank == 0)
        printf("calls_coll done\n");
    MPI_Finalize();
    return 0;
}
