#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "requests.h"

/* Open addressing with backward-shift deletion (no tombstones), at most
 * half full.  Handle 0 marks an empty slot; MPI never hands out 0 as a
 * valid request in MPICH, and a 0 handle is simply not tracked. */
static mpp_request_info_t *slots;
static size_t capacity, count;
static int locking;
static atomic_flag lock = ATOMIC_FLAG_INIT;

static inline void take(void)
{
    if (locking)
        while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
            ;
}

static inline void give(void)
{
    if (locking)
        atomic_flag_clear_explicit(&lock, memory_order_release);
}

static inline size_t home(uint64_t h, size_t cap)
{
    return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

void mpp_requests_init(int thread_multiple)
{
    mpp_requests_reset();
    locking = thread_multiple;
}

void mpp_requests_reset(void)
{
    free(slots);
    slots = NULL;
    capacity = count = 0;
}

static int grow(void)
{
    size_t cap = capacity ? capacity * 2 : 1024;
    mpp_request_info_t *s = calloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < capacity; i++) {
        if (!slots[i].handle)
            continue;
        size_t j = home(slots[i].handle, cap);
        while (s[j].handle)
            j = (j + 1) & (cap - 1);
        s[j] = slots[i];
    }
    free(slots);
    slots = s;
    capacity = cap;
    return 0;
}

static size_t find_index(uint64_t handle)
{
    for (size_t i = home(handle, capacity);; i = (i + 1) & (capacity - 1)) {
        if (slots[i].handle == handle || !slots[i].handle)
            return i;
    }
}

void mpp_request_add(uint64_t handle, int kind, int persistent, int64_t bytes_sent, int64_t bytes_recv)
{
    if (!handle)
        return;
    take();
    if ((count + 1) * 2 > capacity && grow() != 0) {
        give();
        return;
    }
    size_t i = find_index(handle);
    if (!slots[i].handle)
        count++;
    slots[i] = (mpp_request_info_t){handle, (uint8_t)kind, (uint8_t)persistent, bytes_sent, bytes_recv};
    give();
}

int mpp_request_find(uint64_t handle, mpp_request_info_t *out)
{
    int found = 0;
    take();
    if (capacity && handle) {
        size_t i = find_index(handle);
        if (slots[i].handle) {
            *out = slots[i];
            found = 1;
        }
    }
    give();
    return found;
}

void mpp_request_remove(uint64_t handle)
{
    take();
    if (!capacity || !handle) {
        give();
        return;
    }
    size_t i = find_index(handle);
    if (slots[i].handle) {
        /* backward-shift: move later entries of the cluster into the hole */
        size_t hole = i;
        for (size_t j = (i + 1) & (capacity - 1); slots[j].handle; j = (j + 1) & (capacity - 1)) {
            size_t h = home(slots[j].handle, capacity);
            int movable = (hole <= j) ? (h <= hole || h > j) : (h <= hole && h > j);
            if (movable) {
                slots[hole] = slots[j];
                hole = j;
            }
        }
        slots[hole].handle = 0;
        count--;
    }
    give();
}

uint64_t mpp_requests_outstanding(void) { return count; }
