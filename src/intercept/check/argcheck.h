/* The hooks of the checks of a call's arguments and buffers (MPIPROF_CHECK=full,
 * correctness.md: invalid-argument, sendrecv-overlap, overlapping-buffers;
 * with ,checksum also send-buffer-modified), as the generated wrappers
 * call them: gen_wrappers.py derives every call below from the parameters'
 * roles (their MPI names: count, datatype, dest, source, root, tag, comm,
 * op, request, status, the buffers of the @bytes formulas), never from a
 * list of functions.  Before the PMPI call:
 *
 *     mpp_chk_t mpp_chk;
 *     if (MPP_CHK_ON()) {
 *         mpp_chk_begin(&mpp_chk, &call, comm, 1);
 *         mpp_chk_count(&mpp_chk, "count", count);
 *         ... ranks, tags, handles, pointers, buffers ...
 *         mpp_chk_end(&mpp_chk, 0);
 *     }
 *
 * An invalid argument is written to standard error at once (the first at
 * each call site) and kept as a finding; the call then goes to MPI as it
 * is.  After the call (mpp_call_end ran): the requests it created, the
 * requests it completed, freed or started, the datatype handles it left.
 * Implemented in arguments.c (single arguments) and buffers.c (buffers,
 * requests); datatypes.h, the datatypes. */
#ifndef MPP_CHECK_ARGCHECK_H
#define MPP_CHECK_ARGCHECK_H

#include <mpi.h>
#include <stdint.h>

#include "attribute/thread_state.h"
#include "context/config.h"
#include "intercept/check/datatypes.h"
#include "intercept/wrapper_support.h"

/* MPIPROF_CHECK's bits (intercept/check/run.h; run.c includes this header,
 * so it is declared again here). */
extern int mpp_check_level;
/* full, or a checksum asked for: one predicted branch when off or basic. */
#define MPP_CHK_ON() MPP_UNLIKELY(mpp_check_level > MPP_CHECK_BASIC)

enum {
    MPP_CHK_WRITTEN = 1,  /* the call writes the buffer (a receive side) */
    MPP_CHK_INERT = 2,    /* its peer is MPI_PROC_NULL: no byte moves */
    MPP_CHK_NOLAYOUT = 4, /* displacements per process: its bytes are not count * datatype */
    MPP_CHK_TRACK = 8,    /* point-to-point, collective or I/O: its bytes count for the buffer checks */
};

/* Which processes a rooted collective's buffer matters at (mpp_chk_used). */
enum { MPP_CHK_ALL = 0, MPP_CHK_ROOT = 1, MPP_CHK_NONROOT = 2 };

/* What mpp_chk_handled does with the requests a call handled. */
enum { MPP_CHK_COMPLETE = 1, MPP_CHK_FREE = 2, MPP_CHK_START = 3 };

typedef struct {
    const void *addr;
    int64_t count; /* elements of type */
    MPI_Datatype type;
    const char *name; /* its parameter */
    unsigned flags;   /* MPP_CHK_* */
} mpp_chk_buffer_t;

typedef struct {
    mpp_call_t *call;
    MPI_Comm comm; /* MPI_COMM_NULL: none, or null */
    int64_t size;  /* processes of comm's group (the remote one of an intercommunicator); -1: not asked */
    int inter;
    int nbuf;
    mpp_chk_buffer_t buf[2];
    const char *counted; /* the count mpp_chk_count_of checked (NULL: none) */
} mpp_chk_t;

/* MPI_Init (collective over comm), MPI_Finalize (`finalize`), or the end
 * of a process that writes a partial protocol. */
void mpp_chk_start(MPI_Comm comm);
void mpp_chk_stop(int finalize);

/* --- before the PMPI call (arguments.c) --- */
/* `has_comm`: the function has a `comm` parameter, which must not be null
 * nor freed (a freed one is not asked MPI about: its error would reach the
 * program's error handler; k->comm is then MPI_COMM_NULL). */
void mpp_chk_begin(mpp_chk_t *k, mpp_call_t *c, MPI_Comm comm, int has_comm);
/* A call left a communicator handle where it points: `before` the call,
 * `after` it; `frees`: MPI_Comm_free, MPI_Comm_disconnect (the handle before
 * is freed), else the handle after is a live one. */
