/* Partial protocols (protocol.md, Rules): how each process present ended,
 * and, in a process's own partial protocol, its profile as the reduction
 * takes it (the process data, mpiprof-merge's input).  The records that
 * the lifecycle, trace mode and the writers hand each other
 * (write/partial.h: what the writers say of them). */
#ifndef MPP_RECORDS_PARTIAL_H
#define MPP_RECORDS_PARTIAL_H

/* How a process ended. */
typedef enum {
    MPP_END_SIGNAL = 0, /* a signal it did not survive (or whose handler returned) */
    MPP_END_ABORT,      /* MPI_Abort */
    MPP_END_EXIT,       /* exit() before MPI_Finalize */
    MPP_END_RETURN,     /* return from main before MPI_Finalize */
    MPP_NEND
} mpp_end_kind_t;

#define MPP_END_TEXT 160
#define MPP_END_SITE 1024

typedef struct {
    int rank;
    int kind;                  /* mpp_end_kind_t */
    int signal;                /* MPP_END_SIGNAL: its number */
    int code;                  /* MPI_Abort's errorcode, the exit status */
    char detail[MPP_END_TEXT]; /* "SIGSEGV (Segmentation fault, address 0x10)", "MPI_COMM_WORLD", ... */
    char mpi_call[64];         /* the MPI function it was in, "": none */
    double call_seconds;       /* how long it had been in it, NaN: unknown */
    int src;                   /* that call's SRC point in the protocol, 0: none (its first call had not returned) */
    char site[MPP_END_SITE];   /* the call's stack, or where exit was called; "": unknown */
} mpp_process_end_t;

/* A process's own profile, for its partial protocol's process data
 * (write/process_data.h). */
typedef struct mpp_process_data mpp_process_data_t;

typedef struct {
    const mpp_process_end_t *ends; /* the processes present, ascending rank */
    int nends;
    const mpp_process_data_t *process; /* a process's own partial protocol; NULL: merged */
} mpp_partial_t;

#endif
