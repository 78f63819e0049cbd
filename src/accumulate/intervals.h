/* The interval tree of this process.  Interval 0 is the whole program (from
 * MPI_Init's return to MPI_Finalize's entry); an interval that begins while
 * another is open is its child.  One interval is identified by name, begin
 * position and parent.  Times and CPU usage are accumulated at interval
 * boundaries only, never per MPI call; MPI calls read only
 * mpp_current_interval.  Memory is bounded: at most `max_intervals`
 * distinct intervals and `max_nesting` open at once; marks past either cap
 * are folded into the enclosing interval with one warning. */
#ifndef MPP_INTERVALS_H
#define MPP_INTERVALS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "records/interval.h"

extern mpp_interval_t *mpp_intervals;
extern uint32_t mpp_nintervals;
/* Interval every MPI call is attributed to (innermost open one). */
extern _Atomic uint32_t mpp_current_interval;

/* Where a mark is in the program: file and line (C macros), or the return
 * address of the call (Fortran, MPI_Pcontrol), resolved only when needed. */
typedef struct {
    const char *file;
    int line;
    uintptr_t site;
} mpp_mark_t;

/* Set by the lifecycle: writes "file:line" for a return address (libdw). */
extern void (*mpp_describe_site)(uintptr_t site, char *out, unsigned size);

/* Create interval 0 and open it; caps on distinct intervals and nesting. */
int mpp_intervals_init(uint32_t max_intervals, uint32_t max_nesting, uint64_t now);

/* Begin an interval (child of the innermost open one).  Returns the
 * interval, or -1 when folded into the enclosing one. */
int mpp_interval_begin(const char *name, const mpp_mark_t *mark, uint64_t now, uintptr_t thread);
/* End the innermost open interval; with a name (MPI_Pcontrol), the open
 * interval of that name, closing what is nested in it.  Misuse (nothing
 * open, unknown name, other thread) gets one warning naming the mark. */
void mpp_interval_end(const char *name, const mpp_mark_t *mark, uint64_t now, uintptr_t thread);

/* Replicated code: time between begin and end counts as insufficient
 * parallelism in every open interval.  Nested marks count once. */
void mpp_seq_begin(const mpp_mark_t *mark, uint64_t now);
void mpp_seq_end(const mpp_mark_t *mark, uint64_t now);

/* Close every open interval at `now` (MPI_Finalize), with a warning naming
 * those the program left open. */
void mpp_intervals_close_all(uint64_t now);
/* Before that, for a process ending without MPI_Finalize: what the
 * warnings name instead of MPI_Finalize, and the CPU times (user, system
 * seconds) to close with instead of reading them (NULL: read them). */
void mpp_intervals_end_at(const char *label, const double *cpu);

/* Where interval executions end, for windows of a process's time line
 * that may not reach past the end of the interval they count in
 * (Potential sync and Time variation: characteristics.md): every begin and
 * end of an interval is logged, in order, in a ring.  A call keeps its
 * place (the log's position then and the level of the interval it counts
 * in); the execution it was in ends at the first end logged after that
 * position of an interval at that level or above.  Memory: the ring's
 * capacity, 16 bytes an entry; its writer is the thread that marks, and
 * a reader is told when the ring no longer holds what it asks for. */
typedef struct {
    uint64_t position; /* boundaries logged before it */
    uint32_t level;    /* of the innermost open interval then */
} mpp_interval_place_t;

/* The ring's capacity (0: no log); call before mpp_intervals_init, which
 * empties it.  -1 when out of memory (no log then). */
int mpp_interval_log_init(size_t capacity);
/* The place of a call made now. */
mpp_interval_place_t mpp_interval_place(void);
/* The place of a call that returned at `tick`, made after every boundary
 * logged before that instant (a boundary at its instant comes after it:
 * the wrapper read the clock first); for a log that holds every boundary
 * of the process (the trace analyzer's). */
mpp_interval_place_t mpp_interval_place_at(uint64_t tick);
/* The end of the interval execution a call at `place` was in: 1 and its
 * tick, 0 while that execution is still open, -1 when the ring no longer
 * holds it. */
int mpp_interval_end_of(mpp_interval_place_t place, uint64_t *tick);
/* Places pack into 64 bits, as a collective instance keeps them. */
static inline uint64_t mpp_interval_place_pack(mpp_interval_place_t p)
{
    return p.position << 16 | (p.level < 0xffff ? p.level : 0xffff);
}
static inline mpp_interval_place_t mpp_interval_place_unpack(uint64_t v)
{
    return (mpp_interval_place_t){v >> 16, (uint32_t)(v & 0xffff)};
}

/* Under MPI_THREAD_MULTIPLE several threads are inside MPI at once, and the
 * sum of their call times can exceed the wall time.  A process's time in MPI
 * is then the wall time during which at least one of its threads is inside
 * MPI: the wrappers report entries and exits (a short spinlock, only in this
 * mode), and the profile scales the categories to it. */
extern int mpp_union_tracking; /* the wrappers report entries and exits now */
extern int mpp_union_measured; /* this run measured it (MPI_THREAD_MULTIPLE) */
void mpp_union_enter(uint64_t now);
void mpp_union_leave(uint64_t now);

/* User and system CPU seconds of the process so far. */
void mpp_process_cpu(double *user, double *sys);

#endif
