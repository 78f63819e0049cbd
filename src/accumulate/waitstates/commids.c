#include <stdlib.h>

#include "accumulate/waitstates/commids.h"

/* splitmix64's finalizer: every input bit moves every output bit. */
static uint64_t mix(uint64_t h, uint64_t v)
{
    uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int rank_at(mpp_rankset_t g, int i) { return g.ranks ? g.ranks[i] : i; }

static int lowest(mpp_rankset_t g)
{
    int low = -1;
    for (int i = 0; i < g.n; i++)
        if (low < 0 || rank_at(g, i) < low)
            low = rank_at(g, i);
    return low;
}

/* Hash of one group, in its rank order (which every member sees alike);
 * -1 in *outside when a member is not in MPI_COMM_WORLD. */
static uint64_t hash_group(uint64_t h, mpp_rankset_t g, int *outside)
{
    h = mix(h, (uint64_t)(uint32_t)g.n);
    for (int i = 0; i < g.n; i++) {
        int r = rank_at(g, i);
        if (r < 0)
            *outside = 1;
        h = mix(h, (uint64_t)(uint32_t)r);
    }
    return h;
}

/* Both groups, the one with the lowest world rank first (the two groups of
 * an intercommunicator are disjoint, so both sides agree on the order). */
static uint64_t hash_groups(uint64_t h, mpp_rankset_t local, mpp_rankset_t remote, int *outside)
{
    if (remote.n > 0 && lowest(remote) < lowest(local)) {
        mpp_rankset_t t = local;
        local = remote;
        remote = t;
    }
    h = hash_group(h, local, outside);
    return hash_group(h, remote, outside);
}

static uint64_t finish(uint64_t h) { return h < MPP_COMM_ID_FIRST ? h + MPP_COMM_ID_FIRST : h; }

uint64_t mpp_commid_child(uint64_t parent, uint64_t seq, mpp_rankset_t local, mpp_rankset_t remote)
{
    int outside = 0;
    if (parent == MPP_COMM_ID_NONE)
        return MPP_COMM_ID_NONE;
    uint64_t h = mix(mix(0x636f6d6d, parent), seq);
    h = hash_groups(h, local, remote, &outside);
    return outside ? MPP_COMM_ID_NONE : finish(h);
}

uint64_t mpp_commid_group_key(uint64_t parent, int has_parent, int tag, const char *stringtag, size_t len,
                              mpp_rankset_t local, mpp_rankset_t remote)
{
    int outside = 0;
    if (has_parent && parent == MPP_COMM_ID_NONE)
        return 0;
    uint64_t h = mix(mix(0x67726f7570, has_parent ? parent : 0), (uint64_t)(int64_t)tag);
    if (stringtag) {
        while (len > 0 && stringtag[len - 1] == ' ')
            len--;
        h = mix(h, len);
        for (size_t i = 0; i < len; i++)
            h = mix(h, (unsigned char)stringtag[i]);
    } else {
        h = mix(h, UINT64_MAX);
    }
    h = hash_groups(h, local, remote, &outside);
    return outside ? 0 : (h ? h : 1);
}

uint64_t mpp_commid_from_key(uint64_t key, uint64_t seq)
{
    if (!key)
        return MPP_COMM_ID_NONE;
    return finish(mix(mix(0x6b6579, key), seq));
}

static int compare_ints(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

void mpp_commid_members(mpp_rankset_t local, mpp_rankset_t remote, int *out)
{
    for (int i = 0; i < local.n; i++)
        out[i] = rank_at(local, i);
    for (int i = 0; i < remote.n; i++)
        out[local.n + i] = rank_at(remote, i);
    qsort(out, (size_t)(local.n + remote.n), sizeof *out, compare_ints);
}
