/* The wrappers' half of the hang watchdog: each call's arguments and stack,
 * recorded at entry while MPIPROF_HANG_TIMEOUT is set, with ranks also
 * given as world ranks (ranks in the profiler's world, world.h:
 * MPI_COMM_WORLD's), so that mpiprof-hang can match the dumps of different
 * processes.  A communicator's facts (members' world ranks, the id all
 * members agree on) are computed at its first call and cached on it as an
 * attribute; the world's are computed once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attribute/callsite.h"
#include "context/clock.h"
#include "gen/function_table.h"
#include "intercept/watch_support.h"
#include "intercept/world.h"

typedef struct {
    mpp_watch_comm_t facts; /* what a dump shows; first, so that it is what the record points to */
    int local_size, remote_size;
    const int *local_world;  /* world rank of each rank of the (local) group; NULL: the identity */
    const int *remote_world; /* intercommunicators: of each rank of the remote group */
    int ranks[];             /* storage of both */
} comm_info_t;

static comm_info_t *world;
static MPI_Group world_group = MPI_GROUP_NULL;
static int keyval = MPI_KEYVAL_INVALID;
/* Two threads of an MPI_THREAD_MULTIPLE program may meet a communicator
 * for the first time together: one of them caches it. */
static pthread_mutex_t build_lock = PTHREAD_MUTEX_INITIALIZER;

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* Sorted world ranks: their hash, and their ranges as text unless too long. */
static void describe_members(mpp_watch_comm_t *f, int *sorted, int n)
{
    qsort(sorted, (size_t)n, sizeof *sorted, by_value);
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < n; i++) {
        uint32_t v = (uint32_t)sorted[i];
        for (int b = 0; b < 4; b++) {
            h ^= (v >> (8 * b)) & 0xff;
            h *= 0x100000001b3ull;
        }
    }
    f->id = h;
    size_t used = 0;
    f->members[0] = '\0';
    for (int i = 0; i < n;) {
        int j = i;
        while (j + 1 < n && sorted[j + 1] == sorted[j] + 1)
            j++;
        char piece[32];
        int len = j > i ? snprintf(piece, sizeof piece, "%s%d-%d", i ? "," : "", sorted[i], sorted[j])
                        : snprintf(piece, sizeof piece, "%s%d", i ? "," : "", sorted[i]);
        if (used + (size_t)len >= sizeof f->members) {
            f->members[0] = '\0'; /* a list cut short would name the wrong members */
            return;
        }
        memcpy(f->members + used, piece, (size_t)len + 1);
        used += (size_t)len;
        i = j + 1;
    }
}

static void translate(MPI_Group group, int n, int *world_ranks)
{
    int *seq = calloc((size_t)(n ? n : 1), sizeof *seq);
    if (!seq) {
        for (int i = 0; i < n; i++)
            world_ranks[i] = MPP_WATCH_UNKNOWN;
        return;
    }
    for (int i = 0; i < n; i++)
        seq[i] = i;
    PMPI_Group_translate_ranks(group, n, seq, world_group, world_ranks);
    for (int i = 0; i < n; i++)
        if (world_ranks[i] == MPI_UNDEFINED)
            world_ranks[i] = MPP_WATCH_UNKNOWN; /* a process of another world (spawned, connected) */
    free(seq);
}

static comm_info_t *build(MPI_Comm comm)
{
    int inter = 0, local_size = 0, remote_size = 0;
    MPI_Group local = MPI_GROUP_NULL, remote = MPI_GROUP_NULL;
    if (PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS || PMPI_Comm_group(comm, &local) != MPI_SUCCESS)
        return NULL;
    PMPI_Group_size(local, &local_size);
    if (inter && PMPI_Comm_remote_group(comm, &remote) == MPI_SUCCESS)
        PMPI_Group_size(remote, &remote_size);
    int n = local_size + remote_size;
    comm_info_t *ci = calloc(1, sizeof *ci + 2 * (size_t)n * sizeof(int));
    if (ci) {
        int *local_world = ci->ranks, *remote_world = ci->ranks + local_size, *sorted = ci->ranks + n;
        translate(local, local_size, local_world);
        if (remote != MPI_GROUP_NULL)
            translate(remote, remote_size, remote_world);
        ci->facts.size = n;
        ci->facts.inter = inter;
        ci->local_size = local_size;
        ci->remote_size = remote_size;
        ci->local_world = local_world;
        ci->remote_world = remote_world;
        memcpy(sorted, ci->ranks, (size_t)n * sizeof *sorted);
        describe_members(&ci->facts, sorted, n);
    }
    PMPI_Group_free(&local);
    if (remote != MPI_GROUP_NULL)
        PMPI_Group_free(&remote);
    return ci;
}

/* A dump may be being read from the record of a call on this communicator:
 * the watchdog frees its facts when no read is under way. */
static int delete_info(MPI_Comm comm, int kv, void *value, void *extra)
{
    (void)comm, (void)kv, (void)extra;
    mpp_watchdog_retire(value);
    return MPI_SUCCESS;
}

