#ifndef MPP_WS_OWNERS_H
#define MPP_WS_OWNERS_H

#include <stdint.h>

#include "accumulate/waitstates/cover.h"
#include "records/origin.h"

/* The owners of this process's Potential sync and Time variation windows,
 * for the covers' rule (cover.h: an instant belongs to the window that
 * began first).  Batches of instances are reduced in the order their
 * reductions end, not in time order, so a window that began earlier may
 * come after one that began later and take over part of it: that one's
 * cell then gives back what it was credited.  An owner is a tag into a
 * ring of the last MPP_WS_OWNERS windows that were credited (origin and
 * kind of wait): older ones keep their credit (the ring bounds memory).
 * Every function runs under the wait-state hooks' lock. */
#define MPP_WS_OWNERS 2048

int mpp_ws_owners_start(void); /* -1: no memory */
void mpp_ws_owners_free(void);
/* A batch's terms are being credited: owners tagged from now on until the
 * next batch give back from `terms` (their not yet credited term) rather
 * than from their cell. */
void mpp_ws_owners_next_batch(void);
/* The tag of a window of the call at o, wait `which` (MPP_WAIT_*, +
 * MPP_WAIT_FINE_PART), whose term is at *term until its batch is credited. */
uint64_t mpp_ws_owner_tag(const mpp_request_origin_t *o, int which, int64_t *term);
/* The covers' debit and known functions (ctx unused). */
void mpp_ws_owner_debit(void *ctx, uint64_t tag, int64_t ticks);
int mpp_ws_owner_known(void *ctx, uint64_t tag);

#endif
