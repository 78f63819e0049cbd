/* Text for a signal handler (signal_text.h). */
#include "util/signal_text.h"

void mpp_line_put(mpp_line_t *l, const char *s)
{
    while (*s && l->n + 1 < sizeof l->text)
        l->text[l->n++] = *s++;
}

void mpp_line_put_int(mpp_line_t *l, long v)
{
    char digits[24];
    int n = 0;
    unsigned long u = v < 0 ? (unsigned long)-v : (unsigned long)v;
    do
        digits[n++] = (char)('0' + u % 10);
    while ((u /= 10) && n < 23);
    if (v < 0)
        mpp_line_put(l, "-");
    while (n) {
        char c[2] = {digits[--n], 0};
        mpp_line_put(l, c);
    }
}
