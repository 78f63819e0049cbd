/* What the cross-process reduction produces on rank 0: the union of all
 * processes' intervals and SRC points, with sums, minima and maxima (and the
 * ranks that have them) of per-process quantities, and the per-process values
 * of the selected processes only.  No MPI: analysis and its unit tests use
 * it directly. */
#ifndef MPP_REDUCED_H
#define MPP_REDUCED_H

#include <stdint.h>

#include "records/finding.h"
#include "records/machine.h"
#include "util/srckey.h"

/* Per-thread times of an SRC point: the first threads by first MPI call
 * have a slot each, the others are summed in one (memory stays bounded). */
#define MPP_THREAD_SLOTS 8

/* Per-process quantities of an interval that are reduced across processes.
 * Everything in the protocol derives from them (analyze/characteristics.c). */
typedef enum {
    MPP_Q_EXEC = 0,   /* T_exec(p) */
    MPP_Q_PRODUCTIVE, /* T_exec(p) - T_comm(p) - insufficient(p) */
    MPP_Q_COMM,       /* T_comm(p) */
    MPP_Q_SENDRECV,
    MPP_Q_COLLECTIVE,
    MPP_Q_SYSTEM,
    MPP_Q_IO,           /* MPI-IO time */
    MPP_Q_INSUFFICIENT, /* replicated time * (P-1)/P */
    MPP_Q_COMPUTE,      /* C(p) = T_exec(p) - T_comm(p) - T_io(p) */
    MPP_Q_CPU,          /* user CPU seconds (getrusage) */
    MPP_Q_SYS,          /* system CPU seconds */
    MPP_Q_OVERLAP,      /* Overlap of the nonblocking requests it started */
    MPP_Q_REALSYNC,     /* wait states (when analysed): Real sync */
    MPP_Q_POTSYNC,      /* Potential sync */
    MPP_Q_VARIATION,    /* Time variation */
    MPP_NQ
} mpp_quantity_t;

typedef struct {
    double sum, min, max;
    int min_rank, max_rank;
    int count; /* processes contributing */
} mpp_stat_t;

typedef struct {
    int id;
    char *name, *file;
    int line, level, parent; /* parent -1 for interval 0 */
    uint64_t executions;     /* on the process that entered it most */
    int processes;           /* processes that entered it */
    mpp_stat_t q[MPP_NQ];
    double *by_process; /* [nselected * MPP_NQ]; NaN: not entered */
    /* Hardware counters (mpp_reduced_counters_t): mpp_hw_width values, the
     * events' then the derived rates'; count 0 where no process has one. */
    mpp_stat_t *hw;
    double *hw_by_process; /* [nselected * mpp_hw_width]; NaN: none */
    /* The communication model (0 when it did not run, MPIPROF_PREDICT=off):
     * Overlap is known, and the predicted quantities of each process
     * (characteristics.h, mpp_predicted_quantities) are reduced like q. */
    int overlap_known;
    int waitstates_known; /* the wait-state analysis ran (MPIPROF_WAITSTATES) */
    int predicted;
    mpp_stat_t pq[MPP_NQ];
    double *pred_by_process; /* [nselected * MPP_NQ]; NaN: not entered */
} mpp_reduced_interval_t;

/* Which wait states apply to an SRC point's function (set by the lifecycle,
 * which knows the MPI functions): Real sync to point-to-point functions,
 * Potential sync and Time variation to collectives; waits, tests and
 * starts (requests of either kind) get all three. */
enum { MPP_SRC_REALSYNC = 1, MPP_SRC_COLLECTIVE_WAITS = 2 };

typedef struct {
    int id;
    char *function;
    int nframes;
    mpp_frame_t *frames;
    int waits; /* MPP_SRC_* bits */
    /* Its function is MPI-IO (set by the writers, write/io_figures.h): the
     * cells' bytes_recv are bytes read, bytes_sent bytes written. */
    int io;
} mpp_reduced_src_t;

/* Per-process values of a cell, for the selected processes (the wait
 * states are 0 when they were not analysed: see mpp_reduced_t). */
enum {
    MPP_CELL_TIME = 0,
    MPP_CELL_CALLS,
    MPP_CELL_SENT,
    MPP_CELL_RECV,
    MPP_CELL_REALSYNC,
    MPP_CELL_POTSYNC,
    MPP_CELL_VARIATION,
    MPP_NCELLV
};
#define MPP_CELL_NWAIT 3 /* MPP_CELL_REALSYNC .. MPP_CELL_VARIATION */
/* ... and those of the communication model. */
enum { MPP_CELL_PREDICTED = 0, MPP_CELL_OVERLAP, MPP_NCELLP };

/* Per-thread times of a cell (mpp_reduced_t.thread_times): values[v] of
 * MPP_CELLT_*, summed over the processes, and the time of one thread
 * (one of the first MPP_THREAD_SLOTS of a process) at its least and most
 * over all processes, with their ranks; per selected process, by_process
 * [s * MPP_NCELLT + v], NaN where it has none. */
