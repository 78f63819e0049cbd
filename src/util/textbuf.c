/* A growing string (textbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/textbuf.h"

void mpp_textbuf_printf(mpp_textbuf_t *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || b->len + (size_t)n + 1 > b->cap) {
        size_t cap = (b->len + (size_t)(n < 0 ? 0 : n) + 1) * 2 + 32;
        char *s = realloc(b->s, cap);
        if (!s || n < 0) {
            b->failed = 1;
            if (s)
                b->s = s;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* The string (never NULL unless memory ran out), ownership to the caller. */
char *mpp_textbuf_done(mpp_textbuf_t *b)
{
    if (b->failed) {
        free(b->s);
        return NULL;
    }
    if (!b->s)
        return strdup("");
    return b->s;
}
