/* OTF2's collective callbacks and the definitions' exchange, on the
 * profiler's own communicator, by PMPI point-to-point messages (the
 * profiler never uses the program's communicators, nor the MPI library's
 * collective algorithms: ptp_collectives.h says why).  OTF2 calls them at
 * MPI_Init (opening the archive) and MPI_Finalize (closing it); the data are
 * small tables, moved between the root and each process in turn. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/ptp_collectives.h"
#include "reduce/trace_collectives.h"

struct OTF2_CollectiveContext {
    MPI_Comm comm;
    int rank, size;
};

enum { TAG_BCAST = 7701, TAG_GATHER, TAG_SCATTER, TAG_EXCHANGE_LEN, TAG_EXCHANGE, TAG_REPLY_LEN, TAG_REPLY };

static size_t type_size(OTF2_Type type)
{
    switch (type) {
    case OTF2_TYPE_UINT8:
    case OTF2_TYPE_INT8:
        return 1;
    case OTF2_TYPE_UINT16:
    case OTF2_TYPE_INT16:
        return 2;
    case OTF2_TYPE_UINT32:
    case OTF2_TYPE_INT32:
    case OTF2_TYPE_FLOAT:
        return 4;
    default:
        return 8; /* 64-bit integers, double */
    }
}

/* Bytes, in pieces MPI's int counts can take. */
static int send_bytes(const void *data, size_t n, int to, int tag, MPI_Comm comm)
{
    const char *p = data;
    do {
        int chunk = n > (1u << 30) ? 1 << 30 : (int)n;
        if (PMPI_Send(p, chunk, MPI_BYTE, to, tag, comm) != MPI_SUCCESS)
            return -1;
        p += chunk, n -= (size_t)chunk;
    } while (n > 0);
    return 0;
}

