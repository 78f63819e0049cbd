/* What generated wrappers call besides PMPI: byte counts from MPI arguments
 * and request tracking.  The only MPI-aware glue between the wrappers and
 * the attribute/accumulate stages. */
#ifndef MPP_WRAPPER_SUPPORT_H
#define MPP_WRAPPER_SUPPORT_H

#include <mpi.h>
#include <stdint.h>

#include "function_table.h"
#include "mpp_common.h"
#include "requests.h"
#include "thread_state.h"

static inline int64_t mpp_type_bytes(MPI_Datatype type)
{
#if defined(MPICH_VERSION)
    /* MPICH encodes a builtin datatype's size in its handle: kind builtin
     * (0x4), object datatype (0xc), size in bits 8-15 (MPIR_Datatype_get_basic_size). */
    if (((unsigned)type & 0xfc000000u) == 0x4c000000u)
        return ((unsigned)type >> 8) & 0xff;
#endif
    MPI_Count size = 0;
    if (type == MPI_DATATYPE_NULL || PMPI_Type_size_c(type, &size) != MPI_SUCCESS)
        return 0;
    return (int64_t)size;
}

int64_t mpp_comm_size(MPI_Comm comm);     /* remote size for intercommunicators */
int64_t mpp_comm_rank(MPI_Comm comm);
int64_t mpp_comm_degree(MPI_Comm comm, int out); /* neighbours of a topology */
int mpp_is_root(MPI_Comm comm, int root);
int mpp_is_nonroot(MPI_Comm comm, int root);
int64_t mpp_sum_counts(const int counts[], int64_t n);
int64_t mpp_sum_counts_c(const MPI_Count counts[], int64_t n);
int64_t mpp_sum_counts_types(const int counts[], const MPI_Datatype types[], int64_t n);
int64_t mpp_sum_counts_types_c(const MPI_Count counts[], const MPI_Datatype types[], int64_t n);

static inline uint64_t mpp_request_key(MPI_Request r)
{
    return r == MPI_REQUEST_NULL ? 0 : (uint64_t)(uint32_t)r;
}

/* A request a call created: a non-persistent one keeps its bytes on the
 * creating call; a persistent one counts them at every MPI_Start. */
static inline void mpp_request_created(mpp_call_t *c, MPI_Request r, int kind, int persistent)
{
    mpp_request_add(mpp_request_key(r), kind, persistent, c->bytes_sent, c->bytes_recv);
    if (persistent)
        c->bytes_sent = c->bytes_recv = 0;
}

/* Requests a wait/test/start/cancel/free handles, remembered before the call
 * because completion sets them to MPI_REQUEST_NULL. */
typedef struct {
    uint64_t inline_keys[8];
    uint64_t *keys;
    int n;
} mpp_reqset_t;

void mpp_reqset_before(mpp_call_t *c, mpp_reqset_t *set, const MPI_Request *requests, int n, int start);

/* Requests that became MPI_REQUEST_NULL are done: stop tracking them. */
static inline void mpp_reqset_after(mpp_reqset_t *set, const MPI_Request *requests, int n)
{
    for (int i = 0; i < set->n && i < n; i++)
        if (set->keys[i] && requests[i] == MPI_REQUEST_NULL)
            mpp_request_remove(set->keys[i]);
}

/* --- mpi_f08 entry points ---
 * MPICH's f08 handles are MPI_Fint, the same integers as its C handles, so
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

/* An mpi_f08 entry point was called but MPI's Fortran library, which does
 * the work, is not loaded: say so and abort (there is no way to go on). */
void mpp_f08_missing(const char *entry, const char *target) __attribute__((noreturn));

/* The optional ierror argument says whether the call succeeded. */
static inline int mpp_f08_ok(const void *ierror)
{
    return !ierror || *(const int *)ierror == MPI_SUCCESS;
}

#endif
