/* Outstanding MPI requests: what created them, so that the wait, test or
 * start that handles a request is attributed to its category (SendRecv,
 * Collective, I/O, System) and a persistent request's bytes count at each
 * start; and, for Overlap (characteristics.md), when the operation was
 * started, how long the model says its transfer takes, and the cell of the
 * call site that started it.  Handles are stored as integers, so this
 * module needs no mpi.h.  The table grows with the number of outstanding
 * requests only; a lock is taken only when the program runs
 * MPI_THREAD_MULTIPLE or the hang watchdog is on. */
#ifndef MPP_REQUESTS_H
#define MPP_REQUESTS_H

#include <stdint.h>

#include "analyze/model.h"
#include "autoconf.h"
#include "records/origin.h"
#include "util/common.h"

/* Calls that handle requests key each as its handle's key (the low
 * MPP_REQUEST_HANDLE_BITS bits: 32 for MPICH's int handles, 44 for Open
 * MPI's pointers, handle_keys.h) with the request's serial above it; serials
 * wrap within the bits left (0 is none). */
#define MPP_REQUEST_HANDLE_MASK ((UINT64_C(1) << MPP_REQUEST_HANDLE_BITS) - 1)
#define MPP_REQUEST_SERIAL_MASK ((uint32_t)(UINT64_MAX >> MPP_REQUEST_HANDLE_BITS))

static inline uint64_t mpp_request_pack(uint64_t handle, uint32_t serial)
{
    return handle | (uint64_t)serial << MPP_REQUEST_HANDLE_BITS;
}

static inline uint64_t mpp_request_handle_of(uint64_t key) { return key & MPP_REQUEST_HANDLE_MASK; }
static inline uint32_t mpp_request_serial_of(uint64_t key) { return (uint32_t)(key >> MPP_REQUEST_HANDLE_BITS); }

typedef struct {
    uint64_t handle;
    uint8_t kind; /* mpp_category_t of the creating call */
    uint8_t persistent;
    uint32_t serial;                /* which request had the handle: MPI reuses handles, and under
                                       MPI_THREAD_MULTIPLE a new request can take a handle before
                                       the thread that completed the old one removes it */
    int64_t bytes_sent, bytes_recv; /* persistent: per start */
    double model;                   /* model time of its transfer, seconds at the parameters of MPI_Init (Overlap;
                                       persistent: per start) */
    mpp_call_price_t price;         /* a persistent request: its transfer's price (model.h), per start */
    /* With the hang watchdog on (mpp_request_describe): */
    uint8_t described;  /* the fields below are set */
    uint32_t fid;       /* the MPI function that created it */
    int32_t peer_world; /* partner's MPI_COMM_WORLD rank or an MPP_WATCH_* value */
    int32_t tag;
} mpp_request_info_t;

/* What the correctness checks keep of a request (intercept/check/requests.c),
 * beside its info, in a table of their own (mpp_requests_count_shared(1)):
 * without the checks a slot is as small as before, and mpp_request_find
 * copies as much. */
typedef struct {
    uint8_t persistent;
    uint8_t pending;       /* persistent: started, not completed since */
    uint8_t checked;       /* site_fid is set */
    uint8_t done;          /* MPI_Request_get_status found it complete (no wait or test completed it) */
    uint8_t site_depth;    /* the creating call's stack (0: not known) ... */
    uint32_t site_fid;     /* ... and function */
    uint32_t more;         /* other live requests with this handle (MPICH's completed sends share one) */
    const uintptr_t *site; /* [site_depth], a copy that never moves (its cell's, thread_state.h) */
} mpp_request_check_t;

/* `locking`: threads other than the caller's may use the table at once
 * (MPI_THREAD_MULTIPLE, or the hang watchdog listing it). */
void mpp_requests_init(int locking);
void mpp_requests_reset(void);
/* Ticks per second of mpp_now(), to turn model seconds into ticks (set once
 * at MPI_Init; 0: no transfer times, so no Overlap). */
void mpp_requests_set_tick_rate(double ticks_per_second);
/* Requests may complete in another thread than the one that started them
 * (MPI_THREAD_SERIALIZED and MULTIPLE): keep the frames of their origin. */
