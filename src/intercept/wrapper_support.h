/* What generated wrappers call besides PMPI: byte counts from MPI arguments
 * and request tracking.  The only MPI-aware glue between the wrappers and
 * the attribute/accumulate stages. */
#ifndef MPP_WRAPPER_SUPPORT_H
#define MPP_WRAPPER_SUPPORT_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "analyze/model.h"
#include "attribute/requests.h"
#include "attribute/thread_state.h"
#include "gen/function_table.h"
#include "gen/mpi_declared.h"
#include "intercept/handle_keys.h"
#include "intercept/watch_support.h"
#include "intercept/world.h"
#include "util/common.h"

/* A choice buffer whose bytes cannot be read here (no checksum of them). */
extern const char mpp_no_buffer[1];
#define MPP_NO_BUFFER ((void *)mpp_no_buffer)

/* A datatype's size in bytes; -1 when MPI does not know it
 * (MPI_DATATYPE_NULL, a freed handle). */
static inline int64_t mpp_type_size_known(MPI_Datatype type)
{
#if defined(MPICH_VERSION)
    /* MPICH encodes a builtin datatype's size in its handle: kind builtin
     * (0x4), object datatype (0xc), size in bits 8-15 (MPIR_Datatype_get_basic_size). */
    if (((unsigned)type & 0xfc000000u) == 0x4c000000u)
        return ((unsigned)type >> 8) & 0xff;
#endif
    MPI_Count size = 0;
#if defined(MPP_HAVE_MPI_Type_size_c)
    if (type == MPI_DATATYPE_NULL || PMPI_Type_size_c(type, &size) != MPI_SUCCESS || size == MPI_UNDEFINED)
#else /* MPI-3 (Open MPI 4.1) */
    if (type == MPI_DATATYPE_NULL || PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size == MPI_UNDEFINED)
#endif
        return -1;
    return (int64_t)size;
}

/* ... for byte counts: 0 when not known. */
static inline int64_t mpp_type_bytes(MPI_Datatype type)
{
    int64_t size = mpp_type_size_known(type);
    return size < 0 ? 0 : size;
}

/* The bytes a status says were received; -1 when not known. */
static inline int64_t mpp_status_bytes(const MPI_Status *st)
{
#if defined(MPICH_VERSION)
    /* MPICH keeps them in the status (MPIR_STATUS_GET_COUNT) */
    return (int64_t)(((uint64_t)(unsigned)(st->count_hi_and_cancelled >> 1) << (8 * sizeof(int))) +
                     (uint64_t)(unsigned)st->count_lo);
#elif defined(MPP_HAVE_MPI_Get_count_c)
    MPI_Count got = 0;
    return PMPI_Get_count_c(st, MPI_BYTE, &got) == MPI_SUCCESS && got != MPI_UNDEFINED ? (int64_t)got : -1;
#else
    int got = 0;
    return PMPI_Get_count(st, MPI_BYTE, &got) == MPI_SUCCESS && got != MPI_UNDEFINED ? (int64_t)got : -1;
#endif
}

/* Size of the world (world.h), set at the profile's start: most
 * collectives use MPI_COMM_WORLD, and asking MPI costs two calls each time. */
extern int64_t mpp_world_size;
int64_t mpp_comm_size_slow(MPI_Comm comm);

/* Remote size for intercommunicators. */
static inline int64_t mpp_comm_size(MPI_Comm comm)
{
    if (comm == mpp_world() && mpp_world_size > 0)
        return mpp_world_size;
    return mpp_comm_size_slow(comm);
}
int64_t mpp_comm_rank(MPI_Comm comm);
int64_t mpp_comm_degree(MPI_Comm comm, int out); /* neighbours of a topology */
int mpp_is_root(MPI_Comm comm, int root);
int mpp_is_nonroot(MPI_Comm comm, int root);
int64_t mpp_sum_counts(const int counts[], int64_t n);
int64_t mpp_sum_counts_c(const MPI_Count counts[], int64_t n);
int64_t mpp_sum_counts_types(const int counts[], const MPI_Datatype types[], int64_t n);
int64_t mpp_sum_counts_types_c(const MPI_Count counts[], const MPI_Datatype types[], int64_t n);

/* --- the communication model at run time (model.h) ---
 * Set at MPI_Init from the calibration (src/reduce/calibrate.c); the
 * generated wrappers price every call of a modelled operation with
 * mpp_model_call_price when prediction is on (seconds at MPI_Finalize,
 * from the final parameters); mpp_model_runtime's parameters, MPI_Init's,
 * give the transfer times of Overlap while the program runs. */
extern int mpp_model_on;
extern mpp_model_t mpp_model_runtime;
extern int mpp_model_nodes; /* distinct nodes; 1: every message is intra-node */

/* A request a call created: a non-persistent one keeps its bytes and model
 * time on the creating call; a persistent one counts them at every
 * MPI_Start.  mpp_call_end adds it to the request table with the call's
 * return and cell (Overlap). */
