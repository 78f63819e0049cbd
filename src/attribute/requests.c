#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "accumulate/waitstates/cover.h"
#include "attribute/requests.h"
#include "util/mt_lock.h"

/* Open addressing with backward-shift deletion (no tombstones), at most
 * half full.  Handle 0 marks an empty slot; MPI never hands out 0 as a
 * valid request in MPICH, and a 0 handle is simply not tracked. */
typedef struct {
    mpp_request_info_t info;
    uint8_t active;    /* started, not yet seen by a completing call */
    uint64_t returned; /* ticks: the starting call's return */
    uint64_t transfer; /* ticks: the model's transfer time */
    mpp_request_origin_t origin;
} slot_t;

static slot_t *slots;
/* With the correctness checks (mpp_requests_count_shared): what they keep of
 * each slot's request, beside it (slots stay as small as without them). */
static mpp_request_check_t *checks;
static double tick_rate;
static int keep_frames;  /* another thread may complete a request: keep the starting call's frames */
static int count_shared; /* mpp_requests_count_shared */
static size_t capacity, count;
static uint32_t last_serial;
/* The process's time covered by Overlap so far: requests in flight at once
 * share it (each instant counts once, cover.h). */
static mpp_cover_t overlap_cover;
/* MPI_THREAD_MULTIPLE or the hang watchdog only (mt_lock.h). */
static mpp_mt_lock_t lock = MPP_MT_LOCK_INITIALIZER;

/* Serials fit beside the handle in a key (MPP_REQUEST_SERIAL_MASK); 0 is none. */
static uint32_t next_serial(void)
{
    last_serial = (last_serial + 1) & MPP_REQUEST_SERIAL_MASK;
    if (!last_serial)
        last_serial = 1;
    return last_serial;
}

static inline void take(void) { mpp_mt_take(&lock); }
static inline void give(void) { mpp_mt_give(&lock); }

