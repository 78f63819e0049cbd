/* Partial protocols (protocol.md, Rules): when a process ends without
 * MPI_Finalize it writes what it has, as a protocol of itself alone marked
 * partial, at <protocol path>.partial.<rank>; mpiprof-merge makes one
 * protocol of several.  This is what the writers say about it: how each
 * process present ended, and, in a process's own partial protocol, its
 * profile as the reduction takes it (the process data, mpiprof-merge's
 * input).  No MPI here. */
#ifndef MPP_PARTIAL_H
#define MPP_PARTIAL_H

#include "context/config.h"
#include "accumulate/profile.h"
#include "context/runinfo.h"

/* How a process ended. */
typedef enum {
    MPP_END_SIGNAL = 0, /* a signal it did not survive (or whose handler returned) */
    MPP_END_ABORT,      /* MPI_Abort */
    MPP_END_EXIT,       /* exit() before MPI_Finalize */
    MPP_END_RETURN,     /* return from main before MPI_Finalize */
    MPP_NEND
} mpp_end_kind_t;

/* Keywords of the kinds (JSON "end"), and of the text. */
extern const char *const mpp_end_names[MPP_NEND];

#define MPP_END_TEXT 160
#define MPP_END_SITE 1024

typedef struct {
    int rank;
    int kind;                   /* mpp_end_kind_t */
    int signal;                 /* MPP_END_SIGNAL: its number */
    int code;                   /* MPI_Abort's errorcode, the exit status */
    char detail[MPP_END_TEXT];  /* "SIGSEGV (Segmentation fault, address 0x10)", "MPI_COMM_WORLD", ... */
    char mpi_call[64];          /* the MPI function it was in, "": none */
    double call_seconds;        /* how long it had been in it, NaN: unknown */
    int src;                    /* that call's SRC point in the protocol, 0: none (its first call had not returned) */
    char site[MPP_END_SITE];    /* the call's stack, or where exit was called; "": unknown */
} mpp_process_end_t;

/* "signal SIGSEGV (Segmentation fault, address 0x10) in MPI_Send (for
 * 0.000012 s) at SRC 3: x.c:40 (main)": one line per process, the same in
 * both writers. */
void mpp_end_describe(const mpp_process_end_t *end, char *out, size_t size);

/* A process's own profile, for its partial protocol's process data: all
 * that mpiprof-merge needs of it, so that it reads no other part. */
typedef struct {
    int rank;
    const char *hostname;
    const mpp_local_profile_t *profile;
    const char *const *warnings; /* its own, as the reduction took them */
    int nwarnings;
    const mpp_run_info_t *run;
    const mpp_config_t *config;
    const mpp_process_end_t *end;
} mpp_process_data_t;

typedef struct {
    const mpp_process_end_t *ends; /* the processes present, ascending rank */
    int nends;
    const mpp_process_data_t *process; /* a process's own partial protocol; NULL: merged */
} mpp_partial_t;

/* "0-3,7": ranks of a sorted list, or those of 0..nprocs-1 not in it
 * (`missing`).  Allocated. */
char *mpp_rank_ranges(const mpp_process_end_t *ends, int nends, int nprocs, int missing);

#endif
