/* What the hang watchdog knows of a thread (attribute/watchdog.c): the
 * arguments of its current call, recorded by the wrapper at entry with the
 * watchdog on (intercept/watch_support.c), and the watchdog's own
 * bookkeeping; a dump of a stuck call shows them (write/hang_dump.c). */
#ifndef MPP_RECORDS_WATCH_H
#define MPP_RECORDS_WATCH_H

#include <stdatomic.h>
#include <stdint.h>

#include "util/common.h"

/* A rank argument as given (rank in its communicator) and the
 * MPI_COMM_WORLD rank of that process.  `rank` is one of the MPP_WATCH_*
 * values when it is not a plain rank. */
enum {
    MPP_WATCH_NONE = -1000000, /* the call has no such argument */
    MPP_WATCH_ANY,             /* MPI_ANY_SOURCE */
    MPP_WATCH_PROC_NULL,       /* MPI_PROC_NULL */
    MPP_WATCH_ROOT,            /* MPI_ROOT (intercommunicator root group) */
    MPP_WATCH_UNKNOWN          /* world rank not known */
};

typedef struct {
    int32_t rank, world;
} mpp_watch_peer_t;

/* What every member of a communicator agrees on: its size (both groups of
 * an intercommunicator), and its members' MPI_COMM_WORLD ranks, sorted, as
 * a hash and, up to MPP_WATCH_MEMBERS_TEXT characters, as ranges "0-3,8". */
#define MPP_WATCH_MEMBERS_TEXT 1024
typedef struct {
    int size;
    int inter;
    uint64_t id;                          /* FNV-1a of the sorted world ranks */
    char members[MPP_WATCH_MEMBERS_TEXT]; /* "": too many ranges to list */
} mpp_watch_comm_t;

/* Requests the call handles (waits, tests), by key as in mpp_reqset_t. */
#define MPP_WATCH_REQUESTS 64

/* The arguments of the current call that a dump shows, written by the
 * calling thread before the PMPI call (seqlock: `serial` is 0 while it is
 * written, then the thread's `entered` count of that call). */
typedef struct {
    _Atomic uint64_t serial;
    uint32_t fid;
    uint64_t t0; /* ticks at entry */
    mpp_watch_peer_t dest, source, root;
    int32_t tag, sendtag;         /* MPP_WATCH_NONE when absent; -1 MPI_ANY_TAG */
    int64_t count;                /* -1 when absent */
    const mpp_watch_comm_t *comm; /* NULL: no communicator argument */
    int depth;
    uintptr_t frames[MPP_MAX_DEPTH];
    int nrequests; /* handled: may exceed MPP_WATCH_REQUESTS */
    uint64_t requests[MPP_WATCH_REQUESTS];
} mpp_watch_call_t;

/* The watchdog's own bookkeeping of one thread (only its thread touches it). */
typedef struct {
    uint64_t dumped;                         /* serial of the call last dumped (0: none) */
    int resumed;                             /* that call has returned since */
    double dumped_at, resumed_at, stuck_for; /* epoch seconds; seconds inside when dumped */
    char *block;                             /* its part of the dump file, kept for rewrites */
} mpp_watch_dog_t;

typedef struct {
    mpp_watch_call_t call;
    mpp_watch_dog_t dog;
} mpp_watch_t;

#endif
