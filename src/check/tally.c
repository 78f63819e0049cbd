#include <stdlib.h>
#include <string.h>

#include "check/tally.h"

static int compare_items(const void *pa, const void *pb)
{
    const mpp_tally_item_t *a = pa, *b = pb;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->fid != b->fid)
        return a->fid < b->fid ? -1 : 1;
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    for (int i = 0; i < a->depth; i++)
        if (a->frames[i] != b->frames[i])
            return a->frames[i] < b->frames[i] ? -1 : 1;
    return 0;
}

size_t mpp_tally(mpp_tally_item_t *items, size_t n, mpp_tally_group_t *groups)
{
    if (!n)
        return 0;
    qsort(items, n, sizeof *items, compare_items);
    size_t ngroups = 0;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || compare_items(&items[i - 1], &items[i]) != 0)
            groups[ngroups++] = (mpp_tally_group_t){.first = i, .items = 0, .count = 0};
        groups[ngroups - 1].items++;
        groups[ngroups - 1].count += items[i].weight;
    }
    return ngroups;
}
