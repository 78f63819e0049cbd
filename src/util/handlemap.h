/* A map from MPI handles (communicators; requests with the serial that
 * tells apart the requests MPI gives the same handle: 64-bit keys) to
 * fixed-size values stored in the map: open addressing,
 * backward-shift deletion, at most half full.  It allocates only when it
 * grows, so once the number of live handles has peaked, adding and removing
 * costs no allocation. */
#ifndef MPP_HANDLEMAP_H
#define MPP_HANDLEMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *keys;
    unsigned char *used;
    unsigned char *values;
    size_t value_size, capacity, count;
} mpp_handlemap_t;

void mpp_handlemap_init(mpp_handlemap_t *m, size_t value_size);
void mpp_handlemap_free(mpp_handlemap_t *m);
/* The value of key, or NULL.  Valid until the next put or remove. */
void *mpp_handlemap_get(const mpp_handlemap_t *m, uint64_t key);
/* The value of key, inserted (zeroed) when absent (*inserted says so); NULL
 * when memory ran out. */
void *mpp_handlemap_put(mpp_handlemap_t *m, uint64_t key, int *inserted);
/* Remove key, copying its value to out (if not NULL); 1 if it was there. */
int mpp_handlemap_remove(mpp_handlemap_t *m, uint64_t key, void *out);
/* Remove the entry whose value get or put returned (no second search). */
void mpp_handlemap_remove_value(mpp_handlemap_t *m, void *value);
/* Every value, in no particular order (do not put or remove meanwhile). */
void mpp_handlemap_each(mpp_handlemap_t *m, void (*fn)(uint64_t key, void *value, void *arg), void *arg);

#endif
