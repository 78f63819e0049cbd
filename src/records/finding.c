#include <string.h>

#include "records/finding.h"

#define E MPP_FINDING_ERROR
#define W MPP_FINDING_WARNING

const mpp_finding_kind_info_t mpp_finding_kinds[MPP_NFIND] = {
    [MPP_FIND_ABEND] = {"abend", E, "the process ended abnormally (a signal)"},
    [MPP_FIND_ABORT] = {"abort", E, "MPI_Abort was called, or the process was stopped from outside"},
    [MPP_FIND_INCOMPLETE_CALL] = {"incomplete-call", E, "the process ended inside an MPI call that never returned"},
    [MPP_FIND_UNFINISHED_SEND] =
        {"unfinished-send", E,
         "a nonblocking send was never completed before MPI_Finalize or the end of the process"},
    [MPP_FIND_UNFINISHED_RECV] = {"unfinished-recv", E,
                                  "a nonblocking receive was never completed before MPI_Finalize or the end of the "
                                  "process"},
    [MPP_FIND_NONFREED_REQUEST] = {"nonfreed-request", W, "a request still allocated at MPI_Finalize"},
    [MPP_FIND_OVERLAPPING_BUFFERS] = {"overlapping-buffers", E,
                                      "a buffer of a call overlaps the buffer of a pending nonblocking operation, "
                                      "one of them written"},
    [MPP_FIND_SENDRECV_OVERLAP] = {"sendrecv-overlap", E, "the send and receive buffers of one call overlap"},
    [MPP_FIND_SEND_BUFFER_MODIFIED] = {"send-buffer-modified", E,
                                       "the buffer of a pending nonblocking send changed before it completed"},
    [MPP_FIND_ACTIVE_REQUEST_FREE] = {"active-request-free", W, "MPI_Request_free of an active request"},
    [MPP_FIND_REQUEST_CANCEL] = {"request-cancel", W, "MPI_Cancel of a point-to-point operation"},
    [MPP_FIND_INVALID_ARGUMENT] = {"invalid-argument", E, "an argument MPI forbids"},
    [MPP_FIND_RESOURCE_LEAK] = {"resource-leak", W, "handles created by the program and not freed at MPI_Finalize"},
    [MPP_FIND_THREAD_LEVEL] = {"thread-level", E, "MPI called from a thread the thread level does not allow"},
    [MPP_FIND_CALL_OUTSIDE_MPI] = {"call-outside-mpi", E, "an MPI call before MPI_Init or after MPI_Finalize"},
    [MPP_FIND_MPI_ERROR] = {"mpi-error", E, "MPI returned or raised an error for a call"},
    [MPP_FIND_RMA_EPOCH] = {"rma-epoch", E, "a one-sided operation outside an access epoch of its window"},
    [MPP_FIND_RMA_CONFLICT] = {"rma-conflict", E, "conflicting one-sided accesses to the same bytes in one epoch"},
    [MPP_FIND_NONPAIRED_SEND] = {"nonpaired-send", E, "a message sent that no receive took by the end of the run"},
    [MPP_FIND_NONPAIRED_RECV] = {"nonpaired-recv", E, "a receive that no message matched by the end of the run"},
    [MPP_FIND_WRONG_SEND_SIZE] = {"wrong-send-size", E, "the message is longer than the receive buffer"},
    [MPP_FIND_INCORRECT_SEND_SIZE] = {"incorrect-send-size", W, "the message is shorter than the receive buffer"},
    [MPP_FIND_WRONG_DATATYPE] = {"wrong-datatype", E,
                                 "the type signatures of the send and the matching receive differ"},
    [MPP_FIND_RECV_CHECKSUM] = {"recv-checksum", E, "the data received differs from the data sent"},
    [MPP_FIND_INCOMPLETE_COLLECTIVE] = {"incomplete-collective", E,
                                        "not every member of the communicator entered the collective operation"},
    [MPP_FIND_UNFINISHED_COLLECTIVE] = {"unfinished-collective", E, "every member entered, not every member left"},
    [MPP_FIND_COLLECTIVE_MISMATCH] = {"collective-mismatch", E,
                                      "members called different collective operations at the same position"},
    [MPP_FIND_DIFFERENT_ROOTS] = {"different-roots", E, "members gave different roots"},
    [MPP_FIND_DIFFERENT_REDUCTIONS] = {"different-reductions", E, "members gave different reduction operations"},
    [MPP_FIND_COLLECTIVE_SIZE] = {"collective-size", E, "members' send and receive sizes disagree"},
    [MPP_FIND_COLLECTIVE_DATATYPE] = {"collective-datatype", E, "members' type signatures disagree"},
    [MPP_FIND_REAL_DEADLOCK] = {"real-deadlock", E, "a cycle of processes each waiting in an MPI call for the next"},
    [MPP_FIND_POTENTIAL_DEADLOCK] =
        {"potential-deadlock", E, "such a cycle in which a wait completes only with buffering MPI does not promise"},
    [MPP_FIND_REAL_HANG] = {"real-hang", E, "a chain of waiting processes whose last one has ended"},
    [MPP_FIND_POTENTIAL_HANG] = {"potential-hang", E, "such a chain with at least one potential wait in it"},
};

int mpp_finding_kind_of(const char *name)
{
    for (int k = 0; k < MPP_NFIND; k++)
        if (!strcmp(mpp_finding_kinds[k].name, name))
            return k;
    return -1;
}
