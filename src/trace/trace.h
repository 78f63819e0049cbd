/* Trace mode's archive (MPIPROF_TRACE=on; man/mpiprof-trace.5): one OTF2
 * archive per run, opened at MPI_Init and closed at MPI_Finalize by the
 * profiler's own MPI calls (trace_archive.c), or made readable by a
 * process that ends without MPI_Finalize (trace_rescue.c).  Each thread's
 * events are written by the wrappers' hooks (intercept/trace_hooks.h). */
#ifndef MPP_TRACE_H
#define MPP_TRACE_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "autoconf.h"
#include "reduce/clocksync.h"

/* Trace mode is on in this run (set at MPI_Init, everywhere or nowhere). */
extern int mpp_trace_on;

#if MPIPROF_HAVE_OTF2

/* MPI_Init, collective over comm (the profiler's own): opens the archive
 * at path (a directory; its anchor file path/traces.otf2; an earlier run's
 * archive there is removed first when `replace`) with `buffer` bytes of
 * event buffer for the process.  0: trace mode is on everywhere; -1: it is
 * off everywhere (warned, with the reason). */
int mpp_trace_start(MPI_Comm comm, const char *path, long buffer, int rank, int nprocs, const char *host,
                    int replace);

/* The call that started the profile (fid: MPI_Init, MPI_Init_thread or
 * MPI_Session_init), once the archive is open: its Enter at `entered` (the
 * profiler's clock started in it, after the MPI library initialized) with
 * its call site (frames, depth) as mpiprof::src, its Leave at `returned`,
 * the instant interval 0 begins (mpp_intervals_init's). */
void mpp_trace_init_call(uint32_t fid, const uintptr_t *frames, int depth, uint64_t entered, uint64_t returned);

/* This process's correctness findings as their text form (check/
 * finding_list.h, malloc'd: taken), given before mpp_trace_finish or
 * mpp_trace_rescue, which carry them in the definitions (the process's
 * location group's mpiprof::findings properties, mpiprof-trace(5)). */
void mpp_trace_set_findings(char *text);

/* MPI_Finalize, collective: MPI_Finalize's Enter at `end`, the events
 * closed, the definitions written (clock offsets: MPI_Init's and
 * MPI_Finalize's alignments, NULL when the clocks were not aligned), the
 * archive closed.  Its path ("" when none) and size in bytes (rank 0),
 * for the protocol's Parameters; 0, or -1 when the archive is incomplete
 * (warned) or none was written. */
int mpp_trace_finish(MPI_Comm comm, uint64_t end, const mpp_clock_alignment_t *at_init,
                     const mpp_clock_alignment_t *at_finalize, char *path, size_t size, long long *bytes);

/* A process that ends without MPI_Finalize, in its partial protocol's
 * writer (no MPI call): its events flushed, its definitions described and
 * the archive's definitions and anchor file rebuilt from what every process
 * that ended so has left (trace_rescue.c); `ended` says how it ended, a0 its
 * clock alignment at MPI_Init (NULL: none).  The archive's path and size
 * in bytes; 0, or -1 when it could not be made readable. */
int mpp_trace_rescue(const char *ended, const mpp_clock_alignment_t *a0, char *path, size_t size, long long *bytes);

/* MPI_Finalize, rank 0, once every process closed its files: what the
 * rescue needs is removed. */
void mpp_trace_rescue_remove(void);

/* At MPI_Init (the memory the rescue shares with the parent), and in the
 * parent's signal handler when the program goes on after all (the rescue
 * undone, async-signal-safe). */
void mpp_trace_rescue_prepare(void);
void mpp_trace_rescue_undo(void);

#else

static inline int mpp_trace_rescue(const char *ended, const mpp_clock_alignment_t *a0, char *path, size_t size,
                                   long long *bytes)
{
    (void)ended, (void)a0, (void)size, (void)bytes;
    path[0] = '\0';
    return -1;
}

static inline void mpp_trace_rescue_undo(void) {}
static inline void mpp_trace_set_findings(char *text) { free(text); }

static inline int mpp_trace_start(MPI_Comm comm, const char *path, long buffer, int rank, int nprocs,
                                  const char *host, int replace)
{
    (void)comm, (void)path, (void)buffer, (void)rank, (void)nprocs, (void)host, (void)replace;
    return -1;
}
static inline void mpp_trace_init_call(uint32_t fid, const uintptr_t *frames, int depth, uint64_t entered,
                                       uint64_t returned)
{
    (void)fid, (void)frames, (void)depth, (void)entered, (void)returned;
}
static inline int mpp_trace_finish(MPI_Comm comm, uint64_t end, const mpp_clock_alignment_t *at_init,
                                   const mpp_clock_alignment_t *at_finalize, char *path, size_t size,
                                   long long *bytes)
{
    (void)comm, (void)end, (void)at_init, (void)at_finalize, (void)size, (void)bytes;
    path[0] = '\0';
    return -1;
}

#endif

#endif
