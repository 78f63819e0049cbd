#include <stdlib.h>
#include <string.h>

#include "util/handlemap.h"

void mpp_handlemap_init(mpp_handlemap_t *m, size_t value_size)
{
    memset(m, 0, sizeof *m);
    m->value_size = value_size;
}

void mpp_handlemap_free(mpp_handlemap_t *m)
{
    free(m->keys);
    free(m->used);
    free(m->values);
    mpp_handlemap_init(m, m->value_size);
}

static size_t home(uint64_t key, size_t cap)
{
    uint64_t h = (key ^ (key >> 29)) * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 24) & (cap - 1);
}

static void *value_at(const mpp_handlemap_t *m, size_t i) { return m->values + i * m->value_size; }

static size_t find_index(const mpp_handlemap_t *m, uint64_t key)
{
    for (size_t i = home(key, m->capacity);; i = (i + 1) & (m->capacity - 1))
        if (!m->used[i] || m->keys[i] == key)
            return i;
}

static int grow(mpp_handlemap_t *m)
{
    mpp_handlemap_t bigger = *m;
    bigger.capacity = m->capacity ? m->capacity * 2 : 64;
    bigger.keys = malloc(bigger.capacity * sizeof *bigger.keys);
    bigger.used = calloc(bigger.capacity, 1);
    bigger.values = malloc(bigger.capacity * m->value_size);
    if (!bigger.keys || !bigger.used || !bigger.values) {
        free(bigger.keys);
        free(bigger.used);
        free(bigger.values);
        return -1;
    }
    for (size_t i = 0; i < m->capacity; i++) {
        if (!m->used[i])
            continue;
        size_t j = find_index(&bigger, m->keys[i]);
        bigger.used[j] = 1;
        bigger.keys[j] = m->keys[i];
        memcpy(value_at(&bigger, j), value_at(m, i), m->value_size);
    }
    free(m->keys);
    free(m->used);
    free(m->values);
    *m = bigger;
    return 0;
}

void *mpp_handlemap_get(const mpp_handlemap_t *m, uint64_t key)
{
    if (!m->capacity)
        return NULL;
    size_t i = find_index(m, key);
    return m->used[i] ? value_at(m, i) : NULL;
}

void *mpp_handlemap_put(mpp_handlemap_t *m, uint64_t key, int *inserted)
{
    *inserted = 0;
    if ((m->count + 1) * 2 > m->capacity && grow(m) != 0)
        return NULL;
    size_t i = find_index(m, key);
    if (!m->used[i]) {
        m->used[i] = 1;
        m->keys[i] = key;
        memset(value_at(m, i), 0, m->value_size);
        m->count++;
        *inserted = 1;
    }
    return value_at(m, i);
}

/* Backward-shift deletion of the used slot i. */
static void remove_at(mpp_handlemap_t *m, size_t i)
{
    size_t hole = i, mask = m->capacity - 1;
    for (size_t j = (i + 1) & mask; m->used[j]; j = (j + 1) & mask) {
        size_t h = home(m->keys[j], m->capacity);
        int movable = (hole <= j) ? (h <= hole || h > j) : (h <= hole && h > j);
        if (movable) {
            m->keys[hole] = m->keys[j];
            memcpy(value_at(m, hole), value_at(m, j), m->value_size);
            hole = j;
        }
    }
    m->used[hole] = 0;
    m->count--;
}

int mpp_handlemap_remove(mpp_handlemap_t *m, uint64_t key, void *out)
{
    if (!m->capacity)
        return 0;
    size_t i = find_index(m, key);
    if (!m->used[i])
        return 0;
    if (out)
        memcpy(out, value_at(m, i), m->value_size);
    remove_at(m, i);
    return 1;
}

void mpp_handlemap_remove_value(mpp_handlemap_t *m, void *value)
{
    remove_at(m, (size_t)((unsigned char *)value - m->values) / m->value_size);
}

void mpp_handlemap_each(mpp_handlemap_t *m, void (*fn)(uint64_t key, void *value, void *arg), void *arg)
{
    for (size_t i = 0; i < m->capacity; i++)
        if (m->used[i])
            fn(m->keys[i], value_at(m, i), arg);
}
