#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "check/findings.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static mpp_finding_t *entries;
static size_t nentries, capacity, limit;
static uint64_t dropped, occurrences[2];

void mpp_findings_init(size_t max)
{
    pthread_mutex_lock(&lock);
    free(entries);
    entries = NULL;
    nentries = capacity = 0;
    limit = max;
    dropped = occurrences[0] = occurrences[1] = 0;
    pthread_mutex_unlock(&lock);
}

static int same_site(const mpp_finding_t *f, int kind, uint32_t fid, const uintptr_t *frames, int depth)
{
    return f->kind == kind && f->fid == fid && f->depth == depth &&
           !memcmp(f->frames, frames, (size_t)depth * sizeof *frames);
}

/* The entry of (kind, site); NULL when new: then `slot` is where it goes
 * (NULL: no room), not yet counted. */
static mpp_finding_t *entry_of(int kind, uint32_t fid, const uintptr_t *frames, int depth, mpp_finding_t **slot)
{
    *slot = NULL;
    for (size_t i = nentries; i-- > 0;) /* newest first: a loop repeats the last one */
        if (same_site(&entries[i], kind, fid, frames, depth))
            return &entries[i];
    if (nentries == limit)
        return NULL;
    if (nentries == capacity) {
        /* a copy published before the old array is freed (not realloc):
         * a child forked in between reads one or the other, whole */
        size_t grown = capacity ? 2 * capacity : 16;
        if (grown > limit)
            grown = limit;
        mpp_finding_t *more = malloc(grown * sizeof *more), *old = entries;
        if (!more)
            return NULL;
        if (nentries)
            memcpy(more, old, nentries * sizeof *more);
        entries = more;
        capacity = grown;
        atomic_signal_fence(memory_order_seq_cst);
        free(old);
    }
    *slot = &entries[nentries];
    return NULL;
}

void mpp_findings_add(int kind, uint32_t fid, const uintptr_t *frames, int depth, int32_t peer, uint32_t other_fid,
                      uint64_t other_site, const char *detail)
{
    mpp_findings_add_as(kind, -1, fid, frames, depth, peer, other_fid, other_site, detail);
}

void mpp_findings_add_as(int kind, int severity, uint32_t fid, const uintptr_t *frames, int depth, int32_t peer,
                         uint32_t other_fid, uint64_t other_site, const char *detail)
{
    static const uintptr_t none[MPP_MAX_DEPTH];
    if (kind < 0 || kind >= MPP_NFIND)
        return;
    if (!frames || depth < 0)
        frames = none, depth = 0;
    if (depth > MPP_MAX_DEPTH)
        depth = MPP_MAX_DEPTH;
    if (severity < 0)
        severity = mpp_finding_kinds[kind].severity;
    pthread_mutex_lock(&lock);
    mpp_finding_t *slot, *f = entry_of(kind, fid, frames, depth, &slot);
    occurrences[severity == MPP_FINDING_ERROR]++;
    if (f) {
        f->count++;
        if (severity > f->severity)
            f->severity = severity;
    } else if (slot) {
        *slot = (mpp_finding_t){.kind = kind,
                                .severity = severity,
                                .fid = fid,
                                .depth = depth,
                                .count = 1,
                                .peer = peer,
                                .other_fid = other_fid,
                                .other_site = other_site};
        memcpy(slot->frames, frames, (size_t)depth * sizeof *frames);
        if (detail) {
            strncpy(slot->detail, detail, sizeof slot->detail - 1);
            slot->detail[sizeof slot->detail - 1] = '\0';
        }
        /* counted once written: a child forked meanwhile (mpp_findings_forked) sees it whole or not at all */
        atomic_thread_fence(memory_order_release);
        nentries++;
    } else {
        dropped++;
    }
    pthread_mutex_unlock(&lock);
}

mpp_finding_t *mpp_findings_take(size_t *n, uint64_t *lost)
{
    pthread_mutex_lock(&lock);
    mpp_finding_t *copy = nentries ? malloc(nentries * sizeof *copy) : NULL;
    *n = copy ? nentries : 0;
    if (copy)
        memcpy(copy, entries, nentries * sizeof *copy);
    *lost = dropped + (nentries && !copy ? nentries : 0);
    pthread_mutex_unlock(&lock);
    return copy;
}

void mpp_findings_counts(uint64_t *errors, uint64_t *warnings)
{
    pthread_mutex_lock(&lock);
    *errors = occurrences[1];
    *warnings = occurrences[0];
    pthread_mutex_unlock(&lock);
}

void mpp_findings_free(void) { mpp_findings_init(0); }

void mpp_findings_forked(void)
{
    if (pthread_mutex_trylock(&lock) == 0) {
        pthread_mutex_unlock(&lock);
        return;
    }
    /* held at the fork by a thread the child does not have, or by the code
     * a signal interrupted: never released here.  The store as it stands
     * is whole (entries are counted once written, the array replaced
     * before it is freed): at worst one occurrence is missing. */
    pthread_mutex_init(&lock, NULL);
}
