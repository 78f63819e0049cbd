#include <pthread.h>
#include <stdlib.h>

#include "comms.h"
#include "handlemap.h"
#include "mt_lock.h"
#include "world.h"

/* Handle -> entry pointer; a lock only under MPI_THREAD_MULTIPLE. */
static mpp_handlemap_t registry;
static mpp_comm_t *world_entry; /* MPI_COMM_WORLD: every lookup of it skips the table */
static uint32_t next_id = MPP_COMM_ID_FIRST;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;

static inline void take(void) { mpp_mt_take(&lock); }
static inline void give(void) { mpp_mt_give(&lock); }

/* Sizes and the MPI_COMM_WORLD ranks of the peers. */
static mpp_comm_t *describe(MPI_Comm comm, uint32_t id)
{
    mpp_comm_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->handle = comm;
    c->id = id;
    c->refs = 1;
    PMPI_Comm_test_inter(comm, &c->inter);
    PMPI_Comm_size(comm, &c->size);
    c->peers = c->size;
    if (c->inter)
        PMPI_Comm_remote_size(comm, &c->peers);
    c->members = c->inter ? c->size + c->peers : c->size;
    if (comm == mpp_world())
        return c;
    MPI_Group group = MPI_GROUP_NULL, world_group = MPI_GROUP_NULL;
    int *ranks = malloc(2 * (size_t)(c->peers > 0 ? c->peers : 1) * sizeof *ranks);
    if (ranks && (c->inter ? PMPI_Comm_remote_group(comm, &group) : PMPI_Comm_group(comm, &group)) == MPI_SUCCESS &&
        PMPI_Comm_group(mpp_world(), &world_group) == MPI_SUCCESS) {
        for (int r = 0; r < c->peers; r++)
            ranks[r] = r;
        PMPI_Group_translate_ranks(group, c->peers, ranks, world_group, ranks + c->peers);
        c->world = malloc((size_t)(c->peers > 0 ? c->peers : 1) * sizeof *c->world);
        if (c->world)
            for (int r = 0; r < c->peers; r++)
                c->world[r] = ranks[c->peers + r] == MPI_UNDEFINED ? -1 : ranks[c->peers + r];
    }
    if (!c->world)
        c->id = 0; /* peers unknown: not analysed */
    if (group != MPI_GROUP_NULL)
        PMPI_Group_free(&group);
    if (world_group != MPI_GROUP_NULL)
        PMPI_Group_free(&world_group);
    free(ranks);
    return c;
}

static void release_locked(mpp_comm_t *c)
{
    if (c && c != world_entry && --c->refs <= 0) {
        free(c->world);
        free(c);
    }
}

static mpp_comm_t *insert(mpp_comm_t *c)
{
    int inserted;
    mpp_comm_t **slot = mpp_handlemap_put(&registry, (uint32_t)c->handle, &inserted);
    if (!slot)
        return NULL;
    if (!inserted) /* a handle MPI reused before we saw the old one freed */
        release_locked(*slot);
    *slot = c;
    return c;
}

void mpp_comms_start(int thread_multiple)
{
    lock.on = thread_multiple;
    mpp_handlemap_init(&registry, sizeof(mpp_comm_t *));
    world_entry = describe(mpp_world(), MPP_COMM_ID_WORLD);
    if (!mpp_world_model())
        return; /* sessions alone: MPI_COMM_SELF is not valid */
    take();
    mpp_comm_t *self = describe(MPI_COMM_SELF, MPP_COMM_ID_SELF);
    if (self && !insert(self))
        release_locked(self);
    give();
}

mpp_comm_t *mpp_comm_get(MPI_Comm comm)
{
    if (comm == mpp_world())
        return world_entry;
    if (comm == MPI_COMM_NULL)
        return NULL;
    take();
    mpp_comm_t **slot = mpp_handlemap_get(&registry, (uint32_t)comm);
    mpp_comm_t *c = slot ? *slot : NULL;
    if (!c) {
        c = describe(comm, 0);
        if (c && !insert(c)) {
            release_locked(c);
            c = NULL;
        }
    }
    give();
    return c;
}

/* An id larger than any this process has used: members propose theirs and
 * take the largest.  Two communicators that share two processes never get
 * the same id, since both processes created them one after the other. */
void mpp_comm_created(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return;
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    uint32_t proposal, id;
    take();
    proposal = next_id;
    give();
    PMPI_Allreduce(&proposal, &id, 1, MPI_UINT32_T, MPI_MAX, comm);
    if (inter) {
        /* on an intercommunicator each group gets the other's maximum: a
         * second round gives it back, so both know both */
        uint32_t other = id, mine;
        PMPI_Allreduce(&other, &mine, 1, MPI_UINT32_T, MPI_MAX, comm);
        id = other > mine ? other : mine;
    }
    mpp_comm_t *c = describe(comm, id);
    take();
    if (id >= next_id)
        next_id = id + 1;
    if (c && !insert(c))
        release_locked(c);
    give();
}

mpp_comm_t *mpp_comm_unregister(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL || comm == mpp_world() || comm == MPI_COMM_SELF)
        return NULL;
    mpp_comm_t *c = NULL;
    take();
    mpp_handlemap_remove(&registry, (uint32_t)comm, &c); /* the registry's reference passes to the caller */
    give();
    return c;
}

void mpp_comm_hold(mpp_comm_t *c)
{
    if (!c)
        return;
    take();
    c->refs++;
    give();
}

void mpp_comm_release(mpp_comm_t *c)
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
    if (world_entry)
        fn(world_entry, arg);
    mpp_handlemap_each(&registry, each_entry, &a);
}

static void free_entry(uint64_t key, void *value, void *arg)
{
    mpp_comm_t *c = *(mpp_comm_t **)value;
    (void)key, (void)arg;
    free(c->world);
    free(c);
}

void mpp_comms_stop(void)
{
    mpp_handlemap_each(&registry, free_entry, NULL);
    mpp_handlemap_free(&registry);
    if (world_entry) {
        free(world_entry);
        world_entry = NULL;
    }
}