void mpp_chk_comm_out(MPI_Comm before, MPI_Comm after, int frees);
void mpp_chk_count(mpp_chk_t *k, const char *name, int64_t count);
/* The count of a buffer that matters here (none of MPI_IN_PLACE's), once
 * a call (MPI_Sendrecv_replace's count counts both of its sides). */
void mpp_chk_count_of(mpp_chk_t *k, const char *name, int64_t count, const void *buf);
/* dest (`receive` 0: MPI_PROC_NULL allowed) or source (also MPI_ANY_SOURCE). */
void mpp_chk_rank(mpp_chk_t *k, const char *name, int rank, int receive);
void mpp_chk_root(mpp_chk_t *k, int root);
/* A send's tag, or a receive's (also MPI_ANY_TAG). */
void mpp_chk_tag(mpp_chk_t *k, const char *name, int tag, int receive);
void mpp_chk_op(mpp_chk_t *k, MPI_Op op);
/* A datatype handle a constructor takes: not null, not freed. */
void mpp_chk_type(mpp_chk_t *k, const char *name, MPI_Datatype type);
/* A pointer that is NULL where MPI needs one (`is_null`). */
void mpp_chk_null(mpp_chk_t *k, const char *name, int is_null);
/* Whether a rooted collective's buffer matters here: `which` MPP_CHK_ALL,
 * _ROOT, _NONROOT, on an intercommunicator as MPI_ROOT and MPI_PROC_NULL say. */
int mpp_chk_used(MPI_Comm comm, int root, int which);
/* A buffer that matters at this process (the generator's conditions):
 * `count` elements of `type` from addr; MPI_IN_PLACE is none. */
void mpp_chk_buffer(mpp_chk_t *k, const char *name, const void *addr, int64_t count, const char *type_name,
                    MPI_Datatype type, unsigned flags);
/* The buffers together (buffers.c): the send and receive buffers of the
 * call overlap (sendrecv-overlap), or one meets a pending operation's
 * (overlapping-buffers; not for a persistent request's creation: at its
 * start). */
void mpp_chk_end(mpp_chk_t *k, int persistent);

/* --- after mpp_call_end (buffers.c) --- */
/* The call created `request` (successfully): its buffers are pending
 * from now (a persistent request's from each MPI_Start); `site` its return
 * address. */
void mpp_chk_created(mpp_chk_t *k, MPI_Request request, int persistent, void *site);
/* A wait, test, free or start handled these requests (`set` as
 * mpp_reqset_before saw them, `requests` as the call left them). */
void mpp_chk_handled(mpp_call_t *c, const mpp_reqset_t *set, const MPI_Request *requests, int n, int action);
/* The same, from a binding that does not tell which completed: every
 * handled request leaves. */
void mpp_chk_forget(const mpp_reqset_t *set);
/* A call that completes or frees requests, or handles datatypes or
 * communicators (`types`), went by unseen (not profiled: MPI_Pcontrol(0),
 * inside another MPI call). */
void mpp_chk_unseen(int requests, int types);
/* What is known of freed communicators is forgotten (arguments.c). */
void mpp_chk_comms_forget(void);

/* --- one-sided operations (buffers.c, for rma.c) --- */
/* The pending key of the origin buffers of the operations of window
 * `serial` (rma.c's numbering) to target `rank`: bit 63, which no
 * request's handle has. */
#define MPP_RMA_PENDING_KEY(serial, rank) ((1ull << 63) | ((uint64_t)(serial) << 31) | (uint64_t)(uint32_t)(rank))
/* Their epoch closed, or a flush: those buffers are free again. */
void mpp_chk_rma_release(uint64_t handle);
/* A one-sided operation to target `rank` of win succeeded (`request`: an
 * R-form's, else MPI_REQUEST_NULL): its origin buffers are pending until
 * its epoch closes, a flush to it, or its request completes (rma-conflict
 * when another call's buffer meets them).  Not on a window whose epochs
 * are not known. */
void mpp_chk_rma_issued(mpp_chk_t *k, MPI_Win win, int rank, MPI_Request request, void *site);
/* rma.c: the pending key of such an operation's buffers (`request`: its
 * handle, 0: none), 0 when they are not to be followed. */
uint64_t mpp_check_rma_pending(MPI_Win win, int rank, uint64_t request);

#endif
