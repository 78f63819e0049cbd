#include <pthread.h>
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

/* The entry of (kind, site), a new one when there is room, else NULL. */
static mpp_finding_t *entry_of(int kind, uint32_t fid, const uintptr_t *frames, int depth, int *fresh)
{
    *fresh = 0;
    for (size_t i = nentries; i-- > 0;) /* newest first: a loop repeats the last one */
        if (same_site(&entries[i], kind, fid, frames, depth))
            return &entries[i];
    if (nentries == limit)
        return NULL;
    if (nentries == capacity) {
        size_t grown = capacity ? 2 * capacity : 16;
        if (grown > limit)
            grown = limit;
        mpp_finding_t *more = realloc(entries, grown * sizeof *more);
        if (!more)
            return NULL;
        entries = more;
        capacity = grown;
    }
    mpp_finding_t *f = &entries[nentries++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->fid = fid;
    f->depth = depth;
    memcpy(f->frames, frames, (size_t)depth * sizeof *frames);
    *fresh = 1;
    return f;
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
    pthread_mutex_lock(&lock);
    int fresh;
    mpp_finding_t *f = entry_of(kind, fid, frames, depth, &fresh);
    if (severity < 0)
        severity = mpp_finding_kinds[kind].severity;
    occurrences[severity == MPP_FINDING_ERROR]++;
    if (!f) {
        dropped++;
    } else {
        f->count++;
        if (severity > f->severity)
            f->severity = severity;
        if (fresh) {
            f->peer = peer;
            f->other_fid = other_fid;
            f->other_site = other_site;
            if (detail) {
                strncpy(f->detail, detail, sizeof f->detail - 1);
                f->detail[sizeof f->detail - 1] = '\0';
            }
        }
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