static inline void mpp_request_created(mpp_call_t *c, MPI_Request r, int kind, int persistent)
{
    c->new_request = mpp_request_key(r);
    c->new_kind = kind;
    c->new_persistent = persistent;
    c->new_sent = c->bytes_sent;
    c->new_recv = c->bytes_recv;
    c->new_price = c->model;
    c->new_model = mpp_model_on ? mpp_model_call_seconds(&mpp_model_runtime, &c->model) : 0.0;
    if (persistent) {
        c->bytes_sent = c->bytes_recv = 0;
        c->model = (mpp_call_price_t){0};
    }
}

/* Requests a wait/test/start/cancel/free handles, remembered before the call
 * because completion sets them to MPI_REQUEST_NULL.  Each entry is the
 * handle's key and the serial of the tracked request (mpp_request_pack,
 * requests.h), 0 when the handle is not tracked. */
typedef struct {
    uint64_t inline_keys[8];
    uint64_t *keys;
    int n;
    int persistent; /* some of them are persistent (their handles stay after completion) */
} mpp_reqset_t;

void mpp_reqset_before(mpp_call_t *c, mpp_reqset_t *set, const MPI_Request *requests, int n, int start);

/* Requests that became MPI_REQUEST_NULL are done: stop tracking them (unless
 * another thread's new request already has the handle).  For a call that
 * completes requests (`complete`: waits, tests), a request done, or a
 * persistent one handled, adds its Overlap at the call's entry; and the
 * call's time is split over the kinds of the requests it completed (those
 * it handled, when it completed none), so that the SendRecv part of a wait
 * completing a receive and collectives is the receive's share. */
static inline void mpp_reqset_after(mpp_call_t *c, mpp_reqset_t *set, const MPI_Request *requests, int n,
                                    int complete)
{
    uint32_t completed[MPP_NCAT] = {0};
    int any = 0;
    for (int i = 0; i < set->n && i < n; i++) {
        if (!set->keys[i])
            continue;
        int gone = requests[i] == MPI_REQUEST_NULL;
        if (complete && (gone || set->persistent)) {
            int kind = mpp_call_request_done(c, set->keys[i], gone);
            if (kind >= 0 && kind < MPP_NCAT) {
                completed[kind]++;
                any = 1;
            }
        } else if (gone) {
            mpp_request_remove_instance(mpp_request_handle_of(set->keys[i]), mpp_request_serial_of(set->keys[i]));
        }
    }
    if (any) {
        c->by_kind_mask = 0;
        for (int k = 0; k < MPP_NCAT; k++) {
            c->by_kind[k] = completed[k];
            c->by_kind_mask |= (unsigned)(completed[k] != 0) << k;
        }
    }
}

void mpp_model_runtime_start(const mpp_model_t *model, int nodes, const unsigned char *same_node, int world_size);
void mpp_model_runtime_stop(void);
int mpp_model_link_slow(MPI_Comm comm, int rank);

/* The link of a message to `rank` of comm (MPP_LINK_NONE for
 * MPI_PROC_NULL).  MPI_ANY_SOURCE: inter-node when comm spans nodes. */
static inline int mpp_model_link(MPI_Comm comm, int rank)
{
    if (rank == MPI_PROC_NULL)
        return MPP_LINK_NONE;
    if (MPP_LIKELY(mpp_model_nodes <= 1))
        return MPP_LINK_INTRA;
    return mpp_model_link_slow(comm, rank);
}

/* Sendrecv: the slower of its two partners. */
static inline int mpp_model_link2(MPI_Comm comm, int dest, int source)
{
    int a = mpp_model_link(comm, dest), b = mpp_model_link(comm, source);
    return a > b ? a : b;
}

/* A collective: inter-node when the communicator spans nodes. */
static inline int mpp_model_link_comm(MPI_Comm comm)
{
    if (MPP_LIKELY(mpp_model_nodes <= 1))
        return MPP_LINK_INTRA;
    return mpp_model_link_slow(comm, MPI_ANY_SOURCE);
}

/* A message whose partner's node is not known here (RMA on a window,
 * matched receives): inter-node when the run spans nodes. */
static inline int mpp_model_link_unknown(void) { return mpp_model_nodes > 1 ? MPP_LINK_INTER : MPP_LINK_INTRA; }

/* --- Fortran entry points (f08_wrappers.c) ---
 * MPICH's mpi_f08 ones (mpi_send_f08ts_: MPP_F08_WRAPPERS), or Open MPI's
 * mpif.h and mpi_f08 ones (mpi_send_, mpi_send_f08_: MPP_OMPI_FORTRAN). */
#if defined(MPICH_VERSION)
#define MPP_F08_WRAPPERS 1
#else
#define MPP_F08_WRAPPERS 0
#endif
#if defined(OMPI_MAJOR_VERSION)
#define MPP_OMPI_FORTRAN 1
#else
#define MPP_OMPI_FORTRAN 0
#endif