enum {
    MPP_CELLT_THREADS = 0,
    MPP_CELLT_SLOT0,
    MPP_CELLT_REST = MPP_CELLT_SLOT0 + MPP_THREAD_SLOTS,
    MPP_CELLT_RESTN,
    MPP_NCELLT
};
typedef struct {
    double values[MPP_NCELLT];
    unsigned slots;  /* bit i: a process's thread i called it */
    int threads_max; /* most threads that called it in one process */
    int threads_max_rank;
    mpp_stat_t per_thread; /* count: 0 when no slot's thread called it */
    double *by_process;
} mpp_reduced_cell_threads_t;

typedef struct {
    int interval, src; /* indexes into intervals[] and srcs[] */
    uint64_t calls, bytes_sent, bytes_recv;
    mpp_stat_t time;    /* over processes with calls */
    double *by_process; /* [nselected * MPP_NCELLV] in cell_values; NaN: no calls */
    /* The model (mpp_reduced_t.predicted): predicted time (over processes
     * with the cell) and Overlap of the requests started here. */
    mpp_stat_t predicted;
    double overlap;
    /* Real sync, Potential sync, Time variation over processes with the
     * cell (mpp_reduced_t.waitstates) */
    mpp_stat_t wait[MPP_CELL_NWAIT];
    double *model_by_process; /* [nselected * MPP_NCELLP] in cell_model_values; NaN: no calls; NULL: no model */
    mpp_reduced_cell_threads_t *threads; /* NULL: no per-thread times */
} mpp_reduced_cell_t;

/* Per event and interval: the count of each process over the interval, and
 * (MPIPROF_PAPI_SRC) the part of it inside MPI calls and outside them. */
enum { MPP_HW_TOTAL = 0, MPP_HW_INSIDE, MPP_HW_OUTSIDE, MPP_HW_NV };

typedef struct {
    char *name;      /* as given in MPIPROF_PAPI_EVENTS */
    char *component; /* the PAPI component counting it */
    int processes;   /* processes that counted it */
} mpp_reduced_event_t;

/* A derived rate the events allow: mpp_counter_rates[rate] with the
 * indexes of its events (denominator -1: per second). */
typedef struct {
    int rate, numerator, denominator;
} mpp_rate_use_t;

typedef struct {
    char *na_reason;             /* set: no counters at all (built without PAPI, not initialized) */
    char *library;               /* "PAPI 7.0.0.0" */
    mpp_reduced_event_t *events; /* in the order asked */
    int nevents;
    mpp_rate_use_t *rates;
    int nrates;
    char **multiplexed; /* "perf_event: 8 events on 6 counters", from any process */
    int nmultiplexed;
    int split;         /* inside/outside-MPI counts were measured */
    char *none_reason; /* no event counted: why (nevents 0) */
} mpp_reduced_counters_t;

static inline int mpp_hw_width(const mpp_reduced_counters_t *c) { return c->nevents * MPP_HW_NV + c->nrates; }

/* The threads of the processes (context/threads.h): the program's threads
 * alive at once at most, the threads that called MPI, the OpenMP team size
 * (over the processes that have one: count 0 when none has), each over the
 * processes that reported them (`processes`: 0, none did); per selected
 * process, by_process[s * MPP_NTHREADV + v], NaN where unknown. */
enum { MPP_THREADS_ALIVE = 0, MPP_THREADS_MPI, MPP_THREADS_OMP, MPP_NTHREADV };
typedef struct {
    int processes;
    mpp_stat_t v[MPP_NTHREADV];
    int omp_runtime, omp_env; /* processes whose team size the OpenMP runtime gave, OMP_NUM_THREADS alone */
    int omp_unknown;          /* processes whose OpenMP team is n/a (a trace's that does not say) */
    double *by_process;
} mpp_reduced_threads_t;

typedef struct {
    int nprocs;
    int nnodes;
    int nselected;
    int *selected;                     /* ranks */
    mpp_reduced_interval_t *intervals; /* depth-first, in order of first entry */
    int nintervals;
    mpp_reduced_src_t *srcs; /* ordered by key; SRC number = id */
    int nsrcs;
    mpp_reduced_cell_t *cells;
    int ncells;
    /* The blocks the cells' by_process and model_by_process lie in (one
     * allocation for all cells; NULL when there are none of the kind). */
    double *cell_values, *cell_model_values;
    char **warnings; /* from every process, deduplicated */
    int nwarnings;
    /* Context: what the run ran on, and the counters (NULL: not collected). */
    mpp_machine_data_t *machine;
    mpp_reduced_counters_t *counters;
    int predicted;  /* the communication model ran: predicted values and Overlap are given */
    int waitstates; /* the wait-state analysis ran: Real sync, Potential sync, Time variation are given */
    /* The correctness findings of every process, merged and in the
     * protocol's order (check/finding_list.h). */
    mpp_finding_list_t findings;
    mpp_reduced_threads_t threads;
    /* Per-thread times of the cells (MPI_THREAD_MULTIPLE): one block each
     * for all cells; NULL when not given. */
    int thread_times;
    mpp_reduced_cell_threads_t *cell_threads;
    double *cell_thread_values;
    /* The communication matrix (records/matrix.h), set after the
     * reduction by MPI_Finalize; NULL: not collected (mpiprof-analyze,
     * mpiprof-merge, partial protocols) or left out. */
    struct mpp_matrix *matrix;
} mpp_reduced_t;

void mpp_reduced_free(mpp_reduced_t *r);

#endif
