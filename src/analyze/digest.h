/* The digest of a protocol (protocol.md, Digest): the run in one line,
 * K_eff, Lost time by cause, Productive time's split with I/O named when
 * it is a large share, the correctness findings' counts, the top SRC
 * points of the whole run with their share of Lost time, and the Warnings
 * count.  Computed once from reduced data, written by the text, JSON and
 * end-of-run writers.  Also the SRC tables an interval's own cells do not
 * give: inclusive of its sub-intervals, and the whole run's.  Pure: no
 * MPI, no I/O. */
#ifndef MPP_DIGEST_H
#define MPP_DIGEST_H

#include <stdint.h>

#include "analyze/characteristics.h"
#include "records/reduced.h"

/* SRC points in the digest, and the share of Total time from which I/O is
 * named in it. */
#define MPP_DIGEST_TOP 5
#define MPP_DIGEST_IO_SHARE 0.10

/* One SRC point summed over the cells of several intervals.  Sums add up;
 * a minimum or maximum over processes is known only where every process's
 * value is (all processes selected), NaN otherwise. */
typedef struct {
    int src; /* index into mpp_reduced_t.srcs */
    uint64_t calls, bytes_sent, bytes_recv;
    int ncells;                  /* cells (intervals) summed */
    mpp_stat_t time;             /* count: processes with calls where known, else 0 */
    double predicted, overlap;   /* NaN: no model */
    double wait[MPP_CELL_NWAIT]; /* sums; NaN: not analysed */
    double *by_process;          /* [nselected * MPP_NCELLV]; NaN: no calls */
} mpp_src_total_t;

typedef struct {
    mpp_src_total_t *items; /* by descending time, then SRC number */
    int n;
    double *values; /* the block the items' by_process lie in */
} mpp_src_table_t;

/* The SRC table of interval `interval` inclusive of every interval below
 * it, or (interval -1) of the whole run: every cell.  0, or -1 when memory
 * ran out. */
int mpp_src_table(const mpp_reduced_t *rd, int interval, mpp_src_table_t *out);
void mpp_src_table_free(mpp_src_table_t *t);

/* Whether an MPI function's time is Lost time (Communication): not the
 * MPI-IO functions (productive I/O), the clock and the tool-control ones. */
int mpp_digest_is_lost(const char *function);

/* The parts Lost time is the sum of. */
#define MPP_DIGEST_NLOST 5

typedef struct {
    mpp_main_t part; /* MPP_M_INSUFFICIENT, _SENDRECV, _COLLECTIVE, _SYSTEM, _IDLE */
    double seconds;  /* NaN: n/a */
    double share;    /* of Lost time; NaN when Lost time is 0 or n/a */
} mpp_digest_part_t;

typedef struct {
    int src;              /* index into the whole-run table's items */
    double share_of_lost; /* NaN: its time is not Lost time, or Lost time is 0 */
} mpp_digest_top_t;

typedef struct {
    int processes, nodes;
    double keff, exec, total, productive, lost, cpu, sys, io; /* interval 0's; NaN: n/a */
    double lost_share;                                        /* Lost time / Total time */
    double io_share;                                          /* I/O / Total time */
    int io_large;                                             /* io_share >= MPP_DIGEST_IO_SHARE */
    mpp_digest_part_t lost_parts[MPP_DIGEST_NLOST];           /* by descending seconds */
    int checked;                                              /* correctness checks ran */
    uint64_t errors, warnings, dropped;                       /* their findings' occurrences */
    mpp_src_table_t whole;                                    /* the whole run's SRC table */
    mpp_digest_top_t top[MPP_DIGEST_TOP];
    int ntop;
    int nwarnings;
} mpp_digest_t;

/* The digest of a protocol from its reduced data and interval 0's
 * characteristics.  0, or -1 when memory ran out (d is then empty). */
int mpp_digest(const mpp_reduced_t *rd, const mpp_interval_result_t *whole, int nwarnings, mpp_digest_t *d);
void mpp_digest_free(mpp_digest_t *d);

#endif
