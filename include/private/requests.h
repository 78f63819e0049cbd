/* Outstanding MPI requests: what created them, so that the wait, test or
 * start that handles a request is attributed to its category (SendRecv,
 * Collective, I/O, System) and a persistent request's bytes count at each
 * start.  Handles are stored as integers, so this module needs no mpi.h.
 * The table grows with the number of outstanding requests only; a lock is
 * taken only when the program runs MPI_THREAD_MULTIPLE. */
#ifndef MPP_REQUESTS_H
#define MPP_REQUESTS_H

#include <stdint.h>

typedef struct {
    uint64_t handle;
    uint8_t kind;       /* mpp_category_t of the creating call */
    uint8_t persistent;
    int64_t bytes_sent, bytes_recv; /* persistent: per start */
} mpp_request_info_t;

void mpp_requests_init(int thread_multiple);
void mpp_requests_reset(void);
void mpp_request_add(uint64_t handle, int kind, int persistent, int64_t bytes_sent, int64_t bytes_recv);
/* 1 and *out filled when the handle is tracked. */
int mpp_request_find(uint64_t handle, mpp_request_info_t *out);
void mpp_request_remove(uint64_t handle);
uint64_t mpp_requests_outstanding(void);

#endif
