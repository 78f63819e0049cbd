#include <stdlib.h>

#include "intercept/waitstates/deferred.h"
#include "intercept/waitstates/owners.h"

typedef struct {
    uint64_t tag; /* 0: free */
    uint64_t batch;
    mpp_request_origin_t origin;
    int which;
    int64_t *term;
} owner_t;

static owner_t *ring;
static uint64_t next_tag = 1, batch;

int mpp_ws_owners_start(void)
{
    next_tag = 1;
    batch = 0;
    ring = calloc(MPP_WS_OWNERS, sizeof *ring);
    return ring ? 0 : -1;
}

void mpp_ws_owners_free(void)
{
    free(ring);
    ring = NULL;
}

void mpp_ws_owners_next_batch(void) { batch++; }

uint64_t mpp_ws_owner_tag(const mpp_request_origin_t *o, int which, int64_t *term)
{
    if (!ring)
        return MPP_COVER_NOBODY;
    uint64_t tag = next_tag++;
    owner_t *w = &ring[tag % MPP_WS_OWNERS];
    /* the frames of another thread's cell live for the run (origin.h) */
    *w = (owner_t){tag, batch, *o, which, term};
    return tag;
}

int mpp_ws_owner_known(void *ctx, uint64_t tag)
{
    (void)ctx;
    return ring && ring[tag % MPP_WS_OWNERS].tag == tag;
}

void mpp_ws_owner_debit(void *ctx, uint64_t tag, int64_t ticks)
{
    (void)ctx;
    owner_t *w = &ring[tag % MPP_WS_OWNERS];
    if (w->batch == batch)
        *w->term -= ticks; /* its batch is being credited: not yet in its cell */
    else
        mpp_ws_take_wait(&w->origin, w->which, ticks);
}
