#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "intercept/check/argcheck.h"
#include "intercept/check/buffers.h"
#include "intercept/check/run.h"
#include "intercept/world.h"
#include "util/handlemap.h"
#include "util/mt_lock.h"

/* Call sites written to standard error at most (their findings are all kept);
 * freed communicators kept at most (past it they are forgotten). */
#define MAX_TOLD 4096
#define MAX_FREED 4096

static int tag_ub = INT_MAX;
static int full;              /* MPIPROF_CHECK=full: else only the buffers, for checksums */
static mpp_handlemap_t told;  /* call sites whose invalid argument stderr has seen */
static mpp_handlemap_t freed; /* communicators the program freed (and MPI has not given out since) */
static int started;
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;

void mpp_chk_start(MPI_Comm comm)
{
    int provided = MPI_THREAD_MULTIPLE, flag = 0; /* sessions alone: no MPI_Query_thread, locks taken */
    void *ub = NULL;
    if (mpp_world_model())
        PMPI_Query_thread(&provided);
    lock.on = provided == MPI_THREAD_MULTIPLE;
    full = (mpp_check_level & MPP_CHECK_LEVEL) >= MPP_CHECK_FULL;
    /* unknown: no tag is too large (a smaller bound than MPI's would make findings of good tags) */
    tag_ub = INT_MAX;
    if (PMPI_Comm_get_attr(comm, MPI_TAG_UB, &ub, &flag) == MPI_SUCCESS && flag && ub)
        tag_ub = *(int *)ub;
    mpp_handlemap_init(&told, 1);
    mpp_handlemap_init(&freed, 1);
    mpp_chk_types_start(comm, lock.on);
    mpp_chk_buffers_start(lock.on);
    started = 1;
}

void mpp_chk_stop(int finalize)
{
    if (!started || !finalize)
        return;
    started = 0;
    mpp_chk_buffers_stop();
    mpp_chk_types_end();
    mpp_mt_take(&lock);
    mpp_handlemap_free(&told);
    mpp_handlemap_free(&freed);
    mpp_mt_give(&lock);
}

void mpp_chk_comm_out(MPI_Comm before, MPI_Comm after, int frees)
{
    mpp_mt_take(&lock);
    if (started && frees && before != MPI_COMM_NULL) {
        if (freed.count >= MAX_FREED) {
            mpp_handlemap_free(&freed);
            mpp_handlemap_init(&freed, 1);
        }
        int inserted;
        (void)mpp_handlemap_put(&freed, MPP_HANDLE_KEY(before), &inserted);
    } else if (started && !frees && after != MPI_COMM_NULL) {
        mpp_handlemap_remove(&freed, MPP_HANDLE_KEY(after), NULL);
    }
    mpp_mt_give(&lock);
}

void mpp_chk_comms_forget(void)
{
    mpp_mt_take(&lock);
    if (started) {
        mpp_handlemap_free(&freed);
        mpp_handlemap_init(&freed, 1);
    }
    mpp_mt_give(&lock);
}

static int comm_freed(MPI_Comm comm)
{
    mpp_mt_take(&lock);
    int was = started && freed.count && mpp_handlemap_get(&freed, MPP_HANDLE_KEY(comm)) != NULL;
    mpp_mt_give(&lock);
    return was;
}

/* One invalid argument of the call: on standard error the first time at
 * its call site (MPI may abort on it next), a finding every time. */
