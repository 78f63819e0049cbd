/* The attributes of mpiprof's checks on a trace's events (trace_local.h,
 * mpiprof-trace(5)), defined by rank 0 with the others. */
#include <stdio.h>

#include "trace/trace_local.h"

void mpp_trace_check_attributes(OTF2_GlobalDefWriter *w, uint32_t *next)
{
    /* the checks' attributes of message events (trace_local.h) */
    static const struct {
        uint32_t id;
        const char *name, *what;
        OTF2_Type type;
    } checks[] = {
        {TRACE_ATTR_CHECK_BYTES, "mpiprof::check_bytes", "bytes of the message or receive buffer", OTF2_TYPE_INT64},
        {TRACE_ATTR_SIG_HASH, "mpiprof::sig_hash", "hash of the message's type signature", OTF2_TYPE_UINT64},
        {TRACE_ATTR_SIG_LENGTH, "mpiprof::sig_length", "basic elements of the type signature", OTF2_TYPE_UINT64},
        {TRACE_ATTR_SIG_BASIC, "mpiprof::sig_basic", "class of its elements (-1: several)", OTF2_TYPE_INT32},
        {TRACE_ATTR_TRUNCATED, "mpiprof::truncated", "the receive returned MPI_ERR_TRUNCATE", OTF2_TYPE_UINT8}};
    for (size_t i = 0; i < sizeof checks / sizeof *checks; i++)
        OTF2_GlobalDefWriter_WriteAttribute(w, checks[i].id, mpp_trace_string_def(w, next, checks[i].name),
                                            mpp_trace_string_def(w, next, checks[i].what), checks[i].type);
    /* a collective member's values (check/collcheck.h rows) */
    for (int k = 0; k < TRACE_CC_ROWS; k++) {
        char name[64];
        snprintf(name, sizeof name, "mpiprof::coll_row:%d", k);
        OTF2_GlobalDefWriter_WriteAttribute(
            w, TRACE_ATTR_CC_ROWS + (uint32_t)k, mpp_trace_string_def(w, next, name),
            mpp_trace_string_def(w, next,
                                 "row of the values a collective's members must agree "
                                 "on (INT64_MIN: none)"),
            OTF2_TYPE_INT64);
    }
    /* (ids in order: OTF2 wants them so) */
    static const char *const channel[3][2] = {
        {"mpiprof::recv_comm", "communicator of the receive request"},
        {"mpiprof::recv_source", "source rank the receive request was posted for (-1: any)"},
        {"mpiprof::recv_tag", "tag the receive request was posted for (-1: any)"}};
    static const OTF2_Type types[3] = {OTF2_TYPE_COMM, OTF2_TYPE_INT32, OTF2_TYPE_INT32};
    for (int k = 0; k < 3; k++)
        OTF2_GlobalDefWriter_WriteAttribute(w, TRACE_ATTR_RECV_COMM + (uint32_t)k,
                                            mpp_trace_string_def(w, next, channel[k][0]),
                                            mpp_trace_string_def(w, next, channel[k][1]), types[k]);
}
