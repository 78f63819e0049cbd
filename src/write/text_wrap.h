/* Lines of the text protocol within a width (protocol.md: at most 160
 * characters): a stream that passes its text on to another, breaking a
 * longer line after a blank (or, without one, at the width), the broken
 * line ending in "\" and going on in the next, indented by six blanks.  A
 * reader removes the "\", the newline and the six blanks: nothing is lost. */
#ifndef MPP_TEXT_WRAP_H
#define MPP_TEXT_WRAP_H

#include <stdio.h>

#define MPP_TEXT_WIDTH 160

/* A stream writing into `out` with lines of at most `width` characters
 * (fclose it to flush; `out` stays open), or NULL when none can be made. */
FILE *mpp_wrap_open(FILE *out, int width);

#endif
