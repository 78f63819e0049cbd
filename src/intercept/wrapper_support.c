#include <stdio.h>
#include <stdlib.h>

#include "wrapper_support.h"

int64_t mpp_comm_size(MPI_Comm comm)
{
    int inter = 0, size = 0;
    if (comm == MPI_COMM_NULL)
        return 0;
    PMPI_Comm_test_inter(comm, &inter);
    if (inter)
        PMPI_Comm_remote_size(comm, &size);
    else
        PMPI_Comm_size(comm, &size);
    return size;
}

int64_t mpp_comm_rank(MPI_Comm comm)
{
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    return rank;
}

int64_t mpp_comm_degree(MPI_Comm comm, int out)
{
    int topo = MPI_UNDEFINED, indegree = 0, outdegree = 0, weighted = 0, n = 0;
    PMPI_Topo_test(comm, &topo);
    if (topo == MPI_CART) {
        PMPI_Cartdim_get(comm, &n);
        return 2 * (int64_t)n;
    }
    if (topo == MPI_GRAPH) {
        PMPI_Graph_neighbors_count(comm, (int)mpp_comm_rank(comm), &n);
        return n;
    }
    if (topo == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, &indegree, &outdegree, &weighted);
        return out ? outdegree : indegree;
    }
    return 0;
}

int mpp_is_root(MPI_Comm comm, int root)
{
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    return inter ? root == MPI_ROOT : mpp_comm_rank(comm) == root;
}

int mpp_is_nonroot(MPI_Comm comm, int root)
{
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    return inter ? root >= 0 : mpp_comm_rank(comm) != root;
}

int64_t mpp_sum_counts(const int counts[], int64_t n)
{
    int64_t sum = 0;
    for (int64_t i = 0; counts && i < n; i++)
        sum += counts[i];
    return sum;
}

int64_t mpp_sum_counts_c(const MPI_Count counts[], int64_t n)
{
    int64_t sum = 0;
    for (int64_t i = 0; counts && i < n; i++)
        sum += counts[i];
    return sum;
}

int64_t mpp_sum_counts_types(const int counts[], const MPI_Datatype types[], int64_t n)
{
    int64_t sum = 0;
    for (int64_t i = 0; counts && types && i < n; i++)
        if (counts[i] > 0)
            sum += counts[i] * mpp_type_bytes(types[i]);
    return sum;
}

int64_t mpp_sum_counts_types_c(const MPI_Count counts[], const MPI_Datatype types[], int64_t n)
{
    int64_t sum = 0;
    for (int64_t i = 0; counts && types && i < n; i++)
        if (counts[i] > 0)
            sum += counts[i] * mpp_type_bytes(types[i]);
    return sum;
}

void mpp_reqset_before(mpp_call_t *c, mpp_reqset_t *set, const MPI_Request *requests, int n, int start)
{
    mpp_thread_t *t = c->thread;
    set->n = 0;
    set->keys = set->inline_keys;
    for (int k = 0; k < MPP_NCAT; k++)
        c->by_kind[k] = 0;
    if (!requests || n <= 0)
        return;
    if ((size_t)n > MPP_ARRAY_LEN(set->inline_keys)) {
        /* grows with the largest request array seen: warm-up only */
        if ((size_t)n > t->scratch_capacity) {
            uint64_t *grown = realloc(t->scratch, (size_t)n * sizeof *grown);
            if (!grown)
                return;
            t->scratch = grown;
            t->scratch_capacity = (size_t)n;
        }
        set->keys = t->scratch;
    }
    set->n = n;
    for (int i = 0; i < n; i++) {
        mpp_request_info_t info;
        set->keys[i] = mpp_request_key(requests[i]);
        if (!set->keys[i] || !mpp_request_find(set->keys[i], &info)) {
            set->keys[i] = 0;
            continue;
        }
        c->by_kind[info.kind]++;
        c->by_kind_used = 1;
        if (start && info.persistent) {
            c->bytes_sent += info.bytes_sent;
            c->bytes_recv += info.bytes_recv;
        }
    }
}

void mpp_f08_missing(const char *entry, const char *target)
{
    fprintf(stderr, "mpiprof: %s was called but %s is not loaded: link the program with the MPI "
            "Fortran library (mpifort-prof does), or preload libmpiprof.so instead\n", entry, target);
    abort();
}
