#include <stdio.h>

#include "check/msgcheck.h"
#include "check/msgpair.h"
#include "records/finding.h"

void mpp_msg_describe_type(mpp_signature_t sig, int64_t bytes, char *out, size_t size)
{
    static const struct {
        int from, to;
        const char *what;
    } classes[] = {{MPP_SIG_ANY, MPP_SIG_ANY, "untyped byte"},
                   {MPP_SIG_CHAR, MPP_SIG_CHAR, "character"},
                   {MPP_SIG_SIGNED, MPP_SIG_UNSIGNED - 1, "-byte integer"},
                   {MPP_SIG_UNSIGNED, MPP_SIG_FLOAT - 1, "-byte unsigned integer"},
                   {MPP_SIG_FLOAT, MPP_SIG_COMPLEX - 1, "-byte floating point number"},
                   {MPP_SIG_COMPLEX, MPP_SIG_LOGICAL - 1, "-byte complex number"},
                   {MPP_SIG_LOGICAL, MPP_SIG_BOOL - 1, "-byte logical"},
                   {MPP_SIG_BOOL, MPP_SIG_BOOL, "bool"},
                   {MPP_SIG_PAIR, MPP_SIG_OTHER - 1, "value-index pair"}};
    const char *what = "elements of several types";
    int n = -1;
    for (size_t i = 0; sig.basic >= 0 && i < sizeof classes / sizeof *classes; i++)
        if (sig.basic >= classes[i].from && sig.basic <= classes[i].to) {
            what = classes[i].what;
            n = what[0] == '-' ? sig.basic - classes[i].from : -1;
        }
    if (n >= 0)
        snprintf(out, size, "%llu x a %d%s, %lld bytes", (unsigned long long)sig.length, n, what, (long long)bytes);
    else
        snprintf(out, size, "%llu x %s, %lld bytes", (unsigned long long)sig.length, what, (long long)bytes);
}

int mpp_msg_verdicts(const mpp_msg_side_t *sent, const mpp_msg_side_t *recv, int tag, int full,
                     mpp_msg_verdict_t out[MPP_MSG_VERDICTS])
{
    int n = 0;
    if (sent->bytes > recv->bytes && recv->bytes >= 0) {
        out[n].kind = MPP_FIND_WRONG_SEND_SIZE;
        snprintf(out[n++].detail, sizeof out->detail,
                 "a message of %lld bytes (tag %d) into a receive buffer of %lld bytes: truncated",
                 (long long)sent->bytes, tag, (long long)recv->bytes);
    } else if (full && sent->bytes >= 0 && sent->bytes < recv->bytes) {
        out[n].kind = MPP_FIND_INCORRECT_SEND_SIZE;
        snprintf(out[n++].detail, sizeof out->detail,
                 "a message of %lld bytes (tag %d) into a receive buffer of %lld bytes", (long long)sent->bytes, tag,
                 (long long)recv->bytes);
    }
    if (full && sent->sig.basic != -2 && recv->sig.basic != -2 &&
        mpp_sig_compare(sent->sig, recv->sig) == MPP_SIG_DIFFER) {
        char a[64], b[64];
        mpp_msg_describe_type(sent->sig, sent->bytes, a, sizeof a);
        mpp_msg_describe_type(recv->sig, recv->bytes, b, sizeof b);
        out[n].kind = MPP_FIND_WRONG_DATATYPE;
        snprintf(out[n++].detail, sizeof out->detail,
                 "the type signatures of the send (%s) and of this receive (%s) differ (tag %d)", a, b, tag);
    }
    return n;
}

void mpp_msg_nonpaired_send(int64_t bytes, int tag, int source, char *out, size_t size)
{
    snprintf(out, size,
             "a message of %lld bytes with tag %d from rank %d was never received (reported by the process it was "
             "sent to)",
             (long long)bytes, tag, source);
}

void mpp_msg_nonpaired_recv(int32_t source, int32_t tag, char *out, size_t size)
{
    char from[32] = "any source", with[32] = "any tag";
    if (source != MPP_MSG_ANY)
        snprintf(from, sizeof from, "rank %d", (int)source);
    if (tag != MPP_MSG_ANY)
        snprintf(with, sizeof with, "tag %d", (int)tag);
    snprintf(out, size, "a receive from %s with %s still pending at MPI_Finalize: no message sent could match it",
             from, with);
}
