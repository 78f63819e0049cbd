#include <stdlib.h>
#include <string.h>

#include "util/strmap.h"

/* Eight bytes at a time: SRC keys are long strings (a function name and
 * whole call stacks), hashed several times at MPI_Finalize. */
uint64_t mpp_hash_bytes(const void *data, size_t len)
{
    const unsigned char *p = data;
    uint64_t h = 0x9E3779B97F4A7C15ull ^ (len * 0xff51afd7ed558ccdull);
    for (; len >= 8; p += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 29;
    }
    uint64_t tail = 0;
    memcpy(&tail, p, len);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 32;
    return h;
}

void mpp_strmap_init(mpp_strmap_t *m) { memset(m, 0, sizeof *m); }

void mpp_strmap_free(mpp_strmap_t *m)
{
    for (size_t i = 0; i < m->capacity; i++)
        free(m->keys[i]);
    free(m->keys);
    free(m->hashes);
    free(m->values);
    memset(m, 0, sizeof *m);
}

/* The slot of key (hash h): where it is, or the empty slot where it goes. */
static size_t find_slot(const mpp_strmap_t *m, const char *key, uint64_t h)
{
    size_t mask = m->capacity - 1, i = h & mask;
    while (m->keys[i] && (m->hashes[i] != h || strcmp(m->keys[i], key) != 0))
        i = (i + 1) & mask;
    return i;
}

static int grow(mpp_strmap_t *m)
{
    mpp_strmap_t bigger = {.capacity = m->capacity ? m->capacity * 2 : 64, .count = m->count};
    bigger.keys = calloc(bigger.capacity, sizeof *bigger.keys);
    bigger.hashes = malloc(bigger.capacity * sizeof *bigger.hashes);
    bigger.values = malloc(bigger.capacity * sizeof *bigger.values);
    if (!bigger.keys || !bigger.hashes || !bigger.values) {
        free(bigger.keys);
        free(bigger.hashes);
        free(bigger.values);
        return -1;
    }
    for (size_t i = 0; i < m->capacity; i++) {
        if (!m->keys[i])
            continue;
        size_t j = m->hashes[i] & (bigger.capacity - 1); /* keys are distinct: the first empty slot */
        while (bigger.keys[j])
            j = (j + 1) & (bigger.capacity - 1);
        bigger.keys[j] = m->keys[i];
        bigger.hashes[j] = m->hashes[i];
        bigger.values[j] = m->values[i];
    }
    free(m->keys);
    free(m->hashes);
    free(m->values);
    *m = bigger;
    return 0;
}

uintptr_t *mpp_strmap_put(mpp_strmap_t *m, const char *key, uintptr_t value, int *inserted)
{
    if ((m->count + 1) * 2 > m->capacity && grow(m) != 0)
        return NULL;
    size_t len = strlen(key);
    uint64_t h = mpp_hash_bytes(key, len);
    size_t i = find_slot(m, key, h);
    *inserted = !m->keys[i];
    if (*inserted) {
        m->keys[i] = malloc(len + 1);
        if (!m->keys[i])
            return NULL;
        memcpy(m->keys[i], key, len + 1);
        m->hashes[i] = h;
        m->values[i] = value;
        m->count++;
    }
    return &m->values[i];
}

const char *mpp_strmap_key_of(const mpp_strmap_t *m, const uintptr_t *slot) { return m->keys[slot - m->values]; }

uintptr_t *mpp_strmap_get(const mpp_strmap_t *m, const char *key)
{
    if (!m->capacity)
        return NULL;
    size_t i = find_slot(m, key, mpp_hash_bytes(key, strlen(key)));
    return m->keys[i] ? &m->values[i] : NULL;
}
