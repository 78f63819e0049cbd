/* The exchange of the reduction over MPI (exchange.h): the profiler's own
 * communicator at MPI_Finalize.  With calibrate.c, the only code that
 * issues mpiprof's own MPI calls. */
#include <stdlib.h>
#include <string.h>

#include "exchange.h"
#include "reduce.h"

static MPI_Comm comm_of(const mpp_exchange_t *x)
{
    return *(const MPI_Comm *)x->ctx;
}

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
    PMPI_Bcast(buf, (int)len, MPI_BYTE, 0, comm_of(x));
}

static void mpi_reduce(mpp_exchange_t *x, const void *in, void *out, size_t n, mpp_xop_t op, int all)
{
    static const MPI_Op ops[] = {[MPP_XOP_SUM] = MPI_SUM, [MPP_XOP_MAX] = MPI_MAX, [MPP_XOP_MINLOC] = MPI_MINLOC,
                                 [MPP_XOP_MAXLOC] = MPI_MAXLOC};
    MPI_Datatype type = op == MPP_XOP_MINLOC || op == MPP_XOP_MAXLOC ? MPI_DOUBLE_INT : MPI_DOUBLE;
    if (all)
        PMPI_Allreduce(in, out, (int)n, type, ops[op], comm_of(x));
    else
        PMPI_Reduce(in, out, (int)n, type, ops[op], 0, comm_of(x));
}

mpp_reduced_t *mpp_reduce(const mpp_local_profile_t *profile, MPI_Comm comm, const char *ranks_spec,
                          const char *hostname)
{
    mpp_exchange_t x = {.ctx = &comm, .send = mpi_send, .recv = mpi_recv, .bcast = mpi_bcast, .reduce = mpi_reduce};
    PMPI_Comm_rank(comm, &x.position);
    PMPI_Comm_size(comm, &x.size);
    x.nprocs = x.size;
    return mpp_reduce_exchange(profile, &x, ranks_spec, hostname);
}
