/* Ping-pong partners that share a CPU (apart.h). */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>

#include "reduce/apart.h"

enum { MAX_TELLS = 8 }; /* the scheduler may bring the two together later: ask again, a few times */

int mpp_apart_cpu(void)
{
    int cpu = sched_getcpu();
    return cpu >= 0 ? cpu : -1;
}

/* The calling thread's affinity in a set large enough for the kernel's
 * (sysconf may count fewer CPUs than the kernel's masks hold). */
static cpu_set_t *current_affinity(size_t *size, int *ncpus)
{
    long conf = sysconf(_SC_NPROCESSORS_CONF);
    int n = conf > 0 ? (int)conf : 64;
    for (int attempt = 0; attempt < 8; attempt++, n *= 2) {
        cpu_set_t *set = CPU_ALLOC(n);
        if (!set)
            return NULL;
        *size = CPU_ALLOC_SIZE(n);
        CPU_ZERO_S(*size, set);
        if (sched_getaffinity(0, *size, set) == 0) {
            *ncpus = n;
            return set;
        }
        int err = errno;
        CPU_FREE(set);
        if (err != EINVAL)
            return NULL;
    }
    return NULL;
}

/* Pin to `cpu`, keeping the affinity from before the first pin. */
static int pin(mpp_apart_t *a, int cpu)
{
    size_t size;
    int ncpus;
    cpu_set_t *allowed = current_affinity(&size, &ncpus);
    if (!allowed)
        return -1;
    cpu_set_t *one = CPU_ALLOC(ncpus);
    int rc = -1;
    if (one && cpu >= 0 && cpu < ncpus) {
        CPU_ZERO_S(size, one);
        CPU_SET_S((size_t)cpu, size, one);
        rc = sched_setaffinity(0, size, one) == 0 ? 0 : -1;
    }
    if (one)
        CPU_FREE(one);
    if (rc == 0 && !a->saved) {
        a->saved = allowed;
        a->size = size;
    } else {
        CPU_FREE(allowed);
    }
    return rc;
}

int mpp_apart_stay(mpp_apart_t *a)
{
    int cpu = mpp_apart_cpu();
    return cpu < 0 ? -1 : pin(a, cpu);
}

int mpp_apart_leave(mpp_apart_t *a, int avoid, int spread)
{
    size_t size;
    int ncpus;
    /* the affinity to choose in: the one from before any pin */
    cpu_set_t *allowed = a->saved ? NULL : current_affinity(&size, &ncpus);
    const cpu_set_t *set = a->saved ? a->saved : allowed;
    if (a->saved) {
        size = a->size;
        ncpus = (int)(8 * size);
    }
    if (!set)
        return -1;
    int candidates = 0;
    for (int c = 0; c < ncpus; c++)
        candidates += c != avoid && CPU_ISSET_S((size_t)c, size, set);
    int target = -1;
    if (candidates > 0) {
        int k = (spread < 0 ? -spread : spread) % candidates;
        for (int c = 0; c < ncpus && target < 0; c++)
            if (c != avoid && CPU_ISSET_S((size_t)c, size, set) && k-- == 0)
                target = c;
    }
    if (allowed)
        CPU_FREE(allowed);
    return target < 0 ? -1 : pin(a, target);
}

int mpp_apart_answer(mpp_apart_t *a, int avoid, int spread)
{
    if (mpp_apart_cpu() != avoid)
        return mpp_apart_stay(a), MPP_APART_STAYED;
    return mpp_apart_leave(a, avoid, spread) == 0 ? MPP_APART_LEFT : MPP_APART_CANNOT;
}

void mpp_apart_restore(mpp_apart_t *a)
{
    if (!a->saved)
        return;
    sched_setaffinity(0, a->size, a->saved);
    CPU_FREE(a->saved);
    a->saved = NULL;
}

int mpp_apart_request(mpp_apart_decider_t *d)
{
    d->asked = d->want;
    d->want = 0;
    if (d->asked & MPP_APART_LEAVE) {
        d->moves++;
        mpp_apart_stay(&d->pin); /* so that the scheduler does not follow the other side */
    }
    return d->asked;
}

int mpp_apart_after(mpp_apart_decider_t *d, int slow, int peer_cpu, int outcome, int spread)
{
    int asked = d->asked;
    d->asked = 0;
    if (asked & MPP_APART_LEAVE) {
        if (outcome == MPP_APART_CANNOT && mpp_apart_leave(&d->pin, peer_cpu, spread) != 0)
            d->stuck = 1; /* the other side's affinity allows only this CPU, and so does ours */
    } else if (asked & MPP_APART_TELL) {
        int mine = mpp_apart_cpu();
        if (mine >= 0 && mine == peer_cpu)
            d->want = MPP_APART_LEAVE;
    } else if (slow && !d->moves && !d->stuck && d->tells < MAX_TELLS) {
        d->tells++;
        d->want = MPP_APART_TELL; /* a time slice: are we on one CPU? */
    }
    return asked != 0;
}
