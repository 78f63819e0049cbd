/* What a message and the receive that took it disagree on (correctness.md:
 * wrong-send-size, incorrect-send-size, wrong-datatype), and the words
 * the findings say it in: one verdict for the dynamic mode (intercept/
 * check/messages.c, its pairing of send records with receives) and for
 * mpiprof-analyze (replay/, its pairing of a trace's message events), so
 * that both give the same findings.  Pure: no MPI. */
#ifndef MPP_CHECK_MSGCHECK_H
#define MPP_CHECK_MSGCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "check/findings.h"
#include "check/signature.h"

/* One side of a message: a send's bytes, or a receive's buffer's
 * capacity (-1: not known), with its type signature (basic -2: none,
 * the checks below full or a datatype not decoded). */
typedef struct {
    int64_t bytes;
    mpp_signature_t sig;
} mpp_msg_side_t;

typedef struct {
    int kind; /* MPP_FIND_* */
    char detail[MPP_FINDING_DETAIL];
} mpp_msg_verdict_t;

/* The findings of a message sent with tag `tag` into a receive, at
 * MPIPROF_CHECK=full (`full`) or basic: into out[], how many (at most
 * MPP_MSG_VERDICTS), in the order the dynamic mode reports them. */
#define MPP_MSG_VERDICTS 2
int mpp_msg_verdicts(const mpp_msg_side_t *sent, const mpp_msg_side_t *recv, int tag, int full,
                     mpp_msg_verdict_t out[MPP_MSG_VERDICTS]);

/* "4 x a 4-byte integer, 16 bytes": a signature in words. */
void mpp_msg_describe_type(mpp_signature_t sig, int64_t bytes, char *out, size_t size);

/* nonpaired-send's words: a message of `bytes` with `tag` from world rank
 * `source` that no receive took. */
void mpp_msg_nonpaired_send(int64_t bytes, int tag, int source, char *out, size_t size);
/* nonpaired-recv's words: a receive from world rank `source` with `tag`
 * (MPP_MSG_ANY: any) still pending at the end. */
void mpp_msg_nonpaired_recv(int32_t source, int32_t tag, char *out, size_t size);

#endif
