/* The wait-state analysis's own messages, all on the profiler's
 * communicator (a duplicate of the profiler's world, world.h); none on
 * the program's communicators.
 *
 *   stream      send records (waitstates.h), in batches per destination,
 *               MPI_Issend; receivers replay them in order.
 *   reductions  a batch of a communicator's collective instants, reduced
 *               (maximum) over its members along a binomial tree
 *               (treereduce.h): a member's part goes up, the result comes
 *               down, each message naming its communicator id and batch.
 *   checks      with the correctness checks between processes on, their
 *               send records (intercept/check/messages.h), a stream as
 *               the first, of records of a size chosen at MPI_Init.
 *
 * Every receive is one posted MPI_Irecv per kind (any source), tested from
 * the hooks; sends go out with MPI_Issend.  Under MPI_THREAD_MULTIPLE the
 * caller's lock guards the bookkeeping, and no MPI call is made with it
 * held: a hook queues what must be sent while it holds the lock, then
 * sends after giving it (mpp_wsx_flush; one thread sends at a time, in
 * queue order, so that a destination gets its batches in order); one
 * thread at a time tests a receive or the sends in flight.
 *
 * At MPI_Finalize (mpp_wsx_finish) every process sends what is left and
 * keeps receiving and forwarding until no message of the analysis is in
 * flight anywhere: rounds of a sum, over the same kind of tree, of the
 * messages each process has sent and received; two rounds in a row with
 * the same totals, sent equal to received, end the exchange (the
 * four-counter termination detection of Mattern, 1987).  Reductions that
 * cannot finish (members that disagreed on their batches) then end as
 * dropped instead of blocking the run. */
#ifndef MPP_WS_EXCHANGE_H
#define MPP_WS_EXCHANGE_H

#include <mpi.h>
#include <stdint.h>

#include "accumulate/waitstates/treereduce.h"
#include "accumulate/waitstates/waitstates.h"
#include "util/mt_lock.h"

typedef struct {
    /* n send records of the stream from world rank source (lock held) */
    void (*replay)(int source, const mpp_send_record_t *records, int n);
    /* reduction seq given with `user` ended: its n values, or NULL when it
     * was dropped (lock held) */
    void (*result)(void *user, uint64_t seq, const int64_t *values, int n);
} mpp_wsx_callbacks_t;

/* The sequence number of a communicator's one reduction of its counts of
 * collective calls at its end (batches count from 0): the checks'. */
#define MPP_WS_COUNT_SEQ UINT64_MAX

typedef struct {
    uint64_t batches, batch_bytes; /* stream batches sent and their bytes */
    uint64_t dropped;              /* reductions that ended without a result */
} mpp_wsx_stats_t;

/* batch: records per stream batch; a reduction has at most `width` x
 * batch values; check_records: bytes of a check record (0: no such
 * stream).  Returns 0, -1 when out of memory (nothing to undo then). */
int mpp_wsx_start(MPI_Comm comm, int batch, int width, int check_records, mpp_mt_lock_t *lock,
                  mpp_wsx_callbacks_t callbacks);
/* Where the check records go: n records from world rank source (lock held). */
void mpp_wsx_check_replay(void (*replay)(int source, const unsigned char *records, int n));
/* Stop at once (right after start, when it did not start everywhere). */
void mpp_wsx_cancel(void);
/* MPI_Finalize: the end of the exchange described above. */
void mpp_wsx_finish(void);
void mpp_wsx_get_stats(mpp_wsx_stats_t *out);

/* --- with the lock held --- */
/* Where the next send record for each world rank goes in the batch being
 * filled for it, and the batch's last record (which sends it: not on the
 * inline path); both NULL when none is filled.  [world size] */
typedef struct {
    mpp_send_record_t *next, *last;
} mpp_wsx_cursor_t;
extern mpp_wsx_cursor_t *mpp_wsx_cursors;
extern int mpp_wsx_world_size;
int mpp_wsx_record_send_else_locked(int dest, uint32_t channel, int32_t tag, int64_t entry);
/* A send record for world rank dest; 0 when not recorded (no such rank,
 * out of memory). */
static inline int mpp_wsx_record_send_locked(int dest, uint32_t channel, int32_t tag, int64_t entry)
{
    if ((unsigned)dest < (unsigned)mpp_wsx_world_size) {
        mpp_wsx_cursor_t *c = &mpp_wsx_cursors[dest];
        if (c->next < c->last) {
            *c->next++ = (mpp_send_record_t){channel, tag, entry};
            return 1;
        }
    }
    return mpp_wsx_record_send_else_locked(dest, channel, tag, entry);
}
/* A check record (check_records bytes) for world rank dest; 0 when not
 * recorded. */
int mpp_wsx_check_record_locked(int dest, const void *record);
/* This process's values of reduction seq of communicator comm (a member,
 * at `tree`); `user` comes back to the result callback. */
void mpp_wsx_reduce_locked(uint64_t comm, uint64_t seq, int n, const int64_t *values, const mpp_tree_t *tree,
                           void *user);
/* Reductions not ended yet (worth testing for their messages). */
extern mpp_reductions_t mpp_wsx_reductions; /* this process's reductions in progress */
static inline int mpp_wsx_pending_locked(void) { return mpp_wsx_reductions.count > 0; }
/* Something was queued by this thread: call mpp_wsx_flush after giving the lock. */
extern __thread int mpp_wsx_queued_here __attribute__((tls_model("initial-exec")));
static inline int mpp_wsx_queued(void) { return mpp_wsx_queued_here; }

/* --- without the lock --- */
/* Send what this and other threads queued (cheap when nothing was). */
void mpp_wsx_flush(void);
/* Test the stream's receive (replaying what came) and the sends in flight. */
void mpp_wsx_progress_stream(void);
/* Test the reductions' receive (forwarding what must go on). */
void mpp_wsx_progress_reductions(void);

#endif
