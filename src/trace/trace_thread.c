/* Trace mode's per-thread state: each thread's location and event writer,
 * made at its first event, and its table of call sites; and the region
 * role and collective operation OTF2 gives each MPI function (as Score-P
 * does). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "accumulate/table.h"
#include "trace/trace_local.h"

OTF2_Archive *mpp_trace_archive;
pthread_mutex_t mpp_trace_threads_lock = PTHREAD_MUTEX_INITIALIZER;
trace_thread_t *mpp_trace_threads;
int mpp_trace_rank;
uint64_t mpp_trace_errors;

static __thread trace_thread_t *self __attribute__((tls_model("initial-exec")));
static int nthreads;

trace_thread_t *mpp_trace_self(void)
{
    if (MPP_LIKELY(self != NULL))
        return self->broken ? NULL : self;
    trace_thread_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    mpp_handlemap_init(&t->site_index, sizeof(uint32_t));
    mpp_handlemap_init(&t->requests, sizeof(trace_request_t));
    mpp_handlemap_init(&t->persistent, sizeof(trace_persistent_t));
    pthread_mutex_lock(&mpp_trace_threads_lock);
    t->index = nthreads++;
    t->location = (uint64_t)t->index << 32 | (uint32_t)mpp_trace_rank;
    t->writer = mpp_trace_archive ? OTF2_Archive_GetEvtWriter(mpp_trace_archive, t->location) : NULL;
    t->next = mpp_trace_threads;
    mpp_trace_threads = t;
    pthread_mutex_unlock(&mpp_trace_threads_lock);
    t->attributes = OTF2_AttributeList_New();
    t->broken = !t->writer || !t->attributes;
    self = t;
    return t->broken ? NULL : t;
}

uint32_t mpp_trace_site(trace_thread_t *t, uint32_t fid, const uintptr_t *frames, int depth)
{
    uint64_t hash = mpp_key_hash(fid, 0, frames, depth);
    for (int probe = 0; probe < 4; probe++, hash += 2) { /* 64-bit hashes: a collision is a rarity */
        int inserted = 0;
        uint32_t *index = mpp_handlemap_put(&t->site_index, hash, &inserted);
        if (!index)
            return UINT32_MAX;
        if (!inserted) {
            const trace_site_t *s = &t->sites[*index];
            if (s->fid == fid && mpp_same_frames(s->frames, frames, depth))
                return *index;
            continue;
        }
        if (mpp_grow((void **)&t->sites, &t->sites_capacity, t->nsites + 1, sizeof *t->sites, 16) != 0) {
            mpp_handlemap_remove(&t->site_index, hash, NULL);
            return UINT32_MAX;
        }
        trace_site_t *s = &t->sites[t->nsites];
        memset(s, 0, sizeof *s);
        s->fid = fid;
        memcpy(s->frames, frames, (size_t)depth * sizeof *s->frames);
        *index = (uint32_t)t->nsites;
        return (uint32_t)t->nsites++;
    }
    return UINT32_MAX;
}

/* --- what Score-P calls each MPI function --- */

static int named(const char *function, const char *const *names)
{
    const char *base = function + 4; /* after "MPI_" */
    size_t len = strlen(base);
    if (len > 2 && !strcmp(base + len - 2, "_c")) /* large-count variants */
        len -= 2;
    for (; *names; names++)
        if (strlen(*names) == len && !strncmp(base, *names, len))
            return 1;
    return 0;
}

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

