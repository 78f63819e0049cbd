/* thread-level (correctness.md): under MPI_THREAD_SINGLE or FUNNELED, a
 * call from another thread than the one that called MPI_Init*; under
 * MPI_THREAD_SERIALIZED, a call entered while another thread is inside
 * one.  (MPI_THREAD_MULTIPLE, or MPI started by sessions: nothing.)
 *
 * The wrappers' inline fast path stays as it is: a thread's first call
 * goes through the general begin (attribute/thread_state.h), which calls
 * the check; once a second thread has called MPI, every call of the run
 * takes the general begin (mpp_collect_general), which checks it.  A
 * program whose MPI calls all come from one thread pays nothing per call.
 * Under SERIALIZED a call looks at the other threads' entry counters
 * (relaxed atomics the owners write at each call's entry and return):
 * after a fence, so that of two threads that enter at once at least one
 * sees the other; a thread that returned before another entered (the
 * program's own synchronization orders them) is never seen inside. */
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gen/function_table.h"
#include "intercept/check/local.h"
#include "intercept/check/run.h"

static int level;           /* MPI_THREAD_* provided */
static long main_tid;       /* the thread that called MPI_Init* */
static _Atomic int crowded; /* another thread has called MPI */

static const char *level_name(int provided)
{
    return provided == MPI_THREAD_SINGLE     ? "MPI_THREAD_SINGLE"
           : provided == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED"
                                             : "MPI_THREAD_SERIALIZED";
}

/* Another thread inside an MPI call now: its kernel thread id, else 0. */
static long other_inside(const mpp_thread_t *self)
{
    atomic_thread_fence(memory_order_seq_cst); /* this thread's entry before the others' counters */
    for (mpp_thread_t *t = mpp_threads(); t; t = t->next)
        if (t != self && mpp_thread_in_call(t))
            return t->tid ? t->tid : -1;
    return 0;
}

static void check_call(mpp_call_t *c, int attached)
{
    mpp_thread_t *t = c->thread;
    if (attached && t->tid != main_tid && !atomic_exchange(&crowded, 1))
        mpp_collect_general(); /* from now on every call comes here */
    if (!atomic_load_explicit(&crowded, memory_order_relaxed) ||
        (c->fid < MPP_NFUNCTIONS && (mpp_functions[c->fid].check & MPP_FCHECK_ANYTHREAD)))
        return;
    if (level < MPI_THREAD_SERIALIZED) {
        if (t->tid != main_tid)
            mpp_check_report(c, MPP_FIND_THREAD_LEVEL, -1, 0, 0,
                             "%s: called from thread %ld, not from %ld (MPI_Init's)", level_name(level), t->tid,
                             main_tid);
        return;
    }
    long other = other_inside(t);
    if (other)
        mpp_check_report(c, MPP_FIND_THREAD_LEVEL, -1, 0, 0,
                         "MPI_THREAD_SERIALIZED: called from thread %ld while thread %ld was inside an MPI call",
                         t->tid, other);
}

void mpp_check_threads_start(int provided)
{
    level = provided;
    main_tid = (long)syscall(SYS_gettid);
    atomic_store(&crowded, 0);
    int on = mpp_check_level && provided < MPI_THREAD_MULTIPLE;
    atomic_store(&mpp_call_check_thread, on ? check_call : NULL);
}

void mpp_check_threads_end(void) { atomic_store(&mpp_call_check_thread, NULL); }
