/* A map from strings to pointer-sized values (open addressing).  Used off
 * the hot path: at MPI_Finalize to merge SRC points and intervals. */
#ifndef MPP_STRMAP_H
#define MPP_STRMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    char **keys;
    uint64_t *hashes; /* of each key: probes compare these first, growth does not hash again */
    uintptr_t *values;
    size_t capacity;
    size_t count;
} mpp_strmap_t;

void mpp_strmap_init(mpp_strmap_t *m);
void mpp_strmap_free(mpp_strmap_t *m);
/* Return the slot of key, inserting it (a copy) with value `value` when absent;
 * *inserted tells which.  NULL when memory ran out. */
uintptr_t *mpp_strmap_put(mpp_strmap_t *m, const char *key, uintptr_t value, int *inserted);
/* The map's own copy of the key of a slot returned by put or get; the slot
 * is valid until the map grows, the string until the map is freed. */
const char *mpp_strmap_key_of(const mpp_strmap_t *m, const uintptr_t *slot);
/* Pointer to the value of key, or NULL. */
uintptr_t *mpp_strmap_get(const mpp_strmap_t *m, const char *key);

uint64_t mpp_hash_bytes(const void *data, size_t len);

#endif
