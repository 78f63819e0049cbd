#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "intercept/comms.h"
#include "intercept/handle_keys.h"
#include "intercept/world.h"
#include "util/handlemap.h"
#include "util/mt_lock.h"

/* Handle -> entry pointer; a lock only under MPI_THREAD_MULTIPLE, never
 * held across an MPI call. */
static mpp_handlemap_t registry;
static mpp_handlemap_t group_calls; /* commids.h key -> constructor calls made with it */
mpp_comm_t *mpp_comm_world_entry;   /* MPI_COMM_WORLD: every lookup of it skips the table (comms.h) */
static int world_rank;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;

static inline void take(void) { mpp_mt_take(&lock); }
static inline void give(void) { mpp_mt_give(&lock); }

static mpp_rankset_t local_set(const mpp_comm_t *c)
{
    return (mpp_rankset_t){c->inter ? c->local : c->world, c->size};
}

static mpp_rankset_t remote_set(const mpp_comm_t *c)
{
    return c->inter ? (mpp_rankset_t){c->world, c->peers} : (mpp_rankset_t){NULL, 0};
}

static void free_entry_memory(mpp_comm_t *c)
{
    free(c->world);
    free(c->local);
    free(c);
}

/* World ranks of a group's members, -1 for a process outside
 * MPI_COMM_WORLD; NULL when out of memory or MPI refused. */
static int *world_ranks(MPI_Group group, int n)
{
    MPI_Group world_group = MPI_GROUP_NULL;
    int *ranks = malloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *ranks);
    int *out = malloc((size_t)(n > 0 ? n : 1) * sizeof *out);
    int ok = ranks && out && PMPI_Comm_group(mpp_world(), &world_group) == MPI_SUCCESS;
    if (ok) {
        for (int r = 0; r < n; r++)
            ranks[r] = r;
        ok = PMPI_Group_translate_ranks(group, n, ranks, world_group, ranks + n) == MPI_SUCCESS;
    }
    if (ok)
        for (int r = 0; r < n; r++)
            out[r] = ranks[n + r] == MPI_UNDEFINED ? -1 : ranks[n + r];
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
    free(ranks);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

/* Sizes and the MPI_COMM_WORLD ranks of both groups (local MPI queries);
 * id MPP_COMM_ID_NONE until placed. */
static mpp_comm_t *describe(MPI_Comm comm)
{
    mpp_comm_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->handle = comm;
    c->refs = 1;
    c->tree.parent = -1;
    PMPI_Comm_test_inter(comm, &c->inter);
    PMPI_Comm_size(comm, &c->size);
    c->peers = c->size;
    if (c->inter)
        PMPI_Comm_remote_size(comm, &c->peers);
    c->members = c->inter ? c->size + c->peers : c->size;
    if (comm == mpp_world())
        return c;
    MPI_Group group = MPI_GROUP_NULL;
    if ((c->inter ? PMPI_Comm_remote_group(comm, &group) : PMPI_Comm_group(comm, &group)) == MPI_SUCCESS) {
        c->world = world_ranks(group, c->peers);
        PMPI_Group_free(&group);
    }
    if (c->inter && PMPI_Comm_group(comm, &group) == MPI_SUCCESS) {
        c->local = world_ranks(group, c->size);
        PMPI_Group_free(&group);
    }
    return c;
}

/* Give c its id and its place in the tree of its members.  Without the
 * world ranks of its members it keeps no id (not analysed). */
static void place(mpp_comm_t *c, uint64_t id)
{
    mpp_rankset_t local = local_set(c), remote = remote_set(c);
    int known = c->handle == mpp_world() || (c->world && (!c->inter || c->local));
    c->id = known ? id : MPP_COMM_ID_NONE;
    c->channel = mpp_commid_channel(c->id);
    if (c->id == MPP_COMM_ID_NONE || c->members < 2)
        return;
    int *members = malloc((size_t)c->members * sizeof *members);
    if (!members || (mpp_commid_members(local, remote, members), members[0] < 0) ||
        mpp_tree_place(&c->tree, members, c->members, world_rank, c->id) != 0) {
        c->id = MPP_COMM_ID_NONE; /* a member outside MPI_COMM_WORLD, or out of memory */
        c->channel = 0;
    }
    free(members);
}

static void release_locked(mpp_comm_t *c)
{
    if (c && c != mpp_comm_world_entry && --c->refs <= 0)
        free_entry_memory(c);
}

/* c replaces whatever the registry had for its handle (a handle MPI reused
 * before we saw the old one freed, or an entry registered without an id). */
static mpp_comm_t *insert_locked(mpp_comm_t *c)
{
    int inserted;
    mpp_comm_t **slot = mpp_handlemap_put(&registry, MPP_HANDLE_KEY(c->handle), &inserted);
    if (!slot) {
        release_locked(c);
        return NULL;
    }
    if (!inserted)
        release_locked(*slot);
    *slot = c;
    return c;
}

void mpp_comms_start(int thread_multiple)
{
    lock.on = thread_multiple;
    PMPI_Comm_rank(mpp_world(), &world_rank);
    mpp_handlemap_init(&registry, sizeof(mpp_comm_t *));
    mpp_handlemap_init(&group_calls, sizeof(uint64_t));
    mpp_comm_world_entry = describe(mpp_world());
    if (mpp_comm_world_entry)
        place(mpp_comm_world_entry, MPP_COMM_ID_WORLD);
    if (!mpp_world_model())
        return; /* sessions alone: MPI_COMM_SELF is not valid */
    mpp_comm_t *self = describe(MPI_COMM_SELF);
    if (self) {
        place(self, MPP_COMM_ID_SELF);
        take();
        insert_locked(self);
        give();
    }
}

