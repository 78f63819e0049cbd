/* Trace mode (MPIPROF_TRACE=on), the wrappers' side: every MPI call, its
 * messages, collective operations and requests, and every interval and
 * replicated-code mark, recorded as OTF2 events (trace_events.c) into the
 * run's archive (trace/trace.h; the conventions are in man/mpiprof-trace.5),
 * and the lifecycle's part (trace_mode.c).  The dynamic profile is
 * collected as without it.
 *
 * Hooks run after mpp_call_end (the call's cell, hence its SRC point, is
 * known) and write a call's events in time order: Enter at its entry,
 * the events of its entry (send, receive request, collective begin), those
 * of its return (receive, completions, collective end), Leave.  Calls the
 * protocol does not count (made by the MPI library itself: no cell) are not
 * traced; calls made while MPI_Pcontrol(0) pauses collection are, without
 * an SRC point, so that their messages still pair up.  Each thread
 * writes its own OTF2 location: no lock, no allocation once its call sites,
 * communicators and requests are known; a system call only when its buffer
 * is full and OTF2 flushes it (a BufferFlush event).  Built without libotf2,
 * the hooks are never reached (mpp_trace_on stays 0) and MPI_Init refuses
 * trace mode with a warning. */
#ifndef MPP_TRACE_HOOKS_H
#define MPP_TRACE_HOOKS_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "accumulate/intervals.h"
#include "attribute/thread_state.h"
#include "autoconf.h"
#include "context/runinfo.h"
#include "intercept/wrapper_support.h"
#include "records/partial.h"
#include "reduce/clocksync.h"
#include "trace/trace.h"

/* Kinds of marks (mpp_trace_mark). */
enum { MPP_TRACE_INTERVAL_BEGIN, MPP_TRACE_INTERVAL_END, MPP_TRACE_SEQ_BEGIN, MPP_TRACE_SEQ_END };

/* The lifecycle's part (src/intercept/trace_mode.c, built with or without
 * libotf2).  At MPI_Init, collective: rank 0's MPIPROF_TRACE and
 * MPIPROF_TRACE_BUFFER for every process, the archive <protocol>.otf2 opened
 * (an earlier one replaced when `overwrite`), or trace mode refused with a
 * warning; run->trace says which (the Trace parameter). */
void mpp_trace_mode_start(MPI_Comm comm, int rank, int nprocs, const char *protocol, int overwrite,
                          mpp_run_info_t *run);
/* At MPI_Finalize, collective, before the protocol (which gives the
 * archive's size): mpp_trace_finish, its outcome in run.  The alignments:
 * NULL (at_init) when the clocks were not aligned. */
void mpp_trace_mode_finish(MPI_Comm comm, uint64_t end, const mpp_clock_alignment_t *at_init,
                           const mpp_clock_alignment_t *at_finalize, mpp_run_info_t *run);
/* A partial protocol's writer (faults.c, no MPI call): the archive made
 * readable up to this process's end (mpp_trace_rescue), and what the
 * partial protocol's Trace parameter says of it, in run; `end` says how
 * the process ended, at_init its clock alignment (NULL: none). */
void mpp_trace_mode_partial(const mpp_process_end_t *end, const mpp_clock_alignment_t *at_init, mpp_run_info_t *run);

#if MPIPROF_HAVE_OTF2

/* Hooks of the generated wrappers (trace.h's order above). */
void mpp_trace_enter(mpp_call_t *c);
/* Leave, with the call's bytes as the protocol counts them (sent,
 * received: 0 for calls without any). */
void mpp_trace_leave(mpp_call_t *c, int64_t sent, int64_t received);
/* A send of `bytes`: blocking, or (nonblocking) MPI_Isend & co., whose
 * request the call created. */
/* count and type: the message's, for the checks' attributes (mpiprof-trace(5)). */
void mpp_trace_send(mpp_call_t *c, MPI_Comm comm, int dest, int tag, int64_t bytes, int nonblocking, int64_t count,
                    MPI_Datatype type);
/* A blocking receive (of `bytes` posted) that received the message of status. */
/* count and type: the receive buffer's (likewise below). */
void mpp_trace_recv(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, int64_t bytes, int64_t count,
                    MPI_Datatype type);
/* A blocking receive that returned MPI_ERR_TRUNCATE, with the checks on:
 * its message, for their attributes alone (mpiprof::truncated). */
void mpp_trace_recv_truncated(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, int64_t count,
                              MPI_Datatype type);
/* The send of an MPI_Sendrecv that returned MPI_ERR_TRUNCATE, likewise. */
void mpp_trace_send_truncated(mpp_call_t *c, MPI_Comm comm, int dest, int tag, int64_t count, MPI_Datatype type);
/* A wait or test that returned `ret`, an error (a truncation, or
 * MPI_ERR_IN_STATUS), with the checks on: the receive requests that took
 * their message all the same, for the checks alone (mpiprof::truncated). */
void mpp_trace_completed_truncated(mpp_call_t *c, int ret, const mpp_reqset_t *set, int n, const int *which,
                                   const MPI_Status *statuses);
/* A receive request the call created (MPI_Irecv, MPI_Isendrecv). */
/* A receive request from `source` (MPI_PROC_NULL: none is recorded). */
void mpp_trace_irecv(mpp_call_t *c, MPI_Comm comm, int source, int tag, int64_t bytes, int64_t count,
                     MPI_Datatype type);
/* A collective operation on comm (root: MPI_PROC_NULL when it has none). */
void mpp_trace_collective(mpp_call_t *c, MPI_Comm comm, int root, int64_t sent, int64_t received, int nonblocking);
/* `n` requests of the set completed (indexes `which`, NULL: 0..n-1), with
 * their statuses (MPI_STATUSES_IGNORE: unknown). */
