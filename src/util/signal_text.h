/* Text for a signal handler: a line built without stdio or allocation
 * (only async-signal-safe code), as a fatal signal's "last words" need. */
#ifndef MPP_UTIL_SIGNAL_TEXT_H
#define MPP_UTIL_SIGNAL_TEXT_H

#include <limits.h>
#include <stddef.h>

typedef struct {
    char text[512 + PATH_MAX];
    size_t n;
} mpp_line_t;

/* Appends s, or as much of it as fits (one byte is kept for a '\0'). */
void mpp_line_put(mpp_line_t *l, const char *s);
/* Appends v in decimal. */
void mpp_line_put_int(mpp_line_t *l, long v);

#endif
