/* What the run left, counted by SRC point: the requests never completed
 * and the handles never freed that the correctness checks find at its end,
 * grouped by kind, function and call stack (by the stack's content: each
 * cell keeps a copy of its own, and one SRC point may have several cells),
 * so that each group is reported once, with its count in the details. */
#ifndef MPP_CHECK_TALLY_H
#define MPP_CHECK_TALLY_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    int kind;     /* the caller's: a finding kind, a handle kind */
    uint32_t fid; /* the creating call's function */
    int depth;
    const uintptr_t *frames; /* [depth] */
    uint64_t weight;         /* what it counts for (a request handle several share: each) */
} mpp_tally_item_t;

typedef struct {
    size_t first;   /* its first item, after the sort */
    size_t items;   /* items in it */
    uint64_t count; /* the sum of their weights */
} mpp_tally_group_t;

/* Sort items[n] so that those of one group follow each other and fill
 * groups (room for n) with the groups in that order; returns their number. */
size_t mpp_tally(mpp_tally_item_t *items, size_t n, mpp_tally_group_t *groups);

#endif
