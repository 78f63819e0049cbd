/* Correctness findings (spec: correctness.md): one kind of misuse of MPI at
 * one SRC point, with how often, on which processes, and the first
 * occurrence's details.  The kinds' names are fixed: the text protocol, the
 * JSON ("kind") and users key on them. */
#ifndef MPP_RECORDS_FINDING_H
#define MPP_RECORDS_FINDING_H

#include <stdint.h>

#include "util/common.h"

typedef enum {
    /* within one process */
    MPP_FIND_ABEND = 0,
    MPP_FIND_ABORT,
    MPP_FIND_INCOMPLETE_CALL,
    MPP_FIND_UNFINISHED_SEND,
    MPP_FIND_UNFINISHED_RECV,
    MPP_FIND_NONFREED_REQUEST,
    MPP_FIND_OVERLAPPING_BUFFERS,
    MPP_FIND_SENDRECV_OVERLAP,
    MPP_FIND_SEND_BUFFER_MODIFIED,
    MPP_FIND_ACTIVE_REQUEST_FREE,
    MPP_FIND_REQUEST_CANCEL,
    MPP_FIND_INVALID_ARGUMENT,
    MPP_FIND_RESOURCE_LEAK,
    MPP_FIND_THREAD_LEVEL,
    MPP_FIND_CALL_OUTSIDE_MPI,
    MPP_FIND_MPI_ERROR,
    MPP_FIND_RMA_EPOCH,
    MPP_FIND_RMA_CONFLICT,
    /* between processes */
    MPP_FIND_NONPAIRED_SEND,
    MPP_FIND_NONPAIRED_RECV,
    MPP_FIND_WRONG_SEND_SIZE,
    MPP_FIND_INCORRECT_SEND_SIZE,
    MPP_FIND_WRONG_DATATYPE,
    MPP_FIND_RECV_CHECKSUM,
    MPP_FIND_INCOMPLETE_COLLECTIVE,
    MPP_FIND_UNFINISHED_COLLECTIVE,
    MPP_FIND_COLLECTIVE_MISMATCH,
    MPP_FIND_DIFFERENT_ROOTS,
    MPP_FIND_DIFFERENT_REDUCTIONS,
    MPP_FIND_COLLECTIVE_SIZE,
    MPP_FIND_COLLECTIVE_DATATYPE,
    /* hangs and deadlocks */
    MPP_FIND_REAL_DEADLOCK,
    MPP_FIND_POTENTIAL_DEADLOCK,
    MPP_FIND_REAL_HANG,
    MPP_FIND_POTENTIAL_HANG,
    MPP_NFIND
} mpp_finding_kind_t;

enum { MPP_FINDING_WARNING = 0, MPP_FINDING_ERROR = 1 };

typedef struct {
    const char *name; /* "wrong-datatype" */
    int severity;     /* MPP_FINDING_ERROR or _WARNING (active-request-free: its own) */
    const char *what; /* one line, as correctness.md says it */
} mpp_finding_kind_info_t;

extern const mpp_finding_kind_info_t mpp_finding_kinds[MPP_NFIND];

/* The kind of a name, or -1. */
int mpp_finding_kind_of(const char *name);

/* A finding as the protocol reports it: one process's, or merged over the
 * processes that had it (the same kind at the same SRC point, with the
 * same other side).  Keys mean the same on every process. */
typedef struct {
    int kind;
    int severity;       /* MPP_FINDING_ERROR or _WARNING */
    char *src;          /* SRC key (util/srckey.h) of the call that shows it */
    char *other;        /* the other side's call as an SRC key (its call site), NULL: none */
    uint64_t count;     /* occurrences */
    int32_t first_rank; /* lowest and highest rank that had it */
    int32_t last_rank;
    int32_t nprocs; /* processes that had it */
    int32_t peer;   /* the first occurrence's other process (MPI_COMM_WORLD rank), -1: none */
    char *detail;   /* the first occurrence's details ("" when none) */
} mpp_finding_record_t;

/* The findings of one process, or of the run. */
typedef struct {
    mpp_finding_record_t *items;
    int n;
    uint64_t dropped; /* occurrences not kept: MPIPROF_MAX_FINDINGS reached */
    int level;        /* the checks that ran: MPIPROF_CHECK's value (context/config.h), -1: unknown */
} mpp_finding_list_t;

#endif
