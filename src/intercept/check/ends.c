#include <stdio.h>

#include "attribute/callsite.h"
#include "check/findings.h"
#include "gen/function_table.h"
#include "intercept/check/ends.h"
#include "intercept/check/run.h"

static int depth_of(const uintptr_t *frames)
{
    int depth = 0;
    while (depth < mpp_callsite_depth() && depth < MPP_MAX_DEPTH && frames[depth])
        depth++;
    return depth;
}

void mpp_check_ends_report(const mpp_process_end_t *end, int job_control, uint32_t fid, const uintptr_t *frames,
                           int in_call)
{
    if (!mpp_check_level)
        return;
    int depth = depth_of(frames);
    if (!in_call)
        fid = end->kind == MPP_END_SIGNAL  ? MPP_CHECK_SIGNAL_FID(end->signal)
              : end->kind == MPP_END_ABORT ? MPP_FN_MPI_Abort
                                           : MPP_FINDING_NO_FUNCTION;
    switch (end->kind) {
    case MPP_END_SIGNAL:
        mpp_check_report_at(job_control ? MPP_FIND_ABORT : MPP_FIND_ABEND, -1, fid, frames, depth, -1, 0, 0, "%s%s%s",
                            end->detail, in_call ? " in " : " outside MPI", in_call ? end->mpi_call : "");
        break;
    case MPP_END_ABORT:
        mpp_check_report_at(MPP_FIND_ABORT, -1, fid, frames, depth, -1, 0, 0, "MPI_Abort(%s, %d)", end->detail,
                            end->code);
        return;
    default: /* exit() or return from main: not an error of MPI's, unless inside a call */
        break;
    }
    if (!in_call)
        return;
    if (end->kind == MPP_END_SIGNAL)
        mpp_check_report_at(MPP_FIND_INCOMPLETE_CALL, -1, fid, frames, depth, -1, 0, 0,
                            "%s never returned: the process ended by %s, %.6f s into the call", end->mpi_call,
                            end->detail, end->call_seconds);
    else
        mpp_check_report_at(MPP_FIND_INCOMPLETE_CALL, -1, fid, frames, depth, -1, 0, 0,
                            "%s never returned: the process exited inside it (status %d)", end->mpi_call, end->code);
}