mpp_comm_t *mpp_comm_get_slow(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return NULL;
    take();
    mpp_comm_t **slot = mpp_handlemap_get(&registry, MPP_HANDLE_KEY(comm));
    mpp_comm_t *c = slot ? *slot : NULL;
    give();
    if (c)
        return c;
    /* created where no hook saw it: described now, outside the lock (another
     * thread may register it meanwhile: then its entry counts) */
    mpp_comm_t *fresh = describe(comm);
    if (!fresh)
        return NULL;
    place(fresh, MPP_COMM_ID_NONE);
    take();
    slot = mpp_handlemap_get(&registry, MPP_HANDLE_KEY(comm));
    if (slot && *slot) {
        c = *slot;
        release_locked(fresh);
    } else {
        c = insert_locked(fresh);
    }
    give();
    return c;
}

void mpp_comm_created(MPI_Comm parent, MPI_Comm comm)
{
    mpp_comm_t *p = mpp_comm_get(parent);
    uint64_t seq = 0, parent_id = MPP_COMM_ID_NONE;
    take();
    if (p) {
        seq = p->constructed++;
        parent_id = p->id;
    }
    give();
    if (comm == MPI_COMM_NULL)
        return;
    mpp_comm_t *c = describe(comm);
    if (!c)
        return;
    place(c, mpp_commid_child(parent_id, seq, local_set(c), remote_set(c)));
    take();
    insert_locked(c);
    give();
}

void mpp_comm_created_by_group(MPI_Comm parent, int tag, const char *stringtag, size_t len, MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return;
    uint64_t parent_id = MPP_COMM_ID_NONE, seq = 0;
    if (parent != MPI_COMM_NULL) {
        mpp_comm_t *p = mpp_comm_get(parent);
        parent_id = p ? p->id : MPP_COMM_ID_NONE;
    }
    mpp_comm_t *c = describe(comm);
    if (!c)
        return;
    uint64_t key = c->world && (!c->inter || c->local)
                       ? mpp_commid_group_key(parent_id, parent != MPI_COMM_NULL, tag, stringtag, len, local_set(c),
                                              remote_set(c))
                       : 0;
    take();
    if (key) {
        int inserted;
        uint64_t *calls = mpp_handlemap_put(&group_calls, key, &inserted);
        if (calls)
            seq = (*calls)++;
        else
            key = 0; /* out of memory: not analysed */
    }
    give();
    place(c, mpp_commid_from_key(key, seq));
    take();
    insert_locked(c);
    give();
}

/* A copy of ranks[n] (NULL: the identity). */
static int *copy_ranks(const int *ranks, int n)
{
    int *out = malloc((size_t)(n > 0 ? n : 1) * sizeof *out);
    if (out)
        for (int r = 0; r < n; r++)
            out[r] = ranks ? ranks[r] : r;
    return out;
}

mpp_comm_t *mpp_comm_duplicating(MPI_Comm parent)
{
    mpp_comm_t *p = mpp_comm_get(parent);
    if (!p)
        return NULL;
    take();
    uint64_t seq = p->constructed++;
    give();
    /* a duplicate has its parent's groups: no MPI query */
    mpp_comm_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->handle = MPI_COMM_NULL;
    c->refs = 1;
    c->inter = p->inter;
    c->size = p->size;
    c->peers = p->peers;
    c->members = p->members;
    c->tree.parent = -1;
    c->world = copy_ranks(p->world, p->peers);
    if (p->inter)
        c->local = copy_ranks(p->local, p->size);
    if (!c->world || (p->inter && !c->local)) {
        free_entry_memory(c);
        return NULL;
    }
    /* a parent without an id (its ranks unknown) gives none */
    place(c, mpp_commid_child(p->id, seq, local_set(c), remote_set(c)));
    return c;
}

void mpp_comm_register(mpp_comm_t *c, MPI_Comm handle)
{
    if (!c)
        return;
    take();
    if (handle == MPI_COMM_NULL || handle == mpp_world()) {
        release_locked(c);
    } else {
        c->handle = handle;
        insert_locked(c);
    }
    give();
}

mpp_comm_t *mpp_comm_unregister(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL || comm == mpp_world() || comm == MPI_COMM_SELF)
        return NULL;
    mpp_comm_t *c = NULL;
    take();
    mpp_handlemap_remove(&registry, MPP_HANDLE_KEY(comm), &c); /* the registry's reference passes to the caller */
    give();
    return c;
}

void mpp_comm_hold_other(mpp_comm_t *c)
{
    take();
    c->refs++;
    give();
}

void mpp_comm_release_other(mpp_comm_t *c)
{
    take();
    release_locked(c);
    give();
}

struct each_arg {
    void (*fn)(mpp_comm_t *, void *);
    void *arg;
};

static void each_entry(uint64_t key, void *value, void *arg)
{
    struct each_arg *a = arg;
    (void)key;
    a->fn(*(mpp_comm_t **)value, a->arg);
}

void mpp_comms_each(void (*fn)(mpp_comm_t *, void *), void *arg)
{
    struct each_arg a = {fn, arg};
    if (mpp_comm_world_entry)
        fn(mpp_comm_world_entry, arg);
    mpp_handlemap_each(&registry, each_entry, &a);
}

static void free_entry(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    free_entry_memory(*(mpp_comm_t **)value);
}

void mpp_comms_stop(void)
{
    mpp_handlemap_each(&registry, free_entry, NULL);
    mpp_handlemap_free(&registry);
    mpp_handlemap_free(&group_calls);
    if (mpp_comm_world_entry) {
        free_entry_memory(mpp_comm_world_entry);
        mpp_comm_world_entry = NULL;
    }
}
