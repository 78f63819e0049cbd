#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "intercept/wrapper_support.h"
#include "trace/trace.h"

int64_t mpp_world_size;
const char mpp_no_buffer[1];
int mpp_trace_on; /* trace.h: here, so that a build without libotf2 links too */

int64_t mpp_comm_size_slow(MPI_Comm comm)
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
    set->persistent = 0;
    set->keys = set->inline_keys;
    for (int k = 0; k < MPP_NCAT; k++)
        c->by_kind[k] = 0;
    c->by_kind_mask = 0;
    if (start)
        for (int k = 0; k < MPP_NPRICE; k++)
            c->started_price[k] = 0;
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
        uint64_t key = mpp_request_key(requests[i]);
        if (!key || !mpp_request_find(key, &info)) {
            set->keys[i] = 0;
            continue;
        }
        set->keys[i] = mpp_request_pack(key, info.serial);
        c->by_kind[info.kind]++;
        c->by_kind_mask |= 1u << info.kind;
        c->by_kind_used = 1;
        set->persistent |= info.persistent;
        if (start && info.persistent) {
            c->bytes_sent += info.bytes_sent;
            c->bytes_recv += info.bytes_recv;
            mpp_price_add_call(c->started_price, &info.price); /* its transfer, priced when it was created */
        }
    }
    if (start) { /* mpp_call_end marks them started, with this call's return and cell */
        c->started = set->keys;
        c->nstarted = set->n;
    }
}

/* --- the communication model at run time --- */

int mpp_model_on;
mpp_model_t mpp_model_runtime;
int mpp_model_nodes = 1;
static unsigned char *world_same_node; /* [world size]: 1 when that rank runs on this node */
static int world_size;
static MPI_Group world_group = MPI_GROUP_NULL;
static int nodes_keyval = MPI_KEYVAL_INVALID;

/* What a communicator's ranks are, cached on it as an attribute (built at
 * its first modelled call; MPI frees it with the communicator): per rank
 * (of the remote group for an intercommunicator), whether it runs on
 * another node than this process. */
typedef struct {
    int size;
    int spans; /* some rank runs on another node */
    unsigned char remote[];
} comm_nodes_t;

static int delete_nodes(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    free(value);
    return MPI_SUCCESS;
}

void mpp_model_runtime_start(const mpp_model_t *model, int nodes, const unsigned char *same_node, int size)
{
    mpp_model_runtime = *model;
    mpp_model_nodes = nodes > 1 ? nodes : 1;
    free(world_same_node);
    world_same_node = NULL;
    world_size = 0;
    if (mpp_model_nodes > 1 && same_node) {
        world_same_node = malloc((size_t)size);
        if (world_same_node) {
            memcpy(world_same_node, same_node, (size_t)size);
            world_size = size;
        }
        PMPI_Comm_group(mpp_world(), &world_group);
        PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_nodes, &nodes_keyval, NULL);
    }
    mpp_model_on = 1;
}

void mpp_model_runtime_stop(void)
{
    mpp_model_on = 0;
    if (nodes_keyval != MPI_KEYVAL_INVALID)
        PMPI_Comm_free_keyval(&nodes_keyval);
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
    /* world_same_node stays: a communicator freed after MPI_Finalize's
     * entry needs nothing of it, and a late call finds mpp_model_on 0 */
}

static const comm_nodes_t *comm_nodes(MPI_Comm comm)
{
    void *value = NULL;
    int found = 0;
    if (nodes_keyval == MPI_KEYVAL_INVALID || comm == MPI_COMM_NULL)
        return NULL;
    if (PMPI_Comm_get_attr(comm, nodes_keyval, &value, &found) == MPI_SUCCESS && found)
        return value;
    /* first modelled call on this communicator: translate its ranks */
    int inter = 0, n = 0;
    MPI_Group group = MPI_GROUP_NULL;
    PMPI_Comm_test_inter(comm, &inter);
    if ((inter ? PMPI_Comm_remote_group(comm, &group) : PMPI_Comm_group(comm, &group)) != MPI_SUCCESS)
        return NULL;
    PMPI_Group_size(group, &n);
    comm_nodes_t *cn = calloc(1, sizeof *cn + (size_t)(n > 0 ? n : 1));
    int *ranks = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *ranks);
    if (cn && ranks) {
        for (int r = 0; r < n; r++)
            ranks[r] = r;
        PMPI_Group_translate_ranks(group, n, ranks, world_group, ranks + n);
        cn->size = n;
        for (int r = 0; r < n; r++) {
            int w = ranks[n + r];
            cn->remote[r] = w >= 0 && w < world_size && !world_same_node[w];
            cn->spans |= cn->remote[r];
        }
        if (PMPI_Comm_set_attr(comm, nodes_keyval, cn) != MPI_SUCCESS) {
            free(cn);
            cn = NULL;
        }
    } else {
        free(cn);
        cn = NULL;
    }
    free(ranks);
    PMPI_Group_free(&group);
    return cn;
}

int mpp_model_link_slow(MPI_Comm comm, int rank)
{
    if (!world_same_node)
        return MPP_LINK_INTER; /* several nodes, but their ranks are unknown: the slower link */
    if (comm == mpp_world()) {
        if (rank == MPI_ANY_SOURCE)
            return MPP_LINK_INTER;
        return rank >= 0 && rank < world_size && !world_same_node[rank] ? MPP_LINK_INTER : MPP_LINK_INTRA;
    }
    const comm_nodes_t *cn = comm_nodes(comm);
    if (!cn)
        return MPP_LINK_INTER;
    if (rank == MPI_ANY_SOURCE || rank < 0 || rank >= cn->size)
        return cn->spans ? MPP_LINK_INTER : MPP_LINK_INTRA;
    return cn->remote[rank] ? MPP_LINK_INTER : MPP_LINK_INTRA;
}