void mpp_trace_completed(mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which, const MPI_Status *statuses);
/* A persistent request the call created (MPI_Send_init & co.: a send to
 * `peer` with `tag`; MPI_Recv_init: a receive from `peer`; MPI_*_init of
 * a collective: `peer` is its root, MPI_PROC_NULL when it has none). */
enum { MPP_TRACE_PSEND, MPP_TRACE_PRECV, MPP_TRACE_PCOLLECTIVE };
void mpp_trace_persistent(mpp_call_t *c, int kind, MPI_Comm comm, int peer, int tag, int64_t count,
                          MPI_Datatype type);
/* MPI_Start, MPI_Startall: each request of the set started, recorded as
 * its nonblocking form would be (MpiIsend, MpiIrecvRequest,
 * NonBlockingCollectiveRequest). */
void mpp_trace_start_requests(mpp_call_t *c, const mpp_reqset_t *set);
/* MPI_Request_free: the requests of the set are forgotten. */
void mpp_trace_freed(const mpp_reqset_t *set);
/* A probe that found a message (status; message: a matched probe's, or
 * MPI_MESSAGE_NULL). */
void mpp_trace_probe(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, MPI_Message message);
/* A matched receive of the message the thread's last probe found:
 * blocking (MPI_Mrecv: status, `bytes` posted) or (MPI_Imrecv) a receive
 * request the call created. */
void mpp_trace_mrecv(mpp_call_t *c, MPI_Message message, const MPI_Status *status, int64_t bytes, int64_t count,
                     MPI_Datatype type);
void mpp_trace_imrecv(mpp_call_t *c, MPI_Message message, int64_t bytes, int64_t count, MPI_Datatype type);

/* An interval or replicated-code mark at `now` (name: an interval's, NULL
 * for an end); made under api.c's lock. */
void mpp_trace_mark(int kind, const char *name, const mpp_mark_t *mark, uint64_t now);

#else

static inline void mpp_trace_enter(mpp_call_t *c) { (void)c; }
static inline void mpp_trace_leave(mpp_call_t *c, int64_t sent, int64_t received)
{
    (void)c, (void)sent, (void)received;
}
static inline void mpp_trace_send(mpp_call_t *c, MPI_Comm comm, int dest, int tag, int64_t bytes, int nonblocking,
                                  int64_t count, MPI_Datatype type)
{
    (void)c, (void)comm, (void)dest, (void)tag, (void)bytes, (void)nonblocking, (void)count, (void)type;
}
static inline void mpp_trace_recv(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, int64_t bytes,
                                  int64_t count, MPI_Datatype type)
{
    (void)c, (void)comm, (void)status, (void)bytes, (void)count, (void)type;
}
static inline void mpp_trace_recv_truncated(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, int64_t count,
                                            MPI_Datatype type)
{
    (void)c, (void)comm, (void)status, (void)count, (void)type;
}
static inline void mpp_trace_send_truncated(mpp_call_t *c, MPI_Comm comm, int dest, int tag, int64_t count,
                                            MPI_Datatype type)
{
    (void)c, (void)comm, (void)dest, (void)tag, (void)count, (void)type;
}
static inline void mpp_trace_completed_truncated(mpp_call_t *c, int ret, const mpp_reqset_t *set, int n,
                                                 const int *which, const MPI_Status *statuses)
{
    (void)c, (void)ret, (void)set, (void)n, (void)which, (void)statuses;
}
static inline void mpp_trace_irecv(mpp_call_t *c, MPI_Comm comm, int source, int tag, int64_t bytes, int64_t count,
                                   MPI_Datatype type)
{
    (void)c, (void)comm, (void)source, (void)tag, (void)bytes, (void)count, (void)type;
}
static inline void mpp_trace_collective(mpp_call_t *c, MPI_Comm comm, int root, int64_t sent, int64_t received,
                                        int nonblocking)
{
    (void)c, (void)comm, (void)root, (void)sent, (void)received, (void)nonblocking;
}
static inline void mpp_trace_completed(mpp_call_t *c, const mpp_reqset_t *set, int n, const int *which,
                                       const MPI_Status *statuses)
{
    (void)c, (void)set, (void)n, (void)which, (void)statuses;
}
enum { MPP_TRACE_PSEND, MPP_TRACE_PRECV, MPP_TRACE_PCOLLECTIVE };
static inline void mpp_trace_persistent(mpp_call_t *c, int kind, MPI_Comm comm, int peer, int tag, int64_t count,
                                        MPI_Datatype type)
{
    (void)c, (void)kind, (void)comm, (void)peer, (void)tag, (void)count, (void)type;
}
static inline void mpp_trace_start_requests(mpp_call_t *c, const mpp_reqset_t *set) { (void)c, (void)set; }
static inline void mpp_trace_freed(const mpp_reqset_t *set) { (void)set; }
static inline void mpp_trace_probe(mpp_call_t *c, MPI_Comm comm, const MPI_Status *status, MPI_Message message)
{
    (void)c, (void)comm, (void)status, (void)message;
}
static inline void mpp_trace_mrecv(mpp_call_t *c, MPI_Message message, const MPI_Status *status, int64_t bytes,
                                   int64_t count, MPI_Datatype type)
{
    (void)c, (void)message, (void)status, (void)bytes, (void)count, (void)type;
}
static inline void mpp_trace_imrecv(mpp_call_t *c, MPI_Message message, int64_t bytes, int64_t count,
                                    MPI_Datatype type)
{
    (void)c, (void)message, (void)bytes, (void)count, (void)type;
}
static inline void mpp_trace_mark(int kind, const char *name, const mpp_mark_t *mark, uint64_t now)
{
    (void)kind, (void)name, (void)mark, (void)now;
}

#endif

#endif
