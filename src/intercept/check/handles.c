/* resource-leak (correctness.md): the communicators, groups, datatypes,
 * operations, windows, info objects and files the program created (the
 * @check creates roles of mpi_functions.txt) and did not free by
 * MPI_Finalize, one finding per kind and creating SRC point with their
 * number.  One entry per live handle in a hash map (util/handlemap.h,
 * 16 bytes of value, at most half full: under 100 bytes a handle), with
 * the creating call's function and its cell's frames (kept for the run, one
 * copy per cell); independent of the wait states' table of communicators.
 * A destructor removes its handle before it is called, so that MPI's own
 * calls of it count too (a datatype freed by an attribute's delete
 * callback).  MPI_Finalize runs the delete callbacks of MPI_COMM_SELF's
 * (and MPICH: MPI_COMM_WORLD's) attributes after the protocol is made, and
 * they may free handles: when the program set one, the check does not
 * report, and says so in the Warnings. */
#include <stdlib.h>

#include "check/tally.h"
#include "gen/function_table.h"
#include "intercept/check/local.h"
#include "intercept/check/run.h"
#include "util/handlemap.h"
#include "util/mt_lock.h"
#include "util/warnings.h"

typedef struct {
    uint32_t fid;
    uint8_t kind;
    uint8_t depth;
    uint16_t refs; /* the same handle made again while live (MPICH: MPI_Comm_group's group): each needs a free */
    const uintptr_t *frames; /* [depth]: the first creating call's, its cell's copy */
} entry_t;

static mpp_handlemap_t live;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;
static int finalize_callbacks; /* an attribute on MPI_COMM_SELF or _WORLD was set */

static const char *const kind_names[MPP_NHANDLE_KINDS][2] = {{"communicator", "communicators"},
                                                             {"group", "groups"},
                                                             {"datatype", "datatypes"},
                                                             {"operation", "operations"},
                                                             {"window", "windows"},
                                                             {"info object", "info objects"},
                                                             {"file", "files"}};

/* Kinds share the map: the kind above the handle's bits (an int handle,
 * or a user-space pointer, below 2^48). */
static uint64_t map_key(int kind, uint64_t key) { return key ^ ((uint64_t)(kind + 1) << 56); }

/* The null and predefined handles of a kind: never created by the
 * program, never counted (a constructor may return them: MPI_COMM_NULL to
 * a process left out, MPI_GROUP_EMPTY). */
static int predefined(int kind, uint64_t key)
{
#if defined(MPICH_VERSION)
    if ((key >> 30) == 1 && key <= UINT32_MAX) /* MPICH's kind bits: HANDLE_KIND_BUILTIN */
        return 1;
#endif
    switch (kind) {
    case MPP_HANDLE_COMM:
        return key == MPP_HANDLE_KEY(MPI_COMM_NULL) || key == MPP_HANDLE_KEY(MPI_COMM_WORLD) ||
               key == MPP_HANDLE_KEY(MPI_COMM_SELF);
    case MPP_HANDLE_GROUP:
        return key == MPP_HANDLE_KEY(MPI_GROUP_NULL) || key == MPP_HANDLE_KEY(MPI_GROUP_EMPTY);
    case MPP_HANDLE_TYPE:
        return key == MPP_HANDLE_KEY(MPI_DATATYPE_NULL);
    case MPP_HANDLE_OP:
        return key == MPP_HANDLE_KEY(MPI_OP_NULL);
    case MPP_HANDLE_WIN:
        return key == MPP_HANDLE_KEY(MPI_WIN_NULL);
    case MPP_HANDLE_INFO:
        return key == MPP_HANDLE_KEY(MPI_INFO_NULL) || key == MPP_HANDLE_KEY(MPI_INFO_ENV);
    case MPP_HANDLE_FILE:
        return key == MPP_HANDLE_KEY(MPI_FILE_NULL);
    default:
        return 1;
    }
}

void mpp_check_handles_start(int locking)
{
    mpp_handlemap_free(&live);
    mpp_handlemap_init(&live, sizeof(entry_t));
    lock.on = locking;
    finalize_callbacks = 0;
}

void mpp_check_handle_created(const mpp_call_t *c, int kind, uint64_t key)
{
    if (kind < 0 || kind >= MPP_NHANDLE_KINDS || predefined(kind, key) || !c->cell)
        return; /* no SRC point: MPI's own call, or paused */
    mpp_request_origin_t o = {0};
    mpp_call_origin_frames(c, &o);
    if (!o.frames || o.depth <= 0 || o.depth > UINT8_MAX)
        return;
    int inserted;
    mpp_mt_take(&lock);
    entry_t *e = mpp_handlemap_put(&live, map_key(kind, key), &inserted);
    if (e && inserted) /* (out of memory: not tracked, so never a false leak) */
        *e =
            (entry_t){.fid = c->fid, .kind = (uint8_t)kind, .depth = (uint8_t)o.depth, .refs = 1, .frames = o.frames};
    else if (e && e->refs < UINT16_MAX)
        e->refs++;
    mpp_mt_give(&lock);
}

void mpp_check_handle_freed(int kind, uint64_t key)
{
    mpp_mt_take(&lock);
    entry_t *e = mpp_handlemap_get(&live, map_key(kind, key));
    if (e && e->refs > 1)
        e->refs--;
    else if (e)
        mpp_handlemap_remove_value(&live, e);
    mpp_mt_give(&lock);
}

void mpp_check_attr_set(MPI_Comm comm)
{
    if (comm == MPI_COMM_SELF || comm == MPI_COMM_WORLD)
        finalize_callbacks = 1;
}

typedef struct {
    mpp_tally_item_t *items;
    size_t n;
} collect_t;

static void collect(uint64_t key, void *value, void *arg)
{
    (void)key;
    const entry_t *e = value;
    collect_t *all = arg;
    all->items[all->n++] = (mpp_tally_item_t){e->kind, e->fid, e->depth, e->frames, e->refs};
}

static void report_group(const mpp_tally_item_t *item, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++)
        mpp_check_report_at(MPP_FIND_RESOURCE_LEAK, -1, item->fid, item->frames, item->depth, -1, 0, 0,
                            "%llu %s not freed", (unsigned long long)count, kind_names[item->kind][count != 1]);
}

void mpp_check_handles_end(void)
{
    mpp_mt_take(&lock);
    size_t n = live.count;
    if (n && finalize_callbacks) {
        mpp_warn("resource-leak not checked: the program set attributes on MPI_COMM_SELF or MPI_COMM_WORLD, whose "
                 "delete callbacks MPI_Finalize calls after the protocol is made (they may free handles)");
        n = 0;
    }
    collect_t all = {n ? malloc(n * sizeof *all.items) : NULL, 0};
    mpp_tally_group_t *groups = all.items ? malloc(n * sizeof *groups) : NULL;
    if (groups)
        mpp_handlemap_each(&live, collect, &all);
    mpp_handlemap_free(&live);
    mpp_mt_give(&lock);
    size_t ngroups = groups ? mpp_tally(all.items, all.n, groups) : 0;
    for (size_t g = 0; g < ngroups; g++)
        report_group(&all.items[groups[g].first], groups[g].count);
    free(groups);
    free(all.items);
}