#if MPP_F08_WRAPPERS

/* --- mpi_f08 indexes --- */

/* MPICH 4.0's mpi_f08 MPI_Waitany, MPI_Testany, MPI_Waitsome and
 * MPI_Testsome return C's indexes (MPICH issue 6270); 4.1 and later count
 * from 1 as Fortran does.  The loaded binding is asked once: MPI_Testany
 * on one completed generalized request (no communicator, no message). */
intptr_t pmpir_testany_f08_(void *count, void *array_of_requests, void *indx, void *flag, void *status, void *ierror)
    __attribute__((weak));

static int grequest_query(void *extra, MPI_Status *status)
{
    (void)extra;
    PMPI_Status_set_elements(status, MPI_BYTE, 0);
    PMPI_Status_set_cancelled(status, 0);
    status->MPI_SOURCE = MPI_UNDEFINED;
    status->MPI_TAG = MPI_UNDEFINED;
    return MPI_SUCCESS;
}

static int grequest_free(void *extra)
{
    (void)extra;
    return MPI_SUCCESS;
}

static int grequest_cancel(void *extra, int complete)
{
    (void)extra, (void)complete;
    return MPI_SUCCESS;
}

int mpp_f08_index_base(void)
{
    static _Atomic int known = -1;
    int base = atomic_load_explicit(&known, memory_order_relaxed);
    if (base >= 0)
        return base;
    base = 0;
    MPI_Request request;
    if (pmpir_testany_f08_ &&
        PMPI_Grequest_start(grequest_query, grequest_free, grequest_cancel, NULL, &request) == MPI_SUCCESS) {
        PMPI_Grequest_complete(request);
        MPI_Fint handle = PMPI_Request_c2f(request);
        int count = 1, indx = MPI_UNDEFINED, flag = 0, ierror = MPI_ERR_OTHER;
        pmpir_testany_f08_(&count, &handle, &indx, &flag, MPI_F08_STATUS_IGNORE, &ierror);
        if (ierror == MPI_SUCCESS && flag && (indx == 0 || indx == 1))
            base = indx;
        request = PMPI_Request_f2c(handle);
        if (request != MPI_REQUEST_NULL) /* not completed: cannot happen, but never leak it */
            PMPI_Request_free(&request);
    }
    atomic_store_explicit(&known, base, memory_order_relaxed);
    return base;
}

#endif /* MPP_F08_WRAPPERS */

#if MPP_F08_WRAPPERS || MPP_OMPI_FORTRAN
void mpp_f08_missing(const char *entry, const char *target)
{
    fprintf(stderr,
            "mpiprof: %s was called but %s is not loaded: link the program with the MPI "
            "Fortran library (mpifort-prof does), or preload libmpiprof.so instead\n",
            entry, target);
    abort();
}

static __thread int *f08_indices __attribute__((tls_model("initial-exec")));
static __thread int f08_indices_capacity __attribute__((tls_model("initial-exec")));

static void release_f08_indices(void)
{
    free(f08_indices);
    f08_indices = NULL;
    f08_indices_capacity = 0;
}

const int *mpp_f08_indices(const void *indices, int n, int base)
{
    if (n > f08_indices_capacity) { /* grows with the largest count seen: warm-up only */
        mpp_thread_at_end(release_f08_indices);
        int *grown = realloc(f08_indices, (size_t)n * sizeof *grown);
        if (!grown)
            return NULL;
        f08_indices = grown;
        f08_indices_capacity = n;
    }
    const int *from = indices;
    for (int i = 0; i < n; i++)
        f08_indices[i] = from[i] - base;
    return f08_indices ? f08_indices : (const int *)indices; /* n <= 0: nothing is read */
}
#endif

#if MPP_OMPI_FORTRAN
static __thread MPI_Request *f_requests __attribute__((tls_model("initial-exec")));
static __thread int f_requests_capacity __attribute__((tls_model("initial-exec")));

static void release_f_requests(void)
{
    free(f_requests);
    f_requests = NULL;
    f_requests_capacity = 0;
}

const MPI_Request *mpp_ompi_f_requests(const void *requests, int n)
{
    if (!requests || n <= 0)
        return NULL;
    if (n > f_requests_capacity) { /* grows with the largest count seen: warm-up only */
        mpp_thread_at_end(release_f_requests);
        MPI_Request *grown = realloc(f_requests, (size_t)n * sizeof *grown);
        if (!grown)
            return NULL;
        f_requests = grown;
        f_requests_capacity = n;
    }
    const MPI_Fint *from = requests;
    for (int i = 0; i < n; i++)
        f_requests[i] = PMPI_Request_f2c(from[i]);
    return f_requests;
}

int64_t mpp_sum_counts_types_f(const int counts[], const MPI_Fint types[], int64_t n)
{
    int64_t sum = 0;
    for (int64_t i = 0; counts && types && i < n; i++)
        if (counts[i] > 0)
            sum += counts[i] * mpp_type_bytes(PMPI_Type_f2c(types[i]));
    return sum;
}
#endif
