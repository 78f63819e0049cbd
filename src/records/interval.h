/* One interval of a process (accumulate/intervals.c keeps them): its
 * identity and what its executions accumulated, which the profile, the
 * partial protocols and trace mode hand on. */
#ifndef MPP_RECORDS_INTERVAL_H
#define MPP_RECORDS_INTERVAL_H

#include <stdint.h>

#define MPP_NAME_MAX 128
#define MPP_PATH_MAX 512

typedef struct {
    char name[MPP_NAME_MAX];
    char file[MPP_PATH_MAX]; /* "" until resolved from `site` */
    int line;
    uintptr_t site; /* return address of the begin mark when file is not known */
    int parent;     /* -1 for interval 0 */
    int level;
    uint64_t executions;
    uint64_t first_entry;     /* ticks since the start of interval 0 */
    uint64_t ticks;           /* time inside, all executions */
    uint64_t seq_ticks;       /* time inside replicated (SEQ) code */
    double cpu, sys;          /* seconds of user and system CPU time (getrusage) */
    uint64_t mpi_union_ticks; /* MPI_THREAD_MULTIPLE: wall time with a thread inside MPI */
    /* while open */
    uint64_t open_tick;
    double open_cpu, open_sys;
    uintptr_t open_thread;
} mpp_interval_t;

#endif
