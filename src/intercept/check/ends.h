/* How the process ended, as findings of its partial protocol
 * (correctness.md): abend (a fault: SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT), abort (MPI_Abort, or a signal from outside: SIGTERM, SIGINT,
 * SIGXCPU, SIGUSR1) and incomplete-call (the process ended inside an MPI
 * call, which never returned).  The child that writes the partial
 * protocol (intercept/faults.c) reports them, with the call stack it took:
 * the MPI call's (its SRC point), MPI_Abort's, or, for a signal outside
 * MPI, where the signal interrupted the program; such a finding names the
 * signal as its function (MPP_CHECK_SIGNAL_FID: it has no SRC point).
 * Given to faults.c by the lifecycle (mpp_faults_profile_t). */
#ifndef MPP_INTERCEPT_CHECK_ENDS_H
#define MPP_INTERCEPT_CHECK_ENDS_H

#include <stdint.h>

#include "records/partial.h"

/* The end `end` (records/partial.h) with `job_control` (a signal from
 * outside), inside MPI call `fid` when `in_call` (MPP_NFUNCTIONS or more:
 * none), frames[] as the partial protocol names them (zero-ended).  Not
 * for MPI's fatal error (intercept/check/errors.h: its mpi-error finding
 * says why the process ended).  Checks off: nothing. */
void mpp_check_ends_report(const mpp_process_end_t *end, int job_control, uint32_t fid, const uintptr_t *frames,
                           int in_call);

#endif