static inline size_t home(uint64_t h, size_t cap) { return (size_t)((h * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1); }

void mpp_requests_init(int lock_needed)
{
    mpp_requests_reset();
    lock.on = lock_needed;
}

void mpp_requests_set_tick_rate(double ticks_per_second) { tick_rate = ticks_per_second; }

void mpp_requests_keep_frames(int on) { keep_frames = on; }

void mpp_requests_count_shared(int on)
{
    take();
    count_shared = on;
    if (on && capacity && !checks)
        checks = calloc(capacity, sizeof *checks); /* (out of memory: not counted, nothing kept) */
    give();
}

static uint64_t to_ticks(double seconds)
{
    double t = seconds * tick_rate;
    return t > 0 && t < 1.8e19 ? (uint64_t)t : 0;
}

void mpp_requests_reset(void)
{
    free(slots);
    free(checks);
    slots = NULL;
    checks = NULL;
    capacity = count = 0;
    mpp_cover_reset(&overlap_cover);
}

static __attribute__((noinline)) int grow(void) /* (rare: kept out of the adding path) */
{
    size_t cap = capacity ? capacity * 2 : 1024;
    slot_t *s = calloc(cap, sizeof *s);
    mpp_request_check_t *c = count_shared ? calloc(cap, sizeof *c) : NULL;
    if (!s || (count_shared && !c)) {
        free(s);
        free(c);
        return -1;
    }
    for (size_t i = 0; i < capacity; i++) {
        if (!slots[i].info.handle)
            continue;
        size_t j = home(slots[i].info.handle, cap);
        while (s[j].info.handle)
            j = (j + 1) & (cap - 1);
        s[j] = slots[i];
        if (c && checks)
            c[j] = checks[i];
    }
    free(slots);
    free(checks);
    slots = s;
    checks = c;
    capacity = cap;
    return 0;
}

static size_t find_index(uint64_t handle)
{
    for (size_t i = home(handle, capacity);; i = (i + 1) & (capacity - 1)) {
        if (slots[i].info.handle == handle || !slots[i].info.handle)
            return i;
    }
}

void mpp_request_add(uint64_t handle, int kind, int persistent, int64_t bytes_sent, int64_t bytes_recv)
{
    mpp_request_add_started(handle, kind, persistent, bytes_sent, bytes_recv, NULL, 0.0, 0, NULL);
}

uint32_t mpp_request_add_started(uint64_t handle, int kind, int persistent, int64_t bytes_sent, int64_t bytes_recv,
                                 const mpp_call_price_t *price, double model, uint64_t returned,
                                 const mpp_request_origin_t *origin)
{
    if (!handle)
        return 0;
    take();
    if ((count + 1) * 2 > capacity && grow() != 0) {
        give();
        return 0;
    }
    size_t i = find_index(handle);
    if (!slots[i].info.handle)
        count++;
    slot_t *s = &slots[i];
    s->info = (mpp_request_info_t){.handle = handle,
                                   .kind = (uint8_t)kind,
                                   .persistent = (uint8_t)persistent,
                                   .serial = next_serial(),
                                   .bytes_sent = bytes_sent,
                                   .bytes_recv = bytes_recv,
                                   .model = model};
    if (price)
        s->info.price = *price;
    s->transfer = to_ticks(model);
    s->active = !persistent && origin && origin->thread && s->transfer;
    s->returned = returned;
    if (s->active)
        mpp_origin_copy_frames(&s->origin, origin, keep_frames);
    uint32_t serial = s->info.serial;
    give();
    return serial;
}

void mpp_request_started(uint64_t handle, uint64_t returned, const mpp_request_origin_t *origin)
{
    take();
    if (capacity && handle && origin && origin->thread) {
        slot_t *s = &slots[find_index(handle)];
        if (s->info.handle && s->info.persistent) {
            s->transfer = to_ticks(s->info.model);
            s->active = s->transfer != 0;
            s->returned = returned;
            if (s->active)
                mpp_origin_copy_frames(&s->origin, origin, keep_frames);
        }
    }
    give();
}

int mpp_request_find(uint64_t handle, mpp_request_info_t *out)
{
    int found = 0;
    take();
    if (capacity && handle) {
        size_t i = find_index(handle);
        if (slots[i].info.handle) {
            *out = slots[i].info;
            found = 1;
        }
    }
    give();
    return found;
}

/* Remove the slot at i (backward-shift: later entries of its cluster move
 * into the hole). */
static void remove_at(size_t i)
{
    size_t hole = i;
    for (size_t j = (i + 1) & (capacity - 1); slots[j].info.handle; j = (j + 1) & (capacity - 1)) {
        size_t h = home(slots[j].info.handle, capacity);
        int movable = (hole <= j) ? (h <= hole || h > j) : (h <= hole && h > j);
        if (movable) {
            slots[hole] = slots[j];
            if (checks)
                checks[hole] = checks[j];
            hole = j;
        }
    }
    slots[hole].info.handle = 0;
    slots[hole].active = 0;
    if (checks)
        checks[hole] = (mpp_request_check_t){0};
    count--;
}

static void remove_locked(uint64_t handle, int any, uint32_t serial)
{
    if (!capacity || !handle)
        return;
    size_t i = find_index(handle);
    if (checks && checks[i].more && slots[i].info.handle && slots[i].info.serial == serial)
        checks[i].more--; /* one of the requests sharing the handle */
    else if (slots[i].info.handle && (any || slots[i].info.serial == serial))
        remove_at(i);
}

void mpp_request_remove(uint64_t handle)
{
    take();
    remove_locked(handle, 1, 0);
    give();
}

void mpp_request_remove_instance(uint64_t handle, uint32_t serial)
{
    take();
    remove_locked(handle, 0, serial);
    give();
}

int mpp_request_complete(uint64_t handle, uint32_t serial, uint64_t entry, int gone, const void *self,
                         mpp_request_origin_t *origin, uint64_t *overlap, int *kind)
{
    int done = 0;
    if (kind)
        *kind = -1;
    take();
    if (capacity && handle) {
        size_t i = find_index(handle);
        slot_t *s = &slots[i];
        if (s->info.handle && s->info.serial == serial && (gone || s->info.persistent)) {
            if (kind)
                *kind = s->info.kind;
            if (s->active) {
                uint64_t elapsed = entry > s->returned ? entry - s->returned : 0;
                uint64_t window = elapsed < s->transfer ? elapsed : s->transfer;
                /* what other requests' Overlap has not covered of it */
                *overlap = (uint64_t)mpp_cover_add_fast(&overlap_cover, (int64_t)s->returned,
                                                        (int64_t)(s->returned + window));
                /* the frames only for another thread's cell */
                mpp_origin_copy_frames(origin, &s->origin, s->origin.thread != self);
                s->active = 0;
                done = 1;
            }
            if (gone && checks && checks[i].more)
                checks[i].more--; /* one of the requests sharing the handle */
            else if (gone)
                remove_at(i);
        }
    }
    give();
    return done;
}

uint64_t mpp_requests_outstanding(void) { return count; }

/* What the checks keep of the request (handle, serial), NULL when it is
 * not tracked or nothing is kept (under the lock). */
static mpp_request_check_t *instance(uint64_t handle, uint32_t serial)
{
    if (!capacity || !handle || !checks)
        return NULL;
    size_t i = find_index(handle);
    return slots[i].info.handle && slots[i].info.serial == serial ? &checks[i] : NULL;
}

void mpp_request_set_site(uint64_t handle, uint32_t serial, uint32_t fid, const uintptr_t *frames, int depth)
{
    take();
    mpp_request_check_t *c = instance(handle, serial);
    if (c) {
        /* still the one before, if it lives: the handle is shared (unless
         * another thread may have had it completed meanwhile) */
        uint32_t more = c->checked && !lock.on ? c->more + 1 : 0;
        *c = (mpp_request_check_t){
            .persistent = slots[c - checks].info.persistent, .checked = 1, .site_fid = fid, .more = more};
        if (frames && depth > 0 && depth <= UINT8_MAX) {
            c->site = frames;
            c->site_depth = (uint8_t)depth;
        }
    }
    give();
}

void mpp_request_set_pending(uint64_t handle, uint32_t serial, int pending)
{
    take();
    mpp_request_check_t *c = instance(handle, serial);
    if (c && c->persistent) {
        c->pending = (uint8_t)(pending != 0);
        c->done = 0;
    }
    give();
}

void mpp_request_set_done(uint64_t handle, uint32_t serial)
{
    take();
    mpp_request_check_t *c = instance(handle, serial);
    if (c) {
        c->done = 1;
        c->pending = 0;
    }
    give();
}

int mpp_request_check_find(uint64_t handle, uint32_t serial, mpp_request_check_t *out)
{
    take();
    mpp_request_check_t *c = instance(handle, serial);
    if (c)
        *out = *c;
    give();
    return c != NULL;
}

size_t mpp_requests_check_list(mpp_request_check_t *out, size_t max)
{
    size_t n = 0;
    take();
    for (size_t i = 0; checks && i < capacity && n < max; i++)
        if (slots[i].info.handle)
            out[n++] = checks[i];
    give();
    return n;
}

void mpp_request_describe(uint64_t handle, uint32_t fid, int32_t peer_world, int32_t tag)
{
    take();
    if (capacity && handle) {
        slot_t *s = &slots[find_index(handle)];
        if (s->info.handle) {
            s->info.described = 1;
            s->info.fid = fid;
            s->info.peer_world = peer_world;
            s->info.tag = tag;
        }
    }
    give();
}

size_t mpp_requests_list(mpp_request_info_t *out, size_t max)
{
    size_t n = 0;
    take();
    for (size_t i = 0; i < capacity && n < max; i++)
        if (slots[i].info.handle)
            out[n++] = slots[i].info;
    size_t all = count;
    give();
    return all;
}