#if MPP_F08_WRAPPERS || MPP_OMPI_FORTRAN
/* A Fortran entry point was called but MPI's Fortran library, which does
 * the work, is not loaded: say so and abort (there is no way to go on). */
void mpp_f08_missing(const char *entry, const char *target) __attribute__((noreturn));

/* The optional ierror argument says whether the call succeeded. */
static inline int mpp_f08_ok(const void *ierror) { return !ierror || *(const int *)ierror == MPI_SUCCESS; }
/* ... and its error code (MPI_SUCCESS when the program passed none). */
static inline int mpp_f08_error(const void *ierror) { return ierror ? *(const int *)ierror : MPI_SUCCESS; }

/* The first n of the indexes a Fortran MPI_Waitany/Testany/Waitsome/
 * Testsome returned, counted from base, as C's, in a buffer of the
 * thread's; NULL when it cannot grow. */
const int *mpp_f08_indices(const void *indices, int n, int base);
#endif

#if MPP_OMPI_FORTRAN
/* Open MPI's Fortran MPI_IN_PLACE: its common block (defined by the
 * Fortran libraries, so referenced weakly). */
extern int mpi_fortran_in_place_ __attribute__((weak));
static inline int mpp_ompi_f_in_place(const void *buf) { return buf && buf == (const void *)&mpi_fortran_in_place_; }

/* Open MPI copies a C status into a Fortran one integer by integer
 * (MPI_Status_c2f): the wrappers read Fortran statuses as C's. */
_Static_assert(sizeof(MPI_Fint) == sizeof(int) && sizeof(MPI_Status) % sizeof(MPI_Fint) == 0,
               "the Fortran wrappers read INTEGER statuses as MPI_Status");
static inline const MPI_Status *mpp_ompi_f_statuses(const void *statuses)
{
    return statuses == (const void *)MPI_F_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : (const MPI_Status *)statuses;
}

/* n Fortran request handles as C's (Open MPI's are indexes into its table,
 * its C handles pointers), in a buffer of the thread's that grows with the
 * largest n (warm-up only); NULL when it cannot. */
const MPI_Request *mpp_ompi_f_requests(const void *requests, int n);

/* Alltoallw's bytes: counts times the sizes of types given as Fortran handles. */
int64_t mpp_sum_counts_types_f(const int counts[], const MPI_Fint types[], int64_t n);
#endif

#if MPP_F08_WRAPPERS
/* MPICH's f08 handles are MPI_Fint, the same integers as its C handles, so
 * arrays of them are read as C handle arrays. */
_Static_assert(sizeof(MPI_Fint) == sizeof(MPI_Datatype) && sizeof(MPI_Fint) == sizeof(MPI_Request),
               "the f08 wrappers read Fortran handle arrays as C handle arrays");

/* MPI_IN_PLACE of mpi_f08: a choice buffer (Fortran descriptor) whose base
 * address is MPICH's in-place object (declared in mpi.h; defined by the
 * Fortran library, so referenced weakly). */
#pragma weak MPIR_F08_MPI_IN_PLACE
static inline int mpp_f08_in_place(const void *descriptor)
{
    return descriptor && *(void *const *)descriptor == (void *)&MPIR_F08_MPI_IN_PLACE;
}

/* An mpi_f08 TYPE(MPI_Status) is MPICH's MPI_F08_status, laid out as its
 * MPI_Status: the wrappers read the bindings' statuses as C's, and give a
 * binding an MPI_Status of theirs where the program passes
 * MPI_STATUS_IGNORE (no MPI_Status_f082c copy either way). */
#define MPP_SAME_FIELD(f) (offsetof(MPI_F08_status, f) == offsetof(MPI_Status, f))
_Static_assert(sizeof(MPI_F08_status) == sizeof(MPI_Status) && MPP_SAME_FIELD(count_lo) &&
                   MPP_SAME_FIELD(count_hi_and_cancelled) && MPP_SAME_FIELD(MPI_SOURCE) && MPP_SAME_FIELD(MPI_TAG) &&
                   MPP_SAME_FIELD(MPI_ERROR),
               "the f08 wrappers read TYPE(MPI_Status) as MPI_Status");
#undef MPP_SAME_FIELD

/* The statuses of an mpi_f08 completion as C's: MPI_STATUSES_IGNORE for
 * its own ignore object. */
static inline const MPI_Status *mpp_f08_statuses(const void *statuses)
{
    return statuses == MPI_F08_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : (const MPI_Status *)statuses;
}

/* Where the indexes an mpi_f08 MPI_Waitany/Testany/Waitsome/Testsome
 * returns begin: Fortran counts from 1, but MPICH 4.0's bindings return
 * C's indexes.  The loaded binding is asked once, by the first such call
 * with the wait-state analysis on, before its PMPI call: inside a
 * profiled call, so that MPI calls the binding makes pass through. */
int mpp_f08_index_base(void);
#endif /* MPP_F08_WRAPPERS */

#endif
