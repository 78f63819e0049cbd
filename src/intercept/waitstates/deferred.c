#include <stdlib.h>

#include "intercept/waitstates/deferred.h"

typedef struct {
    mpp_request_origin_t origin;
    int which;
    int64_t ticks;
} deferred_wait_t;

size_t mpp_ws_ndeferred;
static deferred_wait_t *deferred;
static size_t deferred_capacity;

static void add_to_cell(mpp_thread_t *owner, const mpp_request_origin_t *o, int which, int64_t ticks)
{
    mpp_cell_t *cell = mpp_origin_cell(owner, o);
    if (cell && which >= MPP_WAIT_FINE_PART)
        cell->stats.fine[which - MPP_WAIT_FINE_PART] += (uint64_t)ticks;
    else if (cell)
        cell->stats.wait[which] += (uint64_t)ticks;
}

/* ticks < 0: taken back (cells' sums are unsigned: what was credited
 * before comes off modulo 2^64, exactly) */
static void add_wait(const mpp_request_origin_t *o, int which, int64_t ticks)
{
    mpp_thread_t *self = mpp_tls_thread;
    if (ticks == 0 || !o->thread)
        return;
    if (o->thread == self) {
        add_to_cell(self, o, which, ticks);
        return;
    }
    if (mpp_ws_ndeferred == deferred_capacity) {
        size_t cap = deferred_capacity ? 2 * deferred_capacity : 64;
        deferred_wait_t *grown = realloc(deferred, cap * sizeof *grown);
        if (!grown)
            return;
        deferred = grown;
        deferred_capacity = cap;
    }
    deferred[mpp_ws_ndeferred++] = (deferred_wait_t){*o, which, ticks};
}

void mpp_ws_add_wait(const mpp_request_origin_t *o, int which, int64_t ticks)
{
    if (ticks > 0)
        add_wait(o, which, ticks);
}

void mpp_ws_take_wait(const mpp_request_origin_t *o, int which, int64_t ticks)
{
    if (ticks > 0)
        add_wait(o, which, -ticks);
}

void mpp_ws_apply_deferred(mpp_thread_t *self)
{
    size_t kept = 0;
    for (size_t i = 0; i < mpp_ws_ndeferred; i++) {
        deferred_wait_t *d = &deferred[i];
        if (self && d->origin.thread != self)
            deferred[kept++] = *d;
        else
            add_to_cell(d->origin.thread, &d->origin, d->which, d->ticks);
    }
    mpp_ws_ndeferred = kept;
}

void mpp_ws_deferred_free(void)
{
    free(deferred);
    deferred = NULL;
    deferred_capacity = mpp_ws_ndeferred = 0;
}
