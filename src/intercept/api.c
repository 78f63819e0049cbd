/* The public API (mpiprof.h) and its Fortran entry points: interval and
 * replicated-code marks, also made with MPI_Pcontrol, which pauses and
 * resumes collection too.  Marks are rare next to MPI calls; a lock keeps
 * them safe when several threads mark. */
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "accumulate/intervals.h"
#include "attribute/thread_state.h"
#include "context/clock.h"
#include "intercept/check/run.h"
#include "intercept/lifecycle.h"
#include "intercept/trace_hooks.h"
#include "mpiprof.h"
#include "util/common.h"
#include "util/warnings.h"

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
            fprintf(stderr,
                    "mpiprof: warning: %s called after MPI_Finalize: marks outside "
                    "MPI_Init..MPI_Finalize are ignored\n",
                    what);
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
    if (usable("mpiprof_interval_begin")) {
        uint64_t now = mpp_now();
        mpp_interval_begin(n ? clean : "(unnamed)", mark, now, thread_id());
        if (MPP_UNLIKELY(mpp_trace_on))
            mpp_trace_mark(MPP_TRACE_INTERVAL_BEGIN, n ? clean : "(unnamed)", mark, now);
    }
    pthread_mutex_unlock(&marks);
}

static void end(const char *name, const mpp_mark_t *mark)
{
    pthread_mutex_lock(&marks);
    if (usable("mpiprof_interval_end")) {
        uint64_t now = mpp_now();
        mpp_interval_end(name, mark, now, thread_id());
        if (MPP_UNLIKELY(mpp_trace_on))
            mpp_trace_mark(MPP_TRACE_INTERVAL_END, name, mark, now);
    }
    pthread_mutex_unlock(&marks);
}

static void seq(int starting, const mpp_mark_t *mark)
{
    pthread_mutex_lock(&marks);
    if (usable(starting ? "mpiprof_seq_begin" : "mpiprof_seq_end")) {
        uint64_t now = mpp_now();
        if (starting)
            mpp_seq_begin(mark, now);
        else
            mpp_seq_end(mark, now);
        if (MPP_UNLIKELY(mpp_trace_on))
            mpp_trace_mark(starting ? MPP_TRACE_SEQ_BEGIN : MPP_TRACE_SEQ_END, NULL, mark, now);
    }
    pthread_mutex_unlock(&marks);
}

MPP_EXPORT void mpiprof_interval_begin_at(const char *name, const char *file, int line)
{
    begin(name, &(mpp_mark_t){file ? file : "?", line, (uintptr_t)__builtin_return_address(0)});
}

MPP_EXPORT void mpiprof_interval_end(void)
{
    end(NULL, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)});
}

MPP_EXPORT void mpiprof_seq_begin(void) { seq(1, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)}); }

MPP_EXPORT void mpiprof_seq_end(void) { seq(0, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)}); }

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

MPP_EXPORT void mpiprof_seq_begin_(void) { seq(1, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)}); }

MPP_EXPORT void mpiprof_seq_end_(void) { seq(0, &(mpp_mark_t){NULL, 0, (uintptr_t)__builtin_return_address(0)}); }

static int pcontrol_name(const char *p, const void *caller, char *out, size_t size);

/* Whether p lies in mpiprof, the MPI library or the C library, and not in
 * the code that called MPI_Pcontrol (`caller`, an MPI library linked into
 * the program): where a register left over from their code points (a
 * format string, a table), never the program's name for an interval. */
static int in_runtime(const void *p, const void *caller)
{
    Dl_info at, lib;
    if (!dladdr(p, &at) || !at.dli_fbase)
        return 0; /* the heap, a stack: the program's */
    if (dladdr(caller, &lib) && lib.dli_fbase == at.dli_fbase)
        return 0;
    const void *const runtime[] = {(const void *)pcontrol_name, (const void *)PMPI_Pcontrol, (const void *)write};
    for (size_t i = 0; i < MPP_ARRAY_LEN(runtime); i++)
        if (dladdr(runtime[i], &lib) && lib.dli_fbase == at.dli_fbase)
            return 1;
    return 0;
}

/* A name passed to MPI_Pcontrol(1, name) or (-1, name), when there is one:
 * MPI_Pcontrol(1) without a name is legal MPI, so the argument is garbage
 * then: an address in the libraries of the run is not taken for one, and
 * the rest is read only through the kernel (a write to a pipe fails with
 * EFAULT on memory this process may not read: unmapped, a guard page,
 * AddressSanitizer's shadow), and taken only as a short printable string. */
static int pcontrol_name(const char *p, const void *caller, char *out, size_t size)
{
    static int fds[2] = {-1, -1};
    if ((uintptr_t)p < 65536 || in_runtime(p, caller)) /* nothing is ever mapped low (vm.mmap_min_addr) */
        return 0;
    if (fds[0] < 0 && pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
        return 0;
    long page = sysconf(_SC_PAGESIZE);
    size_t n = 0;
    while (n < size) { /* page by page: the string may end before an unreadable page */
        size_t chunk = (size_t)page - (((uintptr_t)p + n) & (size_t)(page - 1));
        if (chunk > size - n)
            chunk = size - n;
        /* the system call itself: a sanitizer's write() would check the
         * memory first, and fault on it */
        ssize_t put = syscall(SYS_write, fds[1], p + n, chunk);
        if (put <= 0)
            break;
        ssize_t got = read(fds[0], out + n, (size_t)put);
        if (got != put)
            break;
        n += (size_t)got;
        if (memchr(out + n - (size_t)got, '\0', (size_t)got))
            break;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)out[i];
        if (c == '\0')
            return i > 0;
        if (c < 0x20 || c >= 0x7f)
            return 0;
    }
    return 0;
}

/* MPI_Pcontrol, IPM's convention: (1, "name") begins an interval, (-1,
 * "name") ends it; level 0 pauses collection, any other level resumes it. */
MPP_EXPORT int MPI_Pcontrol(const int level, ...)
{
    int active = mpp_lifecycle_state() == MPP_LIFE_ACTIVE;
    if (active && (level == 1 || level == -1)) {
        va_list ap;
        va_start(ap, level);
        const char *name = va_arg(ap, const char *);
        va_end(ap);
        char copy[MPP_NAME_MAX];
        if (pcontrol_name(name, __builtin_return_address(0), copy, sizeof copy)) {
            mpp_mark_t mark = {NULL, 0, (uintptr_t)__builtin_return_address(0)};
            if (level == 1)
                begin(copy, &mark);
            else
                end(copy, &mark);
            return PMPI_Pcontrol(level);
        }
    }
    if (active && (mpp_lifecycle_waitstates() || mpp_check_level))
        mpp_collect_set(1, level == 0); /* paused: every call still counts for the wait-state bookkeeping and
                                           the correctness checks (a request completed, a handle freed) */
    else if (active)
        mpp_collect_set(level != 0, 0);
    return PMPI_Pcontrol(level);
}

MPP_EXPORT intptr_t mpi_pcontrol_f08_(const int *level) { return MPI_Pcontrol(*level); }

#if defined(OMPI_MAJOR_VERSION)
/* Open MPI's mpif.h and use mpi binding calls PMPI_Pcontrol itself. */
MPP_EXPORT void mpi_pcontrol_(const MPI_Fint *level) { MPI_Pcontrol(*level); }
#endif
