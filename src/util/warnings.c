/* Warnings of this process.  Fixed storage: a warning never allocates, so it
 * can be raised from any state the profiler is in. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "warnings.h"

static char texts[MPP_MAX_WARNINGS][MPP_WARNING_LEN];
static size_t count;
static size_t dropped;
static size_t printed;
static int echo;

static void print_pending(void)
{
    for (; printed < count; printed++)
        fprintf(stderr, "mpiprof: warning: %s\n", texts[printed]);
}

void mpp_warnings_set_echo(int on)
{
    echo = on;
    if (echo)
        print_pending();
    else
        printed = count;
}

void mpp_warn(const char *fmt, ...)
{
    char text[MPP_WARNING_LEN];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < count; i++)
        if (strcmp(texts[i], text) == 0)
            return;
    if (count == MPP_MAX_WARNINGS) {
        /* the last slot becomes the summary: it counts the warning it displaced */
        dropped += dropped ? 1 : 2;
        snprintf(texts[count - 1], MPP_WARNING_LEN, "%zu further warnings were dropped", dropped);
        return;
    }
    memcpy(texts[count++], text, sizeof text);
    if (echo)
        print_pending();
}

size_t mpp_warnings_count(void) { return count; }

const char *mpp_warning_text(size_t i) { return i < count ? texts[i] : NULL; }

void mpp_warnings_reset(void)
{
    count = dropped = printed = 0;
}
