/* The exchange of the reduction over MPI (exchange.h): the profiler's own
 * communicator at MPI_Finalize.  With calibrate.c, the only code that
 * issues mpiprof's own MPI calls. */
#include <stdlib.h>
#include <string.h>

#include "reduce/exchange.h"
#include "reduce/ptp_collectives.h"
#include "reduce/reduce.h"

/* MINLOC and MAXLOC on MPI_DOUBLE_INT take MPICH's path for a type with a
 * hole: about 15 times slower than a sum of as many doubles (25 ms for
 * 1.2e5 pairs on two processes here, most of MPI_Finalize with 1000 SRC
 * points x 10 intervals).  The pairs travel as two doubles (value, rank)
 * of a contiguous type instead, reduced by ops of ours with MINLOC's and
 * MAXLOC's rule: the extreme value, the lower rank on a tie. */
typedef struct {
    double value, rank;
} pair_t;

typedef struct {
    MPI_Comm comm;
    MPI_Datatype pair;
    MPI_Op minloc, maxloc;
} mpi_ctx_t;

static void pair_minloc(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const pair_t *a = in;
    pair_t *b = inout;
    (void)type;
    for (int i = 0; i < *len; i++)
        if (a[i].value < b[i].value || (a[i].value == b[i].value && a[i].rank < b[i].rank))
            b[i] = a[i];
}

static void pair_maxloc(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const pair_t *a = in;
    pair_t *b = inout;
    (void)type;
    for (int i = 0; i < *len; i++)
        if (a[i].value > b[i].value || (a[i].value == b[i].value && a[i].rank < b[i].rank))
            b[i] = a[i];
}

static MPI_Comm comm_of(const mpp_exchange_t *x) { return ((const mpi_ctx_t *)x->ctx)->comm; }

static void mpi_send(mpp_exchange_t *x, const void *buf, size_t len, int dest, int tag)
{
    PMPI_Send(buf, (int)len, MPI_BYTE, dest, tag, comm_of(x));
}

static void *mpi_recv(mpp_exchange_t *x, int source, int tag, size_t *len)
{
    MPI_Status st;
    int n = 0;
    PMPI_Probe(source, tag, comm_of(x), &st);
    PMPI_Get_count(&st, MPI_BYTE, &n);
    char *buf = malloc(n ? (size_t)n : 1);
    /* received even without memory, so that the message leaves the queue */
    PMPI_Recv(buf ? buf : &(char){0}, buf ? n : 0, MPI_BYTE, source, tag, comm_of(x), MPI_STATUS_IGNORE);
    *len = buf ? (size_t)n : 0;
    return buf;
}

static void mpi_bcast(mpp_exchange_t *x, void *buf, size_t len)
{
    mpp_ptp_bcast(buf, (int)len, MPI_BYTE, 0, comm_of(x));
}

/* To position 0, or to every process (ptp_collectives.h: whatever
 * collective algorithms the program selected). */
static void reduce_to(const void *in, void *out, size_t n, MPI_Datatype type, MPI_Op op, int all, MPI_Comm comm)
{
    if (all)
        mpp_ptp_allreduce(in, out, (int)n, type, op, comm);
    else
        mpp_ptp_reduce(in, out, (int)n, type, op, 0, comm);
}

static void mpi_reduce(mpp_exchange_t *x, const void *in, void *out, size_t n, mpp_xop_t op, int all)
{
    const mpi_ctx_t *ctx = x->ctx;
    if (op == MPP_XOP_SUM || op == MPP_XOP_MAX) {
        reduce_to(in, out, n, MPI_DOUBLE, op == MPP_XOP_SUM ? MPI_SUM : MPI_MAX, all, ctx->comm);
        return;
    }
    const mpp_double_int_t *from = in;
    mpp_double_int_t *to = out;
    pair_t *mine = malloc((n ? n : 1) * sizeof *mine), *result = malloc((n ? n : 1) * sizeof *result);
    if (!mine || !result) { /* the slow way, without memory for the copies */
        free(mine);
        free(result);
        reduce_to(in, out, n, MPI_DOUBLE_INT, op == MPP_XOP_MINLOC ? MPI_MINLOC : MPI_MAXLOC, all, ctx->comm);
        return;
    }
    for (size_t i = 0; i < n; i++)
        mine[i] = (pair_t){from[i].value, from[i].rank};
    reduce_to(mine, result, n, ctx->pair, op == MPP_XOP_MINLOC ? ctx->minloc : ctx->maxloc, all, ctx->comm);
    int rank;
    PMPI_Comm_rank(ctx->comm, &rank);
    for (size_t i = 0; (all || rank == 0) && i < n; i++)
        to[i] = (mpp_double_int_t){result[i].value, (int)result[i].rank};
    free(mine);
    free(result);
}

mpp_reduced_t *mpp_reduce(const mpp_local_profile_t *profile, MPI_Comm comm, const char *ranks_spec,
                          const char *hostname)
{
    mpi_ctx_t ctx = {.comm = comm};
    PMPI_Type_contiguous(2, MPI_DOUBLE, &ctx.pair);
    PMPI_Type_commit(&ctx.pair);
    PMPI_Op_create(pair_minloc, 1, &ctx.minloc);
    PMPI_Op_create(pair_maxloc, 1, &ctx.maxloc);
    mpp_exchange_t x = {.ctx = &ctx, .send = mpi_send, .recv = mpi_recv, .bcast = mpi_bcast, .reduce = mpi_reduce};
    PMPI_Comm_rank(comm, &x.position);
    PMPI_Comm_size(comm, &x.size);
    x.nprocs = x.size;
    mpp_reduced_t *out = mpp_reduce_exchange(profile, &x, ranks_spec, hostname);
    PMPI_Op_free(&ctx.minloc);
    PMPI_Op_free(&ctx.maxloc);
    PMPI_Type_free(&ctx.pair);
    return out;
}
