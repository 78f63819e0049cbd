/* The correctness checks of a run (MPIPROF_CHECK, correctness.md), on the
 * MPI side: their level, agreed at MPI_Init (rank 0's value), the
 * findings the hooks report at a call's SRC point, their list at the end
 * of the run for the protocol (check/finding_list.h), and the lines on
 * standard error.  Each check lives in a file of this folder; they report
 * through here, into check/findings.h's bounded store. */
#ifndef MPP_CHECK_RUN_H
#define MPP_CHECK_RUN_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "attribute/thread_state.h"
#include "context/config.h"
#include "gen/function_table.h"
#include "records/finding.h"
#include "records/profile.h"

/* MPP_CHECK_* bits (context/config.h) in effect; 0: off, every hook is one
 * predicted branch in the wrapper. */
extern int mpp_check_level;
#define MPP_CHECKS_ON(level) MPP_UNLIKELY((mpp_check_level & MPP_CHECK_LEVEL) >= (level))

/* MPI_Init (collective over comm, the profiler's own). */
void mpp_check_run_start(MPI_Comm comm, int rank);

/* One occurrence of `kind` at call c's SRC point (its cell's call stack
 * once mpp_call_end ran, else captured now): `peer` the other process
 * (MPI_COMM_WORLD rank, -1: none), `other_fid` and `other_address` the
 * other side's call (its function and the return address of its call, in
 * this process's address space; 0: none), then the first occurrence's
 * details, printf-style (NULL: none). */
void mpp_check_report(const mpp_call_t *c, int kind, int32_t peer, uint32_t other_fid, uintptr_t other_address,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same at a call stack kept from earlier (a request's or a handle's
 * creation).  `severity` -1: the kind's own. */
void mpp_check_report_at(int kind, int severity, uint32_t fid, const uintptr_t *frames, int depth, int32_t peer,
                         uint32_t other_fid, uintptr_t other_address, const char *fmt, ...)
    __attribute__((format(printf, 9, 10)));
/* An error MPI will abort on: one line on standard error now (unless
 * MPIPROF_QUIET), with the call site, then the finding as above. */
void mpp_check_report_now(const mpp_call_t *c, int kind, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The call stack of call c: its cell's once mpp_call_end ran (c->cell
 * set), else captured now from its wrapper's frame; its depth. */
int mpp_check_call_frames(const mpp_call_t *c, uintptr_t *frames);
/* "file.c:31 (main)" of a stack's first frame, for a line on stderr. */
void mpp_check_call_position(const uintptr_t *frames, int depth, char *out, size_t size);
/* The fid of a finding outside any MPI call, made when a signal ended the
 * process there (intercept/check/ends.h): its function is the signal's
 * name. */
#define MPP_CHECK_SIGNAL_FID(sig) ((uint32_t)MPP_NFUNCTIONS + 1 + (uint32_t)(sig))

/* A call whose arguments were found invalid (invalid-argument): the error
 * MPI then returns or raises for it is the same misuse, not an mpi-error
 * of its own.  Per thread: the call is the thread's current one. */
void mpp_check_note_invalid(const mpp_call_t *c);
int mpp_check_was_invalid(const mpp_call_t *c);

/* The end of the run (MPI_Finalize: `finalize` 1), or of the process (a
 * partial protocol: 0): the checks that look at what is left (requests,
 * handles, messages) report it.  Once. */
void mpp_check_run_end(int finalize);

/* This process's findings for its profile, their call stacks resolved to
 * SRC keys (`resolve`, `function_name`: as for the cells). */
void mpp_check_local_list(mpp_finding_list_t *out, int rank, mpp_resolve_fn resolve, void *ctx,
                          mpp_function_name_fn function_name);

/* Rank 0, after the protocol is written: "mpiprof: 2 errors, 1 warning:
 * see the protocol's Correctness section" (nothing when quiet, or off). */
void mpp_check_summary_line(const mpp_finding_list_t *all);

#endif