/* MPICH: a communicator handle's kind bits say "communicator"; anything else
 * (MPI_COMM_NULL, garbage a wrong program passes) is left to the MPI call
 * itself to report, so its error handler runs exactly as without mpiprof. */
static int looks_like_comm(MPI_Comm comm)
{
#if defined(MPICH_VERSION)
    return ((unsigned)comm & 0x3c000000u) == 0x04000000u && comm != MPI_COMM_NULL;
#else
    return comm != MPI_COMM_NULL;
#endif
}

static const comm_info_t *comm_info(MPI_Comm comm)
{
    if (comm == mpp_world())
        return world;
    if (!looks_like_comm(comm) || keyval == MPI_KEYVAL_INVALID)
        return NULL;
    void *value = NULL;
    int found = 0;
    if (PMPI_Comm_get_attr(comm, keyval, &value, &found) != MPI_SUCCESS)
        return NULL;
    if (found)
        return value;
    pthread_mutex_lock(&build_lock);
    if (PMPI_Comm_get_attr(comm, keyval, &value, &found) == MPI_SUCCESS && !found) {
        value = build(comm);
        if (value && PMPI_Comm_set_attr(comm, keyval, value) != MPI_SUCCESS) {
            free(value);
            value = NULL;
        }
    }
    pthread_mutex_unlock(&build_lock);
    return value;
}

static mpp_watch_peer_t peer(const comm_info_t *ci, int rank)
{
    mpp_watch_peer_t p = {rank, MPP_WATCH_UNKNOWN};
    if (rank == MPP_WATCH_NONE)
        return p;
    if (rank == MPI_ANY_SOURCE)
        p.rank = p.world = MPP_WATCH_ANY;
    else if (rank == MPI_PROC_NULL)
        p.rank = p.world = MPP_WATCH_PROC_NULL;
    else if (rank == MPI_ROOT)
        p.rank = p.world = MPP_WATCH_ROOT;
    else if (ci && rank >= 0) {
        /* an intercommunicator's ranks name the remote group */
        if (ci->facts.inter)
            p.world = rank < ci->remote_size ? ci->remote_world[rank] : MPP_WATCH_UNKNOWN;
        else if (!ci->local_world)
            p.world = rank < ci->local_size ? rank : MPP_WATCH_UNKNOWN;
        else
            p.world = rank < ci->local_size ? ci->local_world[rank] : MPP_WATCH_UNKNOWN;
    }
    return p;
}

void mpp_watch_enter(mpp_call_t *c, const mpp_watch_args_t *a, const uint64_t *keys, int nkeys, void *return_address,
                     void *frame_address)
{
    mpp_thread_t *t = c->thread;
    mpp_watch_call_t *w = &t->watch.call;
    const comm_info_t *ci = comm_info(a->comm);
    /* seqlock write: the watchdog ignores the record while serial is 0 */
    atomic_store_explicit(&w->serial, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    w->fid = c->fid;
    w->t0 = c->t0;
    w->comm = ci ? &ci->facts : NULL;
    w->dest = peer(ci, a->dest);
    w->source = peer(ci, a->source);
    w->root = peer(ci, a->root);
    w->tag = a->tag;
    w->sendtag = a->sendtag;
    w->count = a->count;
    w->depth = t->table.depth;
    mpp_callsite_capture(w->frames, NULL, w->depth, return_address, frame_address, t->stack_lo, t->stack_hi);
    w->nrequests = keys ? nkeys : 0;
    for (int i = 0; i < w->nrequests && i < MPP_WATCH_REQUESTS; i++)
        w->requests[i] = keys[i];
    atomic_store_explicit(&w->serial, atomic_load_explicit(&t->entered, memory_order_relaxed), memory_order_release);
}

void mpp_watch_finalize_enter(mpp_call_t *c, void *return_address, void *frame_address)
{
    mpp_watch_args_t args = {
        mpp_world(), MPP_WATCH_NONE, MPP_WATCH_NONE, MPP_WATCH_NONE, MPP_WATCH_NONE, MPP_WATCH_NONE, -1};
    mpp_watch_enter(c, &args, NULL, 0, return_address, frame_address);
}

int mpp_watch_comms_start(void)
{
    int size = 0;
    PMPI_Comm_size(mpp_world(), &size);
    if (PMPI_Comm_group(mpp_world(), &world_group) != MPI_SUCCESS)
        return -1;
    free(world);
    world = calloc(1, sizeof *world + (size_t)size * sizeof(int));
    if (!world)
        return -1;
    world->facts.size = size;
    world->local_size = size;
    for (int i = 0; i < size; i++)
        world->ranks[i] = i;
    describe_members(&world->facts, world->ranks, size);
    if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_info, &keyval, NULL) != MPI_SUCCESS)
        keyval = MPI_KEYVAL_INVALID;
    return 0;
}

void mpp_watch_comms_stop(void)
{
    if (keyval != MPI_KEYVAL_INVALID)
        PMPI_Comm_free_keyval(&keyval); /* the facts cached go when their communicators do */
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
    /* `world` stays: a record of the last call may point to it */
}
