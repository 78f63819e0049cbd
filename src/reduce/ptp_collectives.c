#include <string.h>

#include "reduce/ptp_collectives.h"

enum { TAG_BCAST = 7801, TAG_REDUCE = 7802, CHUNK_BYTES = 64 * 1024 };

static unsigned char scratch[2][CHUNK_BYTES];

/* Elements per chunk, and each one's extent. */
static int chunk_of(MPI_Datatype type, MPI_Aint *extent)
{
    MPI_Aint lb = 0;
    PMPI_Type_get_extent(type, &lb, extent);
    if (*extent <= 0)
        *extent = 1;
    int n = (int)(CHUNK_BYTES / *extent);
    return n > 0 ? n : 1;
}

int mpp_ptp_bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    int rank, size;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int vr = (rank - root + size) % size, mask = 1;
    /* from the parent (the rank that differs in the lowest set bit), then to
     * the children below that bit */
    while (mask < size) {
        if (vr & mask) {
            PMPI_Recv(buf, count, type, (vr - mask + root) % size, TAG_BCAST, comm, MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < size)
            PMPI_Send(buf, count, type, (vr + mask + root) % size, TAG_BCAST, comm);
    return MPI_SUCCESS;
}

/* One chunk of n elements from in to out at root. */
static void reduce_chunk(const unsigned char *in, unsigned char *out, int n, size_t bytes, MPI_Datatype type,
                         MPI_Op op, int root, int rank, int size, MPI_Comm comm)
{
    unsigned char *acc = scratch[0], *other = scratch[1];
    int vr = (rank - root + size) % size;
    memcpy(acc, in, bytes);
    for (int mask = 1; mask < size; mask <<= 1) {
        if (vr & mask) {
            PMPI_Send(acc, n, type, (vr - mask + root) % size, TAG_REDUCE, comm);
            return;
        }
        if (vr + mask < size) {
            /* acc holds ranks below the child's: other = acc op other */
            PMPI_Recv(other, n, type, (vr + mask + root) % size, TAG_REDUCE, comm, MPI_STATUS_IGNORE);
            PMPI_Reduce_local(acc, other, n, type, op);
            unsigned char *t = acc;
            acc = other;
            other = t;
        }
    }
    memcpy(out, acc, bytes);
}

int mpp_ptp_reduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    int rank, size;
    MPI_Aint extent;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int per_chunk = chunk_of(type, &extent);
    if (extent > CHUNK_BYTES) /* no such type among the profiler's: every process takes this path alike */
        return PMPI_Reduce(in, out, count, type, op, root, comm);
    for (int done = 0; done < count; done += per_chunk) {
        int n = count - done < per_chunk ? count - done : per_chunk;
        size_t offset = (size_t)done * (size_t)extent;
        reduce_chunk((const unsigned char *)in + offset, rank == root ? (unsigned char *)out + offset : NULL, n,
                     (size_t)n * (size_t)extent, type, op, root, rank, size, comm);
    }
    return MPI_SUCCESS;
}

int mpp_ptp_allreduce(const void *in, void *out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    mpp_ptp_reduce(in, out, count, type, op, 0, comm);
    return mpp_ptp_bcast(out, count, type, 0, comm);
}

int mpp_ptp_barrier(MPI_Comm comm)
{
    int in = 0, out = 0;
    return mpp_ptp_allreduce(&in, &out, 1, MPI_INT, MPI_MAX, comm);
}
