/* The public API (mpiprof.h) and its Fortran entry points: interval and
 * replicated-code marks.  Marks are rare next to MPI calls; a lock keeps
 * them safe when several threads mark. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "intervals.h"
#include "lifecycle.h"
#include "mpiprof.h"
#include "mpp_common.h"
#include "warnings.h"

static pthread_mutex_t marks = PTHREAD_MUTEX_INITIALIZER;

/* Which thread marks: a number never reused (glibc reuses a pthread_t once
 * the thread that had it is joined). */
static uintptr_t thread_id(void)
{
    static atomic_uintptr_t next = 1;
    static __thread uintptr_t id;
    if (!id)
        id = atomic_fetch_add(&next, 1);
    return id;
}

/* Marks outside MPI_Init..MPI_Finalize do nothing but say so, once. */
static int usable(const char *what)
{
    static int warned_before, warned_after;
    switch (mpp_lifecycle_state()) {
    case MPP_LIFE_ACTIVE:
        return 1;
    case MPP_LIFE_BEFORE:
        if (!warned_before++)
            mpp_warn("%s called before MPI_Init: marks outside MPI_Init..MPI_Finalize are ignored", what);
        return 0;
    case MPP_LIFE_AFTER:
        if (!warned_after++ && !mpp_lifecycle_quiet())
            fprintf(stderr, "mpiprof: warning: %s called after MPI_Finalize: marks outside "
                            "MPI_Init..MPI_Finalize are ignored\n", what);
        return 0;
    default: /* disabled by MPIPROF_DISABLE */
        return 0;
    }
}

static void begin(const char *name, const mpp_mark_t *mark)
{
    /* Control characters separate the fields of interval keys: never in a name. */
    char clean[MPP_NAME_MAX];
    size_t n = 0;
    for (; name && name[n] && n + 1 < sizeof clean; n++)
        clean[n] = (unsigned char)name[n] < 0x20 ? '?' : name[n];
    clean[n] = '\0';
    pthread_mutex_lock(&marks);
    if (usable("mpiprof_interval_begin"))
        mpp_interval_begin(n ? clean : "(unnamed)", mark, mpp_now(), thread_id());
    pthread_mutex_unlock(&marks);
}

static void end(const char *name, const mpp_mark_t *mark)
{
    pthread_mutex_lock(&marks);
    if (usable("mpiprof_interval_end"))
        mpp_interval_end(name, mark, mpp_now(), thread_id());
    pthread_mutex_unlock(&marks);
}

static void seq(int starting, const mpp_mark_t *mark)
{
    pthread_mutex_lock(&marks);
    if (usable(starting ? "mpiprof_seq_begin" : "mpiprof_seq_end")) {
        if (starting)
            mpp_seq_begin(mark, mpp_now());
        else
            mpp_seq_end(mark, mpp_now());
    }
    pthread_mutex_unlock(&marks);
}

void mpp_api_begin(const char *name, uintptr_t site) { begin(name, &(mpp_mark_t){NULL, 0, site}); }
void mpp_api_end(const char *name, uintptr_t site) { end(name, &(mpp_mark_t){NULL, 0, site}); }

MPP_EXPORT void mpiprof_interval_begin_at(const char *name, const char *file, int line)
{
    begin(name, &(mpp_mark_t){file ? file : "?", line, (uintptr_t)__builtin_return_address(0)});
}

MPP_EXPORT void mpiprof_interval_end(void)
{
    end(NULL, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)});
}

MPP_EXPORT void mpiprof_seq_begin(void)
{
    seq(1, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)});
}

MPP_EXPORT void mpiprof_seq_end(void)
{
    seq(0, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)});
}

/* Fortran (gfortran's names: lower case, one trailing underscore; a
 * CHARACTER argument's length comes last, by value).  The begin position is
 * the call's return address, resolved to file:line at MPI_Finalize. */
MPP_EXPORT void mpiprof_interval_begin_(const char *name, size_t length)
{
    char copy[MPP_NAME_MAX];
    while (length > 0 && name[length - 1] == ' ')
        length--;
    if (length >= sizeof copy)
        length = sizeof copy - 1;
    memcpy(copy, name, length);
    copy[length] = '\0';
    begin(copy, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)});
}

MPP_EXPORT void mpiprof_interval_end_(void)
{
    end(NULL, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)});
}

MPP_EXPORT void mpiprof_seq_begin_(void)
{
    seq(1, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)});
}

MPP_EXPORT void mpiprof_seq_end_(void)
{
    seq(0, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)});
}
