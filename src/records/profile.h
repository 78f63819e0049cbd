/* The profile of one process at MPI_Finalize: what accumulate hands to
 * reduce (and what analyze computes a process's quantities from, the
 * partial protocols write and mpiprof-merge reads).  Plain data in
 * seconds, keyed by strings that mean the same on every process (interval
 * path, SRC key); no MPI. */
#ifndef MPP_RECORDS_PROFILE_H
#define MPP_RECORDS_PROFILE_H

#include <stdint.h>

#include "records/finding.h"
#include "records/interval.h"
#include "records/price.h"
#include "records/reduced.h"
#include "util/common.h"

typedef struct {
    char *key; /* "0" for the whole program; parent key RS name US file US line */
    const mpp_interval_t *info;
    int parent;         /* local index, -1 for interval 0 */
    double first_entry; /* seconds after interval 0 began */
    double exec, cpu, sys, seq;
    double cat[MPP_NCAT];  /* time in MPI by category, nested intervals included */
    double pcat[MPP_NCAT]; /* predicted time in MPI by category, nested intervals included */
    double overlap;        /* Overlap of the requests started in it, nested intervals included */
    double wait[3];        /* Real sync, Potential sync, Time variation, nested intervals included */
    double *hw;            /* counter values [context.nevents * MPP_HW_NV] (reduced.h), NULL: none */
} mpp_local_interval_t;

typedef struct {
    int interval;    /* local index */
    const char *src; /* SRC key (srckey.h): one of the profile's srcs */
    uint32_t fid;
    uint64_t calls, bytes_sent, bytes_recv;
    double time;
    double cat[MPP_NCAT];     /* time by category */
    double price[MPP_NPRICE]; /* the model's price of the calls (model.h), summed */
    double model;             /* ... in seconds: mpp_profile_predict */
    double overlap;           /* Overlap of the requests started at this site */
    double predicted;         /* mpp_profile_predict */
    double wait[3];           /* Real sync, Potential sync, Time variation of its calls */
    /* Per thread (index: by first MPI call, thread_state.c): the time of
     * each of the first MPP_THREAD_SLOTS threads that called here (bit i of
     * thread_mask: thread i did), the rest summed; how many threads called */
    double thread_time[MPP_THREAD_SLOTS], rest_time;
    unsigned thread_mask;
    int nthreads, rest_threads;
} mpp_local_cell_t;

/* What this process knows of its machine and counters (src/context/):
 * plain strings, so that reduce needs neither hwloc nor PAPI. */
typedef struct {
    /* Machine and placement (topology.h) */
    const char *machine_na; /* why they are n/a; NULL when collected */
    const char *binding;    /* PUs this process may run on ("0-3"), NULL: unknown */
    /* Called on the lowest rank of each host only: its node-type key and
     * allowed PUs (machine.h), allocated; or -1 and *error (allocated). */
    int (*describe_node)(char **type_key, char **allowed, char **error);
    /* ... or what it gave, when the node was described before the
     * reduction (partial protocols, mpiprof-merge): used instead of it. */
    const char *node_type, *node_allowed, *node_error;
    /* Counters (counters.h): events counted, "name US component" each */
    const char *counters_na; /* no counters at all: why; NULL when PAPI ran */
    char **events;
    int nevents;
    char **facts; /* "label US value" (dictionary.h, MPP_REC_FACT) */
    int nfacts;
    /* This process's warnings (mpiprof-merge: those of its partial
     * protocol); NULL: the ones raised in this process (warnings.h). */
    const char *const *warnings;
    int nwarnings;
} mpp_local_context_t;

typedef struct {
    mpp_local_interval_t *intervals;
    int nintervals;
    mpp_local_cell_t *cells;
    int ncells;
    /* The distinct SRC keys (owned): the cells of an SRC point share its
     * string, so that the reduction takes each key once, not once per
     * interval it has a cell in. */
    char **srcs;
    int nsrcs;
    mpp_local_context_t context;
    /* The correctness findings of this process (check/finding_list.h),
     * with its rank as first and last: owned. */
    mpp_finding_list_t findings;
    size_t findings_max; /* most distinct findings the merge keeps (MPIPROF_MAX_FINDINGS; 0: the default) */
    int predict;         /* the model ran (MPIPROF_PREDICT, the same on every process) */
    int waitstates;      /* the wait-state analysis ran (MPIPROF_WAITSTATES, the same on every process) */
    int thread_times;    /* the protocol gives per-thread times (MPI_THREAD_MULTIPLE, several OTF2 locations) */
    double speed;        /* relative speed of this process's core (mean 1 over processes) */
} mpp_local_profile_t;

/* Frame record of a return address (symbolize.h's mpp_symbolize). */
typedef const char *(*mpp_resolve_fn)(void *ctx, uintptr_t return_address);
/* Name of an MPI function id. */
typedef const char *(*mpp_function_name_fn)(uint32_t fid);

#endif
