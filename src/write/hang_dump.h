/* The hang dump's format (mpiprof-hang(1)): what the watchdog
 * (attribute/watchdog.c) writes of a stuck call. */
#ifndef MPP_HANG_DUMP_H
#define MPP_HANG_DUMP_H

#include <stdio.h>

#include "records/watch.h"

/* One stuck call, as the dump shows it. */
typedef struct {
    long tid;
    const char *function, *category;
    double entered, stuck_for; /* epoch seconds at entry; seconds inside when dumped */
    const mpp_watch_call_t *call;
    const char *const *frames; /* call->depth frame texts ("file:line (function)"), NULL-ended */
    int noutstanding;          /* outstanding requests of the process */
    int nlisted;               /* of which listed here */
    const struct mpp_watch_request *requests;
} mpp_hang_call_t;

typedef struct mpp_watch_request {
    uint64_t handle;
    const char *category;
    const char *op;         /* the MPI function that created it, "" when unknown */
    int persistent, waited; /* waited: the stuck call handles it */
    int has_peer;
    int32_t peer_world, tag;
} mpp_watch_request_t;

typedef struct {
    int rank, world_size, timeout, threads;
    long pid;
    const char *run, *host, *program;
    double written; /* epoch seconds */
} mpp_hang_header_t;

/* The file's header lines; one call's block from `call` on; its last lines
 * (`resumed` when the call has returned since, and `end`). */
void mpp_hang_write_header(FILE *f, const mpp_hang_header_t *h);
void mpp_hang_write_call(FILE *f, const mpp_hang_call_t *c);
void mpp_hang_write_end(FILE *f, int resumed, double resumed_at);

#endif