OTF2_RegionRole mpp_trace_region_role(const char *function)
{
    if (strncmp(function, "MPI_", 4) != 0)
        return OTF2_REGION_ROLE_FUNCTION;
    if (named(function, NAMES("Barrier", "Ibarrier", "Barrier_init")))
        return OTF2_REGION_ROLE_BARRIER;
    if (named(function, NAMES("Bcast", "Ibcast", "Bcast_init", "Scatter", "Iscatter", "Scatter_init", "Scatterv",
                              "Iscatterv", "Scatterv_init")))
        return OTF2_REGION_ROLE_COLL_ONE2ALL;
    if (named(function, NAMES("Gather", "Igather", "Gather_init", "Gatherv", "Igatherv", "Gatherv_init", "Reduce",
                              "Ireduce", "Reduce_init")))
        return OTF2_REGION_ROLE_COLL_ALL2ONE;
    if (named(function,
              NAMES("Allgather", "Iallgather", "Allgather_init", "Allgatherv", "Iallgatherv", "Allgatherv_init",
                    "Allreduce", "Iallreduce", "Allreduce_init", "Alltoall", "Ialltoall", "Alltoall_init",
                    "Alltoallv", "Ialltoallv", "Alltoallv_init", "Alltoallw", "Ialltoallw", "Alltoallw_init",
                    "Reduce_scatter", "Ireduce_scatter", "Reduce_scatter_init", "Reduce_scatter_block",
                    "Ireduce_scatter_block", "Reduce_scatter_block_init", "Neighbor_allgather", "Neighbor_allgatherv",
                    "Neighbor_alltoall", "Neighbor_alltoallv", "Neighbor_alltoallw", "Ineighbor_allgather",
                    "Ineighbor_allgatherv", "Ineighbor_alltoall", "Ineighbor_alltoallv", "Ineighbor_alltoallw")))
        return OTF2_REGION_ROLE_COLL_ALL2ALL;
    if (named(function, NAMES("Scan", "Iscan", "Scan_init", "Exscan", "Iexscan", "Exscan_init")))
        return OTF2_REGION_ROLE_COLL_OTHER;
    if (named(function, NAMES("Send", "Bsend", "Ssend", "Rsend", "Isend", "Ibsend", "Issend", "Irsend", "Recv",
                              "Irecv", "Sendrecv", "Sendrecv_replace", "Isendrecv", "Isendrecv_replace", "Probe",
                              "Iprobe", "Mprobe", "Improbe", "Mrecv", "Imrecv", "Send_init", "Bsend_init",
                              "Ssend_init", "Rsend_init", "Recv_init", "Psend_init", "Precv_init")))
        return OTF2_REGION_ROLE_POINT2POINT;
    if (named(function, NAMES("Wait", "Waitall", "Waitany", "Waitsome", "Test", "Testall", "Testany", "Testsome",
                              "Start", "Startall", "Request_free", "Cancel")))
        return OTF2_REGION_ROLE_POINT2POINT;
    if (named(function, NAMES("File_open", "File_close", "File_delete", "File_set_size", "File_preallocate",
                              "File_sync", "File_set_view")))
        return OTF2_REGION_ROLE_FILE_IO;
    if (!strncmp(function, "MPI_File_", 9))
        return OTF2_REGION_ROLE_FILE_IO;
    return OTF2_REGION_ROLE_FUNCTION;
}

OTF2_CollectiveOp mpp_trace_collective_op(const char *function)
{
    static const struct {
        const char *name;
        OTF2_CollectiveOp op;
    } ops[] = {
        {"Barrier", OTF2_COLLECTIVE_OP_BARRIER},
        {"Bcast", OTF2_COLLECTIVE_OP_BCAST},
        {"Gather", OTF2_COLLECTIVE_OP_GATHER},
        {"Gatherv", OTF2_COLLECTIVE_OP_GATHERV},
        {"Scatter", OTF2_COLLECTIVE_OP_SCATTER},
        {"Scatterv", OTF2_COLLECTIVE_OP_SCATTERV},
        {"Allgather", OTF2_COLLECTIVE_OP_ALLGATHER},
        {"Allgatherv", OTF2_COLLECTIVE_OP_ALLGATHERV},
        {"Alltoall", OTF2_COLLECTIVE_OP_ALLTOALL},
        {"Alltoallv", OTF2_COLLECTIVE_OP_ALLTOALLV},
        {"Alltoallw", OTF2_COLLECTIVE_OP_ALLTOALLW},
        {"Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE},
        {"Reduce", OTF2_COLLECTIVE_OP_REDUCE},
        {"Reduce_scatter", OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
        {"Reduce_scatter_block", OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
        {"Scan", OTF2_COLLECTIVE_OP_SCAN},
        {"Exscan", OTF2_COLLECTIVE_OP_EXSCAN},
    };
    char base[64];
    snprintf(base, sizeof base, "%s", strncmp(function, "MPI_", 4) ? function : function + 4);
    size_t len = strlen(base);
    if (len > 2 && !strcmp(base + len - 2, "_c"))
        base[len -= 2] = '\0';
    if (len > 5 && !strcmp(base + len - 5, "_init"))
        base[len -= 5] = '\0';
    const char *b = base;
    if (b[0] == 'I' && b[1] >= 'a' && b[1] <= 'z') /* Ibcast, Iallreduce, Ineighbor_... */
        b++;
    if (!strncasecmp(b, "neighbor_", 9)) /* as the operation it is among the neighbours */
        b += 9;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
        if (!strcasecmp(ops[i].name, b))
            return ops[i].op;
    if (strstr(b, "_free") || strstr(b, "disconnect"))
        return OTF2_COLLECTIVE_OP_DESTROY_HANDLE;
    return OTF2_COLLECTIVE_OP_CREATE_HANDLE; /* communicator constructors and other collective calls */
}
