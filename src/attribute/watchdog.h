/* The hang watchdog (MPIPROF_HANG_TIMEOUT; mpiprof(7), HANGS).  A thread of
 * the profiler wakes a few times per timeout and looks at every thread's
 * two call counters (thread_state.h): a thread inside the same MPI call for
 * longer than the timeout gets its state written to <protocol>.hang.<rank>
 * (format: mpiprof-hang(1)), once per stuck call.  The stuck thread is never
 * interrupted: what the dump shows was recorded when the call was entered
 * (with the watchdog on only), into the thread's mpp_watch_t, which the
 * watchdog reads while the thread is blocked.  No MPI here: the comm facts
 * were computed by the wrapper (src/intercept/watch_support.c). */
#ifndef MPP_WATCHDOG_H
#define MPP_WATCHDOG_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "util/common.h"

/* 1 while the watchdog runs: the wrappers record each call's arguments. */
extern _Atomic int mpp_watch_on;

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
    uint64_t id;      /* FNV-1a of the sorted world ranks */
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
    uint64_t t0;                   /* ticks at entry */
    mpp_watch_peer_t dest, source, root;
    int32_t tag, sendtag;          /* MPP_WATCH_NONE when absent; -1 MPI_ANY_TAG */
    int64_t count;                 /* -1 when absent */
    const mpp_watch_comm_t *comm;  /* NULL: no communicator argument */
    int depth;
    uintptr_t frames[MPP_MAX_DEPTH];
    int nrequests;                 /* handled: may exceed MPP_WATCH_REQUESTS */
    uint64_t requests[MPP_WATCH_REQUESTS];
} mpp_watch_call_t;

/* The watchdog's own bookkeeping of one thread (only its thread touches it). */
typedef struct {
    uint64_t dumped;  /* serial of the call last dumped (0: none) */
    int resumed;      /* that call has returned since */
    double dumped_at, resumed_at, stuck_for; /* epoch seconds; seconds inside when dumped */
    char *block;      /* its part of the dump file, kept for rewrites */
} mpp_watch_dog_t;

typedef struct {
    mpp_watch_call_t call;
    mpp_watch_dog_t dog;
} mpp_watch_t;

typedef struct {
    int timeout;                 /* seconds, > 0 */
    int rank, world_size, quiet;
    const char *protocol_path;   /* the dump goes to <protocol_path>.hang.<rank> */
    const char *run;             /* the same in every process of the run */
    const char *host, *program;
} mpp_watchdog_setup_t;

/* Start the watchdog thread.  0, or -1 (warned). */
int mpp_watchdog_start(const mpp_watchdog_setup_t *setup);
/* Stop it (MPI_Finalize's entry): a last look marks returned calls. */
void mpp_watchdog_stop(void);
/* Free p (what a record may point to) once no dump is being taken. */
void mpp_watchdog_retire(void *p);

/* --- the dump format (src/write/hang_dump.c) --- */

/* One stuck call, as the dump shows it. */
typedef struct {
    long tid;
    const char *function, *category;
    double entered, stuck_for;   /* epoch seconds at entry; seconds inside when dumped */
    const mpp_watch_call_t *call;
    const char *const *frames;   /* call->depth frame texts ("file:line (function)"), NULL-ended */
    int noutstanding;            /* outstanding requests of the process */
    int nlisted;                 /* of which listed here */
    const struct mpp_watch_request *requests;
} mpp_hang_call_t;

typedef struct mpp_watch_request {
    uint64_t handle;
    const char *category;
    const char *op;              /* the MPI function that created it, "" when unknown */
    int persistent, waited;      /* waited: the stuck call handles it */
    int has_peer;
    int32_t peer_world, tag;
} mpp_watch_request_t;

typedef struct {
    int rank, world_size, timeout, threads;
    long pid;
    const char *run, *host, *program;
    double written;              /* epoch seconds */
} mpp_hang_header_t;

/* The file's header lines; one call's block from `call` on; its last lines
 * (`resumed` when the call has returned since, and `end`). */
void mpp_hang_write_header(FILE *f, const mpp_hang_header_t *h);
void mpp_hang_write_call(FILE *f, const mpp_hang_call_t *c);
void mpp_hang_write_end(FILE *f, int resumed, double resumed_at);

#endif
