#include <pthread.h>
#include <stdlib.h>

#include "callsite.h"
#include "config.h"
#include "intervals.h"
#include "thread_state.h"
#include "warnings.h"

__thread mpp_thread_t *mpp_tls_thread __attribute__((tls_model("initial-exec")));
_Atomic int mpp_collecting; /* read by every thread; relaxed loads are plain moves */

static mpp_thread_t *all_threads;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

static void stack_bounds(uintptr_t *lo, uintptr_t *hi)
{
    pthread_attr_t attr;
    void *addr;
    size_t size;
    *lo = 0;
    *hi = UINTPTR_MAX;
    if (pthread_getattr_np(pthread_self(), &attr) != 0)
        return;
    if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        *lo = (uintptr_t)addr;
        *hi = (uintptr_t)addr + size;
    }
    pthread_attr_destroy(&attr);
}

mpp_thread_t *mpp_thread_attach(void)
{
    if (!mpp_collecting)
        return NULL;
    mpp_thread_t *t = calloc(1, sizeof *t);
    if (!t || mpp_table_init(&t->table, (size_t)mpp_config.number[MPP_CFG_MAX_SRC],
                             mpp_callsite_depth()) != 0) {
        free(t);
        return NULL;
    }
    stack_bounds(&t->stack_lo, &t->stack_hi);
    pthread_mutex_lock(&registry_lock);
    t->next = all_threads;
    all_threads = t;
    pthread_mutex_unlock(&registry_lock);
    mpp_tls_thread = t;
    return t;
}

mpp_thread_t *mpp_threads(void) { return all_threads; }

void mpp_threads_reset(void)
{
    pthread_mutex_lock(&registry_lock);
    while (all_threads) {
        mpp_thread_t *t = all_threads;
        all_threads = t->next;
        mpp_table_free(&t->table);
        free(t->scratch);
        free(t);
    }
    pthread_mutex_unlock(&registry_lock);
    mpp_tls_thread = NULL;
}

/* Time of a wait/test/start split over the categories of the requests it
 * handled, in proportion to their number. */
static void add_split(mpp_stats_t *s, const mpp_call_t *c, uint64_t dt)
{
    uint64_t total = 0, given = 0;
    int last = -1;
    for (int k = 0; k < MPP_NCAT; k++)
        total += c->by_kind[k];
    for (int k = 0; k < MPP_NCAT; k++) {
        if (!c->by_kind[k])
            continue;
        uint64_t share = dt * c->by_kind[k] / total;
        s->ticks[k] += share;
        given += share;
        last = k;
    }
    s->ticks[last] += dt - given;
}

void mpp_call_end(mpp_call_t *c, void *return_address, void *frame_address)
{
    mpp_thread_t *t = c->thread;
    uintptr_t frames[MPP_MAX_DEPTH];
    mpp_callsite_capture(frames, t->table.depth, return_address, frame_address, t->stack_lo, t->stack_hi);
    uint32_t interval = atomic_load_explicit(&mpp_current_interval, memory_order_relaxed);
    mpp_cell_t *cell = t->last_cell;
    /* A loop calls the same site again and again: try the previous cell
     * before hashing (valid while the table has not grown since). */
    if (!(cell && t->last_generation == t->table.generation && cell->fid == c->fid &&
          cell->interval == interval && mpp_same_frames(cell->frames, frames, t->table.depth))) {
        cell = mpp_table_lookup(&t->table, c->fid, interval, frames);
        t->last_cell = cell;
        t->last_generation = t->table.generation;
    }
    if (MPP_LIKELY(cell != NULL)) {
        uint64_t dt = c->t1 - c->t0;
        cell->stats.calls++;
        if (MPP_UNLIKELY(c->by_kind_used))
            add_split(&cell->stats, c, dt);
        else
            cell->stats.ticks[c->category] += dt;
        cell->stats.bytes_sent += (uint64_t)c->bytes_sent;
        cell->stats.bytes_recv += (uint64_t)c->bytes_recv;
    }
    t->in_call = 0;
}
