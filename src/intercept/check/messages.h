/* The checks of point-to-point messages (correctness.md: wrong-send-size,
 * incorrect-send-size, wrong-datatype, recv-checksum, nonpaired-send,
 * nonpaired-recv), carried by the wait-state analysis's exchange
 * (waitstates/exchange.h): each send sends its receiver a record of the
 * message (mpp_chk_record_t: its size, at MPIPROF_CHECK=full its type
 * signature, with ,checksum a checksum of its bytes, and the sender's call
 * site as a token the receiver resolves in its own address space,
 * check/sites.h), in batches of their own beside the wait states' send
 * records; the receiver pairs each message it received with its record
 * (check/msgpair.h) and compares them with its receive at the receive's
 * call, naming the send's call as the other side.  At MPI_Finalize the
 * records no receive took are nonpaired-send, reported by the process
 * they were sent to at the send's call site (its stack is that one frame:
 * the receiver knows no more of it), and receive requests still pending
 * that no message could have matched are nonpaired-recv.
 *
 * Needs the wait-state analysis (MPIPROF_WAITSTATES=on; else said in
 * Warnings, waitstates/run.c).  The Fortran bindings' wrappers call the
 * same hooks; a buffer they cannot read (MPP_NO_BUFFER: an mpi_f08 array
 * section, Open MPI's Fortran) has no checksum.  Where the pairing is no
 * longer sure (a receive's status not seen, a send cancelled), the checks
 * go quiet: no message finding after it, and Warnings say why. */
#ifndef MPP_CHECK_MESSAGES_H
#define MPP_CHECK_MESSAGES_H

#include <mpi.h>
#include <stdint.h>

#include "attribute/thread_state.h"
#include "context/config.h" /* MPP_CHECK_*, for MPP_CHECKS_ON in the wrappers */
#include "intercept/wrapper_support.h"

/* What travels per message (64 bytes). */
typedef struct {
    uint32_t comm; /* the communicator's channel (commids.h) */
    int32_t tag;
    uint32_t fid;    /* the send's function */
    uint32_t module; /* its call site (check/sites.h; 0: none) */
    uint64_t offset;
    int64_t bytes; /* the message's size */
    uint64_t sig_hash, sig_length;
    int32_t sig_basic; /* -2: not known (or not at this level) */
    uint32_t flags;    /* MPP_CHK_RECORD_* */
    uint64_t checksum;
} mpp_chk_record_t;

enum { MPP_CHK_RECORD_CHECKSUM = 1 };

/* The bytes of a record at the checks' level (0: off, no record). */
int mpp_chk_msg_record_bytes(int level);
/* MPI_Init, once the wait-state analysis started; MPI_Finalize, once its
 * exchange ended (the findings of what is left). */
void mpp_chk_msg_start(int level);
void mpp_chk_msg_end(void);

/* --- hooks of the generated wrappers (the call succeeded; a receive's
 * `ret` may be a truncation, the message taken all the same) --- */
void mpp_chk_send(const mpp_call_t *c, MPI_Comm comm, int dest, int tag, const void *buf, int64_t count,
                  MPI_Datatype type);
/* The send of MPI_Sendrecv_replace and MPI_Isendrecv_replace: after the
 * call its buffer holds the message received, so the record carries no
 * checksum (the receiver compares none). */
void mpp_chk_send_replaced(const mpp_call_t *c, MPI_Comm comm, int dest, int tag, int64_t count, MPI_Datatype type);
void mpp_chk_send_init(const mpp_call_t *c, MPI_Comm comm, int dest, int tag, const void *buf, int64_t count,
                       MPI_Datatype type, MPI_Request request);
void mpp_chk_recv(const mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, void *buf, int64_t count,
                  MPI_Datatype type, int ret);
void mpp_chk_irecv(const mpp_call_t *c, MPI_Comm comm, int source, int tag, void *buf, int64_t count,
                   MPI_Datatype type, MPI_Request request, int persistent);
void mpp_chk_mrecv(const mpp_call_t *c, MPI_Message message, const MPI_Status *status, void *buf, int64_t count,
                   MPI_Datatype type, int ret);
void mpp_chk_imrecv(const mpp_call_t *c, MPI_Message message, void *buf, int64_t count, MPI_Datatype type,
                    MPI_Request request);
void mpp_chk_completed(const mpp_call_t *c, int ret, const mpp_reqset_t *set, int n, const int *which,
                       const MPI_Status *statuses);
void mpp_chk_started(const mpp_call_t *c, const mpp_reqset_t *set);
void mpp_chk_freed(const mpp_reqset_t *set);
/* MPI_Cancel: a receive's shows in its status; a send's message may then
 * never come (its record stays): the message checks go quiet. */
void mpp_chk_cancelled(const mpp_reqset_t *set);
/* Whether a receive's return code took its message: success or truncation. */
int mpp_chk_took_message(int ret);
/* Whether call c's error is the truncation of receives the pairing took
 * (each to be a wrong-send-size, with its send: MPI_ERR_TRUNCATE, or
 * MPI_ERR_IN_STATUS whose every failed element is one): no mpi-error
 * besides.  Asked after the call's mpp_chk_recv, _mrecv or _completed. */
int mpp_chk_truncation_reported(const mpp_call_t *c);

#endif
