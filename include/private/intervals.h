/* The interval tree of this process.  Interval 0 is the whole program (from
 * MPI_Init's return to MPI_Finalize's entry); nested intervals are children
 * of the interval open when they begin.  Times are accumulated at interval
 * boundaries only, never per MPI call. */
#ifndef MPP_INTERVALS_H
#define MPP_INTERVALS_H

#include <stdint.h>

#define MPP_NAME_MAX 128
#define MPP_PATH_MAX 512

typedef struct {
    char name[MPP_NAME_MAX];
    char file[MPP_PATH_MAX];
    int line;
    int parent;         /* -1 for interval 0 */
    int level;
    uint64_t executions;
    uint64_t first_entry; /* ticks since the start of interval 0 */
    uint64_t ticks;       /* time inside, all executions */
    uint64_t seq_ticks;   /* time inside replicated (SEQ) code */
    double cpu, sys;      /* seconds of user and system CPU time (getrusage) */
    /* while open */
    uint64_t open_tick;
    double open_cpu, open_sys;
} mpp_interval_t;

extern mpp_interval_t *mpp_intervals;
extern uint32_t mpp_nintervals;
/* Interval every MPI call is attributed to (innermost open one). */
extern uint32_t mpp_current_interval;

/* Create interval 0 (whole program, begun at `file`:`line`) and open it. */
int mpp_intervals_init(uint32_t max_intervals, const char *file, int line, uint64_t now);
/* Close every open interval at `now` (MPI_Finalize). */
void mpp_intervals_close_all(uint64_t now);

/* User and system CPU seconds of the process so far. */
void mpp_process_cpu(double *user, double *sys);

#endif
