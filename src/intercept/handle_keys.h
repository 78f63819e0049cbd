/* MPI handles as integer keys, whatever the MPI library makes them: MPICH's
 * are ints, Open MPI's pointers to its objects. */
#ifndef MPP_HANDLE_KEYS_H
#define MPP_HANDLE_KEYS_H

#include <mpi.h>
#include <stdint.h>

#include "attribute/requests.h"

/* A communicator's (or any handle's) key in a handlemap.h map: an int
 * handle's 32 bits (as MPICH's were always keyed), a pointer's address. */
#define MPP_HANDLE_KEY(h) (sizeof(h) <= 4 ? (uint64_t)(uint32_t)(uintptr_t)(h) : (uint64_t)(uintptr_t)(h))

/* A request's key in the request table (requests.h), MPP_REQUEST_HANDLE_BITS
 * wide so that a serial fits beside it (0: MPI_REQUEST_NULL, not tracked).
 * An int handle is its 32 bits; a pointer handle is its address divided by
 * 8 (objects are aligned), which fits in 44 bits while user space ends
 * below 2^47 (Linux x86-64, AArch64 with 48-bit addresses): a request
 * outside is not tracked, as a request of MPI_REQUEST_NULL. */
static inline uint64_t mpp_request_key(MPI_Request r)
{
    if (r == MPI_REQUEST_NULL)
        return 0;
#if MPP_REQUEST_HANDLE_BITS == 32
    _Static_assert(sizeof(MPI_Request) <= 4, "32-bit request keys are int handles");
    return (uint64_t)(uint32_t)r;
#else
    uintptr_t p = (uintptr_t)r;
    if ((p & 7) || (p >> (MPP_REQUEST_HANDLE_BITS + 3)))
        return 0;
    return (uint64_t)(p >> 3);
#endif
}

#endif
