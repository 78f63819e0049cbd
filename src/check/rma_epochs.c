#include <stdlib.h>
#include <string.h>

#include "check/rma_epochs.h"

static size_t words(uint32_t size) { return ((size_t)size + 63) / 64; }

static void release(mpp_epoch_win_t *w)
{
    free(w->locked); /* (pending shares its allocation) */
    free(w->requests);
    free(w->world);
    free(w->started); /* (accesses shares its allocation) */
}

void mpp_epochs_init(mpp_epochs_t *e)
{
    mpp_handlemap_init(&e->map, sizeof(mpp_epoch_win_t));
    e->serial = 0;
}

static void release_each(uint64_t key, void *value, void *arg)
{
    (void)key, (void)arg;
    release(value);
}

void mpp_epochs_free(mpp_epochs_t *e)
{
    mpp_handlemap_each(&e->map, release_each, NULL);
    mpp_handlemap_free(&e->map);
}

mpp_epoch_win_t *mpp_epochs_add(mpp_epochs_t *e, uint64_t key, uint32_t size)
{
    uint64_t *bits = calloc(2 * words(size) + 1, sizeof *bits);
    int inserted;
    mpp_epoch_win_t *w = bits ? mpp_handlemap_put(&e->map, key, &inserted) : NULL;
    if (!w) {
        free(bits);
        return NULL;
    }
    if (!inserted)
        release(w);
    *w = (mpp_epoch_win_t){.size = size, .serial = ++e->serial, .locked = bits, .pending = bits + words(size)};
    return w;
}

void mpp_epochs_remove(mpp_epochs_t *e, uint64_t key)
{
    mpp_epoch_win_t w;
    if (mpp_handlemap_remove(&e->map, key, &w))
        release(&w);
}

typedef struct {
    void (*fn)(mpp_epoch_win_t *w, void *arg);
    void *arg;
} each_t;

static void each_one(uint64_t key, void *value, void *arg)
{
    (void)key;
    each_t *x = arg;
    x->fn(value, x->arg);
}

void mpp_epochs_each(mpp_epochs_t *e, void (*fn)(mpp_epoch_win_t *w, void *arg), void *arg)
{
    each_t x = {fn, arg};
    mpp_handlemap_each(&e->map, each_one, &x);
}

int mpp_epoch_set_bit(uint64_t *bits, uint32_t size, int rank, int on)
{
    if (rank < 0 || (uint32_t)rank >= size)
        return 0;
    uint64_t mask = 1ull << (rank & 63), *word = &bits[rank >> 6];
    int was = (*word & mask) != 0;
    *word = on ? *word | mask : *word & ~mask;
    return was;
}

int mpp_epoch_left_open(const mpp_epoch_win_t *w)
{
    if (w->blind)
        return -1;
    for (int k = 0; k < MPP_NEPOCHS; k++)
        if (w->open[k])
            return k;
    return -1;
}