void mpp_requests_keep_frames(int on);
void mpp_request_add(uint64_t handle, int kind, int persistent, int64_t bytes_sent, int64_t bytes_recv);
/* The same, for Overlap: the model time of the transfer (and, persistent,
 * its price: NULL for none), and, unless the request is persistent
 * (started later by MPI_Start), the starting call's return (ticks) and
 * cell.  Returns the request's serial (0: not added). */
uint32_t mpp_request_add_started(uint64_t handle, int kind, int persistent, int64_t bytes_sent, int64_t bytes_recv,
                                 const mpp_call_price_t *price, double model, uint64_t returned,
                                 const mpp_request_origin_t *origin);
/* 1 and *out filled when the handle is tracked. */
int mpp_request_find(uint64_t handle, mpp_request_info_t *out);
/* A persistent request was started (MPI_Start's return, its cell). */
void mpp_request_started(uint64_t handle, uint64_t returned, const mpp_request_origin_t *origin);
/* A call of thread `self` that handles the request (instance `serial`)
 * was entered at `entry` (ticks).  `gone`: MPI set the handle to
 * MPI_REQUEST_NULL, the request completed and is removed; otherwise only a
 * persistent request counts as completed (its handle stays, inactive until
 * started again: the first wait or test after MPI_Start is taken as its
 * completion).  *kind (when kind is not NULL) is the request's category
 * when it counts as completed, -1 otherwise.  If the request was started
 * and not completed since, fill *origin (its frames only if another thread
 * started it) and *overlap and return 1.  Its Overlap window is
 * [start's return, + min(entry - start's return, transfer time)); requests
 * in flight at once share the process's time: *overlap is the part of the
 * window no request completed before covered (cover.h). */
int mpp_request_complete(uint64_t handle, uint32_t serial, uint64_t entry, int gone, const void *self,
                         mpp_request_origin_t *origin, uint64_t *overlap, int *kind);
void mpp_request_remove(uint64_t handle);
/* Remove the handle only while it is still the request with that serial. */
void mpp_request_remove_instance(uint64_t handle, uint32_t serial);
uint64_t mpp_requests_outstanding(void);
/* The correctness checks count every live request (mpp_requests_count_shared(1)):
 * a request whose site is set (mpp_request_set_site, for each new request)
 * on the handle of a live one adds to its `more` (outside
 * MPI_THREAD_MULTIPLE, where that may as well be a handle MPI took back),
 * and a completion or free of the handle takes one off before the slot.
 * Off (the default): the new request replaces the old. */
void mpp_requests_count_shared(int on);
/* The check fields below are kept only while it is on: the setters do
 * nothing, the finders find nothing otherwise. */
/* The correctness checks: where the request (handle, serial) was created
 * (its function, and its call stack when frames is not NULL, kept by the
 * caller for the run);
 * whether a persistent one is active (started, not completed since). */
void mpp_request_set_site(uint64_t handle, uint32_t serial, uint32_t fid, const uintptr_t *frames, int depth);
void mpp_request_set_pending(uint64_t handle, uint32_t serial, int pending);
/* ... and that its operation is known complete (MPI_Request_get_status). */
void mpp_request_set_done(uint64_t handle, uint32_t serial);
/* 1 and *out filled when the request (handle, serial) is tracked. */
int mpp_request_check_find(uint64_t handle, uint32_t serial, mpp_request_check_t *out);
/* A copy of up to `max` outstanding requests' check fields; the number of them. */
size_t mpp_requests_check_list(mpp_request_check_t *out, size_t max);
/* For hang dumps (the watchdog on only): what created a request and its
 * partner; and a copy of up to `max` outstanding requests, the number of
 * them returned.  The watchdog thread lists them while MPI threads run, so
 * mpp_requests_init takes the lock whenever the watchdog is on. */
void mpp_request_describe(uint64_t handle, uint32_t fid, int32_t peer_world, int32_t tag);
size_t mpp_requests_list(mpp_request_info_t *out, size_t max);

#endif
