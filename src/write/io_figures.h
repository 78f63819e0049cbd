/* I/O in its own words (mpiprof-protocol(5), I/O): the bytes MPI-IO calls
 * read and wrote, their time and bandwidth, per SRC point and per
 * interval.  The calls count their bytes as every MPI call does (file
 * writes as sent, reads as received: mpi_functions.txt); the writers name
 * them read and written by the SRC point's function, so that both modes
 * (MPI_Finalize and mpiprof-analyze) give the same numbers. */
#ifndef MPP_IO_FIGURES_H
#define MPP_IO_FIGURES_H

#include <stdint.h>
#include <stdio.h>

#include "records/reduced.h"
#include "write/writer.h"

struct json_t;

/* Whether an MPI function is MPI-IO (category io of mpi_functions.txt). */
int mpp_function_is_io(const char *function);

/* Sets srcs[].io of every SRC point of rd. */
void mpp_mark_io_srcs(mpp_reduced_t *rd);

typedef struct {
    uint64_t calls, bytes_read, bytes_written; /* of the MPI-IO SRC points */
    double time;                               /* I/O time summed over processes (seconds) */
    double exec;                               /* execution time summed over processes (seconds) */
    double share;                              /* time / exec; NaN when exec is 0 */
    double bandwidth; /* (bytes_read + bytes_written) / time: bytes per second of a process in
                         its MPI-IO calls; NaN when time is 0 */
} mpp_io_figures_t;

/* The I/O figures of interval `i` of rd (its SRC points and those of the
 * intervals nested in it, as its times include theirs): the I/O share of
 * time, bytes and bandwidth of an interval.  rd's srcs must be marked
 * (mpp_mark_io_srcs).  Pure. */
mpp_io_figures_t mpp_interval_io(const mpp_reduced_t *rd, int i);

/* Bytes per second, NaN when seconds is not positive. */
double mpp_io_bandwidth(double bytes, double seconds);

/* The interval's "--- I/O ---" section of the text protocol. */
void mpp_write_io_text(FILE *out, const mpp_report_t *r, int interval);
/* ... and its "io" object of the JSON protocol. */
struct json_t *mpp_interval_io_json(const mpp_report_t *r, int interval);

/* An SRC point's JSON object (cell c) with bytes_read, bytes_written and
 * bandwidth (null unless MPI-IO); an MPI-IO point's bytes_sent and
 * bytes_recv are 0. */
void mpp_io_split_cell(struct json_t *point, int io, const mpp_reduced_cell_t *c);
/* The same from an SRC point's sums over several cells (the inclusive and
 * whole-run tables): bytes sent and received, time summed. */
void mpp_io_split_counts(struct json_t *point, int io, uint64_t sent, uint64_t recv, double time);
/* The same for its by_process columns (null where the process has none). */
void mpp_io_split_by_process(struct json_t *by, int io);

#endif
