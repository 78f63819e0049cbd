/* Warnings of this process.  Fixed storage: a warning never allocates, so it
 * can be raised from any state the profiler is in.  Any thread may raise one
 * (a full SRC table, a misplaced mark): a lock guards the list; warnings
 * are rare, so it costs nothing on the hot path. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/warnings.h"

static char texts[MPP_MAX_WARNINGS][MPP_WARNING_LEN];
static size_t count;
static size_t dropped;
static size_t printed;
static int echo;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned char silent[MPP_MAX_WARNINGS]; /* protocol only, never on stderr */

static void print_pending(void)
{
    for (; printed < count; printed++)
        if (!silent[printed])
            fprintf(stderr, "mpiprof: warning: %s\n", texts[printed]);
}

void mpp_warnings_set_echo(int on)
{
    pthread_mutex_lock(&lock);
    echo = on;
    if (echo)
        print_pending();
    else
        printed = count;
    pthread_mutex_unlock(&lock);
}

static void record(const char *fmt, va_list ap, int quiet)
{
    char text[MPP_WARNING_LEN];
    vsnprintf(text, sizeof text, fmt, ap);
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count; i++)
        if (strcmp(texts[i], text) == 0)
            goto out;
    if (count == MPP_MAX_WARNINGS) {
        /* the last slot becomes the summary: it counts the warning it displaced */
        dropped += dropped ? 1 : 2;
        snprintf(texts[count - 1], MPP_WARNING_LEN, "%zu further warnings were dropped", dropped);
        goto out;
    }
    silent[count] = (unsigned char)quiet;
    memcpy(texts[count++], text, sizeof text);
    if (echo)
        print_pending();
out:
    pthread_mutex_unlock(&lock);
}

void mpp_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(fmt, ap, 0);
    va_end(ap);
}

void mpp_warn_protocol_only(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    record(fmt, ap, 1);
    va_end(ap);
}

size_t mpp_warnings_count(void)
{
    pthread_mutex_lock(&lock);
    size_t n = count;
    pthread_mutex_unlock(&lock);
    return n;
}

/* The texts of the slots below the count never change, except the last
 * one when warnings are dropped; read at MPI_Finalize, when no other thread
 * makes MPI calls. */
const char *mpp_warning_text(size_t i)
{
    pthread_mutex_lock(&lock);
    const char *t = i < count ? texts[i] : NULL;
    pthread_mutex_unlock(&lock);
    return t;
}

void mpp_warnings_reset(void)
{
    pthread_mutex_lock(&lock);
    count = dropped = printed = 0;
    pthread_mutex_unlock(&lock);
}
