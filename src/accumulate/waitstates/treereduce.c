#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/treereduce.h"

int mpp_tree_place(mpp_tree_t *t, const int *members, int m, int self, uint64_t id)
{
    int lo = 0, hi = m - 1, me = -1;
    t->parent = -1;
    t->nchildren = 0;
    while (lo <= hi) { /* members are sorted */
        int mid = lo + (hi - lo) / 2;
        if (members[mid] == self) {
            me = mid;
            break;
        }
        if (members[mid] < self)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    if (me < 0)
        return -1;
    int root = (int)(id % (uint64_t)m);
    int rel = (me - root + m) % m;
    /* binomial: the parent of rel clears its lowest set bit; its children
     * add each bit below that one */
    if (rel > 0)
        t->parent = members[((rel & (rel - 1)) + root) % m];
    for (int64_t bit = 1; bit < m && !(rel & bit); bit <<= 1)
        if (rel + bit < m && t->nchildren < MPP_TREE_MAX_CHILDREN)
            t->children[t->nchildren++] = members[(rel + bit + root) % m];
    return 0;
}

static uint64_t key_of(uint64_t comm, uint64_t seq)
{
    uint64_t h = (comm ^ (seq * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

void mpp_reductions_init(mpp_reductions_t *t)
{
    mpp_handlemap_init(&t->index, sizeof(mpp_reduction_t *));
    t->count = 0;
}

static void free_chain(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    mpp_reduction_t *r = *(mpp_reduction_t **)value;
    while (r) {
        mpp_reduction_t *next = r->next;
        free(r->values);
        free(r);
        r = next;
    }
}

void mpp_reductions_free(mpp_reductions_t *t)
{
    mpp_handlemap_each(&t->index, free_chain, NULL);
    mpp_handlemap_free(&t->index);
    t->count = 0;
}

static mpp_reduction_t *find(const mpp_reductions_t *t, uint64_t comm, uint64_t seq)
{
    mpp_reduction_t **head = mpp_handlemap_get(&t->index, key_of(comm, seq));
    for (mpp_reduction_t *r = head ? *head : NULL; r; r = r->next)
        if (r->comm == comm && r->seq == seq)
            return r;
    return NULL;
}

static mpp_reduction_t *create(mpp_reductions_t *t, uint64_t comm, uint64_t seq, int op, int n, const int64_t *values)
{
    int inserted;
    mpp_reduction_t *r = calloc(1, sizeof *r);
    if (!r || !(r->values = malloc((size_t)(n > 0 ? n : 1) * sizeof *r->values))) {
        free(r);
        return NULL;
    }
    mpp_reduction_t **head = mpp_handlemap_put(&t->index, key_of(comm, seq), &inserted);
    if (!head) {
        free(r->values);
        free(r);
        return NULL;
    }
    r->comm = comm;
    r->seq = seq;
    r->n = n;
    r->op = op;
    memcpy(r->values, values, (size_t)n * sizeof *values);
    r->next = inserted ? NULL : *head;
    *head = r;
    t->count++;
    return r;
}

static void merge(mpp_reduction_t *r, int n, const int64_t *values)
{
    if (n != r->n) {
        r->mismatch = 1;
        return;
    }
    for (int i = 0; i < n; i++) {
        if (r->op == MPP_REDUCE_SUM)
            r->values[i] += values[i];
        else if (values[i] > r->values[i])
            r->values[i] = values[i];
    }
}

/* Own values and every child's part in: up, or the result at the root.
 * More parts than children (cannot happen with agreed ids) count as a
 * mismatch rather than a reduction that never ends. */
static mpp_reduction_next_t next_step(mpp_reduction_t *r)
{
    if (!r->own || r->parts < r->tree.nchildren)
        return MPP_REDUCTION_WAIT;
    if (r->parts > r->tree.nchildren)
        r->mismatch = 1;
    return r->tree.parent < 0 ? MPP_REDUCTION_RESULT : MPP_REDUCTION_SEND_UP;
}

mpp_reduction_next_t mpp_reduction_own(mpp_reductions_t *t, uint64_t comm, uint64_t seq, int op, int n,
                                       const int64_t *values, const mpp_tree_t *tree, void *user,
                                       mpp_reduction_t **out)
{
    mpp_reduction_t *r = find(t, comm, seq);
    *out = NULL;
    if (r && r->own)
        return MPP_REDUCTION_ERROR;
    if (r)
        merge(r, n, values);
    else if (!(r = create(t, comm, seq, op, n, values)))
        return MPP_REDUCTION_ERROR;
    r->own = 1;
    r->tree = *tree;
    r->user = user;
    *out = r;
    return next_step(r);
}

mpp_reduction_next_t mpp_reduction_part(mpp_reductions_t *t, uint64_t comm, uint64_t seq, int op, int n,
                                        const int64_t *values, int mismatch, mpp_reduction_t **out)
{
    mpp_reduction_t *r = find(t, comm, seq);
    *out = NULL;
    if (r && r->up)
        return MPP_REDUCTION_ERROR;
    if (r)
        merge(r, n, values);
    else if (!(r = create(t, comm, seq, op, n, values)))
        return MPP_REDUCTION_ERROR;
    r->parts++;
    r->mismatch |= mismatch;
    *out = r;
    return next_step(r);
}

mpp_reduction_next_t mpp_reduction_result(mpp_reductions_t *t, uint64_t comm, uint64_t seq, int n,
                                          const int64_t *values, int mismatch, mpp_reduction_t **out)
{
    mpp_reduction_t *r = find(t, comm, seq);
    *out = NULL;
    if (!r || !r->up)
        return MPP_REDUCTION_ERROR;
    if (n == r->n)
        memcpy(r->values, values, (size_t)n * sizeof *values);
    else
        r->mismatch = 1;
    r->mismatch |= mismatch;
    *out = r;
    return MPP_REDUCTION_RESULT;
}

void mpp_reduction_sent_up(mpp_reduction_t *r) { r->up = 1; }

void mpp_reduction_remove(mpp_reductions_t *t, mpp_reduction_t *r)
{
    uint64_t key = key_of(r->comm, r->seq);
    mpp_reduction_t **head = mpp_handlemap_get(&t->index, key);
    if (!head)
        return;
    for (mpp_reduction_t **link = head; *link; link = &(*link)->next) {
        if (*link != r)
            continue;
        *link = r->next;
        if (!*head)
            mpp_handlemap_remove(&t->index, key, NULL);
        free(r->values);
        free(r);
        t->count--;
        return;
    }
}

struct each_arg {
    void (*fn)(mpp_reduction_t *, void *);
    void *arg;
};

static void each_chain(uint64_t key, void *value, void *arg)
{
    struct each_arg *a = arg;
    (void)key;
    for (mpp_reduction_t *r = *(mpp_reduction_t **)value; r; r = r->next)
        a->fn(r, a->arg);
}

void mpp_reductions_each(mpp_reductions_t *t, void (*fn)(mpp_reduction_t *, void *), void *arg)
{
    struct each_arg a = {fn, arg};
    mpp_handlemap_each(&t->index, each_chain, &a);
}
