#include <stdlib.h>
#include <string.h>

#include "util/srckey.h"

/* Length of the field at s: up to one of the stops or the end. */
static size_t field_length(const char *s, char stop1, char stop2) { return strcspn(s, (char[]){stop1, stop2, '\0'}); }

/* The field at *p copied to *store (NUL-terminated), both advanced. */
static char *take(const char **p, char **store, char stop1, char stop2)
{
    size_t n = field_length(*p, stop1, stop2);
    char *out = *store;
    memcpy(out, *p, n);
    out[n] = '\0';
    *store += n + 1;
    *p += n;
    return out;
}

/* The frames and their strings are one allocation (an SRC point's key is
 * parsed for every SRC point of every protocol: 10^4 and more), freed by
 * mpp_srckey_free_frames; `function` is allocated alone. */
int mpp_srckey_parse(const char *key, char **function, mpp_frame_t **frames)
{
    int n = 0;
    for (const char *q = strchr(key, MPP_RS); q; q = strchr(q + 1, MPP_RS))
        n++;
    size_t flen = field_length(key, MPP_RS, MPP_RS);
    *function = strndup(key, flen);
    const char *p = key + flen;
    /* each frame's four fields, a NUL after each, within the rest of the key */
    size_t strings = strlen(p) + 4 * (size_t)n + 1;
    size_t array = (n ? (size_t)n : 1) * sizeof **frames;
    *frames = calloc(1, array + strings);
    if (!*frames)
        return 0;
    char *store = (char *)*frames + array;
    for (int i = 0; i < n && *p == MPP_RS; i++) {
        mpp_frame_t *f = &(*frames)[i];
        p++;
        f->path = take(&p, &store, MPP_US, MPP_RS);
        if (*p == MPP_US)
            p++;
        f->line = atoi(take(&p, &store, MPP_US, MPP_RS));
        if (*p == MPP_US)
            p++;
        f->function = take(&p, &store, MPP_US, MPP_RS);
        if (*p == MPP_US)
            p++;
        f->text = take(&p, &store, MPP_RS, MPP_RS);
        const char *base = strrchr(f->path, '/');
        f->file = base ? (char *)base + 1 : f->path;
    }
    return n;
}

void mpp_srckey_free_frames(mpp_frame_t *frames, int n)
{
    (void)n; /* one allocation with its strings */
    free(frames);
}
