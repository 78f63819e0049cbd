/* The wrapping stream of text_wrap.h, a glibc cookie stream: it holds one
 * line at a time (a line of 10^4 processes' values is long, so the buffer
 * grows), and writes it out broken into pieces when it ends. */
#include <stdlib.h>
#include <string.h>

#include "write/text_wrap.h"

#define INDENT "      "
#define MIN_PIECE 40 /* a break nearer the line's start is no use: cut at the width instead */

typedef struct {
    FILE *out;
    int width;
    char *line;
    size_t len, size;
} wrap_t;

/* One line (without its newline), in pieces of at most `width`, each
 * ending in "\\": after a blank where there is one far enough from the
 * piece's start (the blank stays in the piece), else at the width. */
static void emit(wrap_t *w, const char *s, size_t n)
{
    size_t room = (size_t)w->width, lead = 0; /* the first piece has no indentation */
    while (lead + n > room) {
        size_t limit = room - lead - 1, cut = limit;
        while (cut > MIN_PIECE && s[cut - 1] != ' ')
            cut--;
        if (s[cut - 1] != ' ')
            cut = limit;
        fwrite(s, 1, cut, w->out);
        fputs("\\\n" INDENT, w->out);
        lead = sizeof INDENT - 1;
        s += cut, n -= cut;
    }
    fwrite(s, 1, n, w->out);
}

static ssize_t wrap_write(void *cookie, const char *buf, size_t size)
{
    wrap_t *w = cookie;
    size_t done = 0;
    while (done < size) {
        const char *nl = memchr(buf + done, '\n', size - done);
        size_t n = nl ? (size_t)(nl - (buf + done)) : size - done;
        if (!w->len && nl) { /* a whole line: no copy */
            emit(w, buf + done, n);
            fputc('\n', w->out);
            done += n + 1;
            continue;
        }
        if (w->len + n > w->size) {
            size_t want = (w->len + n) * 2 + 256;
            char *grown = realloc(w->line, want);
            if (!grown)
                return -1;
            w->line = grown, w->size = want;
        }
        memcpy(w->line + w->len, buf + done, n);
        w->len += n;
        done += n;
        if (nl) {
            emit(w, w->line, w->len);
            fputc('\n', w->out);
            w->len = 0;
            done++;
        }
    }
    return (ssize_t)size;
}

static int wrap_close(void *cookie)
{
    wrap_t *w = cookie;
    if (w->len)
        emit(w, w->line, w->len);
    free(w->line);
    free(w);
    return 0;
}

FILE *mpp_wrap_open(FILE *out, int width)
{
    wrap_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->out = out, w->width = width < MIN_PIECE + 10 ? MIN_PIECE + 10 : width;
    cookie_io_functions_t io = {.read = NULL, .write = wrap_write, .seek = NULL, .close = wrap_close};
    FILE *f = fopencookie(w, "w", io);
    if (!f)
        free(w);
    return f;
}
