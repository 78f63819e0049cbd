/* A growing string for the texts the analysis builds (Machine, Placement
 * lines): appended to with printf formats; running out of memory is
 * remembered and the result is then NULL, so callers check once. */
#ifndef MPP_TEXTBUF_H
#define MPP_TEXTBUF_H

#include <stddef.h>

typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} mpp_textbuf_t;

void mpp_textbuf_printf(mpp_textbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The string (never NULL unless memory ran out), ownership to the caller. */
char *mpp_textbuf_done(mpp_textbuf_t *b);

#endif