static void __attribute__((format(printf, 2, 3))) invalid(mpp_chk_t *k, const char *fmt, ...)
{
    if (!full)
        return;
    char detail[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    void **frame = k->call->frame; /* the wrapper's: its return address above it */
    uint64_t site = frame ? (uint64_t)(uintptr_t)frame[1] : 0;
    int first = 0;
    mpp_mt_take(&lock);
    if (started && told.count < MAX_TOLD)
        (void)mpp_handlemap_put(&told, site, &first);
    mpp_mt_give(&lock);
    if (first)
        mpp_check_report_now(k->call, MPP_FIND_INVALID_ARGUMENT, "%s", detail);
    else
        mpp_check_report(k->call, MPP_FIND_INVALID_ARGUMENT, -1, 0, 0, "%s", detail);
    mpp_check_note_invalid(k->call);
}

void mpp_chk_begin(mpp_chk_t *k, mpp_call_t *c, MPI_Comm comm, int has_comm)
{
    c->cell = NULL; /* a finding before mpp_call_end: the stack from the wrapper's frame */
    k->call = c;
    k->comm = comm;
    k->size = -1;
    k->inter = 0;
    k->nbuf = 0;
    k->counted = NULL;
    if (has_comm && comm == MPI_COMM_NULL) {
        invalid(k, "comm is MPI_COMM_NULL");
    } else if (has_comm && comm_freed(comm)) {
        k->comm = MPI_COMM_NULL;
        invalid(k, "comm was freed");
    }
}

/* The size of the group ranks name (the remote group of an
 * intercommunicator); -1 without a communicator. */
static int64_t group_size(mpp_chk_t *k)
{
    if (k->size < 0 && k->comm != MPI_COMM_NULL) {
        int inter = 0, size = -1;
        PMPI_Comm_test_inter(k->comm, &inter);
        if ((inter ? PMPI_Comm_remote_size(k->comm, &size) : PMPI_Comm_size(k->comm, &size)) == MPI_SUCCESS) {
            k->size = size;
            k->inter = inter;
        }
    }
    return k->size;
}

void mpp_chk_count(mpp_chk_t *k, const char *name, int64_t count)
{
    if (count < 0)
        invalid(k, "%s %lld is negative", name, (long long)count);
}

void mpp_chk_count_of(mpp_chk_t *k, const char *name, int64_t count, const void *buf)
{
    if (buf == MPI_IN_PLACE || (k->counted && !strcmp(k->counted, name)))
        return;
    k->counted = name;
    mpp_chk_count(k, name, count);
}

static const char *group_words(const mpp_chk_t *k) { return k->inter ? "the remote group" : "the communicator"; }

void mpp_chk_rank(mpp_chk_t *k, const char *name, int rank, int receive)
{
    int64_t size = group_size(k);
    if (size < 0 || rank == MPI_PROC_NULL || (receive && rank == MPI_ANY_SOURCE) || (rank >= 0 && rank < size))
        return;
    invalid(k, "%s %d%s is not a rank of %s (%lld processes)", name, rank,
            rank == MPI_UNDEFINED ? " (MPI_UNDEFINED)" : "", group_words(k), (long long)size);
}

void mpp_chk_root(mpp_chk_t *k, int root)
{
    int64_t size = group_size(k);
    if (size < 0 || (root >= 0 && root < size) || (k->inter && (root == MPI_ROOT || root == MPI_PROC_NULL)))
        return;
    invalid(k, "root %d is not a rank of %s (%lld processes)%s", root, group_words(k), (long long)size,
            k->inter ? ", MPI_ROOT or MPI_PROC_NULL" : "");
}

void mpp_chk_tag(mpp_chk_t *k, const char *name, int tag, int receive)
{
    if ((receive && tag == MPI_ANY_TAG) || (tag >= 0 && tag <= tag_ub))
        return;
    invalid(k, "%s %d is not a valid tag (0 to MPI_TAG_UB %d%s)", name, tag, tag_ub,
            receive ? ", or MPI_ANY_TAG" : "");
}

void mpp_chk_op(mpp_chk_t *k, MPI_Op op)
{
    if (op == MPI_OP_NULL)
        invalid(k, "op is MPI_OP_NULL");
}

void mpp_chk_type(mpp_chk_t *k, const char *name, MPI_Datatype type)
{
    if (type == MPI_DATATYPE_NULL)
        invalid(k, "%s is MPI_DATATYPE_NULL", name);
    else if (mpp_chk_type_freed(type))
        invalid(k, "%s was freed", name);
}

void mpp_chk_null(mpp_chk_t *k, const char *name, int is_null)
{
    if (is_null)
        invalid(k, "%s is NULL", name);
}

int mpp_chk_used(MPI_Comm comm, int root, int which)
{
    int inter = 0, rank = -1;
    if (comm == MPI_COMM_NULL || PMPI_Comm_test_inter(comm, &inter) != MPI_SUCCESS)
        return 0;
    if (inter) /* the root's group: MPI_ROOT and MPI_PROC_NULL; the other: the root's rank */
        return root == MPI_PROC_NULL ? 0 : root == MPI_ROOT ? which == MPP_CHK_ROOT : which != MPP_CHK_ROOT;
    if (which == MPP_CHK_ALL)
        return 1;
    PMPI_Comm_rank(comm, &rank);
    return (rank == root) == (which == MPP_CHK_ROOT);
}

void mpp_chk_buffer(mpp_chk_t *k, const char *name, const void *addr, int64_t count, const char *type_name,
                    MPI_Datatype type, unsigned flags)
{
    if (addr == MPI_IN_PLACE || count <= 0)
        return;
    const char *problem = mpp_chk_type_problem(type);
    if (problem) {
        invalid(k, "%s %s", type_name, problem);
        return;
    }
    int64_t first;
    /* NULL is MPI_BOTTOM: legal when the datatype's bytes are at absolute
     * addresses; not when they begin within the first page */
    if (!addr && !(flags & (MPP_CHK_INERT | MPP_CHK_NOLAYOUT)) && mpp_chk_type_first_byte(type, &first) &&
        first >= 0 && first < 4096) {
        invalid(k, "%s is NULL, with %lld elements", name, (long long)count);
        return;
    }
    if ((flags & MPP_CHK_TRACK) && !(flags & (MPP_CHK_INERT | MPP_CHK_NOLAYOUT)) && k->nbuf < 2)
        k->buf[k->nbuf++] = (mpp_chk_buffer_t){addr, count, type, name, flags};
}