static int recv_bytes(void *data, size_t n, int from, int tag, MPI_Comm comm)
{
    char *p = data;
    do {
        int chunk = n > (1u << 30) ? 1 << 30 : (int)n;
        if (PMPI_Recv(p, chunk, MPI_BYTE, from, tag, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
            return -1;
        p += chunk, n -= (size_t)chunk;
    } while (n > 0);
    return 0;
}

static OTF2_CallbackCode result(int failed) { return failed ? OTF2_CALLBACK_ERROR : OTF2_CALLBACK_SUCCESS; }

static OTF2_CallbackCode get_size(void *user, OTF2_CollectiveContext *c, uint32_t *size)
{
    (void)user;
    *size = (uint32_t)c->size;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode get_rank(void *user, OTF2_CollectiveContext *c, uint32_t *rank)
{
    (void)user;
    *rank = (uint32_t)c->rank;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode barrier(void *user, OTF2_CollectiveContext *c)
{
    (void)user;
    return result(mpp_ptp_barrier(c->comm) != MPI_SUCCESS);
}

static OTF2_CallbackCode bcast(void *user, OTF2_CollectiveContext *c, void *data, uint32_t n, OTF2_Type type,
                               uint32_t root)
{
    (void)user;
    size_t bytes = n * type_size(type);
    int failed = 0;
    if (c->rank == (int)root) {
        for (int r = 0; r < c->size; r++)
            if (r != (int)root)
                failed |= send_bytes(data, bytes, r, TAG_BCAST, c->comm);
    } else {
        failed = recv_bytes(data, bytes, (int)root, TAG_BCAST, c->comm);
    }
    return result(failed);
}

static OTF2_CallbackCode gatherv(void *user, OTF2_CollectiveContext *c, const void *in, uint32_t in_n, void *out,
                                 const uint32_t *out_n, OTF2_Type type, uint32_t root)
{
    (void)user;
    size_t each = type_size(type);
    int failed = 0;
    if (c->rank != (int)root)
        return result(send_bytes(in, in_n * each, (int)root, TAG_GATHER, c->comm));
    char *at = out;
    for (int r = 0; r < c->size; r++) {
        size_t bytes = (size_t)out_n[r] * each;
        if (r == (int)root)
            memcpy(at, in, bytes);
        else
            failed |= recv_bytes(at, bytes, r, TAG_GATHER, c->comm);
        at += bytes;
    }
    return result(failed);
}

static OTF2_CallbackCode gather(void *user, OTF2_CollectiveContext *c, const void *in, void *out, uint32_t n,
                                OTF2_Type type, uint32_t root)
{
    uint32_t *counts = NULL;
    if (c->rank == (int)root) {
        counts = malloc((size_t)c->size * sizeof *counts);
        if (!counts)
            return OTF2_CALLBACK_ERROR; /* the others' sends are buffered or wait: OTF2 fails the archive */
        for (int r = 0; r < c->size; r++)
            counts[r] = n;
    }
    OTF2_CallbackCode rc = gatherv(user, c, in, n, out, counts, type, root);
    free(counts);
    return rc;
}

static OTF2_CallbackCode scatterv(void *user, OTF2_CollectiveContext *c, const void *in, const uint32_t *in_n,
                                  void *out, uint32_t out_n, OTF2_Type type, uint32_t root)
{
    (void)user;
    size_t each = type_size(type);
    int failed = 0;
    if (c->rank != (int)root)
        return result(recv_bytes(out, out_n * each, (int)root, TAG_SCATTER, c->comm));
    const char *at = in;
    for (int r = 0; r < c->size; r++) {
        size_t bytes = (size_t)in_n[r] * each;
        if (r == (int)root)
            memcpy(out, at, bytes);
        else
            failed |= send_bytes(at, bytes, r, TAG_SCATTER, c->comm);
        at += bytes;
    }
    return result(failed);
}

static OTF2_CallbackCode scatter(void *user, OTF2_CollectiveContext *c, const void *in, void *out, uint32_t n,
                                 OTF2_Type type, uint32_t root)
{
    uint32_t *counts = NULL;
    if (c->rank == (int)root) {
        counts = malloc((size_t)c->size * sizeof *counts);
        if (!counts)
            return OTF2_CALLBACK_ERROR;
        for (int r = 0; r < c->size; r++)
            counts[r] = n;
    }
    OTF2_CallbackCode rc = scatterv(user, c, in, counts, out, n, type, root);
    free(counts);
    return rc;
}

const OTF2_CollectiveCallbacks mpp_trace_collectives = {
    .otf2_release = NULL,
    .otf2_get_size = get_size,
    .otf2_get_rank = get_rank,
    .otf2_create_local_comm = NULL,
    .otf2_free_local_comm = NULL,
    .otf2_barrier = barrier,
    .otf2_bcast = bcast,
    .otf2_gather = gather,
    .otf2_gatherv = gatherv,
    .otf2_scatter = scatter,
    .otf2_scatterv = scatterv,
};

OTF2_CollectiveContext *mpp_trace_collective_context(MPI_Comm comm)
{
    OTF2_CollectiveContext *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->comm = comm;
    PMPI_Comm_rank(comm, &c->rank);
    PMPI_Comm_size(comm, &c->size);
    return c;
}

void mpp_trace_collective_context_free(OTF2_CollectiveContext *context) { free(context); }

int mpp_trace_exchange(MPI_Comm comm, const char *mine, size_t len, mpp_trace_answer_fn answer, void *ctx,
                       char **reply, size_t *reply_len)
{
    int rank = 0, size = 1, failed = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    *reply = NULL;
    *reply_len = 0;
    if (rank != 0) {
        uint64_t n = len, back = 0;
        failed |= PMPI_Send(&n, 1, MPI_UINT64_T, 0, TAG_EXCHANGE_LEN, comm) != MPI_SUCCESS;
        failed |= send_bytes(mine, len, 0, TAG_EXCHANGE, comm);
        failed |= PMPI_Recv(&back, 1, MPI_UINT64_T, 0, TAG_REPLY_LEN, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS;
        if (!failed && back != UINT64_MAX && back > 0) {
            *reply = malloc((size_t)back);
            /* the reply is received all the same, into nothing when memory ran out */
            char scratch[4096];
            if (*reply)
                failed |= recv_bytes(*reply, (size_t)back, 0, TAG_REPLY, comm);
            else
                for (uint64_t left = back; left > 0 && !failed; left -= left > sizeof scratch ? sizeof scratch : left)
                    failed |= recv_bytes(scratch, left > sizeof scratch ? sizeof scratch : (size_t)left, 0, TAG_REPLY,
                                         comm);
            failed |= !*reply;
            *reply_len = (size_t)back;
        }
        failed |= back == UINT64_MAX;
    } else {
        for (int r = 0; r < size; r++) {
            uint64_t n = len;
            char *bytes = (char *)mine;
            if (r != 0) {
                failed |= PMPI_Recv(&n, 1, MPI_UINT64_T, r, TAG_EXCHANGE_LEN, comm, MPI_STATUS_IGNORE) != MPI_SUCCESS;
                bytes = malloc(n ? (size_t)n : 1);
                if (bytes)
                    failed |= recv_bytes(bytes, (size_t)n, r, TAG_EXCHANGE, comm);
                else { /* drained, and the process told that it failed */
                    char scratch[4096];
                    for (uint64_t left = n; left > 0; left -= left > sizeof scratch ? sizeof scratch : left)
                        recv_bytes(scratch, left > sizeof scratch ? sizeof scratch : (size_t)left, r, TAG_EXCHANGE,
                                   comm);
                    failed = 1;
                }
            }
            size_t out_len = 0;
            char *out = bytes && !failed ? answer(ctx, r, bytes, (size_t)n, &out_len) : NULL;
            failed |= bytes && !out && out_len;
            if (r == 0) {
                *reply = out;
                *reply_len = out_len;
            } else {
                uint64_t back = failed ? UINT64_MAX : out_len;
                PMPI_Send(&back, 1, MPI_UINT64_T, r, TAG_REPLY_LEN, comm);
                if (!failed && out_len)
                    failed |= send_bytes(out, out_len, r, TAG_REPLY, comm);
                free(out);
                free(bytes);
            }
        }
    }
    int any = 0;
    mpp_ptp_allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
    return any ? -1 : 0;
}
